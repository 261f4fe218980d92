"""The shipped rulesets: they load, they are what their sources say, they round-trip."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, given, settings

from bolivia.authoring.house import nest_paths
from bolivia.errors import RulesetError
from bolivia.resources import rulesets_dir
from bolivia.rules.library import SOURCES_FOLDER, Library, shipped_library
from bolivia.rules.rendering import ruleset_json, show_yaml, standalone_yaml
from bolivia.rules.ruleset import Ruleset
from bolivia.rules.tree import leaf_paths

from .strategies import house_rulesets, yaml_value

SIX = ["canasta", "samba", "bolivia-fr", "bolivia-da", "bolivia-zh", "bolivia-ko"]
LIBRARY = shipped_library()


def test_the_six_fixed_ids_ship() -> None:
    ids = LIBRARY.ids()
    assert set(SIX) <= set(ids)
    for rid in SIX:
        path = LIBRARY.path_of(rid)
        assert path.name == f"{rid}.yaml" and path.parent == rulesets_dir()


def test_house_rules_ship_and_extend_a_shipped_ruleset() -> None:
    house = [rid for rid in LIBRARY.ids() if "/house/" in str(LIBRARY.path_of(rid))]
    assert len(house) >= 2
    for rid in house:
        ruleset = LIBRARY.load(rid)
        assert ruleset.extends in SIX
        assert ruleset.counts()["house"] >= 1
        assert LIBRARY.path_of(rid).name == f"{rid}.yaml"


@pytest.mark.parametrize("rid", SIX)
def test_bases_and_families(rid: str) -> None:
    ruleset = LIBRARY.load(rid)
    expected = {
        "canasta": (None, "canasta"),
        "samba": ("canasta", "samba"),
        "bolivia-da": ("samba", "bolivia"),
        "bolivia-fr": ("canasta", "bolivia"),
        "bolivia-zh": ("canasta", "bolivia"),
        "bolivia-ko": ("canasta", "bolivia"),
    }
    assert (ruleset.extends, ruleset.family) == expected[rid]
    assert set(ruleset.provenance) == set(leaf_paths())
    if ruleset.extends:
        assert ruleset.extends_provenance is not None


def _comparable(ruleset: Ruleset) -> dict[str, Any]:
    data = ruleset_json(ruleset)
    data.pop("extends")
    data.pop("chain")
    data["counts"].pop("inherited")  # what a house takes from its base: none, once flattened
    return data


@pytest.mark.parametrize("rid", LIBRARY.ids())
def test_standalone_dump_loads_back_to_the_same_ruleset(rid: str, tmp_path: Path) -> None:
    ruleset = LIBRARY.load(rid)
    path = tmp_path / f"{rid}.yaml"
    path.write_text(standalone_yaml(ruleset), encoding="utf-8")
    records = LIBRARY.path_of(rid).parent / SOURCES_FOLDER
    if records.is_dir():  # the user source records it cites go with it
        shutil.copytree(records, tmp_path / SOURCES_FOLDER)
    again = Library().load(path)
    assert again.rules == ruleset.rules
    assert again.digest == ruleset.digest
    assert _comparable(again) == _comparable(ruleset)
    path.write_text(standalone_yaml(again), encoding="utf-8")
    reloaded = Library().load(path)
    assert standalone_yaml(reloaded) == standalone_yaml(again)


def test_the_chinese_and_korean_pages_resolve_to_the_same_rules() -> None:
    zh, ko = LIBRARY.load("bolivia-zh"), LIBRARY.load("bolivia-ko")
    assert zh.rules == ko.rules
    assert zh.digest == ko.digest
    for path in leaf_paths():
        left, right = zh.provenance[path], ko.provenance[path]
        assert left.status == right.status, path
        assert [c.split(":", 1)[1] for c in left.claims if c.startswith("zh:")] == [
            c.split(":", 1)[1] for c in right.claims if c.startswith("ko:")
        ], path


def test_known_disagreements_are_encoded() -> None:
    fr, da, zh = (LIBRARY.load(r) for r in ("bolivia-fr", "bolivia-da", "bolivia-zh"))
    groups = [(r.rules.melds.group.max_wild, r.rules.melds.group.ratio) for r in (fr, da, zh)]
    assert groups == [(3, "naturals_exceed_wilds"), (2, "any"), (2, "naturals_twice_wilds")]
    assert da.rules.red_threes.plus_when.condition == "canastas"
    assert zh.rules.red_threes.plus_when.condition == "going_out_requirement"
    assert fr.rules.pack.decks == 2 and da.rules.pack.decks == 3
    assert "contains_black_three" in fr.rules.pile.frozen_when
    assert zh.rules.pile.take_top.allowed and not da.rules.pile.take_top.allowed
    bonus = da.provenance["going_out.bonus"]
    assert da.rules.going_out.bonus == 200
    assert any(
        alt.value == 100 and "da:going-out-bonus" in alt.claims for alt in bonus.alternatives
    )


def test_the_french_draw_count_is_assumed_and_two_is_the_alternative() -> None:
    """fr:turn gives no draw count: Canasta's one card is taken on assumption, and the two
    cards of every other Bolivia source are recorded against it."""
    fr = LIBRARY.load("bolivia-fr")
    seats = fr.provenance["players.seats"]
    assert fr.rules.players.seats[4].draw == 1
    assert seats.status == "assumed" and "draw" in seats.reason
    assert set(seats.claims) == {"fr:players-partnerships", "fr:hand-size"}
    (two,) = [alt for alt in seats.alternatives if alt.path == "players.seats.4.draw"]
    assert two.value == 2 and two.note
    assert {"da:draw-two", "zh:draw", "ko:draw"} <= set(two.claims)


def test_values_and_digests() -> None:
    da = LIBRARY.load("bolivia-da")
    assert da.value("melds.group.max_wild") == 2
    assert da.value("players.seats.4.hand_size") == 15
    with pytest.raises(KeyError):
        da.value("melds.group.nothing")
    assert da.digest != LIBRARY.load("samba").digest
    assert LIBRARY.load("bolivia-da") is da


@pytest.mark.parametrize("rid", SIX)
def test_show_gives_every_value_its_provenance(rid: str) -> None:
    text = show_yaml(LIBRARY.load(rid))
    values = [
        line
        for line in text.splitlines()
        if line.startswith(" ")
        and not line.lstrip().startswith("#")
        and ":" in line
        and not line.rstrip().endswith(":")
    ]
    leaves_with_comment = [line for line in values if "  # " in line]
    assert len(leaves_with_comment) == len(list(leaf_paths()))


# --------------------------------------------------------------------------- house rules


@settings(max_examples=40, deadline=None)
@given(house_rulesets())
def test_random_house_rules_round_trip(
    tmp_path_factory: pytest.TempPathFactory, house: tuple[str, dict[str, Any]]
) -> None:
    import yaml

    base, overrides = house
    data = {
        "id": "house",
        "extends": base,
        **nest_paths(overrides),
        "provenance": {"extends": {"house": "test"}, **{p: {"house": "test"} for p in overrides}},
    }
    folder = tmp_path_factory.mktemp("house")
    path = folder / "house.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    try:
        ruleset = Library().load(path)
    except RulesetError as exc:
        # values each valid somewhere may still not work together: that, and only that, is a
        # refusal here (never a type, key or provenance problem)
        for problem in exc.problems:
            assert not any(
                word in problem.message
                for word in ("provenance", "unknown key", "expected", "claim")
            ), str(problem)
        assume(False)
        return
    for p, value in overrides.items():
        assert yaml_value(ruleset.value(p)) == value
        assert ruleset.provenance[p].status == "house"
    flat = folder / "flat.yaml"
    flat.write_text(standalone_yaml(ruleset), encoding="utf-8")
    again = Library().load(flat)
    assert again.rules == ruleset.rules
    assert _comparable(again) == _comparable(ruleset)


def test_a_flattened_house_keeps_its_bases_entries_for_players_it_does_not_seat(
    tmp_path: Path,
) -> None:
    """A house seating four only on canasta inherits canasta's entries for two and three
    players; its flattened file writes them with ``set_in: canasta`` and loads back, while a
    file writing such an entry itself is still refused."""
    import yaml

    house = tmp_path / "house.yaml"
    house.write_text(
        "id: house\nextends: canasta\n"
        "players.seats: {4: {teams: 2, hand_size: 11, draw: 1}}\n"
        "provenance: {extends: {house: four only}, players.seats: {house: four only}}\n",
        encoding="utf-8",
    )
    ruleset = Library().load(house)
    flat = tmp_path / "flat.yaml"
    flat.write_text(standalone_yaml(ruleset), encoding="utf-8")
    again = Library().load(flat)
    assert again.rules == ruleset.rules
    assert again.rules.game.target_by_players == {3: 7500}
    data = yaml.safe_load(flat.read_text(encoding="utf-8"))
    data["provenance"]["game.target_by_players"] = {"house": "written here"}
    flat.write_text(yaml.safe_dump(data), encoding="utf-8")
    with pytest.raises(RulesetError, match="an entry for 3 players, who are not allowed"):
        Library().load(flat)


def test_an_entry_confirming_an_inherited_value_keeps_its_alternatives(tmp_path: Path) -> None:
    """A file that only confirms a value it inherits may still record another reading of it,
    with its note (as bolivia-da does for going_out.ask_partner)."""
    path = tmp_path / "club.yaml"
    path.write_text(
        "id: club\n"
        "extends: bolivia-da\n"
        "provenance:\n"
        "  extends: {house: the club plays the Danish rules}\n"
        "  going_out.bonus:\n"
        "    claims: [da:going-out-bonus]\n"
        "    alternatives:\n"
        "      - {value: 150, note: what the club paid before 2020}\n",
        encoding="utf-8",
    )
    club = Library().load(path)
    bonus = club.provenance["going_out.bonus"]
    assert club.rules.going_out.bonus == 200 and bonus.set_in == "samba"
    by_value = {alt.value: alt for alt in bonus.alternatives}
    assert by_value[150].note == "what the club paid before 2020" and not by_value[150].claims
    assert "da:going-out-bonus" in by_value[100].claims
    flat = tmp_path / "flat.yaml"
    flat.write_text(standalone_yaml(club), encoding="utf-8")
    assert _comparable(Library().load(flat)) == _comparable(club)
