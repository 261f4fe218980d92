"""The rulebook's details layer: the rules as the ruleset's data, for rules committees and
engine developers.

A player reads the rules in words. A committee wants what stands behind them: each rule's key
path, its value as the data holds it, and where the value comes from (the claims of the sources
that state it, or why it is assumed, or the house's reason). :class:`Details` gathers these,
section by section, as the rulebook names the rules. The HTML folds them into
``<details class="for-committees">`` after each section; the Markdown writes them in an appendix.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from bolivia.language import N_
from bolivia.rules.ruleset import Ruleset
from bolivia.rules.sources import Sources

__all__ = ["APPENDIX", "Details", "Key", "committee_notes", "people_notes"]

APPENDIX = N_("Appendix: for rules committees and engine developers")
SUMMARY = N_("For rules committees and engine developers: ")

# a file path in a ruleset's notes (``rulesets/house/``, ``club.yaml``): details, not words
_PATH = re.compile(
    r"(?<![\w/])(?:[\w.-]+/)+(?:[\w.-]+\.(?:ya?ml|json|md|html))?(?![\w/])|\b[\w-]+\.ya?ml\b"
)


@dataclass(frozen=True)
class Key:
    """One rule as data: its key path, its value, where the value comes from, and (when the
    other rules make it moot) why it does not apply."""

    path: str
    value: str
    source: str
    moot: str = ""


@dataclass
class Details:
    """The key paths a rulebook names, by section in the order it names them."""

    ruleset: Ruleset
    sources: Sources
    sections: dict[str, list[str]] = field(default_factory=lambda: {"": []})
    moot: dict[str, str] = field(default_factory=dict)
    current: str = ""

    def start(self, title: str) -> None:
        """The book starts a section: the keys it names from now are that section's."""
        self.current = title
        self.sections.setdefault(title, [])

    def named(self, path: str) -> None:
        """The book names a rule: kept in the first section that names it."""
        if not any(path in paths for paths in self.sections.values()):
            self.sections[self.current].append(path)

    def does_not_apply(self, why: str, *paths: str) -> None:
        """Rules the book leaves out of its words, as the others make them moot."""
        for path in paths:
            self.named(path)
            self.moot[path] = why

    def keys(self, title: str) -> list[Key]:
        """The rules a section names, as data."""
        return [self.key(path) for path in self.sections.get(title, [])]

    def key(self, path: str) -> Key:
        prov = self.ruleset.provenance[path]
        source = prov.summary()
        documents = self.sources.documents(prov.claims)
        if documents:
            source += f"; documents: {', '.join(documents)}"
        return Key(path, data(self.ruleset.value(path)), source, self.moot.get(path, ""))


def data(value: Any) -> str:
    """A value as the ruleset's data holds it, on one line (JSON, as ``bolivia show`` does)."""
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def people_notes(notes: str, sources: Sources) -> str:
    """A ruleset's notes for players: file paths left out (with the brackets or the sentence
    around them), claim ids named as their documents.

    >>> from bolivia.rules.sources import shipped_sources
    >>> people_notes("200 is followed (see rulesets/house/). And/or da:pack.", shipped_sources())
    '200 is followed. And/or the Danish rules article.'
    >>> people_notes("Ours. Copy club.yaml to start.", shipped_sources())
    'Ours.'
    """
    text = re.sub(r"\s*\([^()]*\)", lambda m: "" if _PATH.search(m.group()) else m.group(), notes)
    sentences = re.split(r"(?<=[.!?])\s+", text)
    text = " ".join(s for s in sentences if not _PATH.search(s))
    return sources.in_words(text)


def committee_notes(notes: str, sources: Sources) -> str:
    """The notes as written, when the players' version left something out; else ""."""
    return notes if people_notes(notes, sources) != notes else ""
