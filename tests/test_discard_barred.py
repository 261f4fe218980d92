"""Cards barred from the discard (issue 42): ``pile.discard_barred``.

Pennies from Heaven keeps sevens from the discard until every side has a canasta of sevens,
and never lets a seven be the discard that goes out. Where every card a player holds is
barred, a discard that does not go out is allowed (decided: a turn ends with a discard, and
no rulebook says otherwise); a player may not meld down to a last card barred from going out.
The oracle, the bots' moves and ways out, ``validate`` and the rulebook read it.
"""

from __future__ import annotations

from typing import Any

import pytest

from bolivia.authoring.rulebook import render_rulebook
from bolivia.errors import RulesetError
from bolivia.language import gettext_, speaking
from bolivia.play.batch.simulate import play_hand
from bolivia.play.bots.registry import make_bot
from bolivia.rules.library import shipped_library
from bolivia.rules.ruleset import Ruleset
from bolivia.rules.variants import with_values
from bolivia.verify.oracle import Oracle

from .test_moves import check_moves_and_ways_out

LIBRARY = shipped_library()
SEVENS = {"name": "canasta of sevens", "kind": "natural", "rank": "7", "bonus": 1500}
BAR = {"cards": ["7"], "until": "every_side_canasta", "canasta": "canasta of sevens"}
SEVEN_SEVENS = ["7H", "7H", "7S", "7S", "7D", "7D", "7C"]
KINGS = ["KH", "KS", "KD"]


def _house(bar: dict[str, Any] | None = None) -> Ruleset:
    changes = {"canastas.special": [SEVENS], "pile.discard_barred": [bar or BAR]}
    return with_values(LIBRARY.load("canasta"), changes, "no-sevens")


def _act(position: dict[str, Any], action: dict[str, Any], bar: Any = None) -> dict[str, Any]:
    oracle = Oracle(LIBRARY)
    oracle.register(_house(bar))
    request = {"id": 1, "op": "act", "ruleset": "no-sevens", "position": position}
    answer = oracle.handle({**request, "action": action})
    assert answer["ok"], answer
    result: dict[str, Any] = answer["result"]
    return result


def _position(hand: list[str], ours: list[list[str]], theirs: list[list[str]]) -> dict[str, Any]:
    other = ["4C", "4D", "5C", "5D", "6C"]
    return {"phase": "play", "hands": [hand, other], "melds": [ours, theirs], "players": 2}


def test_a_seven_is_kept_from_the_discard_until_every_side_has_a_canasta_of_sevens() -> None:
    discard = {"type": "discard", "card": "7C"}
    refused = _act(_position(["7C", "9H", "9S"], [KINGS], []), discard)
    assert refused["legal"] is False and refused["rule"] == "pile.discard_barred", refused
    assert refused["code"] == "discard-barred"
    assert "until every side has a canasta of sevens" in refused["reason"]
    # the player's side has one, the other side none: barred while every side needs one,
    # lifted where the player's side's is enough
    ours = _position(["7C", "9H", "9S"], [SEVEN_SEVENS], [KINGS])
    assert _act(ours, discard)["legal"] is False
    assert _act(ours, discard, {**BAR, "until": "side_canasta"})["legal"] is True


def test_another_card_may_be_discarded() -> None:
    assert _act(_position(["7C", "9H", "9S"], [KINGS], []), {"type": "discard", "card": "9H"})[
        "legal"
    ]


def test_a_player_holding_only_barred_cards_may_discard_one() -> None:
    result = _act(_position(["7C", "7D"], [KINGS], []), {"type": "discard", "card": "7C"})
    assert result["legal"] is True, result


def test_a_seven_is_never_the_discard_that_goes_out() -> None:
    bar = {**BAR, "until": "side_canasta", "going_out": True}
    melds = [SEVEN_SEVENS, ["KH", "KH", "KS", "KS", "KD", "KD", "KC"]]
    refused = _act(_position(["7C"], melds, []), {"type": "discard", "card": "7C"}, bar)
    assert refused["legal"] is False and "may not be the discard that goes out" in refused["reason"]
    out = _act(_position(["9C"], melds, []), {"type": "discard", "card": "9C"}, bar)
    assert out["legal"] is True and out["over"] is True, out


def test_melding_down_to_a_last_seven_that_cannot_go_out_is_refused() -> None:
    bar = {**BAR, "until": "never", "canasta": None, "going_out": False}
    lay = {"type": "lay", "melds": [["9H", "9S", "9D"]]}
    refused = _act(_position(["9H", "9S", "9D", "7C"], [KINGS], []), lay, bar)
    assert refused["legal"] is False and refused["code"] == "discard-barred", refused
    assert "leaves only 7C" in refused["reason"]


def test_validate_says_what_a_bar_lacks() -> None:
    with pytest.raises(RulesetError) as failed:
        _house({"cards": ["7"], "until": "side_canasta"})
    assert "names none" in str(failed.value)
    with pytest.raises(RulesetError) as unknown:
        _house({**BAR, "canasta": "canasta of eights"})
    assert "pile.discard_barred.0.canasta" in str(unknown.value)


@pytest.mark.parametrize("language", ["en", "fr", "da", "zh", "ko"])
def test_the_rulebook_says_it_in_every_language(language: str) -> None:
    with_bar = render_rulebook(_house(), lang=language)
    plain = render_rulebook(with_values(_house(), {"pile.discard_barred": []}), lang=language)
    added = set(with_bar.splitlines()) - set(plain.splitlines())
    club = with_bar.split("\n## ")[0]
    with speaking(language):  # the name as the catalog gives it, where it has it
        name = gettext_("canasta of sevens")
    assert any(name in line for line in added), added
    assert "discard_barred" not in club and "every_side" not in club
    if language != "en":
        assert "until every side has" not in with_bar and "Some cards may not" not in with_bar


@pytest.mark.parametrize("going_out", [False, True])
def test_the_bots_moves_and_ways_out_follow_it(going_out: bool) -> None:
    ruleset = _house({**BAR, "going_out": going_out})
    check_moves_and_ways_out(ruleset, 10)


def test_hands_are_played_to_an_end_by_a_rule() -> None:
    ruleset = _house({**BAR, "going_out": True})
    players = ruleset.rules.players.usual
    bots = [make_bot("greedy") for _ in range(players)]
    for seed in range(20):
        stats, _ = play_hand(ruleset, players, seed, bots, check="every")
        assert stats.completed, stats.ended_by
