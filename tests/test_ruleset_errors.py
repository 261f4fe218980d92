"""Broken ruleset files: every problem is found, named by file, line and key path."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from bolivia.errors import RulesetError
from bolivia.rules.library import Library

HEADER = "id: broken\nextends: bolivia-da\n\n"
# the fragment starts on line 4; unless it has a provenance of its own, every section it sets
# is given one ({house: test}), so that only the problem under test is reported

CASES = [
    # (case id, fragment, key path, line, words the message must contain)
    (
        "unknown-key",
        "melds:\n  group:\n    max_wilds: 3\n",
        "melds.group.max_wilds",
        6,
        "did you mean 'max_wild'",
    ),
    ("unknown-section", "meld:\n  group: {}\n", "meld", 4, "did you mean 'melds'"),
    (
        "wrong-type",
        "melds:\n  group:\n    max_wild: two\n",
        "melds.group.max_wild",
        6,
        "expected a whole number",
    ),
    ("bool-for-number", "pack:\n  decks: true\n", "pack.decks", 5, "whole number"),
    ("string-number", "pack:\n  decks: '3'\n", "pack.decks", 5, "whole number"),
    (
        "misspelt-choice",
        "melds:\n  group:\n    ratio: naturals_exceed_wild\n",
        "melds.group.ratio",
        6,
        "'naturals_exceed_wilds'",
    ),
    (
        "named-choice-tag",
        "red_threes:\n  plus_when: {condition: canasta, count: 2}\n",
        "red_threes.plus_when",
        5,
        "did you mean 'canastas'",
    ),
    (
        "named-choice-extra",
        "red_threes:\n  plus_when: {condition: always, count: 2}\n",
        "red_threes.plus_when.count",
        5,
        "unknown key 'count'",
    ),
    ("negative", "going_out:\n  bonus: -100\n", "going_out.bonus", 5, "greater than or equal"),
    ("list-for-scalar", "game:\n  target: [1, 2]\n", "game.target", 5, "whole number"),
    (
        "bands-out-of-order",
        "initial_meld:\n  bands:\n    - {from: null, minimum: 15}\n"
        "    - {from: 3000, minimum: 50}\n    - {from: 1500, minimum: 90}\n",
        "initial_meld.bands",
        5,
        "out of order",
    ),
    (
        "bands-first-not-null",
        "initial_meld:\n  bands:\n    - {from: 0, minimum: 15}\n",
        "initial_meld.bands",
        5,
        "from: null",
    ),
    (
        "deal-larger-than-pack",
        "players:\n  seats:\n    4: {teams: 2, hand_size: 50, draw: 2}\n",
        "players.seats.4.hand_size",
        5,
        "the pack has 162",
    ),
    (
        "teams-uneven",
        "players:\n  seats:\n    4: {teams: 3, hand_size: 15, draw: 2}\n",
        "players.seats.4.teams",
        5,
        "equal sides",
    ),
    (
        "usual-not-seated",
        "players:\n  usual: 5\n  seats:\n    4: {teams: 2, hand_size: 15, draw: 2}\n",
        "players.usual",
        5,
        "not among the seatings",
    ),
    (
        "going-out-impossible",
        "melds:\n  sequence:\n    allowed: false\n",
        "melds.sequence.allowed",
        6,
        "requires an escalera canasta, which cannot be made",
    ),
    (
        "bolivia-too-big",
        "melds:\n  wild:\n    max_size: 5\ngoing_out:\n  requirement: {rule: "
        "canastas, count: 2, including: {bolivia: 1}}\n",
        "going_out.requirement",
        8,
        "requires a bolivia canasta",
    ),
    (
        "more-kinds-than-count",
        "going_out:\n  requirement: {rule: canastas, count: 1, including:"
        " {escalera: 1, bolivia: 1}}\n",
        "going_out.requirement",
        5,
        "only 1 in all",
    ),
    (
        "wild-threes",
        "pack:\n  wild_ranks: ['2', '3']\n",
        "pack.wild_ranks",
        5,
        "threes cannot be wild",
    ),
    (
        "sequence-upside-down",
        "melds:\n  sequence:\n    lowest: K\n    highest: '5'\n",
        "melds.sequence.highest",
        7,
        "not above",
    ),
    (
        "take-top-onto-nothing",
        "pile:\n  take_top: {allowed: true, onto_kinds: [], below_canasta: true}\n",
        "pile.take_top.onto_kinds",
        5,
        "onto no kind",
    ),
    (
        "table-for-unseated",
        "game:\n  target_by_players: {7: 20000}\n",
        "game.target_by_players",
        5,
        "not allowed",
    ),
    (
        "card-points-missing",
        "scoring:\n  card_points: {JK: 50}\n",
        "scoring.card_points",
        5,
        "no points given for 2, 3",
    ),
    (
        "no-provenance",
        "going_out:\n  bonus: 300\nprovenance:\n",
        "going_out.bonus",
        5,
        "no provenance",
    ),
    (
        "claim-disagrees",
        "melds:\n  group:\n    max_wild: 3\nprovenance:\n  "
        "melds.group.max_wild: da:groups-wild-limit\n",
        "provenance.melds.group.max_wild",
        8,
        "disagrees with claim da:groups-wild-limit, which says 2",
    ),
    (
        "claim-unknown",
        "game:\n  target: 15000\nprovenance:\n  game.target: da:game-targt\n",
        "provenance.game.target",
        7,
        "did you mean one of 'da:game-target'",
    ),
    (
        "claim-elsewhere",
        "game:\n  target: 15000\nprovenance:\n  game.target: da:pack\n",
        "provenance.game.target",
        7,
        "says nothing about game.target",
    ),
    (
        "provenance-not-a-field",
        "provenance:\n  melds.group.max_wilds: da:groups\n",
        "provenance.melds.group.max_wilds",
        5,
        "did you mean one of 'melds.group.max_wild'",
    ),
    (
        "provenance-empty",
        "game:\n  target: 1\nprovenance:\n  game.target: {note: x}\n",
        "provenance.game.target",
        7,
        "cite the claim",
    ),
    (
        "assumed-for-inherited",
        "provenance:\n  game.target: {assumed: x}\n",
        "provenance.game.target",
        5,
        "not set in this file",
    ),
    ("missing-base", "", "extends", 2, "did you mean one of 'bolivia-da'"),
    ("duplicate-key", "game:\n  target: 1\ngame:\n  ties: draw\n", "game", 6, "given twice"),
    (
        "python-tag",
        "game:\n  target: !!python/object/apply:os.system ['true']\n",
        "game.target",
        5,
        "tag",
    ),
    ("merge-key", "base: &b {target: 1}\ngame:\n  <<: *b\n", "game", 6, "merge keys"),
    ("syntax", "game: [\n", "", 6, "not valid YAML"),
    ("bad-id", "", "id", 1, "is not written as this key expects (lower-case id: letters"),
]


def _write(tmp_path: Path, case: str, fragment: str) -> Path:
    header = HEADER
    if case == "missing-base":
        header = header.replace("bolivia-da", "bolivia-dx")
    if case == "bad-id":
        header = header.replace("id: broken", "id: Broken Rules")
    if "provenance:" not in fragment:
        sections = [
            line.split(":")[0]
            for line in fragment.splitlines()
            if line and not line.startswith((" ", "-"))
        ]
        fragment += "provenance:\n" + "".join(f"  {s}: {{house: test}}\n" for s in sections)
    fragment += "  extends: {house: test}\n"
    path = tmp_path / f"{case}.yaml"
    path.write_text(header + fragment, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("case", "fragment", "key", "line", "words"), CASES, ids=[c[0] for c in CASES]
)
def test_each_problem_is_named_by_file_line_and_key(
    tmp_path: Path, case: str, fragment: str, key: str, line: int, words: str
) -> None:
    path = _write(tmp_path, case, fragment)
    with pytest.raises(RulesetError) as info:
        Library(strict=True).load(path)
    shown = [str(p) for p in info.value.problems]
    found = [p for p in info.value.problems if p.path == key and words in p.message]
    assert found, f"no problem at {key} saying {words!r}: {shown}"
    problem = found[0]
    assert problem.file == str(path)
    assert problem.line == line, str(problem)
    assert str(problem).startswith(f"{path}:{line}: ")


def test_all_problems_are_reported_together(tmp_path: Path) -> None:
    path = tmp_path / "many.yaml"
    path.write_text(
        HEADER
        + textwrap.dedent("""\
        provenance: {extends: {house: x}}
        melds:
          group:
            max_wilds: 3
            ratio: sometimes
        pack:
          decks: three
        """),
        encoding="utf-8",
    )
    with pytest.raises(RulesetError) as info:
        Library().load(path)
    paths = {p.path for p in info.value.problems}
    assert {"melds.group.max_wilds", "melds.group.ratio", "pack.decks"} <= paths


def test_a_cycle_of_bases_is_named(tmp_path: Path) -> None:
    (tmp_path / "a.yaml").write_text("id: a\nextends: b.yaml\nprovenance: {extends: {house: x}}\n")
    (tmp_path / "b.yaml").write_text("id: b\nextends: a.yaml\nprovenance: {extends: {house: x}}\n")
    with pytest.raises(RulesetError) as info:
        Library().load(tmp_path / "a.yaml")
    assert any("cycle: a -> b -> a" in p.message for p in info.value.problems)


def test_a_file_extending_itself_is_a_cycle(tmp_path: Path) -> None:
    path = tmp_path / "self.yaml"
    path.write_text("id: self\nextends: self.yaml\nprovenance: {extends: {house: x}}\n")
    with pytest.raises(RulesetError, match="cycle"):
        Library().load(path)


@pytest.mark.parametrize("target", ["../outside.yaml", "../../etc/passwd.yaml", "/etc/x.yaml"])
def test_a_base_outside_the_allowed_folders_is_refused(tmp_path: Path, target: str) -> None:
    inner = tmp_path / "club"
    inner.mkdir()
    (tmp_path / "outside.yaml").write_text("id: outside\n")
    path = inner / "house.yaml"
    path.write_text(f"id: house\nextends: {target}\nprovenance: {{extends: {{house: x}}}}\n")
    with pytest.raises(RulesetError) as info:
        Library().load(path)
    assert any(p.path == "extends" and p.line == 2 for p in info.value.problems)
    assert any("outside" in p.message or "absolute" in p.message for p in info.value.problems)


def test_a_relative_base_inside_the_folder_works(tmp_path: Path) -> None:
    (tmp_path / "base.yaml").write_text(
        "id: club-base\nextends: bolivia-zh\ngame: {target: 10000}\n"
        "provenance: {extends: {house: x}, game.target: {house: shorter}}\n"
    )
    (tmp_path / "house.yaml").write_text(
        "id: club\nextends: base.yaml\ngame: {ties: play_on}\n"
        "provenance: {extends: {house: x}, game.ties: {house: we play on}}\n"
    )
    ruleset = Library().load(tmp_path / "house.yaml")
    assert ruleset.chain == ("canasta", "bolivia-zh", "club-base", "club")
    assert ruleset.rules.game.target == 10000
    assert ruleset.rules.game.ties == "play_on"
    assert ruleset.provenance["game.target"].status == "house"
    assert ruleset.provenance["game.target"].set_in == "club-base"


def test_alias_expansion_is_bounded(tmp_path: Path) -> None:
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, 9)]
    path = tmp_path / "bomb.yaml"
    path.write_text("id: bomb\n" + "\n".join(lines) + "\n")
    with pytest.raises(RulesetError, match="expands to more than"):
        Library().load(path)


def test_oversized_files_are_refused_unread(tmp_path: Path) -> None:
    path = tmp_path / "big.yaml"
    path.write_text("id: big\nnotes: " + "x" * 300_000 + "\n")
    with pytest.raises(RulesetError, match="files over 262144 bytes are refused"):
        Library().load(path)


def test_deep_nesting_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "deep.yaml"
    path.write_text("id: deep\nnotes: " + "[" * 60 + "]" * 60 + "\n")
    with pytest.raises(RulesetError, match="nested more than"):
        Library().load(path)


def test_not_utf8_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "latin.yaml"
    path.write_bytes(b"id: x\nname: caf\xe9\n")
    with pytest.raises(RulesetError, match="not UTF-8"):
        Library().load(path)


def test_unknown_id_suggests_a_known_one() -> None:
    with pytest.raises(RulesetError, match="did you mean one of 'bolivia-fr'"):
        Library().load("bolivia-fx")


def test_a_root_ruleset_must_set_every_section(tmp_path: Path) -> None:
    path = tmp_path / "root.yaml"
    path.write_text(
        "id: root\npack: {decks: 2, jokers: 4, wild_ranks: ['2']}\n"
        "provenance: {pack: {assumed: x}}\n"
    )
    with pytest.raises(RulesetError, match="missing: players, deal"):
        Library().load(path)
