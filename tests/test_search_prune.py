"""The search's pruning (``prune``): an alternative clearly worse than the expert's choice, or
playing out exactly as it does, stops being played out; the choices stay the full search's
where the samples make them clear, for fewer playouts."""

from __future__ import annotations

import random

import pytest

from bolivia.play.bots.expert import ExpertBot
from bolivia.play.bots.registry import make_bot
from bolivia.play.bots.search import PRUNE_STEP, SearchBot, _dropped
from bolivia.play.table.actions import Action
from bolivia.play.table.hand import Hand
from bolivia.rules.library import shipped_library


@pytest.mark.parametrize(
    ("scores", "base", "z", "dropped"),
    [
        ([0.0, -100.0], [100.0, 0.0], 1.0, True),  # 100 below on both samples: no spread
        ([5.0, 7.0], [5.0, 7.0], 1.0, True),  # plays out as the choice does
        ([-10.0, -30.0, -20.0], [0.0, 0.0, 0.0], 1.0, True),  # 20 below, 10 spread: 3.5 SE
        ([-10.0, -30.0, -20.0], [0.0, 0.0, 0.0], 4.0, False),  # not by 4 SE
        ([-100.0, 80.0], [0.0, 0.0], 1.0, False),  # below on average, far from clearly
        ([10.0, 30.0], [0.0, 0.0], 1.0, False),  # better
        ([1.0, 1.0], [0.0, 0.0], 1.0, False),  # better every time, no spread
        ([0.0, -100.0], [100.0, 0.0], 0.0, False),  # prune=0: never
        ([-100.0], [0.0], 1.0, False),  # one sample: no spread to judge by
    ],
)
def test_an_alternative_is_dropped_only_when_clearly_worse(
    scores: list[float], base: list[float], z: float, dropped: bool
) -> None:
    assert _dropped(scores, base, z) is dropped


def _searched_decisions(spec: str, seed: int) -> list[tuple[Hand, list[Action], int, Action]]:
    """The decisions a hand of ``spec`` searched: the hand (a copy), the actions, the state of
    the bot's random draws before the choice, and the choice."""
    ruleset = shipped_library().load("bolivia-da")
    hand = Hand.deal(ruleset, 4, random.Random(seed))
    bot = make_bot(spec)
    assert isinstance(bot, SearchBot)
    expert = ExpertBot()
    found = []
    while not hand.over:
        actions = hand.choices()
        options = expert.consider(hand, actions)[: bot.width]
        draw = random.Random(hand.steps).getrandbits(32)
        chosen = bot.choose(hand, actions, random.Random(draw))
        if len(actions) > 1 and len(options) > 1 and bot.searches(options):
            found.append((hand.copy(), list(actions), draw, chosen))
        hand.apply(chosen)
    return found


def test_pruning_keeps_the_full_searchs_choices_for_fewer_playouts() -> None:
    full = "search:playouts=6,width=3,prune=0"
    decisions = [d for seed in (3, 11, 17, 23, 29) for d in _searched_decisions(full, seed)]
    assert len(decisions) >= 20
    unpruned = make_bot(full)
    pruned = make_bot("search:playouts=6,width=3")
    assert isinstance(unpruned, SearchBot) and isinstance(pruned, SearchBot)
    assert pruned.prune == 1.0  # the default
    same = departures = kept = 0
    for hand, actions, draw, chosen in decisions:
        assert unpruned.choose(hand, actions, random.Random(draw)) == chosen  # deterministic
        mine = pruned.choose(hand, actions, random.Random(draw))
        assert mine in actions
        same += mine == chosen
        departed = chosen != ExpertBot().choose(hand, actions, random.Random(0))
        departures += departed
        kept += departed and mine == chosen
    # every searched decision plays each option at least PRUNE_STEP samples, the full search
    # every option on every sample
    options = sum(min(len(ExpertBot().consider(h, a)), 3) for h, a, _, _ in decisions)
    assert unpruned.played == 6 * options
    assert PRUNE_STEP * options <= pruned.played < 0.8 * unpruned.played
    # where the full search chose otherwise than the expert, so does the pruned (pruning every
    # alternative would keep none); elsewhere nearly always the same choice
    assert kept == departures >= 1
    assert same >= 0.9 * len(decisions)


def test_prune_is_a_budget_key_named_back_as_given() -> None:
    assert make_bot("search:prune=0.50,playouts=8").name == "search:playouts=8,prune=0.5"
    bot = make_bot("search:prune=0")
    assert isinstance(bot, SearchBot) and bot.prune == 0.0
