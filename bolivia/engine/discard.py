"""The discard: cards a player may not discard until a condition holds, or to go out. Decided
by ``pile.discard_barred`` of the ruleset (Pennies from Heaven: no seven until every side has a
canasta of sevens, and never a seven to go out; Cuban Canasta: no black three in the hand's
first round of turns).

>>> from bolivia.rules.library import shipped_library
>>> from bolivia.rules.variants import with_values
>>> from bolivia.cards import Card
>>> bar = {"cards": ["7"], "until": "never", "going_out": True}
>>> rules = with_values(shipped_library().load("canasta"), {"pile.discard_barred": [bar]}, "x")
>>> barred(rules, Card.parse("7H"), [[], []], 0)
0
>>> barred(rules, Card.parse("8H"), [[], []], 0)
-1

Where every card the player holds is barred, a bar yields for a discard that does not go out:
a turn ends with a discard, and no rulebook says what a player holding only barred cards does.
A discard that goes out is barred as the bar says.

May import: :mod:`bolivia.engine.going_out` and what it may.
"""

from __future__ import annotations

from collections.abc import Sequence

from bolivia.cards import Card
from bolivia.engine.going_out import meets_canastas
from bolivia.engine.meld import Meld
from bolivia.errors import Illegal
from bolivia.rules.model import DiscardBar
from bolivia.rules.ruleset import Ruleset

__all__ = ["barred", "barred_key", "verify_discard_card"]

RULE = "pile.discard_barred"


def barred_key(card: Card) -> str:
    """How a bar names the card: its rank, ``black_three`` or ``JK``."""
    if card.is_joker:
        return "JK"
    return "black_three" if card.is_black_three else card.rank


def barred(
    ruleset: Ruleset,
    card: Card,
    melds: Sequence[Sequence[Meld]],
    team: int,
    *,
    going_out: bool = False,
    first_round: bool = False,
) -> int:
    """The position in ``pile.discard_barred`` of the first bar that keeps the card from the
    discard (-1: none), the sides' melds being ``melds`` and the player's side ``team``;
    ``going_out``: the discard would go out; ``first_round``: the turn is in the hand's first
    round of turns."""
    bars = ruleset.rules.pile.discard_barred
    if not bars:
        return -1
    key = barred_key(card)
    for i, bar in enumerate(bars):
        if key in bar.cards and (
            (going_out and bar.going_out) or not _lifted(ruleset, bar, melds, team, first_round)
        ):
            return i
    return -1


def _lifted(
    ruleset: Ruleset,
    bar: DiscardBar,
    melds: Sequence[Sequence[Meld]],
    team: int,
    first_round: bool,
) -> bool:
    """Whether the bar's condition holds."""
    if bar.until == "first_round":
        return not first_round
    if bar.until == "never" or bar.canasta is None:
        return False
    need = {bar.canasta: 1}
    sides = [melds[team]] if bar.until == "side_canasta" else melds
    return all(meets_canastas(ruleset, side, 1, need) for side in sides)


def verify_discard_card(
    ruleset: Ruleset,
    card: Card,
    held: Sequence[Card],
    melds: Sequence[Sequence[Meld]],
    team: int,
    *,
    going_out: bool,
    first_round: bool = False,
) -> None:
    """Nothing where the player may discard ``card`` from ``held`` (the hand, the card among
    them); else :class:`Illegal` naming the bar. A discard that does not go out is allowed
    where every card held is barred."""
    found = barred(ruleset, card, melds, team, going_out=going_out, first_round=first_round)
    if found < 0:
        return
    if not going_out and all(
        barred(ruleset, c, melds, team, first_round=first_round) >= 0 for c in held
    ):
        return  # nothing else to discard: the bar yields
    bar = ruleset.rules.pile.discard_barred[found]
    if going_out and bar.going_out:
        why = f"{card!r} may not be the discard that goes out"
    elif bar.until == "never":
        why = f"{card!r} may not be discarded"
    elif bar.until == "first_round":
        why = f"{card!r} may not be discarded in the hand's first round of turns"
    else:
        who = "the player's side has" if bar.until == "side_canasta" else "every side has"
        why = f"{card!r} may not be discarded until {who} {_a(bar.canasta or '')}"
    raise Illegal("discard-barred", f"{why} ({ruleset.cite(RULE)})", RULE)


def _a(name: str) -> str:
    """A canasta named by a bar, with its article."""
    kinds = {"natural": "a natural canasta", "mixed": "a mixed canasta"}
    kinds |= {"escalera": "an escalera", "bolivia": "a bolivia"}
    return kinds.get(name, f"a {name}")
