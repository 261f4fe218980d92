"""The cards a table run takes at its ends (:meth:`SuitRuns.ends`) are kept by the run and,
across the hands of a ruleset, by what they depend on (the naturals' ranks, the wild cards,
the suit): every run met in play gets from the kept ends what working them out afresh gives."""

from __future__ import annotations

import random

import pytest

from bolivia.cards import SUIT_INDEX
from bolivia.engine.melds import Meld, natural_ranks
from bolivia.play.bots.expert import ExpertBot
from bolivia.play.table.hand import Hand
from bolivia.play.table.suit_runs import SuitRuns
from bolivia.rules.library import shipped_library

LIBRARY = shipped_library()


def _runs_met(ruleset_id: str, hands: int) -> list[Meld]:
    """Every run on the table after each action of ``hands`` expert hands (each once)."""
    ruleset = LIBRARY.load(ruleset_id)
    seen: dict[int, Meld] = {}
    for seed in range(hands):
        rng = random.Random(seed)
        hand = Hand.deal(ruleset, ruleset.rules.players.usual, rng)
        bot = ExpertBot()
        while not hand.over and hand.steps < 2000:
            hand.apply(bot.choose(hand, hand.choices(), rng))
            for side in hand.melds:
                for meld in side:
                    if meld.kind == "sequence":
                        seen.setdefault(id(meld), meld)
    return list(seen.values())


@pytest.mark.parametrize(
    "ruleset_id", ["bolivia-da", "bolivia-fr", "bolivia-zh", "bolivia-ko", "black-samba"]
)
def test_a_runs_ends_kept_are_its_ends(ruleset_id: str) -> None:
    ruleset = LIBRARY.load(ruleset_id)
    runs = _runs_met(ruleset_id, 6)  # (six: under -fr, four hands made no run twice)
    assert len(runs) > 10
    ruleset.__dict__.pop("_ends_by_run", None)  # (kept by an earlier test: start afresh)
    kept = SuitRuns(ruleset, ruleset.rules.players.usual)  # read through what is kept
    again = SuitRuns(ruleset, ruleset.rules.players.usual)
    shapes = set()
    for meld in runs:
        ranks = sorted(natural_ranks(kept.lim.wild, meld))
        suit = SUIT_INDEX[meld.suit or "C"]
        shapes.add((tuple(ranks), meld.wilds, suit))
        fresh = again._ends_of(ranks, meld.wilds, suit)
        assert kept.ends(meld) == fresh
        assert kept.ends(meld) == fresh  # (the second time, by the run itself)
    assert len(shapes) < len(runs)  # some runs were made again: read from what was kept
