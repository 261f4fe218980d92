"""The JSON documents the toolkit writes, each named and versioned in one place.

Every JSON document a command prints or writes opens with two keys: ``format``, the
document's kind (``"bolivia-match"``), and ``version``, an integer. Within a version, fields
are only ever added; a field removed, renamed or given a new meaning makes a new version. A
program reading the output checks both before anything else. Each format has a JSON Schema in
``docs/schemas/<kind>.json`` (the kind is the format without ``bolivia-``), listed in
``docs/json.md``; the tests check every command's output against it.

>>> head("match")
{'format': 'bolivia-match', 'version': 1}
>>> head("chess")
Traceback (most recent call last):
...
KeyError: 'chess'
"""

from __future__ import annotations

from typing import Any

__all__ = ["FORMATS", "PREFIX", "head", "name", "version"]

PREFIX = "bolivia-"

# kind -> (version, the command that writes it, what changed at the last version)
FORMATS: dict[str, tuple[int, str, str]] = {
    "rulesets": (1, "bolivia rulesets --json", "first version (was a bare list)"),
    "ruleset": (1, "bolivia show --json", "first version"),
    "sources": (1, "bolivia sources --json", "first version (was a bare list)"),
    "simulation": (1, "bolivia simulate --json", "first version"),
    "match": (1, "bolivia match --json", "first version"),
    "ladder": (1, "bolivia ladder --json", "first version"),
    "sweep": (1, "bolivia sweep (sweep.json)", "first version"),
    "comparison": (
        6,
        "bolivia compare (comparison.json)",
        "the package's version moved from version to tool; version is the format's",
    ),
    "conformance": (
        2,
        "bolivia conform --json",
        'format is "bolivia-conformance" and version 2 (was "format": 1)',
    ),
    "profile": (1, "bolivia profile --json", "first version"),
    "replay": (
        2,
        "bolivia simulate --replays DIR (a hand's first line)",
        'format is "bolivia-replay" and version 2 (was "format": 1, still read)',
    ),
}


def name(kind: str) -> str:
    """The ``format`` value of a kind of document."""
    FORMATS[kind]
    return PREFIX + kind


def version(kind: str) -> int:
    """The current ``version`` of a kind of document."""
    return FORMATS[kind][0]


def head(kind: str) -> dict[str, Any]:
    """The two keys a document of this kind opens with."""
    return {"format": name(kind), "version": version(kind)}
