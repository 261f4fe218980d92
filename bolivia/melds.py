"""Melds: which cards make a legal meld, what a meld becomes when cards are added, and which
melds are canastas. Decided by ``melds`` and ``canastas`` of the ruleset only.

>>> from bolivia.ruleset import shipped_library
>>> from bolivia.cards import parse_cards
>>> da = shipped_library().load("bolivia-da")
>>> verify_meld(da, parse_cards(["8H", "8S", "2C", "JK"])).kind
'group'
>>> zh = shipped_library().load("bolivia-zh")
>>> can_meld(zh, parse_cards(["8H", "8S", "2C", "JK"]))
False
>>> canasta_of(da, verify_meld(da, parse_cards(["JK"] * 7)))
'bolivia'

Every refusal is an :class:`~bolivia.errors.Illegal` with a code and a sentence naming the rule
and where it comes from.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bolivia.cards import RANKS, Card
from bolivia.errors import Illegal
from bolivia.ruleset import Ruleset

__all__ = [
    "Meld",
    "can_extend",
    "can_meld",
    "canasta_of",
    "describe",
    "is_canasta",
    "verify_extend",
    "verify_meld",
]


@dataclass(frozen=True, slots=True)
class Meld:
    """A legal meld: its kind, its cards and what they are made of."""

    kind: str  # group | sequence | wild | threes
    cards: tuple[Card, ...]
    naturals: int
    wilds: int
    rank: str | None = None  # a group's rank ("3" for black threes)
    suit: str | None = None  # a sequence's suit

    @property
    def size(self) -> int:
        return len(self.cards)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def describe(meld: Meld) -> str:
    """``a group of 8s with 1 wild card`` and the like."""
    wild = f" with {_plural(meld.wilds, 'wild card')}" if meld.wilds else ""
    if meld.kind == "group":
        return f"a group of {meld.size} {meld.rank}s{wild}"
    if meld.kind == "sequence":
        return f"a sequence of {meld.size} cards in {meld.suit}{wild}"
    if meld.kind == "wild":
        return f"a meld of {_plural(meld.size, 'wild card')}"
    return f"a meld of {_plural(meld.naturals, 'black three')}{wild}"


def canasta_of(ruleset: Ruleset, meld: Meld) -> str | None:
    """The canasta the meld is (natural, mixed, escalera, bolivia), or None."""
    canastas = ruleset.rules.canastas
    if meld.kind == "group":
        if meld.wilds == 0 and meld.size >= canastas.natural.size:
            return "natural"
        if meld.wilds > 0 and meld.size >= canastas.mixed.size:
            return "mixed"
        return None
    if meld.kind == "sequence":
        return "escalera" if meld.size >= canastas.escalera.size else None
    if meld.kind == "wild":
        return "bolivia" if meld.size >= canastas.bolivia.size else None
    return None


def is_canasta(ruleset: Ruleset, meld: Meld) -> bool:
    return canasta_of(ruleset, meld) is not None


def _illegal(ruleset: Ruleset, code: str, text: str, *rules: str) -> Illegal:
    return Illegal(
        code, f"{text} ({ruleset.cite(*rules)})" if rules else text, rules[0] if rules else ""
    )


def _check_size(
    ruleset: Ruleset, kind: str, size: int, low: int, high: int | None, path: str, noun: str
) -> None:
    if size < low:
        raise _illegal(
            ruleset,
            f"{kind}-too-small",
            f"{noun} needs at least {low} cards, not {size}",
            f"{path}.min_size",
        )
    if high is not None and size > high:
        raise _illegal(
            ruleset,
            f"{kind}-too-large",
            f"{noun} holds at most {high} cards, not {size}",
            f"{path}.max_size",
        )


def _wild_meld(ruleset: Ruleset, cards: tuple[Card, ...], *, new: bool) -> Meld:
    rule = ruleset.rules.melds.wild
    if not rule.allowed:
        raise _illegal(
            ruleset,
            "wild-not-allowed",
            "wild cards may not be melded on their own",
            "melds.wild.allowed",
        )
    _check_size(
        ruleset,
        "wild",
        len(cards),
        rule.min_size if new else 1,
        rule.max_size,
        "melds.wild",
        "a meld of wild cards",
    )
    return Meld("wild", cards, 0, len(cards))


def _threes_meld(
    ruleset: Ruleset, cards: tuple[Card, ...], wilds: int, *, going_out: bool, new: bool
) -> Meld:
    rule = ruleset.rules.melds.black_threes
    if rule.when == "never":
        raise _illegal(
            ruleset, "threes-never", "black threes are never melded", "melds.black_threes.when"
        )
    if rule.when == "going_out" and not going_out:
        raise _illegal(
            ruleset,
            "threes-not-going-out",
            "black threes may be melded only by a player going out",
            "melds.black_threes.when",
        )
    if wilds > rule.max_wild:
        raise _illegal(
            ruleset,
            "threes-too-many-wilds",
            f"a meld of black threes holds at most {rule.max_wild} wild cards",
            "melds.black_threes.max_wild",
        )
    naturals = len(cards) - wilds
    _check_size(
        ruleset,
        "threes",
        len(cards),
        rule.min_size if new else 1,
        rule.max_size,
        "melds.black_threes",
        "a meld of black threes",
    )
    return Meld("threes", cards, naturals, wilds, rank="3")


def _group(
    ruleset: Ruleset, cards: tuple[Card, ...], rank: str, naturals: int, wilds: int, *, new: bool
) -> Meld:
    rule = ruleset.rules.melds.group
    size = naturals + wilds
    if new and size < rule.min_size:
        raise _illegal(
            ruleset,
            "group-too-small",
            f"a group needs at least {rule.min_size} cards, not {size}",
            "melds.group.min_size",
        )
    if naturals < rule.min_natural:
        raise _illegal(
            ruleset,
            "group-too-few-naturals",
            f"a group needs at least {rule.min_natural} natural cards, not {naturals}",
            "melds.group.min_natural",
        )
    if rule.max_wild is not None and wilds > rule.max_wild:
        raise _illegal(
            ruleset,
            "group-too-many-wilds",
            f"a group may hold at most {_plural(rule.max_wild, 'wild card')}, not {wilds}",
            "melds.group.max_wild",
        )
    if rule.ratio == "naturals_exceed_wilds" and naturals <= wilds:
        raise _illegal(
            ruleset,
            "group-ratio",
            f"natural cards must outnumber wild cards in a group ({naturals} "
            f"natural, {wilds} wild)",
            "melds.group.ratio",
        )
    if rule.ratio == "naturals_twice_wilds" and naturals < 2 * wilds:
        raise _illegal(
            ruleset,
            "group-ratio",
            f"a group needs at least twice as many natural cards as wild cards "
            f"({naturals} natural, {wilds} wild)",
            "melds.group.ratio",
        )
    if rule.max_size is not None and size > rule.max_size:
        raise _illegal(
            ruleset,
            "group-too-large",
            f"a group holds at most {rule.max_size} cards, not {size}",
            "melds.group.max_size",
        )
    return Meld("group", cards, naturals, wilds, rank=rank)


def _sequence(
    ruleset: Ruleset, cards: tuple[Card, ...], naturals: list[Card], wilds: int, *, new: bool
) -> Meld:
    rule = ruleset.rules.melds.sequence
    if not rule.allowed:
        raise _illegal(
            ruleset, "sequence-not-allowed", "sequences may not be melded", "melds.sequence.allowed"
        )
    low, high = RANKS.index(rule.lowest), RANKS.index(rule.highest)
    wild_ranks = ruleset.rules.pack.wild_ranks
    positions = sorted(RANKS.index(card.rank) for card in naturals)
    for card in naturals:
        if card.rank == "3" or card.rank in wild_ranks or not low <= RANKS.index(card.rank) <= high:
            raise _illegal(
                ruleset,
                "sequence-rank",
                f"a sequence runs from {rule.lowest} to {rule.highest}; {card!r} cannot be in one",
                "melds.sequence.lowest",
                "melds.sequence.highest",
            )
    if len(set(positions)) < len(positions):
        raise _illegal(
            ruleset,
            "sequence-duplicate",
            "a sequence holds each rank once",
            "melds.sequence.allowed",
        )
    if wilds > rule.max_wild:
        raise _illegal(
            ruleset,
            "sequence-too-many-wilds",
            f"a sequence may hold at most {_plural(rule.max_wild, 'wild card')}, not {wilds}",
            "melds.sequence.max_wild",
        )
    gaps = positions[-1] - positions[0] + 1 - len(positions)
    if gaps > wilds:
        raise _illegal(
            ruleset,
            "sequence-gap",
            "the cards of a sequence must follow each other without a gap",
            "melds.sequence.max_wild",
        )
    size = len(cards)
    if size > high - low + 1:
        raise _illegal(
            ruleset,
            "sequence-rank",
            f"a sequence runs from {rule.lowest} to {rule.highest}, at most {high - low + 1} cards",
            "melds.sequence.lowest",
            "melds.sequence.highest",
        )
    _check_size(
        ruleset,
        "sequence",
        size,
        rule.min_size if new else 1,
        rule.max_size,
        "melds.sequence",
        "a sequence",
    )
    return Meld("sequence", cards, len(naturals), wilds, suit=naturals[0].suit)


def _classify(
    ruleset: Ruleset,
    cards: tuple[Card, ...],
    *,
    going_out: bool,
    new: bool,
    kind: str | None = None,
) -> Meld:
    wild = ruleset.wild
    naturals = [card for card in cards if not wild[card.index]]
    wilds = len(cards) - len(naturals)
    if not cards:
        raise Illegal("no-meld", "a meld needs cards")
    if any(card.is_red_three for card in naturals):
        raise Illegal(
            "red-three", "red threes are never melded: they are laid out and scored on their own"
        )
    if not naturals:
        return _wild_meld(ruleset, cards, new=new)
    if all(card.is_black_three for card in naturals):
        return _threes_meld(ruleset, cards, wilds, going_out=going_out, new=new)
    ranks = {card.rank for card in naturals}
    suits = {card.suit for card in naturals}
    group_error: Illegal | None = None
    if len(ranks) == 1 and kind in (None, "group"):
        rank = naturals[0].rank
        try:
            return _group(ruleset, cards, rank, len(naturals), wilds, new=new)
        except Illegal as exc:
            if len(naturals) > 1 or kind == "group":
                raise
            group_error = exc
    if len(suits) == 1 and kind in (None, "sequence"):
        try:
            return _sequence(ruleset, cards, naturals, wilds, new=new)
        except Illegal:
            if group_error is not None:
                raise group_error from None
            raise
    if group_error is not None:
        raise group_error
    raise Illegal(
        "no-meld", "these cards are neither of one rank nor a run of one suit, so they form no meld"
    )


def verify_meld(ruleset: Ruleset, cards: Sequence[Card], *, going_out: bool = False) -> Meld:
    """The meld ``cards`` make when laid as a new meld, or :class:`Illegal` saying why not."""
    return _classify(ruleset, tuple(cards), going_out=going_out, new=True)


def can_meld(ruleset: Ruleset, cards: Sequence[Card], *, going_out: bool = False) -> bool:
    try:
        verify_meld(ruleset, cards, going_out=going_out)
    except Illegal:
        return False
    return True


def verify_extend(
    ruleset: Ruleset, meld: Meld, add: Sequence[Card], *, going_out: bool = False
) -> Meld:
    """The meld after ``add`` is laid on it, or :class:`Illegal` saying why not."""
    add = tuple(add)
    if not add:
        raise Illegal("no-meld", "nothing to add")
    wild = ruleset.wild
    if (
        meld.kind == "group"
        and is_canasta(ruleset, meld)
        and not ruleset.rules.melds.group.wild_onto_canasta
        and any(wild[card.index] for card in add)
    ):
        raise _illegal(
            ruleset,
            "wild-onto-canasta",
            "no wild card may be added to a finished canasta",
            "melds.group.wild_onto_canasta",
        )
    try:
        result = _classify(
            ruleset,
            meld.cards + add,
            going_out=going_out,
            new=False,
            kind=meld.kind if meld.kind in ("group", "sequence") else None,
        )
    except Illegal as exc:
        raise Illegal(
            exc.code, f"{describe(meld)} cannot take {_cards(add)}: {exc}", exc.rule
        ) from None
    if result.kind != meld.kind or (meld.rank, meld.suit) != (result.rank, result.suit):
        raise Illegal(
            "extend-kind",
            f"{describe(meld)} cannot take {_cards(add)}: a meld keeps "
            "its kind (and rank or suit) as it grows",
        )
    return result


def can_extend(
    ruleset: Ruleset, meld: Meld, add: Sequence[Card], *, going_out: bool = False
) -> bool:
    try:
        verify_extend(ruleset, meld, add, going_out=going_out)
    except Illegal:
        return False
    return True


def _cards(cards: Sequence[Card]) -> str:
    return " ".join(repr(card) for card in cards)
