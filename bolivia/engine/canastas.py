"""Canastas: which melds are canastas, of what kind, what each is called and what it pays.
Decided by ``canastas`` of the ruleset.

>>> from bolivia.rules.library import shipped_library
>>> from bolivia.cards import parse_cards
>>> from bolivia.engine.melds import verify_meld
>>> da = shipped_library().load("bolivia-da")
>>> canasta_of(da, verify_meld(da, parse_cards(["JK"] * 7)))
'bolivia'

A canasta's kind comes from the meld's kind and size (:func:`canasta_kind`). Its bonus and
name come from the first entry of ``canastas.special`` it matches, else from its kind.

May import: :mod:`bolivia.engine.meld`, :mod:`bolivia.engine.limits`, :mod:`bolivia.rules`
and the ground floor.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from bolivia.cards import Card
from bolivia.engine.limits import limits
from bolivia.engine.meld import Meld
from bolivia.rules.fields import MAX_CARDS, CanastaKindName
from bolivia.rules.ruleset import Ruleset

__all__ = [
    "canasta_bonus",
    "canasta_counts",
    "canasta_kind",
    "canasta_name",
    "canasta_of",
    "is_canasta",
    "special_bonus",
    "special_index",
]


def canasta_of(ruleset: Ruleset, meld: Meld) -> CanastaKindName | None:
    """The canasta the meld is (natural, mixed, escalera, bolivia), or None."""
    return canasta_kind(ruleset, meld.kind, len(meld.cards), meld.wilds)


def is_canasta(ruleset: Ruleset, meld: Meld) -> bool:
    """Whether the meld is a canasta of any kind."""
    return canasta_of(ruleset, meld) is not None


def canasta_kind(ruleset: Ruleset, kind: str, size: int, wilds: int) -> CanastaKindName | None:
    """:func:`canasta_of` a meld of this kind, size and number of wild cards."""
    lim = limits(ruleset)
    if kind == "group":
        if wilds == 0:
            return "natural" if size >= lim.natural_size else None
        return "mixed" if size >= lim.mixed_size else None
    if kind == "sequence":
        return "escalera" if size >= lim.escalera_size else None
    if kind == "wild":
        return "bolivia" if size >= lim.bolivia_size else None
    return None


def canasta_bonus(
    ruleset: Ruleset, kind: str, cards: Sequence[Card], wilds: int, at_least: int = 0
) -> int:
    """What a canasta of this kind pays on top of its cards.

    ``kind`` is a canasta's (``natural``, ...) and ``wilds`` of the cards are wild. The bonus
    is that of the first of ``canastas.special`` the canasta matches, else its kind's.
    Everything that pays a canasta's bonus reads it here (or, from counts, in
    :func:`special_bonus`). ``at_least``: as if grown by natural cards to that many (what an
    unfinished meld would score as a canasta).

    >>> from bolivia.rules.library import shipped_library
    >>> from bolivia.cards import parse_cards
    >>> canasta_bonus(shipped_library().load("bolivia-da"), "bolivia", parse_cards(["JK"] * 7), 7)
    2500
    """
    size, jokers, rank = _composition(ruleset, cards)
    return special_bonus(ruleset, kind, max(size, at_least), wilds, jokers, rank)


def canasta_name(ruleset: Ruleset, kind: str, cards: Sequence[Card], wilds: int) -> str:
    """What the ruleset calls this canasta (``canasta of aces``, ``mixed canasta``).

    The name of the special canasta it matches, else its kind's.
    """
    size, jokers, rank = _composition(ruleset, cards)
    found = special_index(ruleset, kind, size, wilds, jokers, rank)
    canastas = ruleset.rules.canastas
    return canastas.special[found].name if found >= 0 else str(getattr(canastas, kind).name)


def canasta_counts(
    ruleset: Ruleset, melds: Sequence[Meld], names: Collection[str]
) -> dict[str, int]:
    """How many canastas the melds hold, by kind; a canasta that matches a special canasta
    named in ``names`` is counted under the first such name (in ``canastas.special``'s order)
    instead of its kind (what a requirement naming special canastas counts). A kind or name
    the melds hold none of is not a key.

    >>> from bolivia.rules.library import shipped_library
    >>> from bolivia.rules.variants import with_values
    >>> from bolivia.cards import parse_cards
    >>> from bolivia.engine.melds import verify_meld
    >>> sevens = {"name": "canasta of sevens", "kind": "natural", "rank": "7", "bonus": 1500}
    >>> rules = with_values(shipped_library().load("canasta"), {"canastas.special": [sevens]}, "x")
    >>> melds = [verify_meld(rules, parse_cards([c] * 7)) for c in ("7S", "AS", "KH")]
    >>> sorted(canasta_counts(rules, melds, ["canasta of sevens"]).items())
    [('canasta of sevens', 1), ('natural', 2)]
    """
    lim = limits(ruleset)
    named = (
        [
            (entry, lim.special[i])
            for i, entry in enumerate(ruleset.rules.canastas.special)
            if entry.name in names
        ]
        if lim.special
        else []
    )
    out: dict[str, int] = {}  # (a plain dict: a Counter's methods are Python, at every call)
    for meld in melds:
        kind = canasta_of(ruleset, meld)
        if kind is None:
            continue
        found: str = kind
        if named:
            size, jokers, rank = _composition(ruleset, meld.cards)
            found = next(
                (e.name for e, t in named if _matches(t, kind, size, meld.wilds, jokers, rank)),
                kind,
            )
        out[found] = out.get(found, 0) + 1
    return out


def _composition(ruleset: Ruleset, cards: Sequence[Card]) -> tuple[int, int, int]:
    """The cards' number, their jokers and a natural card's rank index (-1: none)."""
    wild = limits(ruleset).wild
    jokers = 0
    rank = -1
    for card in cards:
        if card.is_joker:
            jokers += 1
        elif not wild[card.index]:
            rank = card.index >> 2
    return len(cards), jokers, rank


def special_bonus(
    ruleset: Ruleset, kind: str, size: int, wilds: int, jokers: int, rank: int
) -> int:
    """:func:`canasta_bonus` from counts.

    A canasta of ``kind`` of ``size`` cards, ``wilds`` of them wild and ``jokers`` of those
    jokers (-1: not known, and then no entry that counts jokers matches), its group's rank
    index ``rank`` (-1: none).
    """
    lim = limits(ruleset)
    found = special_index(ruleset, kind, size, wilds, jokers, rank) if lim.special else -1
    return lim.special[found][7] if found >= 0 else lim.kind_bonus[kind]


def special_index(
    ruleset: Ruleset, kind: str, size: int, wilds: int, jokers: int, rank: int
) -> int:
    """The first entry of ``canastas.special`` such a canasta matches, or -1.

    The counts are read as :func:`special_bonus` reads them.
    """
    for i, entry in enumerate(limits(ruleset).special):
        if _matches(entry, kind, size, wilds, jokers, rank):
            return i
    return -1


def _matches(
    entry: tuple[str, int, int, int, int, int, int, int],
    kind: str,
    size: int,
    wilds: int,
    jokers: int,
    rank: int,
) -> bool:
    """Whether a canasta of these counts is the special canasta ``entry`` describes."""
    of, of_rank, min_size, min_wild, max_wild, min_jokers, max_jokers, _ = entry
    if of != kind or (of_rank >= 0 and of_rank != rank):
        return False
    if size < min_size or not min_wild <= wilds <= max_wild:
        return False
    if jokers < 0:  # not known: only an entry that does not count jokers matches
        return min_jokers == 0 and max_jokers >= MAX_CARDS
    return min_jokers <= jokers <= max_jokers
