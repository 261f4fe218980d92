"""No card turned up at the deal (issue 42, Modern American Canasta): ``deal.upcard: false``.

The pile starts empty and the first discard starts it. The oracle's ``upcard`` op, the played
hand's deal (both through :func:`bolivia.engine.pile.turn_up`) and the rulebook read it.
"""

from __future__ import annotations

import random

import pytest

from bolivia.authoring.rulebook import render_rulebook
from bolivia.cards import Pack
from bolivia.play.batch.simulate import play_hand
from bolivia.play.bots.registry import make_bot
from bolivia.play.table.actions import Draw
from bolivia.play.table.hand import Hand
from bolivia.rules.library import shipped_library
from bolivia.rules.ruleset import Ruleset
from bolivia.rules.variants import with_values
from bolivia.verify.oracle import Oracle

LIBRARY = shipped_library()


def _house(base: str = "canasta") -> Ruleset:
    return with_values(LIBRARY.load(base), {"deal.upcard": False}, "no-upcard")


def test_the_oracle_turns_up_no_card() -> None:
    oracle = Oracle(LIBRARY)
    oracle.register(_house())
    stock = ["JK", "3H", "5C"]  # a wild card and a red three: covered where one is turned up
    answer = oracle.handle({"id": 1, "op": "upcard", "ruleset": "no-upcard", "stock": stock})
    assert answer == {"id": 1, "ok": True, "result": {"pile": []}}
    base = Oracle(LIBRARY).handle({"id": 1, "op": "upcard", "ruleset": "canasta", "stock": stock})
    assert base["result"]["pile"] == ["JK", "3H", "5C"]


@pytest.mark.parametrize("base", ["canasta", "samba", "bolivia-da"])
def test_a_hand_starts_with_an_empty_pile_that_cannot_be_taken(base: str) -> None:
    pack = LIBRARY.load(base).rules.pack
    deck = [card.index for card in Pack(pack.decks, pack.jokers).cards()]
    random.Random(7).shuffle(deck)
    players = LIBRARY.load(base).rules.players.usual
    turned = Hand(LIBRARY.load(base), players, deck)
    hand = Hand(_house(base), players, deck)
    assert hand.pile == [] and turned.pile
    assert Draw() in hand.legal_actions()
    assert not any(type(a).__name__ == "TakePile" for a in hand.legal_actions())


@pytest.mark.parametrize("base", ["canasta", "samba", "bolivia-da"])
def test_hands_without_an_upcard_play_to_an_end_by_a_rule(base: str) -> None:
    ruleset = _house(base)
    players = ruleset.rules.players.usual
    bots = [make_bot("greedy") for _ in range(players)]
    for seed in range(20):
        stats, _ = play_hand(ruleset, players, seed, bots, check="every")
        assert stats.completed, stats.ended_by


@pytest.mark.parametrize("language", ["en", "fr", "da", "zh", "ko"])
def test_the_rulebook_says_no_card_is_turned_up(language: str) -> None:
    house = render_rulebook(_house(), lang=language)
    base = render_rulebook(LIBRARY.load("canasta"), lang=language)
    added = set(house.splitlines()) - set(base.splitlines())
    assert added  # the deal's sentence and the changes at the top differ
    if language == "en":
        assert "no card is turned up" in house
        assert "another card is turned up on top of it" not in house
