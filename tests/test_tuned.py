"""The expert's weights per ruleset (``bolivia.play.bots.tuned``): a tuned ruleset's values,
inherited by the rulesets that extend it, the defaults elsewhere, and weights given to the bot
taking precedence."""

from __future__ import annotations

import random
from pathlib import Path

from bolivia.authoring.house import derive
from bolivia.play.bots.expert import ExpertBot
from bolivia.play.bots.tables import Weights
from bolivia.play.bots.tuned import TUNED, weights_for
from bolivia.play.table.hand import Hand
from bolivia.rules.library import Library, shipped_library

LIBRARY = shipped_library()


def test_a_tuned_ruleset_and_those_extending_it_get_its_weights(tmp_path: Path) -> None:
    tuned = TUNED["bolivia-fr"]
    assert tuned and all(getattr(Weights(), k) != v for k, v in tuned.items())
    french = weights_for(LIBRARY.load("bolivia-fr"))
    assert {k: getattr(french, k) for k in tuned} == tuned
    target = tmp_path / "club.yaml"
    derive("club", "bolivia-fr", ["game.target=10000"], target, LIBRARY, why="the club's way")
    club = Library([tmp_path]).load(target)
    assert weights_for(club).same(french)  # a house ruleset on bolivia-fr plays as it
    for rid in ("bolivia-da", "bolivia-zh", "bolivia-ko", "canasta"):
        assert weights_for(LIBRARY.load(rid)).same(Weights()), rid


def test_the_expert_plays_a_ruleset_with_its_weights_unless_given_others() -> None:
    french = Hand.deal(LIBRARY.load("bolivia-fr"), 4, random.Random(1))
    danish = Hand.deal(LIBRARY.load("bolivia-da"), 4, random.Random(1))
    bot = ExpertBot()
    assert bot.weights_for(french).same(weights_for(french.ruleset))
    assert bot.weights_for(danish).same(Weights())
    assert bot.weights_for(french).same(weights_for(french.ruleset))  # read again after another
    given = Weights()
    given.pile = 2.0
    assert ExpertBot(given).weights_for(french) is given
