"""Cards, the card notation, and packs of several decks.

The notation is the oracle protocol's: ``<rank><suit>``, in any case. Ranks are ``2``-``10``
and ``J Q K A`` (``T`` for 10). Suits are ``C D H S``, or the symbols ``♣ ♦ ♥ ♠``. ``JK`` is
a joker.

Cards are interned immutable values. There are 53 of them: 52 and the joker. A pack holds
several copies of each, which are equal.

>>> Card.parse("th")
10H
>>> Card.parse("a♠") is Card.parse("AS")
True
>>> Pack(decks=3, jokers=6).size
162
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, ClassVar, Final

from bolivia.errors import CardError

__all__ = [
    "JOKER",
    "NOTATION",
    "POSITION_RANK",
    "RANKS",
    "SUITS",
    "SUIT_INDEX",
    "Card",
    "Pack",
    "below",
    "cards_of",
    "normalize_rank",
    "parse_cards",
    "shuffle",
]

RANKS: Final[tuple[str, ...]] = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUITS: Final[tuple[str, ...]] = ("C", "D", "H", "S")
SUIT_INDEX: Final = {suit: i for i, suit in enumerate(SUITS)}  # a card's index & 3
#: the rank index (0 for a 2 ... 12 for an ace) at each position a sequence card may stand at:
#: position 0 is the ace below the two, 1 the two, ..., 12 the king, 13 the ace above the king
#: (rank index ``r`` stands at position ``r + 1``, the ace also at 0)
POSITION_RANK: Final[tuple[int, ...]] = (12, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12)
_SUIT_ALIASES: Final = {
    "♣": "C",
    "♦": "D",
    "♥": "H",
    "♠": "S",
    "♧": "C",
    "♢": "D",
    "♡": "H",
    "♤": "S",
}
NOTATION: Final = (
    "ranks are 2-10 (T for 10), J, Q, K, A; suits C, D, H, S (or ♣ ♦ ♥ ♠); "
    "JK is a joker; case does not matter"
)
JOKER_INDEX: Final = 52


def normalize_rank(text: str) -> str:
    """The canonical spelling of a rank: ``"t"`` -> ``"10"``, ``"q"`` -> ``"Q"``.

    >>> normalize_rank("t")
    '10'
    """
    upper = text.strip().upper()
    if upper == "T":
        return "10"
    if upper in RANKS:
        return upper
    raise ValueError(f"{text!r} is not a rank: ranks are 2-10 (T for 10), J, Q, K, A")


class Card:
    """One card. ``Card.parse("10H")``; ``repr`` gives the notation back."""

    __slots__ = ("index", "rank", "suit")
    _by_index: ClassVar[list[Card]] = []
    _by_text: ClassVar[dict[str, Card]] = {}

    index: int
    rank: str
    suit: str

    def __new__(cls, rank: str, suit: str = "", index: int = -1) -> Card:
        """The interned card of ``rank`` and ``suit``; ``index`` only builds the 53 at import."""
        if index < 0:
            if rank.upper() == "JK" and not suit:
                return cls._by_index[JOKER_INDEX]
            try:
                return cls._by_text[normalize_rank(rank) + _suit(suit)]
            except (ValueError, KeyError):
                raise CardError(f"{rank}{suit}") from None
        # object.__new__ inside __new__ itself, and only there: the one way both CPython and
        # mypyc (which refuses it elsewhere for a compiled class) make a bare instance
        card = object.__new__(cls)
        object.__setattr__(card, "index", index)
        object.__setattr__(card, "rank", rank)
        object.__setattr__(card, "suit", suit)
        return card

    @classmethod
    def parse(cls, text: object) -> Card:
        """Read one card in the notation; a :class:`CardError` names a bad one."""
        if isinstance(text, Card):
            return text
        if not isinstance(text, str):
            raise CardError(text)
        key = text.strip().upper()
        found = cls._by_text.get(key)
        if found is None:
            found = cls._by_text.get(_canonical(key))
        if found is None:
            raise CardError(text)
        return found

    @classmethod
    def from_index(cls, index: int) -> Card:
        return cls._by_index[index]

    @classmethod
    def all(cls) -> tuple[Card, ...]:
        """The 53 distinct cards, 2C first, the joker last."""
        return tuple(cls._by_index)

    @property
    def is_joker(self) -> bool:
        return self.index == JOKER_INDEX

    @property
    def is_red_three(self) -> bool:
        return self.rank == "3" and self.suit in ("D", "H")

    @property
    def is_black_three(self) -> bool:
        return self.rank == "3" and self.suit in ("C", "S")

    @property
    def rank_index(self) -> int:
        """0 for a 2 ... 12 for an ace; 13 for a joker."""
        return self.index // 4

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("cards are immutable")

    def __repr__(self) -> str:
        return "JK" if self.index == JOKER_INDEX else self.rank + self.suit

    def __str__(self) -> str:
        return self.__repr__()

    def __reduce__(self) -> tuple[Any, tuple[str, str]]:
        return (Card, (self.rank, self.suit))

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    def __hash__(self) -> int:
        return self.index

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Card) and other.index == self.index


def _suit(text: str) -> str:
    text = text.strip()
    upper = _SUIT_ALIASES.get(text, text.upper())
    if upper not in SUITS:
        raise ValueError(text)
    return upper


def _canonical(key: str) -> str:
    """Spelling variants to the canonical key: ``TH`` -> ``10H``, ``♥10`` stays unknown."""
    if not key:
        return key
    suit = _SUIT_ALIASES.get(key[-1], key[-1])
    rank = key[:-1]
    if rank == "T":
        rank = "10"
    return rank + suit


def _build() -> None:
    for r, rank in enumerate(RANKS):
        for s, suit in enumerate(SUITS):
            card = Card(rank, suit, r * 4 + s)
            Card._by_index.append(card)
            Card._by_text[rank + suit] = card
    joker = Card("JK", "", JOKER_INDEX)
    Card._by_index.append(joker)
    Card._by_text["JK"] = joker


_build()
JOKER: Final = Card._by_index[JOKER_INDEX]


def parse_cards(items: Iterable[object]) -> tuple[Card, ...]:
    """Read a list of cards; the first bad one raises a :class:`CardError` naming it."""
    return tuple(Card.parse(item) for item in items)


class Pack:
    """``decks`` standard decks and ``jokers`` jokers: ``decks`` copies of each of the 52."""

    __slots__ = ("decks", "jokers")

    def __init__(self, decks: int, jokers: int) -> None:
        if decks < 1 or jokers < 0:
            raise ValueError("a pack needs at least one deck and no negative jokers")
        self.decks = decks
        self.jokers = jokers

    @property
    def size(self) -> int:
        return 52 * self.decks + self.jokers

    def copies(self, card: Card) -> int:
        """How many of this card the pack holds."""
        return self.jokers if card.is_joker else self.decks

    def cards(self) -> list[Card]:
        """Every card of the pack, in index order (shuffle a copy to deal)."""
        out = [card for card in Card._by_index[:JOKER_INDEX] for _ in range(self.decks)]
        out.extend([JOKER] * self.jokers)
        return out

    def __iter__(self) -> Iterator[Card]:
        return iter(self.cards())

    def __len__(self) -> int:
        return self.size

    def counter(self) -> Counter[Card]:
        return Counter(self.cards())

    def excess(self, cards: Iterable[Card]) -> list[tuple[Card, int]]:
        """Cards named more often than the pack holds them, with the count named."""
        counts = Counter(cards)
        return sorted(
            ((card, n) for card, n in counts.items() if n > self.copies(card)),
            key=lambda item: item[0].index,
        )

    def __reduce__(self) -> tuple[type[Pack], tuple[int, int]]:
        # compiled, the default would call __init__ without arguments
        return (Pack, (self.decks, self.jokers))

    def __repr__(self) -> str:
        return f"Pack(decks={self.decks}, jokers={self.jokers})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Pack) and (self.decks, self.jokers) == (other.decks, other.jokers)

    def __hash__(self) -> int:
        return hash((self.decks, self.jokers))


def cards_of(counts: Sequence[int]) -> list[Card]:
    """The cards a hand kept as counts by index holds, in index order.

    >>> cards_of([1, 0, 0, 0, 2])
    [2C, 3C, 3C]
    """
    every = Card._by_index
    out: list[Card] = []
    for i in range(len(counts)):
        n = counts[i]
        while n > 0:
            out.append(every[i])
            n -= 1
    return out


def shuffle(rng: random.Random, items: list[int]) -> None:
    """Shuffle ``items`` in place exactly as ``rng.shuffle(items)`` does.

    It makes the same swaps from the same draws of ``rng.getrandbits``. CPython writes
    ``Random.shuffle`` and ``Random._randbelow`` in Python, and this copy follows them. But this
    copy is code the compiled build compiles. Dealing a pack of three decks through the
    interpreted ``Random.shuffle`` costs more than many of the hand's turns.

    >>> mine, theirs = list(range(20)), list(range(20))
    >>> shuffle(random.Random(7), mine); random.Random(7).shuffle(theirs); mine == theirs
    True
    """
    getrandbits = rng.getrandbits
    for i in range(len(items) - 1, 0, -1):
        j = _below(getrandbits, i + 1)
        items[i], items[j] = items[j], items[i]


def below(rng: random.Random, n: int) -> int:
    """A number in ``range(n)`` drawn exactly as ``rng.randrange(n)`` draws it (the same draws
    of ``rng.getrandbits``), in code the compiled build compiles, like :func:`shuffle`.

    >>> below(random.Random(7), 10) == random.Random(7).randrange(10)
    True
    """
    if n <= 0:
        raise ValueError(f"nothing to draw from: range({n})")
    return _below(rng.getrandbits, n)


def _below(getrandbits: Callable[[int], int], n: int) -> int:
    """``Random._randbelow``: draws of ``n``'s bit length until one is below ``n``."""
    k = n.bit_length()
    j = getrandbits(k)
    while j >= n:
        j = getrandbits(k)
    return j
