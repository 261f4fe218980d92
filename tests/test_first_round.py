"""A whole round of turns before anyone melds, and the dealer's exact take (issue 42, a Danish
family's Canasta): ``initial_meld.after_first_round`` and ``scoring.exact_deal_bonus``.

The verify path refuses a meld, a pickup and a way out in the hand's first round
(``first-round``); the bots' lists and the way-out search offer none; the score counts the
exact take where a score request says so, and refuses it where the ruleset has no such bonus.
The conformance cases of ``rule-fields`` hold the oracle's answers.
"""

from __future__ import annotations

import random

import pytest

from bolivia.authoring.rulebook import render_rulebook
from bolivia.cards import parse_cards
from bolivia.engine.melds import verify_meld
from bolivia.engine.scoring import TeamHand, score_hand
from bolivia.errors import BadRequest, Illegal
from bolivia.language import gettext_, speaking
from bolivia.play.table.actions import Discard, Draw, GoOut, Lay, TakePile
from bolivia.play.table.hand import Hand
from bolivia.rules.library import shipped_library

from .hands import hands_end_by_a_rule

LIBRARY = shipped_library()
DANISH = LIBRARY.load("danish-family-canasta")
CANASTA = LIBRARY.load("canasta")


def test_each_player_s_first_turn_is_a_draw_and_a_discard() -> None:
    hand = Hand.deal(DANISH, 4, random.Random(2))
    for turn in range(4):
        assert hand.first_round == 4 - turn
        assert all(isinstance(a, Draw) for a in hand.legal_actions())
        hand.apply(Draw())
        played = hand.legal_actions()
        assert played and all(isinstance(a, Discard) for a in played)
        assert all(isinstance(a, Discard) for a in hand.choices())
        assert hand.go_out_lines(3) == []
        hand.apply(played[0])
    assert hand.first_round == 0


def test_a_meld_a_pickup_and_a_way_out_are_refused_in_the_first_round() -> None:
    hand = Hand.deal(DANISH, 4, random.Random(5))
    kings = parse_cards(["KC", "KD", "KH"])
    refused = [TakePile(kings[:2])]  # before drawing
    hand_after = hand.copy()
    hand_after.apply(Draw())
    for action in (TakePile(kings[:2]), Lay((kings,)), GoOut((kings,), (), None, ())):
        target = hand if action in refused else hand_after
        with pytest.raises(Illegal) as caught:
            target.verify(action)
        assert (caught.value.code, caught.value.rule) == (
            "first-round",
            "initial_meld.after_first_round",
        ), action


def test_the_exact_take_scores_for_the_dealer_s_side_only_where_the_rules_say() -> None:
    kings = verify_meld(DANISH, parse_cards(["KC", "KD", "KH"]))
    teams = [TeamHand(melds=(kings,), exact_deal=True), TeamHand(melds=(kings,))]
    first, second = score_hand(DANISH, teams)
    assert first.bonuses - second.bonuses == 100
    with pytest.raises(BadRequest, match=r"scoring\.exact_deal_bonus"):
        score_hand(CANASTA, teams)


def test_simulated_deals_never_score_the_exact_take() -> None:
    hand = Hand.deal(DANISH, 4, random.Random(1))
    assert not any(team.exact_deal for team in hand.positions())


def test_greedy_random_and_expert_hands_end_by_a_rule() -> None:
    hands_end_by_a_rule(DANISH, 23, (("greedy", 8), ("random", 3), ("expert", 2)))


@pytest.mark.parametrize("lang", ["en", "fr", "da", "zh", "ko"])
def test_the_rulebook_tells_both_rules_in_every_language(lang: str) -> None:
    with speaking(lang):
        sources = LIBRARY.sources_for(DANISH.path) if DANISH.path else LIBRARY.sources
        text = render_rulebook(DANISH, sources=sources, lang=lang)
        wait = gettext_(
            "Nobody lays cards down in the hand's first round of turns: each player's first "
            "turn is a draw and a discard, with no pile taken and no going out."
        )
        take = gettext_(
            "A dealer who takes up from the pack exactly the cards the deal needs scores "
            "%(bonus)s for the side."
        )
    assert wait in text
    assert take.split("%(bonus)s")[0].strip() in text
    if lang != "en":
        assert not wait.startswith("Nobody lays") and not take.startswith("A dealer")
