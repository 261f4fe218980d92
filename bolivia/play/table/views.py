"""Views of a hand's cards: a hand kept as counts seen as its cards, and a ruleset's seating
for a number of players.

May import: :mod:`bolivia.cards`, :mod:`bolivia.errors` and :mod:`bolivia.rules`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import overload

from bolivia.cards import Card, cards_of
from bolivia.errors import BadRequest
from bolivia.rules.model import Seating
from bolivia.rules.ruleset import Ruleset

__all__ = ["HandView", "seating_of"]


def seating_of(ruleset: Ruleset, players: int) -> Seating:
    """How the ruleset seats this many players; :class:`BadRequest` if it does not."""
    seating = ruleset.rules.players.seats.get(players)
    if seating is None:
        raise BadRequest(
            f"{ruleset.id} is played by "
            f"{', '.join(map(str, sorted(ruleset.rules.players.seats)))} players, "
            f"not {players}"
        )
    return seating


class HandView(Sequence[Card]):
    """A hand kept as counts, seen as the sequence of its cards.

    Its length and how many of a card it holds are read off the counts. The list itself is
    built only if it is read.
    """

    __slots__ = ("_cards", "_counts", "_size")

    def __init__(self, counts: Sequence[int], size: int) -> None:
        self._counts = counts
        self._size = size
        self._cards: list[Card] | None = None

    def _list(self) -> list[Card]:
        if self._cards is None:
            self._cards = cards_of(self._counts)
        return self._cards

    def __len__(self) -> int:
        return self._size

    @overload
    def __getitem__(self, i: int) -> Card: ...

    @overload
    def __getitem__(self, i: slice) -> list[Card]: ...

    def __getitem__(self, i: int | slice) -> Card | list[Card]:
        return self._list()[i]

    def __iter__(self) -> Iterator[Card]:
        return iter(self._list())

    def count(self, value: object) -> int:
        return self._counts[value.index] if isinstance(value, Card) else 0
