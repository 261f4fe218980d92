"""The expert's weights per ruleset: where a ruleset plays differently enough that the weights
tuned on bolivia-da serve it badly.

:class:`~bolivia.play.bots.tables.Weights` holds the defaults, tuned on bolivia-da. Under a
ruleset named here (or one that extends it, nearest first) the expert plays with the values
below instead. Each was found by a coordinate search (each weight times 0.6, 0.8, 1.25, 1.6 in
turn, kept where the expert's share of hands won against greedy rose by more than 0.3 points)
on tuning deals kept apart from those that judge it, and confirmed on others; ``docs/bots.md``
gives the figures and the commands.

- **bolivia-fr** (two decks, eleven cards, an escalera to go out, most hands ended by the
  stock): tuned on deals 0-599 of seed 100 (the expert's share of hands won against greedy
  80.5% to 90.9%), judged on deals 0-999 of seed 777: 82.5% with the defaults, 90.8% with
  these. A natural pair kept to take the pile is worth twice as much (60 points, not 30), a
  group the hand could make a quarter more (0.625 of its value, not 0.5), a run toward an
  escalera less (0.27, not 0.45), and the risk of being caught with the cards in hand about
  half (0.168, not 0.35): in a two-deck game of eleven cards the pile decides more hands, and
  the stock ends most of them before anyone goes out. A trio's card is no dearer to throw than
  another (``trio`` 0, not 100): keeping trios cost the expert here (-93 points a hand
  [-230, +44] on deals 0-299 of seed 6, -253 [-458, -47] on 0-149 of seed 5, against the expert
  without the club's two rules of thumb), where the same rule cost nothing under the others;
  with 8 cards of a rank, the third of a trio is the discard the next player can least use.

May import: the rules and the bots' tables.
"""

from __future__ import annotations

from typing import Final

from bolivia.play.bots.tables import Weights
from bolivia.rules.ruleset import Ruleset

__all__ = ["TUNED", "weights_for"]

#: ruleset id -> the weights that differ from the defaults there
TUNED: Final[dict[str, dict[str, float]]] = {
    "bolivia-fr": {"pair": 60.0, "hand": 0.625, "run": 0.27, "risk": 0.168, "trio": 0.0},
}


def weights_for(ruleset: Ruleset) -> Weights:
    """The expert's weights under this ruleset: the tuned values of the nearest of it and the
    rulesets it extends that :data:`TUNED` names, else the defaults.

    >>> from bolivia.rules.library import shipped_library
    >>> library = shipped_library()
    >>> weights_for(library.load("bolivia-da")).same(Weights())
    True
    >>> weights_for(library.load("bolivia-fr")).pair
    60.0
    """
    weights = Weights()
    for rid in reversed(ruleset.chain):  # itself first, then its bases
        tuned = TUNED.get(rid)
        if tuned is not None:
            for name, value in tuned.items():
                setattr(weights, name, value)
            break
    return weights
