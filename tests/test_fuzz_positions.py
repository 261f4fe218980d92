"""Fuzzing the oracle's positions (issue 41): ``moves`` and ``act`` on positions of real hands,
swollen with cards from the rest of the pack (up to fifty in a hand, wild cards among them),
in every phase.

Every answer is one of the protocol's (a result, or an error of a known code: ``too-costly``
where the position offers more than the oracle checks); every move ``moves`` lists is one
``act`` allows; and no answer takes the work of the 38-card positions that once ran for
minutes and hundreds of MB (the bounds of ``tests/test_budgets.py``). Examples follow the
Hypothesis profile: ``HYPOTHESIS_PROFILE=thorough python -P -m pytest
tests/test_fuzz_positions.py`` runs 2,000 of each.
"""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bolivia.cards import Card
from bolivia.engine.limits import limits
from bolivia.play.batch.seeds import derive_seed
from bolivia.play.bots.registry import make_bot
from bolivia.play.table.hand import Hand
from bolivia.play.table.position import position_of
from bolivia.rules.library import shipped_library
from bolivia.verify.oracle import Oracle

from .hands import played
from .test_oracle import CODES

LIBRARY = shipped_library()
ORACLE = Oracle()
RULESETS = ("bolivia-da", "bolivia-fr", "samba", "canasta")


def _played(ruleset_id: str, seed: int, steps: int) -> Hand:
    """A hand of random bots after ``steps`` actions (or at its end)."""
    ruleset = LIBRARY.load(ruleset_id)
    deal = random.Random(derive_seed(41, seed))
    return played(ruleset, ruleset.rules.players.usual, deal, make_bot("random"), steps, deal)


def _swollen(hand: Hand, grow: int, picks: random.Random) -> dict[str, Any]:
    """The hand's position, with ``grow`` cards of the stock (no three among them), chosen by
    ``picks``, moved into the hand of the player to act."""
    position = position_of(hand)
    left = [0] * 53
    for i in limits(hand.ruleset).pack:
        left[i] += 1
    named = [c for cards in position["hands"] for c in cards]
    named += [c for side in position.get("melds", []) for meld in side for c in meld]
    named += position.get("pile", [])
    for code in named:
        left[Card.parse(code).index] -= 1
    pool = [
        repr(Card.from_index(i))
        for i, n in enumerate(left)
        if not 4 <= i < 8  # no threes: red threes are laid out, not held
        for _ in range(max(n, 0))
    ]
    if not hand.over:
        actor = hand.current if hand.phase != "answer" else hand.asker
        # the cards come from the stock, as if drawn (the position keeps its count right)
        for _ in range(min(grow, position["stock"], len(pool))):
            position["hands"][actor].append(pool.pop(picks.randrange(len(pool))))
            position["stock"] -= 1
    return position


@settings(suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(
    ruleset=st.sampled_from(RULESETS),
    seed=st.integers(0, 10_000),
    steps=st.integers(0, 150),
    grow=st.integers(0, 40),
    picks=st.randoms(use_true_random=False),
)
def test_moves_and_act_answer_every_position(
    ruleset: str, seed: int, steps: int, grow: int, picks: random.Random
) -> None:
    position = _swollen(_played(ruleset, seed, steps), grow, picks)
    moves = ORACLE.handle({"op": "moves", "ruleset": ruleset, "position": position})
    if not moves["ok"]:
        assert moves["error"]["code"] in CODES, moves
        return
    listed = moves["result"]["moves"]
    assert moves["result"]["count"] == len(listed)
    for move in listed[:: max(1, len(listed) // 4)][:4]:
        acted = ORACLE.handle(
            {"op": "act", "ruleset": ruleset, "position": position, "action": move}
        )
        if acted["ok"]:
            assert acted["result"]["legal"] is True, (move, acted)
        else:  # a verdict past the oracle's bounds, never a wrong one
            assert acted["error"]["code"] == "too-costly", (move, acted)
    json.dumps(moves)  # the answer is JSON as it stands
