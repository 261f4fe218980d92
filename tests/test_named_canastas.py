"""Special canastas by name in what going out needs and in when red threes count plus (issue 42).

Pennies from Heaven asks for one canasta of each of four types to go out (natural, mixed,
wild and sevens) and counts red threes minus for a side without a canasta of sevens.
``going_out.requirement.including`` and ``red_threes.plus_when.including`` name a special
canasta of ``canastas.special`` beside the kinds; a canasta that matches a special canasta
named there counts toward that name, not toward its kind (decided: a rulebook naming a
canasta of sevens beside a natural canasta means two canastas). The oracle, the bots' moves
and ways out, ``validate`` and the rulebook read it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bolivia.authoring.rulebook import render_rulebook
from bolivia.errors import RulesetError
from bolivia.language import gettext_, speaking
from bolivia.rules.library import shipped_library
from bolivia.rules.ruleset import Ruleset
from bolivia.rules.variants import with_values

from .serve_as import ask_house
from .test_moves import check_moves_and_ways_out

LIBRARY = shipped_library()
SEVENS = {"name": "canasta of sevens", "kind": "natural", "rank": "7", "bonus": 1500}
PENNIES = {
    "canastas.special": [SEVENS],
    "going_out.requirement": {
        "rule": "canastas",
        "count": 3,
        "including": {"canasta of sevens": 1, "natural": 1, "mixed": 1},
    },
    "red_threes.plus_when": {
        "condition": "canastas",
        "count": 1,
        "including": {"canasta of sevens": 1},
    },
}
SEVEN_SEVENS = ["7H", "7H", "7S", "7S", "7D", "7D", "7C"]
SEVEN_ACES = ["AH", "AH", "AS", "AS", "AD", "AD", "AC"]
SEVEN_QUEENS = ["QH", "QH", "QS", "QS", "QD", "QD", "QC"]
MIXED_KINGS = ["KH", "KH", "KS", "KS", "KD", "2C", "JK"]
MIXED_JACKS = ["JH", "JH", "JS", "JS", "JD", "2D", "JK"]


def _house(**changes: Any) -> Ruleset:
    return with_values(LIBRARY.load("canasta"), {**PENNIES, **changes}, "pennies-like")


def _ask(op: str, **fields: Any) -> dict[str, Any]:
    return ask_house(_house(), op, **fields)


def test_going_out_needs_the_named_canasta_beside_the_kinds() -> None:
    assert _ask("go_out", team_melds=[SEVEN_SEVENS, SEVEN_ACES, MIXED_KINGS])["allowed"] is True
    without = _ask("go_out", team_melds=[SEVEN_ACES, SEVEN_QUEENS, MIXED_KINGS])
    assert without["allowed"] is False
    assert "canasta of sevens" in without["reason"], without


def test_the_canasta_of_sevens_is_not_also_the_natural_canasta() -> None:
    # three canastas, one of sevens, one mixed: the natural one is missing (the sevens count
    # toward their name only)
    refused = _ask("go_out", team_melds=[SEVEN_SEVENS, MIXED_KINGS, MIXED_JACKS])
    assert refused["allowed"] is False
    assert "the side has 0 natural" in refused["reason"], refused


def _red_threes(melds: list[list[str]]) -> int:
    teams = [{"melds": melds, "red_threes": 2}, {"melds": []}]
    value: int = _ask("score", teams=teams)["teams"][0]["red_threes"]
    return value


def test_red_threes_count_plus_only_with_a_canasta_of_sevens() -> None:
    assert _red_threes([SEVEN_SEVENS]) > 0
    assert _red_threes([SEVEN_ACES, MIXED_KINGS]) < 0  # two canastas, none of sevens
    assert _red_threes([SEVEN_ACES]) == -_red_threes([SEVEN_SEVENS])


def test_validate_names_a_canasta_the_ruleset_does_not_have() -> None:
    with pytest.raises(RulesetError) as failed:
        _house(**{"canastas.special": []})
    text = "\n".join(failed.value.lines())
    assert "going_out.requirement.including" in text
    assert "red_threes.plus_when.including" in text
    assert "'canasta of sevens' is neither a kind of canasta nor a special canasta" in text


def test_validate_refuses_more_named_than_counted() -> None:
    when = {"condition": "canastas", "count": 1, "including": {"canasta of sevens": 1, "mixed": 1}}
    with pytest.raises(RulesetError) as failed:
        _house(**{"red_threes.plus_when": when})
    assert "2 canastas of named kinds, but only 1 in all" in str(failed.value)


@pytest.mark.parametrize("language", ["en", "fr", "da", "zh", "ko"])
def test_the_rulebook_names_it_in_every_language(language: str) -> None:
    with_names = render_rulebook(_house(), lang=language)
    plain = render_rulebook(
        _house(
            **{
                "going_out.requirement": {"rule": "canastas", "count": 3, "including": {}},
                "red_threes.plus_when": {"condition": "canastas", "count": 1, "including": {}},
            }
        ),
        lang=language,
    )
    added = set(with_names.splitlines()) - set(plain.splitlines())
    with speaking(language):  # the name as the catalog gives it, where it has it
        name = gettext_("canasta of sevens")
    club = "\n".join(line for line in added if name in line)
    assert club.count(name) >= 2, added  # going out, and red threes
    assert "including" not in with_names.split("\n## ")[0]
    if language != "en":  # the red threes' sentence translated, not left in English
        assert "once the side has" not in with_names


def test_the_english_rulebook_reads_as_players_say_it() -> None:
    text = render_rulebook(_house(), lang="en")
    assert "a canasta of sevens, a natural canasta and a mixed canasta" in text


def test_the_bots_moves_and_ways_out_follow_it() -> None:
    ruleset = _house()
    check_moves_and_ways_out(ruleset)


def test_a_house_file_names_it(tmp_path: Path) -> None:
    path = tmp_path / "sevens.yaml"
    path.write_text(
        "id: sevens\nextends: canasta\ncanastas:\n  special:\n"
        "    - {name: canasta of sevens, kind: natural, rank: '7', bonus: 1500}\n"
        "going_out:\n  requirement:\n    rule: canastas\n    count: 2\n"
        "    including: {canasta of sevens: 1}\n",
        encoding="utf-8",
    )
    ruleset = LIBRARY.load(path)
    assert ruleset.rules.going_out.requirement.including == {"canasta of sevens": 1}
