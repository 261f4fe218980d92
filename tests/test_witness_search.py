"""The witness search beyond the enumeration: seeded, shrunk, the same wherever it runs, and
reaching the situations a rule needs (six red threes for the value of all of them)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bolivia.compare import witnesses
from bolivia.compare.differences import with_value
from bolivia.compare.findings import build
from bolivia.compare.witnesses import find_witnesses
from bolivia.rules.library import shipped_library
from bolivia.rules.variants import with_values
from bolivia.verify.oracle import Oracle

LIBRARY = shipped_library()


def test_a_change_to_the_value_of_all_red_threes_has_its_witness() -> None:
    da = LIBRARY.load("bolivia-da")
    house = with_values(da, {"red_threes.all_value": 1500}, "six-reds")
    oracle = Oracle()
    oracle.register(house)
    found, findings = find_witnesses([da, house], oracle, areas=["scoring"])
    (finding,) = [f for f in findings if f.rule == "red_threes.all_value"]
    assert finding.witness is not None and finding.how == "enumeration"
    (witness,) = [w for w in found if w.key == finding.witness]
    assert [team.get("red_threes", 0) for team in witness.input["teams"]] == [6, 0]


def test_the_random_search_is_seeded_shrunk_and_leaves_no_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    oracle = Oracle()
    # a rule one random situation in six shows (most rules' the enumeration finds first)
    da, zh = LIBRARY.load("bolivia-da"), LIBRARY.load("bolivia-zh")
    variant = with_value(da, "game.hand_cap", zh)
    oracle.register(variant)
    first = witnesses._random_witness(oracle, "game end", da, zh, variant)
    assert first is not None
    situations = witnesses.Situations(oracle, "game end")
    assert witnesses._random_witness(oracle, "game end", da, zh, variant, situations) == first
    assert situations.items == witnesses.Situations(Oracle(), "game end").items  # the area's
    separates = witnesses._separates(oracle, da, zh, variant)
    op, request = first
    assert separates(first)
    assert not any(separates((op, smaller)) for smaller in witnesses._smaller(request))  # shrunk
    assert list(tmp_path.iterdir()) == []  # no .hypothesis/ (nor anything else) in the folder


def test_shrinking_drops_what_the_property_does_not_need() -> None:
    item = ("meld", {"cards": ["8H", "JK", "8S", "2C", "JK"], "going_out": False})
    op, request = witnesses._shrink(item, lambda it: it[1]["cards"].count("JK") >= 2)
    assert (op, request) == ("meld", {"cards": ["JK", "JK"], "going_out": False})


def test_a_scoring_rule_no_gallery_position_reaches_is_measured_on_its_witness(
    tmp_path: Path,
) -> None:
    path = tmp_path / "six-reds.yaml"
    path.write_text("id: six-reds\nextends: bolivia-da\nred_threes:\n  all_value: 1500\n")
    house = LIBRARY.load(str(path))
    comparison = build([LIBRARY.load("bolivia-da"), house], hands=2, games=1)
    effect = comparison.effects["red_threes.all_value"]
    assert effect.alone and effect.points == 500
    assert "the situation section 3 shows for it" in str(effect.basis)
