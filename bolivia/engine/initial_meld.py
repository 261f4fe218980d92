"""The first meld of a side in a hand: the minimum by the side's score, and what counts toward it.
Decided by ``initial_meld`` of the ruleset.

>>> from bolivia.rules.library import shipped_library
>>> canasta, samba = (shipped_library().load(r) for r in ("canasta", "samba"))
>>> minimum(canasta, 7000), minimum(samba, 7000)
(120, 150)
>>> minimum(samba, -5)
15
"""

from __future__ import annotations

from collections.abc import Sequence

from bolivia.cards import Card
from bolivia.engine.canastas import canasta_bonus, canasta_kind, canasta_of
from bolivia.engine.limits import limits
from bolivia.engine.meld import Meld
from bolivia.engine.melds import verify_meld
from bolivia.errors import Illegal
from bolivia.rules.model import Band
from bolivia.rules.ruleset import Ruleset

__all__ = [
    "band",
    "canasta_needed",
    "counted_points",
    "holds_canasta",
    "meets_first",
    "meld_points",
    "meld_value",
    "minimum",
    "verify_first_melds",
    "verify_initial_meld",
]


def band(ruleset: Ruleset, team_score: int) -> Band:
    """The band of ``initial_meld.bands`` a side with this score before the hand is in."""
    return ruleset.rules.initial_meld.bands[limits(ruleset).band(team_score)]


def minimum(ruleset: Ruleset, team_score: int) -> int:
    """The points a side's first meld must reach, given the side's score before the hand."""
    lim = limits(ruleset)
    return lim.bands[lim.band(team_score)][1]


def canasta_needed(ruleset: Ruleset, team_score: int) -> tuple[str, ...]:
    """The kinds of canasta one of which the side's first meld must hold (none: ``()``)."""
    lim = limits(ruleset)
    return lim.bands[lim.band(team_score)][2]


def holds_canasta(ruleset: Ruleset, kinds: Sequence[str], melds: Sequence[Meld]) -> bool:
    """Whether these melds hold a canasta of one of ``kinds`` (or none is needed)."""
    return not kinds or any(canasta_of(ruleset, meld) in kinds for meld in melds)


def meets_first(ruleset: Ruleset, melds: Sequence[Meld], needed: int, kinds: Sequence[str]) -> bool:
    """Whether these melds count ``needed`` and hold a canasta of one of ``kinds`` (if any)."""
    return counted_points(ruleset, melds) >= needed and holds_canasta(ruleset, kinds, melds)


def verify_first_melds(
    ruleset: Ruleset, team_score: int, melds: Sequence[Meld], top_card: Card | None = None
) -> tuple[int, int]:
    """(points, minimum) when these legal melds (``top_card`` the pile's, in ``melds[0]``)
    make a first meld: the points reach the minimum, and a canasta the band asks for is among
    them; else :class:`Illegal` saying which falls short."""
    points = counted_points(ruleset, melds, top_card)
    needed = minimum(ruleset, team_score)
    if points < needed:
        rule = ruleset.rules.initial_meld
        which = "together" if rule.several_melds or len(melds) == 1 else "in a single meld"
        taken = "" if top_card is None else ", with the pile's top card"
        raise Illegal(
            "initial-minimum",
            f"the first meld counts {points} points {which}{taken}; a side with {team_score} "
            f"needs {needed} ({ruleset.cite('initial_meld.bands')})",
            "initial_meld.bands",
            points=points,
            minimum=needed,
        )
    kinds = canasta_needed(ruleset, team_score)
    if not holds_canasta(ruleset, kinds, melds):
        names = [getattr(ruleset.rules.canastas, kind).name for kind in kinds]
        raise Illegal(
            "initial-canasta",
            f"a side with {team_score} makes its first meld with a canasta "
            f"({' or '.join(names)}), and these melds hold none "
            f"({ruleset.cite('initial_meld.bands')})",
            "initial_meld.bands",
            points=points,
            minimum=needed,
        )
    return points, needed


def meld_points(ruleset: Ruleset, cards: Sequence[Card]) -> int:
    """The card points of melded cards."""
    points = ruleset.points
    return sum(points[card.index] for card in cards)


def counted_points(ruleset: Ruleset, melds: Sequence[Meld], top_card: Card | None = None) -> int:
    """What a side's melds of this turn count toward the minimum. ``top_card`` is the pile's
    top card, melded in ``melds[0]``: it counts only where the ruleset says so."""
    rule = ruleset.rules.initial_meld
    values = []
    for i, meld in enumerate(melds):
        value = meld_value(ruleset, meld.kind, meld.cards, meld.wilds)
        if value is None:
            continue
        if i == 0 and top_card is not None and not rule.counts_top_card:
            value -= ruleset.points[top_card.index]
        values.append(value)
    if not values:
        return 0
    return sum(values) if rule.several_melds else max(values)


def meld_value(ruleset: Ruleset, kind: str, cards: Sequence[Card], wilds: int) -> int | None:
    """What one meld of this kind (its cards, ``wilds`` of them wild) counts toward the
    minimum, the top card of the pile included; None where that kind does not count."""
    lim = limits(ruleset)
    if kind == "sequence" and not lim.counts_sequences:
        return None
    if kind == "wild" and not lim.counts_wild_melds:
        return None
    value = meld_points(ruleset, cards)
    if lim.counts_bonuses:
        canasta = canasta_kind(ruleset, kind, len(cards), wilds)
        if canasta is not None:
            value += canasta_bonus(ruleset, canasta, cards, wilds)
    return value


def verify_initial_meld(
    ruleset: Ruleset,
    team_score: int,
    melds: Sequence[Sequence[Card]],
    *,
    going_out: bool = False,
) -> tuple[int, int]:
    """(points, minimum) when laying ``melds`` as the side's first meld is legal; else
    :class:`Illegal` saying which meld is illegal or how far the points fall short.
    ``going_out``: the player goes out this turn (black threes may then be melded where the
    ruleset allows)."""
    if not melds:
        raise Illegal("no-meld", "a first meld needs at least one meld")
    laid = []
    failure: Illegal | None = None
    for i, cards in enumerate(melds):
        try:
            laid.append(verify_meld(ruleset, cards, going_out=going_out))
        except Illegal as exc:
            failure = failure or Illegal(exc.code, f"meld {i + 1} is not legal: {exc}", exc.rule)
    if failure is not None:
        failure.facts.update(
            points=counted_points(ruleset, laid), minimum=minimum(ruleset, team_score)
        )
        raise failure
    return verify_first_melds(ruleset, team_score, laid)
