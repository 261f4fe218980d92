"""A wild card in a long sequence only (issue 42): ``melds.sequence.wild_from_size``.

Some rulebooks allow "one wild card in a sequence" meaning a seven-card one only, where
``max_wild: 1`` alone opens every sequence to it. The field says how many cards a sequence
must have to hold a wild card. The oracle, the bots' moves, ``validate`` and the rulebook
read it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bolivia.authoring.rulebook import render_rulebook
from bolivia.errors import RulesetError
from bolivia.rules.library import shipped_library
from bolivia.rules.ruleset import Ruleset
from bolivia.rules.variants import with_values
from bolivia.verify.oracle import Oracle

from .serve_as import ask_house
from .test_moves import check_moves_and_ways_out

LIBRARY = shipped_library()
SEVEN = {"melds.sequence.max_wild": 1, "melds.sequence.wild_from_size": 7}


def _house(base: str = "black-samba", **changes: Any) -> Ruleset:
    return with_values(LIBRARY.load(base), {**SEVEN, **changes}, "seven-only")


def _ask(op: str, **fields: Any) -> dict[str, Any]:
    return ask_house(_house(), op, **fields)


@pytest.mark.parametrize(
    ("cards", "legal"),
    [
        (["5H", "6H", "JK"], False),  # three cards: no wild card yet
        (["5H", "6H", "7H", "8H", "9H", "JK"], False),  # six
        (["5H", "6H", "7H", "8H", "9H", "10H", "JK"], True),  # seven: an escalera with one
        (["5H", "6H", "7H", "8H", "9H", "10H"], True),  # no wild card: any size
    ],
)
def test_a_sequence_holds_a_wild_card_from_seven_cards(cards: list[str], legal: bool) -> None:
    result = _ask("meld", cards=cards)
    assert result["legal"] is legal, result
    if not legal:
        assert result["rule"] == "melds.sequence.wild_from_size"
        assert result["code"] == "sequence-wild-too-short"
        assert f"not {len(cards)}" in result["reason"]


def test_a_wild_card_may_make_the_seventh_card_not_the_fifth() -> None:
    six = ["5H", "6H", "7H", "8H", "9H", "10H"]
    assert _ask("extend", meld=six, add=["JK"])["legal"] is True
    refused = _ask("extend", meld=six[:4], add=["JK"])
    assert refused["legal"] is False and refused["rule"] == "melds.sequence.wild_from_size"


def test_without_the_field_a_short_sequence_takes_its_wild_card() -> None:
    answer = Oracle(LIBRARY).handle(
        {"id": 1, "op": "meld", "ruleset": "black-samba", "cards": ["5H", "6H", "JK"]}
    )
    assert answer["result"]["legal"] is True


def test_validate_refuses_a_size_no_sequence_reaches() -> None:
    with pytest.raises(RulesetError) as failed:
        _house(**{"melds.sequence.wild_from_size": 9})
    assert "melds.sequence.wild_from_size" in str(failed.value)
    assert "no sequence could hold a wild card" in str(failed.value)


@pytest.mark.parametrize("language", ["en", "fr", "da", "zh", "ko"])
def test_the_rulebook_says_it_in_every_language(language: str) -> None:
    with_field = render_rulebook(_house(), lang=language)
    without = render_rulebook(_house(**{"melds.sequence.wild_from_size": None}), lang=language)
    added = set(with_field.splitlines()) - set(without.splitlines())
    sequences = [line for line in added if "7" in line and len(line) > 40]
    assert sequences, added  # one sentence more, naming the seven cards
    club = with_field.split("\n## ")[:-1]  # before the appendix for rules committees
    assert "wild_from_size" not in "\n".join(club)


def test_the_rulebook_leaves_it_moot_where_sequences_take_no_wild_card() -> None:
    text = render_rulebook(_house("bolivia-da", **{"melds.sequence.max_wild": 0}), lang="en")
    assert "only once it has" not in text


@pytest.mark.parametrize("base", ["black-samba", "brazilian-canastra"])
@pytest.mark.parametrize("size", [5, 7])
def test_the_bots_moves_and_ways_out_follow_it(base: str, size: int) -> None:
    ruleset = _house(base, **{"melds.sequence.wild_from_size": size})
    check_moves_and_ways_out(ruleset)


def test_a_house_file_sets_it(tmp_path: Path) -> None:
    path = tmp_path / "seven.yaml"
    path.write_text(
        "id: seven\nextends: black-samba\nmelds:\n  sequence:\n    wild_from_size: 7\n",
        encoding="utf-8",
    )
    ruleset = LIBRARY.load(path)
    assert ruleset.rules.melds.sequence.wild_from_size == 7
