"""Bounds on the work one question may take (issue 41).

The way-out search stops past :data:`~bolivia.play.table.ways_out.MAX_STATES` states (or a
tighter bound its caller sets: the oracle's ``max_states``), finding no way out (for play) and
making the oracle answer ``too-costly`` (never a ruling it could not decide); ``moves`` and
``act`` check at most :data:`~bolivia.verify.oracle.MAX_CANDIDATES` candidate actions.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from bolivia.cards import parse_cards
from bolivia.cli import cli
from bolivia.engine.melds import verify_meld
from bolivia.play.table.ways_out import CUTS, MAX_STATES, search_bound, ways_out
from bolivia.rules.library import shipped_library
from bolivia.verify.oracle import MAX_CANDIDATES, Oracle

LIBRARY = shipped_library()
CUT = json.loads((Path(__file__).parent / "data" / "way-out-cut.json").read_text("utf-8"))
# a draw-phase hand of 38 cards, 18 wild, before the side's first meld: tens of thousands of
# ways to take the pile
WIDE = {
    "phase": "draw",
    "hands": [
        ["2C", "2C", "2C", "2D", "2D", "2D", "2H", "2H", "2H", "2S", "2S", "2S"]
        + ["JK"] * 6
        + ["5H", "5H", "5S", "6H", "6S", "7H", "7C", "8D", "9D", "10D", "JD", "QD", "KS", "KS"]
        + ["AH", "AH", "4C", "4D", "9S", "9S"],
        ["5C", "6C", "8C", "10C", "QC"],
        ["6D", "8H", "10H", "QH", "KH"],
        ["7D", "8S", "10S", "QS", "KD"],
    ],
    "melds": [[], []],
    "pile": ["9C", "7S", "5D"],
    "stock": 30,
}


# the example's search needs CUT["states"]; the tests bound theirs below it
BOUND = 20_000


def _cut_search() -> list[Any]:
    ruleset = LIBRARY.load(CUT["ruleset"])
    table = [verify_meld(ruleset, parse_cards(m)) for m in CUT["table"]]
    counts = [0] * 53
    for card in parse_cards(CUT["hand"]):
        counts[card.index] += 1
    return ways_out(ruleset, table, counts, players=4, limit=2)


def test_a_search_past_its_bound_stops_and_says_so() -> None:
    assert CUT["states"] > BOUND
    before = CUTS[0]
    with search_bound(BOUND):
        assert _cut_search() == []
    assert CUTS[0] == before + 1


def _cut_position() -> dict[str, Any]:
    return {
        "phase": "play",
        "hands": [CUT["hand"], ["8H"], ["8D"], ["8C"]],
        "melds": [CUT["table"], []],
        "pile": ["4H"],
        "stock": 20,
    }


def test_the_oracle_answers_too_costly_where_a_search_was_cut() -> None:
    request = {"op": "act", "ruleset": CUT["ruleset"], "position": _cut_position(),
               "action": {"type": "ask"}}  # fmt: skip
    answer = Oracle(max_states=BOUND).handle(request)
    assert answer["ok"] is False and answer["error"]["code"] == "too-costly", answer
    assert f"{BOUND:,} states" in answer["error"]["message"]
    # within the default bound the same request is decided (the bound alone cut it)
    decided = Oracle().handle(request)
    assert decided["ok"] is True, decided


def test_the_oracle_s_bound_is_checked() -> None:
    for wrong in (0, MAX_STATES + 1):
        with pytest.raises(ValueError, match="max_states must be from 1 to 1,000,000"):
            Oracle(max_states=wrong)
    result = CliRunner().invoke(cli, ["oracle", "--max-states", "0"], input="")
    assert result.exit_code == 2 and "--max-states" in result.output, result.output
    assert "Traceback" not in result.output


def test_moves_and_act_check_a_bounded_number_of_candidates() -> None:
    oracle = Oracle()
    for request in (
        {"op": "moves", "ruleset": "bolivia-da", "position": WIDE},
        {"op": "act", "ruleset": "bolivia-da", "position": WIDE, "action": {"type": "ask"}},
    ):
        answer = oracle.handle(request)
        assert answer["ok"] is False and answer["error"]["code"] == "too-costly", answer
        assert f"more than {MAX_CANDIDATES:,} candidate actions" in answer["error"]["message"]
        assert "38 cards, 18 of them wild" in answer["error"]["message"]
    drawn = oracle.handle(
        {"op": "act", "ruleset": "bolivia-da", "position": WIDE, "action": {"type": "draw"}}
    )
    assert drawn["ok"] is True and drawn["result"]["legal"] is True  # a draw weighs no pickup


def test_an_ordinary_position_is_listed_whole() -> None:
    """The bound is far from what play reaches: twenty cards of the same hand, two of them
    wild, list every move."""
    small = json.loads(json.dumps(WIDE))
    small["hands"][0] = [c for c in small["hands"][0][10:] if c != "JK"][:20]
    answer = Oracle().handle({"op": "moves", "ruleset": "bolivia-da", "position": small})
    assert answer["ok"] is True and 0 < answer["result"]["count"] < MAX_CANDIDATES
