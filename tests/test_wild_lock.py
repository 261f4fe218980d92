"""An unfinished wild meld's locks (issue 42): ``melds.wild.unfinished_locks``.

Modern American Canasta: while a side's meld of wild cards is short of a canasta, no wild card
goes onto its other melds, and the side may not go out. Read by the verifier (each step, a way
out), the go_out question, the way-out search (held to brute force), the bots' candidates and
the rulebook.
"""

from __future__ import annotations

from typing import Any

import pytest

from bolivia.authoring.rulebook import render_rulebook
from bolivia.language import gettext_, speaking
from bolivia.play.table.position import hand_at
from bolivia.rules.library import shipped_library
from bolivia.rules.ruleset import Ruleset
from bolivia.rules.variants import with_values

from .hands import hands_end_by_a_rule
from .serve_as import act_in_play, ask_house
from .test_moves import check_moves_and_ways_out

LIBRARY = shipped_library()
BOTH = ["wild_elsewhere", "going_out"]
OPEN_WILD = ["2C", "2D", "JK"]
NINES = ["9C", "9D", "9H"]
KINGS = ["KC", "KD", "KH", "KS", "KC", "KD", "KH"]


def _locked(locks: list[str] | None = None) -> Ruleset:
    changes = {"melds.wild.allowed": True, "melds.wild.unfinished_locks": locks or BOTH}
    return with_values(LIBRARY.load("canasta"), changes, "locked")


_act = act_in_play


def test_no_wild_card_goes_onto_another_meld_while_the_wild_meld_is_unfinished() -> None:
    extend = {"type": "extend", "target": 1, "cards": ["2H"]}
    refused = _act(_locked(), ["2H", "8C", "8D", "QS"], [OPEN_WILD, NINES], extend)
    assert refused["legal"] is False and refused["code"] == "wild-meld-unfinished", refused
    assert refused["rule"] == "melds.wild.unfinished_locks"
    # a natural card still may; and without the lock the wild card may too
    natural = {"type": "extend", "target": 1, "cards": ["9S"]}
    assert _act(_locked(), ["9S", "8C", "8D", "QS"], [OPEN_WILD, NINES], natural)["legal"]
    assert _act(_locked(["going_out"]), ["2H", "8C", "8D", "QS"], [OPEN_WILD, NINES], extend)[
        "legal"
    ]


def test_a_new_meld_with_a_wild_card_is_locked_too_and_a_finished_wild_canasta_frees_it() -> None:
    lay = {"type": "lay", "melds": [["8C", "8D", "2H"]]}
    hand = ["2H", "8C", "8D", "QS", "QH", "5S"]
    assert _act(_locked(), hand, [OPEN_WILD], lay)["legal"] is False
    finished = ["2C", "2D", "2H", "2S", "JK", "JK", "2C"]
    assert _act(_locked(), hand, [finished], lay)["legal"] is True


def test_a_side_with_an_unfinished_wild_meld_may_not_go_out() -> None:
    locked = _locked()
    answer = ask_house(locked, "go_out", team_melds=[KINGS, OPEN_WILD])
    assert answer["allowed"] is False and "short of a canasta" in answer["reason"], answer
    assert ask_house(locked, "go_out", team_melds=[KINGS, NINES])["allowed"] is True
    # the last discard, with the wild meld still open: refused
    go = _act(locked, ["QS"], [KINGS, OPEN_WILD], {"type": "discard", "card": "QS"})
    assert go["legal"] is False and go["code"] == "wild-meld-unfinished", go
    # finishing the wild canasta in the same move, then the last discard: allowed, and found
    hand = ["2H", "2S", "JK", "JK", "QS"]
    finish = {"type": "go_out", "melds": [], "extends": [[1, ["2H", "2S", "JK", "JK"]]]}
    done = _act(locked, hand, [KINGS, OPEN_WILD], {**finish, "discard": "QS"})
    assert done["legal"] is True and done["over"] is True, done
    lines = hand_at(locked, _position(hand, [KINGS, OPEN_WILD])).go_out_lines(2)
    assert lines and all(line.discard is not None for line in lines), lines
    # going out with the wild meld left open (the wild cards elsewhere: locked twice)
    short = {"type": "go_out", "melds": [["QS", "QS", "2H"]], "extends": [[1, ["2S"]]]}
    hand = ["2H", "2S", "QS", "QS"]
    assert _act(locked, hand, [KINGS, OPEN_WILD], short)["legal"] is False


def _position(hand: list[str], ours: list[list[str]]) -> dict[str, Any]:
    return {
        "players": 2,
        "phase": "play",
        "hands": [hand, ["4C", "4D", "5C", "5D", "6C"]],
        "melds": [ours, []],
    }


def test_moves_and_ways_out_agree_with_brute_force() -> None:
    check_moves_and_ways_out(_locked(), deals=10)
    check_moves_and_ways_out(_locked(["wild_elsewhere"]), deals=6)


def test_greedy_and_random_hands_end_by_a_rule() -> None:
    hands_end_by_a_rule(_locked(), 43, (("greedy", 10), ("random", 2)), players=4)


@pytest.mark.parametrize("lang", ["en", "fr", "da", "zh", "ko"])
def test_the_rulebook_says_the_locks_in_every_language(lang: str) -> None:
    plain = with_values(LIBRARY.load("canasta"), {"melds.wild.allowed": True}, "plain")
    template = "While a side's wild meld is short of a canasta, the side may not %(locked)s."
    with speaking(lang):
        said = gettext_(template).split("%(locked)s")[0].strip()
        going = gettext_("go out")
    assert said in render_rulebook(_locked(), lang=lang)
    assert going in render_rulebook(_locked(), lang=lang)
    assert said not in render_rulebook(plain, lang=lang)
    if lang != "en":
        with speaking(lang):
            assert gettext_(template) != template
