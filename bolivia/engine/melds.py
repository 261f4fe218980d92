"""Melds: which cards make a legal meld, and what a meld becomes when cards are added.
Decided by ``melds`` of the ruleset.

>>> from bolivia.rules.library import shipped_library
>>> from bolivia.cards import parse_cards
>>> da = shipped_library().load("bolivia-da")
>>> verify_meld(da, parse_cards(["8H", "8S", "2C", "JK"])).kind
'group'
>>> zh = shipped_library().load("bolivia-zh")
>>> can_meld(zh, parse_cards(["8H", "8S", "2C", "JK"]))
False

Every refusal is an :class:`~bolivia.errors.Illegal` with a code and a sentence naming the rule
and where it comes from. The limits of each kind are checked on counts by
:mod:`bolivia.engine.groups` (groups, black threes, wild melds) and
:mod:`bolivia.engine.sequences`; this module finds the kind the cards make and asks them.
What is a canasta is decided in :mod:`bolivia.engine.canastas`. The names of those modules
that the rest of the package reads are also here, in ``__all__``.

May import: the meld rules below it (:mod:`bolivia.engine.meld`,
:mod:`bolivia.engine.canastas`, :mod:`bolivia.engine.groups`,
:mod:`bolivia.engine.sequences`), :mod:`bolivia.engine.limits`, :mod:`bolivia.rules` and the
ground floor.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, Literal

from bolivia.cards import RANKS, SUITS, Card
from bolivia.engine.canastas import (
    canasta_bonus,
    canasta_kind,
    canasta_name,
    canasta_of,
    is_canasta,
    special_bonus,
    special_index,
)
from bolivia.engine.groups import (
    GROUP_REFUSALS,
    Refusals,
    group_code,
    group_codes,
    group_fault,
    group_table,
    threes_fault,
    wild_fault,
)
from bolivia.engine.limits import Limits, limits
from bolivia.engine.meld import Kind, Meld, describe
from bolivia.engine.sequences import (
    SEQUENCE_REFUSALS,
    natural_ranks,
    sequence_fault,
    sequence_places,
)
from bolivia.errors import Illegal
from bolivia.rules.ruleset import Ruleset

__all__ = [
    "Kind",
    "Meld",
    "can_extend",
    "can_meld",
    "canasta_bonus",
    "canasta_kind",
    "canasta_name",
    "canasta_of",
    "combination",
    "could_join",
    "describe",
    "extension",
    "group_codes",
    "group_fault",
    "group_table",
    "is_canasta",
    "natural_ranks",
    "new_meld",
    "sequence_fault",
    "sequence_places",
    "special_bonus",
    "special_index",
    "threes_fault",
    "verify_combine",
    "verify_extend",
    "verify_meld",
    "wild_fault",
]

# --------------------------------------------------------------------------- refusals

# a refusal found without raising: the code (or one of _PLAIN), and the naturals and wild
# cards of the meld it was found in; built into an Illegal only where one is raised
_Fault = tuple[str, int, int]

#: the rule and the sentence behind each code a limit of a kind of meld gives
_TEXT: Final[Refusals] = {
    **GROUP_REFUSALS,
    **SEQUENCE_REFUSALS,
}

#: the code and the sentence of the refusals no rule value is behind
_PLAIN: Final = {
    "empty": ("no-meld", "a meld needs cards"),
    "red-three": (
        "red-three",
        "red threes are never melded: they are laid out and scored on their own",
    ),
    "no-kind": (
        "no-meld",
        "these cards are neither of one rank nor a run of one suit, so they form no meld",
    ),
}


def _illegal(ruleset: Ruleset, fault: _Fault) -> Illegal:
    """The refusal a fault stands for, with its sentence and the rule it cites."""
    code, naturals, wilds = fault
    plain = _PLAIN.get(code)
    if plain is not None:
        return Illegal(*plain)
    rule, text = _TEXT[code]
    return Illegal(code, f"{text(ruleset, naturals, wilds)} ({ruleset.cite(rule)})", rule)


# --------------------------------------------------------------------------- classifying


def _classify(
    ruleset: Ruleset,
    cards: tuple[Card, ...],
    *,
    going_out: bool,
    new: bool,
    kind: Literal["group", "sequence"] | None = None,
) -> Meld | _Fault:
    """The meld the cards make, or the first refusal (see :func:`_illegal`).

    ``kind``: the only kind the cards may make (a meld on the table keeps its kind).
    """
    if not cards:
        return ("empty", 0, 0)
    wild = limits(ruleset).wild
    naturals = [card.index for card in cards if not wild[card.index]]
    ranks = suits = 0  # a bit for each rank and suit of the naturals (no sets: many are made)
    for index in naturals:
        ranks, suits = ranks | 1 << (index >> 2), suits | 1 << (index & 3)
    n = len(naturals)
    w = len(cards) - n
    if ranks & 2 and (5 in naturals or 6 in naturals):  # a red three (3D, 3H)
        return ("red-three", n, w)
    if not n:
        return _wild_meld(ruleset, cards, w, new)
    if ranks == 1 << 1:  # black threes (red ones were refused)
        return _black_threes(ruleset, cards, n, w, going_out, new)
    return _group_or_sequence(ruleset, cards, naturals, ranks, suits, w, going_out, new, kind)


def _wild_meld(ruleset: Ruleset, cards: tuple[Card, ...], w: int, new: bool) -> Meld | _Fault:
    """The meld of wild cards alone the cards make, or its refusal."""
    fault = wild_fault(ruleset.rules.melds.wild, w, new=new)
    if fault:
        return (fault, 0, w)
    return Meld("wild", cards, 0, w)


def _black_threes(
    ruleset: Ruleset, cards: tuple[Card, ...], n: int, w: int, going_out: bool, new: bool
) -> Meld | _Fault:
    """The meld of black threes the cards make, or its refusal."""
    rule = ruleset.rules.melds.black_threes
    fault = threes_fault(rule, n + w, w, going_out=going_out, new=new)
    if fault:
        return (fault, n, w)
    return Meld("threes", cards, n, w, rank="3")


def _group_or_sequence(
    ruleset: Ruleset,
    cards: tuple[Card, ...],
    naturals: list[int],
    ranks: int,
    suits: int,
    w: int,
    going_out: bool,
    new: bool,
    kind: Literal["group", "sequence"] | None,
) -> Meld | _Fault:
    """The group or the sequence the cards make, or the refusal that tells most.

    Naturals of one rank make a group, of one suit a sequence. One natural alone may make
    either: a group refused, it is tried as a sequence, and the group's refusal stands if
    that fails too.
    """
    n = len(naturals)
    if ranks & (ranks - 1) == 0 and kind != "sequence":  # one rank
        fault = group_code(ruleset, n, w, new)
        rank = RANKS[naturals[0] >> 2]
        if fault is None and w and _over_cap(limits(ruleset).rank_caps, rank, w):
            fault = "rank-too-many-wilds"
        if fault is None:
            return Meld("group", cards, n, w, rank=rank)
        if n > 1 or kind == "group":
            return (fault, n, w)
        found = _sequence(ruleset, cards, naturals, w, going_out, new)
        return found if isinstance(found, Meld) else (fault, n, w)
    if suits & (suits - 1) == 0 and kind != "group":  # one suit
        return _sequence(ruleset, cards, naturals, w, going_out, new)
    return ("no-kind", n, w)


def _over_cap(caps: dict[str, int], rank: str, wilds: int) -> bool:
    """Whether a group of ``rank`` with ``wilds`` wild cards passes its rank's own limit
    (``caps``: :attr:`Limits.rank_caps <bolivia.engine.limits.Limits>`, the ranks of
    ``melds.group.wild_by_rank`` with no first-meld freedom)."""
    return bool(caps) and wilds > caps.get(rank, wilds)


def _sequence(
    ruleset: Ruleset,
    cards: tuple[Card, ...],
    naturals: list[int],
    w: int,
    going_out: bool,
    new: bool,
) -> Meld | _Fault:
    """The sequence naturals of one suit and ``w`` wild cards make, or its refusal.

    Where ``melds.sequence.natural_twos`` says so and the suit's own two is among the wild
    cards, it is first read as a natural card in the two's place; the meld counts it so (a
    run is as clean as it may be read), else it is one of the wild cards.
    """
    n = len(naturals)
    suit = naturals[0] & 3
    ranks_of = [index >> 2 for index in naturals]
    if (
        w
        and limits(ruleset).natural_twos
        and any(card.index == suit for card in cards)
        and sequence_fault(ruleset, [*ranks_of, 0], w - 1, new=new, going_out=going_out) is None
    ):
        return Meld("sequence", cards, n + 1, w - 1, suit=SUITS[suit])
    fault = sequence_fault(ruleset, ranks_of, w, new=new, going_out=going_out)
    if fault is None:
        return Meld("sequence", cards, n, w, suit=SUITS[suit])
    return (fault, n, w)


def verify_meld(ruleset: Ruleset, cards: Sequence[Card], *, going_out: bool = False) -> Meld:
    """The meld ``cards`` make when laid as a new meld, or :class:`Illegal` saying why not."""
    found = _classify(ruleset, tuple(cards), going_out=going_out, new=True)
    if isinstance(found, Meld):
        return found
    raise _illegal(ruleset, found)


def new_meld(ruleset: Ruleset, cards: Sequence[Card], *, going_out: bool = False) -> Meld | None:
    """:func:`verify_meld` without the reason: the meld, or None.

    For move generators, which try many.
    """
    found = _classify(ruleset, tuple(cards), going_out=going_out, new=True)
    return found if isinstance(found, Meld) else None


def can_meld(ruleset: Ruleset, cards: Sequence[Card], *, going_out: bool = False) -> bool:
    """Whether ``cards`` make a legal new meld."""
    return new_meld(ruleset, cards, going_out=going_out) is not None


# --------------------------------------------------------------------------- growing


def could_join(ruleset: Ruleset, meld: Meld, card: Card) -> bool:
    """A quick necessary condition for :func:`verify_extend` with one card.

    It is False where no rule lets the card join the meld:

    - A natural card of another rank, for a group.
    - A natural card of another suit, for a sequence.
    - Any natural card, for a wild meld.
    - Anything but a black three or a wild card, for black threes.
    - A wild card, where that kind of meld takes none.

    True leaves the question to :func:`verify_extend`. It is for move generators, which try
    many cards on many melds.
    """
    lim = limits(ruleset)
    if lim.wild[card.index]:
        if meld.kind == "sequence":  # as a wild card, or as the run's own natural two
            return lim.sequence_max_wild > 0 or (
                lim.natural_twos and card.rank == "2" and card.suit == meld.suit
            )
        if meld.kind == "threes":
            return lim.threes_max_wild > 0
        return True
    if meld.kind == "group":
        return card.rank == meld.rank
    if meld.kind == "sequence":
        return card.suit == meld.suit
    if meld.kind == "threes":
        return card.is_black_three
    return False


def wild_onto_canasta_fault(ruleset: Ruleset, meld: Meld, wilds: int) -> str | None:
    """``wild-onto-canasta`` when wild cards may not go onto this (finished) group."""
    if (
        wilds
        and meld.kind == "group"
        and not limits(ruleset).wild_onto_canasta
        and is_canasta(ruleset, meld)
    ):
        return "wild-onto-canasta"
    return None


def _extension(
    ruleset: Ruleset, meld: Meld, add: tuple[Card, ...], going_out: bool
) -> Meld | _Fault:
    """The meld after ``add`` is laid on it, or the first refusal."""
    if not add:
        return ("nothing", 0, 0)
    lim = limits(ruleset)
    wild = lim.wild
    if wild_onto_canasta_fault(ruleset, meld, sum(1 for card in add if wild[card.index])):
        return ("wild-onto-canasta", 0, 0)
    if meld.kind == "group" and meld.rank is not None:
        grown = _grown_group(ruleset, lim, meld, meld.rank, add)
        if grown is not None:
            return grown
    return _reclassified(ruleset, meld, add, going_out)


def _grown_group(
    ruleset: Ruleset, lim: Limits, meld: Meld, rank: str, add: tuple[Card, ...]
) -> Meld | _Fault | None:
    """The group after wild cards and naturals of its rank are laid on it, or its refusal.

    The counts decide, as :func:`_classify` would find for the whole, without going through
    every card again. None when another card is among ``add``.
    """
    wild = lim.wild
    index = lim.rank_index[rank]
    n, w = meld.naturals, meld.wilds
    for card in add:
        i = card.index
        if wild[i]:
            w += 1
        elif i >> 2 == index:
            n += 1
        else:
            return None
    fault = group_code(ruleset, n, w, False)
    if fault is None and w and _over_cap(lim.rank_caps, rank, w):
        fault = "rank-too-many-wilds"
    if fault is not None:
        return (fault, n, w)
    return Meld("group", meld.cards + add, n, w, rank=rank)


def _reclassified(
    ruleset: Ruleset, meld: Meld, add: tuple[Card, ...], going_out: bool
) -> Meld | _Fault:
    """The meld its cards and ``add`` make, which must keep its kind, rank and suit."""
    result = _classify(
        ruleset,
        meld.cards + add,
        going_out=going_out,
        new=False,
        kind=meld.kind if meld.kind == "group" or meld.kind == "sequence" else None,
    )
    if not isinstance(result, Meld):
        return result
    if result.kind != meld.kind or result.rank != meld.rank or result.suit != meld.suit:
        return ("extend-kind", 0, 0)
    return result


def verify_extend(
    ruleset: Ruleset, meld: Meld, add: Sequence[Card], *, going_out: bool = False
) -> Meld:
    """The meld after ``add`` is laid on it, or :class:`Illegal` saying why not."""
    add = tuple(add)
    found = _extension(ruleset, meld, add, going_out)
    if isinstance(found, Meld):
        return found
    code = found[0]
    if code == "nothing":
        raise Illegal("no-meld", "nothing to add")
    if code == "wild-onto-canasta":
        raise Illegal(
            "wild-onto-canasta",
            "no wild card may be added to a finished canasta "
            f"({ruleset.cite('melds.group.wild_onto_canasta')})",
            "melds.group.wild_onto_canasta",
        )
    if code == "extend-kind":
        raise Illegal(
            "extend-kind",
            f"{describe(meld)} cannot take {_cards(add)}: a meld keeps "
            "its kind (and rank or suit) as it grows",
        )
    exc = _illegal(ruleset, found)
    raise Illegal(exc.code, f"{describe(meld)} cannot take {_cards(add)}: {exc}", exc.rule)


def extension(
    ruleset: Ruleset, meld: Meld, add: Sequence[Card], *, going_out: bool = False
) -> Meld | None:
    """:func:`verify_extend` without the reason: the meld grown, or None (for move
    generators)."""
    found = _extension(ruleset, meld, tuple(add), going_out)
    return found if isinstance(found, Meld) else None


def verify_combine(ruleset: Ruleset, target: Meld, other: Meld) -> Meld:
    """The group ``target`` and ``other`` make when joined, or :class:`Illegal` saying why not.

    The ruleset must let a side join its groups (``melds.group.combine``). Both must be groups
    of one rank. One must be able to take the other's cards as an extension would: the group
    limits hold, and no wild card goes onto a finished canasta.
    """
    if not ruleset.rules.melds.group.combine:
        raise Illegal(
            "no-combining",
            f"a side may not join two of its groups ({ruleset.cite('melds.group.combine')})",
            "melds.group.combine",
        )
    if target.kind != "group" or other.kind != "group" or target.rank != other.rank:
        raise Illegal(
            "combine-kind",
            f"only two groups of one rank can be joined, not {describe(target)} and "
            f"{describe(other)}",
        )
    joined = combination(ruleset, target, other)
    if joined is None:
        verify_extend(ruleset, target, other.cards)  # raises the first refusal
        raise AssertionError("unreachable")  # pragma: no cover
    return joined


def combination(ruleset: Ruleset, target: Meld, other: Meld) -> Meld | None:
    """:func:`verify_combine` without the reason: the group joined, or None."""
    if (
        not ruleset.rules.melds.group.combine
        or target.kind != "group"
        or other.kind != "group"
        or target.rank != other.rank
    ):
        return None
    grown = extension(ruleset, target, other.cards)
    if grown is None:
        grown = extension(ruleset, other, target.cards)
        if grown is None:
            return None
    return Meld("group", target.cards + other.cards, grown.naturals, grown.wilds, rank=grown.rank)


def can_extend(
    ruleset: Ruleset, meld: Meld, add: Sequence[Card], *, going_out: bool = False
) -> bool:
    """Whether ``add`` may be laid on the meld."""
    return extension(ruleset, meld, add, going_out=going_out) is not None


def _cards(cards: Sequence[Card]) -> str:
    """The cards in their notation, one space apart."""
    return " ".join(repr(card) for card in cards)
