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

# kind -> its version now; what each version changed is in docs/json.md ("Earlier versions")
FORMATS: dict[str, int] = {
    "rulesets": 1,  # bolivia rulesets --json (a bare list before)
    "ruleset": 1,  # bolivia show --json
    "sources": 1,  # bolivia sources --json (a bare list before)
    "simulation": 1,  # bolivia simulate --json
    "match": 1,  # bolivia match --json
    "ladder": 1,  # bolivia ladder --json
    "sweep": 1,  # bolivia sweep: sweep.json
    "sweep-store": 1,  # bolivia sweep --status --json
    "comparison": 6,  # bolivia compare: comparison.json (6: version is the format's)
    "conformance": 2,  # bolivia conform --json (2: named; it was "format": 1)
    "profile": 1,  # bolivia profile --json
    "replay": 2,  # a replay's hand line (2: named; "format": 1 is still read)
}


def name(kind: str) -> str:
    """The ``format`` value of a kind of document."""
    if kind not in FORMATS:  # an error here, not a document of no kind
        raise KeyError(kind)
    return PREFIX + kind


def version(kind: str) -> int:
    """The current ``version`` of a kind of document."""
    return FORMATS[kind]


def head(kind: str) -> dict[str, Any]:
    """The two keys a document of this kind opens with."""
    return {"format": name(kind), "version": version(kind)}
