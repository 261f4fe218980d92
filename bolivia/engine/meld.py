"""A meld as a value: its kind, its cards and what they are made of, and how it reads.

Nothing here decides a rule: :mod:`bolivia.engine.melds` finds which melds are legal, and
:mod:`bolivia.engine.canastas` which are canastas.

May import: :mod:`bolivia.cards` and :mod:`bolivia.values`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final, Literal

from bolivia.cards import Card
from bolivia.values import reduce_fields

__all__ = ["Kind", "Meld", "describe", "plural"]

#: a meld's kind: of one rank, a run of one suit, wild cards alone, or black threes
Kind = Literal["group", "sequence", "wild", "threes"]


@dataclass(frozen=True, slots=True)
class Meld:
    """A legal meld: its kind, its cards and what they are made of."""

    kind: Kind
    cards: tuple[Card, ...]
    naturals: int
    wilds: int
    rank: str | None = None  # a group's rank ("3" for black threes)
    suit: str | None = None  # a sequence's suit

    def __init__(
        self,
        kind: Kind,
        cards: tuple[Card, ...],
        naturals: int,
        wilds: int,
        rank: str | None = None,
        suit: str | None = None,
    ) -> None:
        # written out, not generated: mypyc compiles this one (the dataclass's is interpreted,
        # and melds are built in the inner loops); the fields set as a frozen dataclass's are
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "cards", cards)
        object.__setattr__(self, "naturals", naturals)
        object.__setattr__(self, "wilds", wilds)
        object.__setattr__(self, "rank", rank)
        object.__setattr__(self, "suit", suit)

    @property
    def size(self) -> int:
        return len(self.cards)

    def __reduce__(self) -> tuple[type[Any], tuple[Any, ...]]:
        return reduce_fields(self)


def plural(n: int, word: str) -> str:
    """``1 wild card``, ``2 wild cards``: a count and its noun."""
    return f"{n} {word}" + ("" if n == 1 else "s")


_SUIT_NAMES: Final = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}


def describe(meld: Meld) -> str:
    """A meld in words: ``a 4-card group of 8s with 1 wild card``.

    The size comes first, so that a group's rank is never read as its size.
    """
    wild = f" with {plural(meld.wilds, 'wild card')}" if meld.wilds else ""
    if meld.kind == "group":
        return f"a {meld.size}-card group of {meld.rank}s{wild}"
    if meld.kind == "sequence":
        suit = _SUIT_NAMES.get(meld.suit or "", meld.suit or "")
        return f"a {meld.size}-card sequence in {suit}{wild}"
    if meld.kind == "wild":
        return f"a meld of {plural(meld.size, 'wild card')}"
    return f"a meld of {plural(meld.naturals, 'black three')}{wild}"
