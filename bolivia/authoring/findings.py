"""A finding of the linter: how serious, the keys involved, and what is wrong, in one line."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = ["FEW", "LEVELS", "Finding", "Level"]

Level = Literal["error", "warning", "note"]  # a note: worth knowing, nothing wrong
LEVELS: tuple[Level, ...] = ("error", "warning", "note")
FEW = 4  # keys a note names in its line before it counts the rest


@dataclass(frozen=True)
class Finding:
    level: Level
    keys: tuple[str, ...]
    message: str

    def __str__(self) -> str:
        shown = _few(self.keys) if self.level == "note" else ", ".join(self.keys)
        return f"{self.level}: {shown + ': ' if shown else ''}{self.message}"


def _few(keys: tuple[str, ...]) -> str:
    """Keys for one short line: the first few, then how many more."""
    shown = list(keys[:FEW])
    while len(shown) > 1 and len(", ".join(shown)) > 95:  # long key paths: fewer of them
        shown.pop()
    more = len(keys) - len(shown)
    return ", ".join(shown) + (f" and {more} more" if more > 0 else "")
