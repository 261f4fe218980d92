"""Bounds on the work one question may take (issue 41).

The way-out search stops past :data:`~bolivia.play.table.ways_out.MAX_STATES` states, finding
no way out (for play) and making the oracle answer ``too-costly`` (never a ruling it could not
decide); ``moves`` and ``act`` check at most
:data:`~bolivia.verify.oracle.MAX_CANDIDATES` candidate actions.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bolivia.cards import parse_cards
from bolivia.engine.melds import verify_meld
from bolivia.play.table.ways_out import CUTS, ways_out
from bolivia.rules.library import shipped_library
from bolivia.rules.variants import variant
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


def _cut_ruleset() -> Any:
    ruleset = variant(LIBRARY.load(CUT["ruleset"]), CUT["field"], CUT["value"])
    assert ruleset is not None
    return ruleset


def test_a_search_past_its_bound_stops_and_says_so() -> None:
    ruleset = _cut_ruleset()
    table = [verify_meld(ruleset, parse_cards(m)) for m in CUT["table"]]
    counts = [0] * 53
    for card in parse_cards(CUT["hand"]):
        counts[card.index] += 1
    before = CUTS[0]
    assert ways_out(ruleset, table, counts, players=4, limit=2) == []
    assert CUTS[0] == before + 1


def test_the_oracle_answers_too_costly_where_a_search_was_cut() -> None:
    oracle = Oracle()
    oracle.register(_cut_ruleset(), "max-four")
    position = {
        "phase": "play",
        "hands": [CUT["hand"], ["5H"], ["8D"], ["9C"]],
        "melds": [CUT["table"], []],
        "pile": ["4C"],
        "stock": 20,
    }
    answer = oracle.handle({"op": "act", "ruleset": "max-four", "position": position,
                            "action": {"type": "ask"}})  # fmt: skip
    assert answer["ok"] is False and answer["error"]["code"] == "too-costly", answer
    assert "1,000,000 states" in answer["error"]["message"]


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
