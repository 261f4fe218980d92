"""Cards dealt aside that join a hand later: each player's foot (``deal.foot``) and the bonus
piles (``deal.bonus_piles``). Which of them a step takes up, and what keeps a player from
going out while they wait.

>>> from bolivia.rules.library import shipped_library
>>> from bolivia.cards import parse_cards
>>> from bolivia.engine.melds import verify_meld
>>> pennies = shipped_library().load("pennies-from-heaven")
>>> six = verify_meld(pennies, parse_cards(["KH", "KS", "KD"] * 2))
>>> seven = verify_meld(pennies, parse_cards(["KH", "KS", "KD"] * 2 + ["KC"]))
>>> before, after = canasta_total(pennies, [six]), canasta_total(pennies, [seven])
>>> taken_up(pennies, foot_aside=True, piles_left=False, canastas_before=before,
...          canastas_after=after, melded_before=True, melded_after=True, remaining=3)
(True, False)
>>> barred(pennies, foot_aside=True, piles_left=False, table=[seven])
'deal.foot'

A foot joins within the step that completes a canasta for the side (``taken: canasta``: the
side's canastas after the step outnumber those before) or that empties the hand
(``taken: hand_played_out``); the first bonus pile left joins with the step that is the side's
first meld (or completes its first canasta, as ``deal.bonus_piles_taken`` says). A player
whose foot is aside cannot go out, nor can a side that may still take a bonus pile.

May import: :mod:`bolivia.engine.going_out` and what it may.
"""

from __future__ import annotations

from collections.abc import Sequence

from bolivia.engine.going_out import canastas
from bolivia.engine.meld import Meld
from bolivia.rules.ruleset import Ruleset

__all__ = ["barred", "canasta_total", "taken_up"]


def canasta_total(ruleset: Ruleset, melds: Sequence[Meld]) -> int:
    """How many of these melds are canastas, of any kind (:func:`~bolivia.engine.going_out.
    canastas` counts them by kind)."""
    return sum(canastas(ruleset, melds).values())


def taken_up(
    ruleset: Ruleset,
    *,
    foot_aside: bool,
    piles_left: bool,
    canastas_before: int,
    canastas_after: int,
    melded_before: bool,
    melded_after: bool,
    remaining: int,
) -> tuple[bool, bool]:
    """Whether a step takes up the player's foot, and the next bonus pile.

    The step leaves the player ``remaining`` cards, and the side the canastas and melds it
    counts before and after.
    """
    deal = ruleset.rules.deal
    foot = deal.foot
    if foot_aside and foot is not None:
        joins = canastas_after > canastas_before if foot.taken == "canasta" else remaining == 0
    else:
        joins = False
    if deal.bonus_piles_taken == "first_canasta":
        pile = canastas_after > 0 and canastas_before == 0
    else:
        pile = melded_after and not melded_before
    return joins, piles_left and pile


def barred(ruleset: Ruleset, *, foot_aside: bool, piles_left: bool, table: Sequence[Meld]) -> str:
    """The rule keeping the player from going out, the side's melds being ``table``, or ``""``:
    a foot still aside, or a bonus pile the side may still take (before its first meld, or
    its first canasta, as ``deal.bonus_piles_taken`` says)."""
    if foot_aside:
        return "deal.foot"
    if piles_left:
        if ruleset.rules.deal.bonus_piles_taken == "first_canasta":
            waiting = canasta_total(ruleset, table) == 0
        else:
            waiting = not table
        if waiting:
            return "deal.bonus_piles"
    return ""
