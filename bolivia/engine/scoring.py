"""Scoring a hand: melded cards, canasta bonuses (and black threes set aside from piles taken),
red threes plus or minus, going out, and the cards left in hand. Decided by ``scoring``,
``canastas``, ``red_threes``, ``pile.black_threes_aside`` and ``going_out``.

>>> from bolivia.rules.library import shipped_library
>>> from bolivia.cards import parse_cards
>>> da = shipped_library().load("bolivia-da")
>>> card_points(da, parse_cards(["JK", "3C"]), in_hand=True)
-150
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from bolivia.cards import Card
from bolivia.engine.canastas import canasta_bonus, canasta_of
from bolivia.engine.going_out import meets_canastas, meets_requirement
from bolivia.engine.meld import Meld
from bolivia.errors import BadRequest
from bolivia.rules.model import (
    PlusAlways,
    PlusWhenCanastas,
    PlusWhenGoingOut,
    PlusWhenSideMelded,
    RedThrees,
)
from bolivia.rules.ruleset import Ruleset
from bolivia.values import reduce_fields

__all__ = [
    "SCORE_PARTS",
    "TeamHand",
    "TeamScore",
    "black_three_score",
    "card_points",
    "hand_penalty",
    "meld_penalty",
    "red_three_score",
    "score_hand",
    "score_team",
    "unfinished_cost",
]


# the parts of a side's score for a hand, as the oracle names them (and then "total")
SCORE_PARTS = ("cards", "bonuses", "red_threes", "going_out", "hands", "penalties")


@dataclass(frozen=True)
class TeamHand:
    """A side's position at the end of a hand."""

    melds: tuple[Meld, ...]
    red_threes: int = 0
    hands: tuple[tuple[Card, ...], ...] = ()
    went_out: bool = False
    concealed: bool = False
    black_threes: int = 0  # set aside from piles taken (pile.black_threes_aside)
    exact_deal: bool = False  # the side's dealer took up exactly the deal (exact_deal_bonus)

    def __reduce__(self) -> tuple[type[Any], tuple[Any, ...]]:
        return reduce_fields(self)


@dataclass(frozen=True)
class TeamScore:
    cards: int
    bonuses: int
    red_threes: int
    going_out: int
    hands: int
    # melds left on the table and ranks kept in hand (scoring.meld_penalties and
    # hand_penalties), zero or less
    penalties: int = 0

    @property
    def total(self) -> int:
        return sum(self.parts())

    def parts(self) -> tuple[int, ...]:
        """The parts of the total, in the order of :data:`SCORE_PARTS`."""
        return (
            self.cards,
            self.bonuses,
            self.red_threes,
            self.going_out,
            self.hands,
            self.penalties,
        )

    def as_dict(self) -> dict[str, int]:
        return {**dict(zip(SCORE_PARTS, self.parts(), strict=True)), "total": self.total}

    def __reduce__(self) -> tuple[type[Any], tuple[Any, ...]]:
        return reduce_fields(self)


def card_points(ruleset: Ruleset, cards: Sequence[Card], *, in_hand: bool = False) -> int:
    """Cards' value in a meld, or (``in_hand``) their negative value left in hand."""
    if in_hand:
        penalties = ruleset.penalties
        return -sum(penalties[card.index] for card in cards)
    points = ruleset.points
    return sum(points[card.index] for card in cards)


def red_three_score(ruleset: Ruleset, count: int, melds: Sequence[Meld]) -> int:
    """What ``count`` red threes are worth to a side with these melds, plus or minus."""
    if count == 0:
        return 0
    rule = ruleset.rules.red_threes
    value = _red_three_value(rule, count, ruleset.rules.pack.decks)
    when = rule.plus_when
    return value if _PLUS_WHEN[when.condition](ruleset, when, melds) else -value


def _red_three_value(rule: RedThrees, count: int, decks: int) -> int:
    """What ``count`` red threes are worth, before the sign: by count, all of them, or each."""
    if count in rule.value_by_count:
        return rule.value_by_count[count]
    if count == 2 * decks:
        return rule.all_value
    return count * rule.value


def _plus_when_melded(ruleset: Ruleset, when: PlusWhenSideMelded, melds: Sequence[Meld]) -> bool:
    """Plus once the side has melded."""
    return bool(melds)


def _plus_with_canastas(ruleset: Ruleset, when: PlusWhenCanastas, melds: Sequence[Meld]) -> bool:
    """Plus once the side holds ``count`` canastas, ``including`` those named."""
    return meets_canastas(ruleset, melds, when.count, when.including)


def _plus_going_out(ruleset: Ruleset, when: PlusWhenGoingOut, melds: Sequence[Meld]) -> bool:
    """Plus once the side's melds meet what going out needs."""
    return meets_requirement(ruleset, melds)


def _plus_always(ruleset: Ruleset, when: PlusAlways, melds: Sequence[Meld]) -> bool:
    """Always plus."""
    return True


#: whether red threes count plus for a side with these melds, by ``red_threes.plus_when``
_PLUS_WHEN: Final[dict[str, Callable[[Ruleset, Any, Sequence[Meld]], bool]]] = {
    "side_melded": _plus_when_melded,
    "canastas": _plus_with_canastas,
    "going_out_requirement": _plus_going_out,
    "always": _plus_always,
}


def black_three_score(ruleset: Ruleset, count: int) -> int:
    """What ``count`` black threes set aside from piles taken score (``pile.black_threes_aside``:
    each, or all of the pack's); 0 where the rules set none aside."""
    aside = ruleset.rules.pile.black_threes_aside
    if aside is None or count == 0:
        return 0
    if aside.all_value is not None and count == 2 * ruleset.rules.pack.decks:
        return aside.all_value
    return count * aside.value


def unfinished_cost(ruleset: Ruleset, kind: str, rank: str | None, wilds: int, size: int) -> int:
    """What a meld of this kind, rank, wild cards and size costs left on the table, if it is
    no canasta (zero or more): the points of the first of ``scoring.meld_penalties`` it fits."""
    for penalty in ruleset.rules.scoring.meld_penalties:
        if kind not in penalty.kinds:
            continue
        if penalty.ranks and rank not in penalty.ranks:
            continue
        if penalty.natural_only and wilds:
            continue
        if penalty.fewer_than is None or size < penalty.fewer_than:
            return penalty.points
    return 0


def meld_penalty(ruleset: Ruleset, meld: Meld) -> int:
    """What a meld left on the table costs its side at the end of the hand (zero or less):
    :func:`unfinished_cost`; a canasta costs nothing."""
    cost = unfinished_cost(ruleset, meld.kind, meld.rank, meld.wilds, meld.size)
    return -cost if cost and canasta_of(ruleset, meld) is None else 0


def hand_penalty(ruleset: Ruleset, hand: Sequence[Card]) -> int:
    """What a player's hand at the end costs the side beyond its cards' points (zero or
    less): every entry of ``scoring.hand_penalties`` whose ranks it holds enough of."""
    cost = 0
    for penalty in ruleset.rules.scoring.hand_penalties:
        held = sum(1 for card in hand if card.rank in penalty.ranks)
        if held >= penalty.at_least:
            cost -= penalty.points
    return cost


def score_team(ruleset: Ruleset, team: TeamHand) -> TeamScore:
    """A side's score for the hand, part by part."""
    _check_team(ruleset, team)
    going = ruleset.rules.going_out
    going_out = going.concealed_bonus if team.concealed else going.bonus if team.went_out else 0
    return TeamScore(
        sum(card_points(ruleset, meld.cards) for meld in team.melds),
        _bonuses(ruleset, team.melds)
        + black_three_score(ruleset, team.black_threes)
        + (ruleset.rules.scoring.exact_deal_bonus or 0) * team.exact_deal,
        red_three_score(ruleset, team.red_threes, team.melds),
        going_out,
        sum(card_points(ruleset, hand, in_hand=True) for hand in team.hands),
        sum(meld_penalty(ruleset, meld) for meld in team.melds)
        + sum(hand_penalty(ruleset, hand) for hand in team.hands),
    )


def _check_team(ruleset: Ruleset, team: TeamHand) -> None:
    """A BadRequest for a side's position no hand can end in."""
    if team.black_threes and ruleset.rules.pile.black_threes_aside is None:
        raise BadRequest(
            f"black_threes is {team.black_threes}, but {ruleset.id} sets no black three aside "
            "(pile.black_threes_aside)"
        )
    if team.exact_deal and ruleset.rules.scoring.exact_deal_bonus is None:
        raise BadRequest(
            f"exact_deal is true, but {ruleset.id} gives the dealer's exact take no bonus "
            "(scoring.exact_deal_bonus)"
        )
    if team.concealed and not team.went_out:
        raise BadRequest("a side that went out concealed went out: set went_out too")
    for hand in team.hands:
        for card in hand:
            if card.is_red_three:
                raise BadRequest(
                    f"{card!r} in a hand: red threes are laid out, never held; "
                    "count them in red_threes"
                )


def _bonuses(ruleset: Ruleset, melds: Sequence[Meld]) -> int:
    """The bonuses of the canastas among these melds."""
    bonuses = 0
    for meld in melds:
        kind = canasta_of(ruleset, meld)
        if kind is not None:
            bonuses += canasta_bonus(ruleset, kind, meld.cards, meld.wilds)
    return bonuses


def score_hand(ruleset: Ruleset, teams: Sequence[TeamHand]) -> list[TeamScore]:
    """Every side's score for the hand, in order."""
    if len(teams) < 2:
        raise BadRequest("a hand is scored for two or more sides")
    if sum(1 for team in teams if team.went_out or team.concealed) > 1:
        raise BadRequest("at most one side goes out")
    return [score_team(ruleset, team) for team in teams]
