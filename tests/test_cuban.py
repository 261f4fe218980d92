"""Cuban Canasta (issue 42): a bar on the discard for the hand's first round of turns
(``pile.discard_barred`` ``until: first_round``) and black threes taken with the pile set aside
for points (``pile.black_threes_aside``), read by the hand, the oracle (a position's
``first_round`` and ``black_threes``, a ``score`` team's ``black_threes``), the bots' moves and
ways out, scoring, ``validate`` and the rulebook in every language shipped.
"""

from __future__ import annotations

from typing import Any

import pytest

from bolivia.authoring.rulebook import render_rulebook
from bolivia.engine.scoring import black_three_score
from bolivia.errors import RulesetError
from bolivia.language import gettext_, speaking
from bolivia.play.batch.seeds import derive_seed
from bolivia.play.batch.simulate import RULE_ENDINGS, play_hand
from bolivia.play.bots.registry import make_bot
from bolivia.play.table.actions import Discard, Draw, TakePile
from bolivia.play.table.hand import Hand
from bolivia.play.table.position import hand_at, position_of
from bolivia.rules.library import shipped_library
from bolivia.rules.variants import with_values
from bolivia.verify.oracle import Oracle

from .test_moves import check_moves_and_ways_out

LIBRARY = shipped_library()
CUBAN = LIBRARY.load("cuban-canasta")
HANDS = [
    ["4C", "4D", "5C", "5D", "6C", "6D", "7C", "7D", "8C", "8D", "9C", "9D", "10C"],
    ["3C", "9H", "9S", "JH", "JS", "QH", "QS", "KH", "KS", "AH", "AS", "5H", "6H"],
    ["4H", "4S", "5S", "6S", "7H", "7S", "8H", "8S", "10H", "10S", "QC", "QD", "KC"],
    ["JC", "JD", "KD", "AC", "AD", "2C", "2D", "2H", "2S", "JK", "JK", "10D", "6S"],
]


def _ask(op: str, ruleset: str = "cuban-canasta", **fields: Any) -> dict[str, Any]:
    answer = Oracle().handle({"id": 1, "op": op, "ruleset": ruleset, **fields})
    assert answer["ok"], answer
    result: dict[str, Any] = answer["result"]
    return result


def _discard(card: str, hands: list[list[str]], **position: Any) -> dict[str, Any]:
    where = {"turn": 1, "phase": "play", "hands": hands, **position}
    return _ask("act", position=where, action={"type": "discard", "card": card})


def test_a_black_three_is_kept_from_the_discard_in_the_first_round_only() -> None:
    for left in (4, 3, 1):
        refused = _discard("3C", HANDS, first_round=left)
        assert refused["legal"] is False and refused["code"] == "discard-barred", refused
        assert "in the hand's first round of turns" in refused["reason"]
    assert _discard("3C", HANDS)["legal"] is True  # first_round 0: the round is over
    assert _discard("9H", HANDS, first_round=3)["legal"] is True


def test_a_player_holding_only_black_threes_in_the_first_round_may_discard_one() -> None:
    hands = [list(h) for h in HANDS]
    hands[1] = ["3C", "3S"]
    assert _discard("3C", hands, first_round=3)["legal"] is True


def test_the_hand_counts_its_first_round() -> None:
    """At the deal every player's turn is to come; after each player's first turn the round is
    over, and a position carries what is left of it both ways."""
    deck = sorted(card.index for card in CUBAN.pack.cards())
    hand = Hand(CUBAN, 4, deck, first=2)
    assert hand.first_round == 4
    seen = []
    while not hand.over and len(seen) < 6:
        seen.append(hand.first_round)
        position = position_of(hand)
        assert position.get("first_round", 0) == hand.first_round
        assert hand_at(CUBAN, position).first_round == hand.first_round
        hand.apply(Draw())  # a turn: draw, then the first discard allowed
        hand.apply(next(a for a in hand.legal_actions() if isinstance(a, Discard)))
    assert seen == [4, 3, 2, 1, 0, 0]


def test_a_position_s_first_round_is_bounded() -> None:
    answer = Oracle().handle(
        {
            "op": "act",
            "ruleset": "cuban-canasta",
            "position": {"hands": HANDS, "first_round": 5},
            "action": {"type": "draw"},
        }
    )
    assert answer["ok"] is False and "first_round is 5: a round is 4 turns" in str(answer)


PILE_TAKEN = {
    "phase": "draw",
    "hands": [["8D", "8S", "5H", "6H"], ["4C", "4D"], ["5C", "5D"], ["6C", "6D"]],
    "melds": [[["KH", "KS", "KD"]], []],
    "pile": ["3C", "9D", "3S", "8C"],
}


def test_black_threes_taken_with_the_pile_are_set_aside_for_the_side() -> None:
    take = {"type": "take_pile", "with": ["8D", "8S"]}
    assert _ask("act", position=PILE_TAKEN, action=take)["hand_size"] == 3
    assert _ask("act", "canasta", position=PILE_TAKEN, action=take)["hand_size"] == 5
    hand = hand_at(CUBAN, PILE_TAKEN)
    pickup = next(
        a for a in hand.legal_actions() if isinstance(a, TakePile) and a.with_cards is not None
    )
    hand.apply(pickup)
    assert hand.black_threes == [2, 0] and hand.conserved()
    assert position_of(hand)["black_threes"] == [2, 0]
    again = hand_at(CUBAN, position_of(hand))
    assert again.black_threes == [2, 0] and again.conserved()


def test_black_threes_set_aside_score_each_or_all_four() -> None:
    assert [black_three_score(CUBAN, n) for n in range(5)] == [0, 5, 10, 15, 100]
    teams = [{"melds": [["KH", "KS", "KD"]], "black_threes": 3}, {"melds": [["QC", "QD", "QH"]]}]
    scored = _ask("score", teams=teams)["teams"]
    assert scored[0]["bonuses"] == 15 and scored[0]["total"] == 45


@pytest.mark.parametrize(
    ("ruleset", "teams", "says"),
    [
        ("canasta", [{"melds": [], "black_threes": 1}, {"melds": []}], "sets no black three"),
        ("cuban-canasta", [{"melds": [], "black_threes": -1}, {"melds": []}], "negative"),
        ("cuban-canasta", [{"melds": [], "black_threes": 5}, {"melds": []}], "5 black threes"),
    ],
)
def test_black_threes_a_score_request_cannot_hold_are_refused(
    ruleset: str, teams: list[dict[str, Any]], says: str
) -> None:
    answer = Oracle().handle({"op": "score", "ruleset": ruleset, "teams": teams})
    assert answer["ok"] is False and says in answer["error"]["message"], answer


def test_a_position_counts_black_threes_set_aside_only_where_the_rules_set_them_aside() -> None:
    position = {**PILE_TAKEN, "black_threes": [1, 0]}
    answer = Oracle().handle(
        {"op": "act", "ruleset": "canasta", "position": position, "action": {"type": "draw"}}
    )
    assert answer["ok"] is False and "sets none aside" in answer["error"]["message"]
    assert hand_at(CUBAN, position).black_threes == [1, 0]


def test_a_first_round_bar_that_names_a_canasta_is_refused() -> None:
    bar = {"cards": ["black_three"], "until": "first_round", "canasta": "natural"}
    with pytest.raises(RulesetError, match="lifts after the first round"):
        with_values(LIBRARY.load("canasta"), {"pile.discard_barred": [bar]}, "x")


def test_moves_and_ways_out_agree_with_brute_force() -> None:
    check_moves_and_ways_out(CUBAN, deals=8)


def test_greedy_and_random_hands_end_by_a_rule_with_every_card_accounted_for() -> None:
    aside = 0
    for bot, count in (("greedy", 12), ("random", 3)):
        for n in range(count):
            bots = [make_bot(bot) for _ in range(4)]
            stats, hand = play_hand(CUBAN, 4, derive_seed(42, n), bots, first=n % 4)
            assert stats.ended_by in RULE_ENDINGS and stats.conserved, (bot, n)
            aside += sum(hand.black_threes)
    assert aside > 0  # the rule was met in play, not only in the cases


@pytest.mark.parametrize("lang", ["en", "fr", "da", "zh", "ko"])
def test_the_rulebook_says_both_rules_in_every_language(lang: str) -> None:
    with speaking(lang):
        sources = LIBRARY.sources_for(CUBAN.path) if CUBAN.path else LIBRARY.sources
        text = render_rulebook(CUBAN, sources=sources, lang=lang)
        first = gettext_("{cards} in the hand's first round of turns")
        among = gettext_("Black threes among them do not: they are %(aside)s.")
    assert first.split("{cards}")[1].strip() in text
    assert among.split("%(aside)s")[0].strip() in text
    assert "not loaded" not in text
    if lang != "en":
        assert first != "{cards} in the hand's first round of turns"
        assert among != "Black threes among them do not: they are %(aside)s."
