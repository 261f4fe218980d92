"""House ruleset files as a club writes them: short, with or without provenance, checked and
printed without friction (issue 17)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from bolivia.authoring.house import derive
from bolivia.authoring.lint import lint
from bolivia.cli import cli
from bolivia.errors import RulesetError
from bolivia.rules.library import Library
from bolivia.rules.resolution import NO_REASON

from .reading import people_markdown

THREE_LINES = "id: our-club\nextends: bolivia-da\ngame: {target: 10000}\n"


def _file(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def _three_lines(tmp_path: Path) -> Path:
    return _file(tmp_path, "our-club.yaml", THREE_LINES)


def test_a_three_line_file_without_provenance_is_a_house_ruleset(tmp_path: Path) -> None:
    path = _three_lines(tmp_path)
    ruleset = Library().load(path)
    prov = ruleset.provenance["game.target"]
    assert (prov.status, prov.reason) == ("house", NO_REASON)
    assert ruleset.extends_provenance is not None
    assert ruleset.extends_provenance.reason == NO_REASON
    # the inherited values keep the standing they have in the base
    assert ruleset.provenance["pack.decks"].status == "stated"
    runner = CliRunner()
    validated = runner.invoke(cli, ["validate", str(path)])
    assert validated.exit_code == 0, validated.output
    linted = runner.invoke(cli, ["lint", str(path)])
    assert linted.exit_code == 0, linted.output
    assert linted.output.rstrip().endswith("our-club: 0 errors, 0 warnings"), linted.output
    notes = [line for line in linted.output.splitlines() if line.startswith("note:")]
    unstated = [line for line in notes if "without provenance" in line]
    assert len(unstated) == 1 and "extends, game.target:" in unstated[0], notes
    assert all(len(line) < 240 for line in linted.output.splitlines()), linted.output
    book = runner.invoke(cli, ["rulebook", str(path)])
    assert book.exit_code == 0, book.output
    assert "What score ends the game? **10,000 points**, instead of 15,000 points." in book.output
    # a change without a reason is listed, no more (the details layer says none was given)
    assert NO_REASON not in people_markdown(book.output)


def test_strict_validation_keeps_asking_for_provenance_and_offers_house(tmp_path: Path) -> None:
    path = _three_lines(tmp_path)
    result = CliRunner().invoke(cli, ["validate", "--strict", str(path)])
    assert result.exit_code == 1
    assert f"{path}:2: extends: say why" in result.stderr
    assert f"{path}:3: game.target: no provenance" in result.stderr
    assert "{house: <reason>}" in result.stderr
    assert "Traceback" not in result.output


def test_shipped_files_are_held_to_strict_provenance(tmp_path: Path) -> None:
    # a shipped file is checked as strictly whatever the library's setting
    library = Library()
    assert not library.strict
    assert all(prov.reason != NO_REASON for r in library.all() for prov in r.provenance.values())


def test_lint_lets_a_deliberate_house_value_be(tmp_path: Path) -> None:
    path = tmp_path / "odd.yaml"
    path.write_text(
        "id: odd\nextends: bolivia-da\ngoing_out: {bonus: 150}\n"
        "canastas: {natural: {name: clean one}}\n"
        "provenance:\n  going_out.bonus: {house: we like 150}\n"
        "  canastas.natural.name: {house: what we call it}\n",
        encoding="utf-8",
    )
    findings = lint(Library().load(path))
    assert not [f for f in findings if f.level == "warning"], [str(f) for f in findings]
    # the same value with no reason given may be a slip: it is pointed out
    path.write_text("id: odd\nextends: bolivia-da\ngoing_out: {bonus: 150}\n", encoding="utf-8")
    warned = [str(f) for f in lint(Library().load(path)) if f.level == "warning"]
    assert any("150 is a value no source" in line for line in warned), warned


def test_assumed_values_are_one_short_note() -> None:
    findings = lint(Library().load("samba"))
    notes = [f for f in findings if "assumptions" in f.message]
    assert len(notes) == 1 and notes[0].level == "note"
    line = str(notes[0])
    assert len(notes[0].keys) > 40 and len(line) < 240, line
    assert f"and {len(notes[0].keys) - 4} more" in line


@pytest.mark.parametrize(
    ("fragment", "words"),
    [
        ("going_out: {bonus: 50}\n", "say why"),
        ("provenance: {extends: {house: x}}\ngoing_out: {bonus: 50}\n", "no provenance"),
    ],
)
def test_strict_library_refuses_unstated_values(tmp_path: Path, fragment: str, words: str) -> None:
    path = tmp_path / "s.yaml"
    path.write_text(f"id: s\nextends: bolivia-da\n{fragment}", encoding="utf-8")
    with pytest.raises(RulesetError) as info:
        Library(strict=True).load(path)
    assert any(words in p.message for p in info.value.problems), info.value.problems
    Library().load(path)


def test_validate_reports_every_problem_at_once_in_file_order(tmp_path: Path) -> None:
    path = tmp_path / "five.yaml"
    path.write_text(
        "id: five\n"
        "extends: bolivia-da\n"
        "colour: red\n"  # 3: an unknown key
        "melds:\n  group: {max_wild: two}\n"  # 5: a wrong type
        "game: {target: 10000}\n"
        "provenance:\n"
        "  game.target: da:no-such-claim\n"  # 8: an unknown claim
        "  going_out.bonuss: {house: x}\n",  # 9: not a field
        encoding="utf-8",
    )
    result = CliRunner().invoke(cli, ["validate", str(path)])
    assert result.exit_code == 1
    lines = result.stderr.splitlines()
    assert [line.split(":")[1] for line in lines] == ["3", "5", "8", "9"], lines
    assert "Traceback" not in result.output


def test_a_bad_id_is_said_in_words_not_as_a_pattern(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text("id: Our Club\nextends: bolivia-da\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["validate", str(path)])
    assert result.exit_code == 1
    assert "letters, digits" in result.stderr and "^[" not in result.stderr, result.stderr


def test_new_names_the_setting_not_a_line_of_an_unwritten_file(tmp_path: Path) -> None:
    out = tmp_path / "club.yaml"
    with pytest.raises(RulesetError) as info:
        derive("club", "bolivia-da", ["going_out.bonus=abc"], out, Library())
    (problem,) = info.value.problems
    assert (problem.file, problem.line) == ("--set going_out.bonus=abc", None), problem
    assert "expected a whole number" in problem.message
    assert not out.exists()


def test_new_takes_a_why_per_setting_and_an_entry_of_a_list(tmp_path: Path) -> None:
    out = tmp_path / "club.yaml"
    settings = ["going_out.bonus=300", "initial_meld.bands.2.minimum=100"]
    ruleset = derive("club", "bolivia-da", settings, out, Library(), why=["one", "two"])
    assert ruleset.provenance["going_out.bonus"].reason == "one"
    assert ruleset.provenance["initial_meld.bands"].reason == "two"
    base = Library().load("bolivia-da").rules.initial_meld.bands
    bands = ruleset.rules.initial_meld.bands
    assert bands[2].minimum == 100
    assert [b for i, b in enumerate(bands) if i != 2] == [b for i, b in enumerate(base) if i != 2]
    with pytest.raises(RulesetError, match="2 reasons for 1 settings"):
        derive("c2", "bolivia-da", settings[:1], tmp_path / "c2.yaml", Library(), why=["a", "b"])
    adds = "initial_meld.bands.5 adds one at the end"
    with pytest.raises(RulesetError, match=r"initial_meld.bands holds 5 entries: .*" + adds):
        derive(
            "c3", "bolivia-da", ["initial_meld.bands.9.minimum=1"], tmp_path / "c3.yaml", Library()
        )


def test_new_says_when_a_setting_is_the_base_value_and_titles_do_not_double(
    tmp_path: Path,
) -> None:
    runner = CliRunner()
    first = tmp_path / "first.yaml"
    result = runner.invoke(
        cli,
        [
            "new",
            "first",
            "--from",
            "bolivia-da",
            "--set",
            "going_out.bonus=200",
            "--out",
            str(first),
        ],
    )
    assert result.exit_code == 0, result.output
    assert "note: going_out.bonus=200: bolivia-da has this value already" in result.output
    assert "has this value already" in Library().load(first).provenance["going_out.bonus"].note
    second = tmp_path / "second.yaml"
    result = runner.invoke(
        cli,
        ["new", "second", "--from", str(first), "--set", "game.target=12000", "--out", str(second)],
    )
    assert result.exit_code == 0, result.output
    assert "note:" not in result.output
    name = Library().load(second).name
    assert name == "Second", name  # the house's own name, not its base's


HOYLE = """\
id: hoyle
title: Hoyle's rules of Bolivia (a published rulebook)
claims:
  - id: hoyle:going-out
    about: bolivia
    says: Going out scores 300 points for the side that goes out.
    where: page 12
    fixes:
      going_out.bonus: 300
"""
CITING = """\
id: hoyle-club
extends: bolivia-da
sources: [hoyle]
going_out: {bonus: 300}
provenance:
  going_out.bonus: hoyle:going-out
"""


def test_a_source_record_beside_the_ruleset_can_be_cited(tmp_path: Path) -> None:
    (tmp_path / "sources").mkdir()
    (tmp_path / "sources" / "hoyle.yaml").write_text(HOYLE, encoding="utf-8")
    path = tmp_path / "hoyle-club.yaml"
    path.write_text(CITING, encoding="utf-8")
    ruleset = Library([tmp_path]).load(path)
    prov = ruleset.provenance["going_out.bonus"]
    assert (prov.status, prov.claims) == ("stated", ("hoyle:going-out",))
    assert ruleset.sources == ("hoyle",)
    # the records beside it are not rulesets of the folder
    assert Library([tmp_path]).index_problems() == []
    book = CliRunner().invoke(cli, ["rulebook", str(path)])
    assert book.exit_code == 0, book.output
    said = people_markdown(book.output)
    assert "with sources of its own: “Hoyle's rules of Bolivia" in said, said
    assert "(house rule)" not in book.output
    assert "`hoyle` (“Hoyle's rules of Bolivia" in book.output  # the id, in the appendix


def test_a_source_folder_is_given_by_sources_and_checked(tmp_path: Path) -> None:
    folder = tmp_path / "records"
    folder.mkdir()
    (folder / "hoyle.yaml").write_text(HOYLE, encoding="utf-8")
    path = tmp_path / "hoyle-club.yaml"
    path.write_text(CITING, encoding="utf-8")
    runner = CliRunner()
    without = runner.invoke(cli, ["validate", str(path)])
    assert without.exit_code == 1 and "no source 'hoyle'" in without.stderr, without.output
    given = runner.invoke(cli, ["validate", "--sources", str(folder), str(path)])
    assert given.exit_code == 0, given.output
    # a claim that disagrees with the value is caught as for a shipped source
    path.write_text(CITING.replace("bonus: 300", "bonus: 400"), encoding="utf-8")
    wrong = runner.invoke(cli, ["validate", "--sources", str(folder), str(path)])
    assert wrong.exit_code == 1 and "disagrees with claim hoyle:going-out" in wrong.stderr
    # a record may not take a shipped source's id
    (folder / "da.yaml").write_text(HOYLE.replace("hoyle", "da"), encoding="utf-8")
    taken = runner.invoke(cli, ["validate", "--sources", str(folder), str(path)])
    assert taken.exit_code == 1 and "the source id 'da' is taken already" in taken.stderr
    assert "Traceback" not in taken.output


def test_an_id_is_found_beside_the_file_and_in_the_current_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    made = runner.invoke(
        cli, ["new", "our-club", "--from", "bolivia-da", "--set", "game.target=9000"]
    )
    assert made.exit_code == 0, made.output
    shown = runner.invoke(cli, ["show", "our-club"])
    assert shown.exit_code == 0, shown.output
    # a sibling file names it as its base by id, from any current folder
    kid = tmp_path / "kid.yaml"
    kid.write_text("id: kid\nextends: our-club\ngame: {target: 8000}\n", encoding="utf-8")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    assert Library().load(kid).chain[-2:] == ("our-club", "kid")
    missing = runner.invoke(cli, ["show", "our-club"])
    assert missing.exit_code == 1
    assert "no ruleset has the id 'our-club'" in missing.stderr
    assert "--rulesets DIR" in missing.stderr and str(elsewhere) in missing.stderr


def test_two_files_with_one_id_are_an_error_naming_both(tmp_path: Path) -> None:
    first, second = tmp_path / "a.yaml", tmp_path / "b.yaml"
    for path in (first, second):
        path.write_text(THREE_LINES, encoding="utf-8")
    with pytest.raises(RulesetError) as info:
        Library([tmp_path]).load("our-club")
    (problem,) = [p for p in info.value.problems if p.file == "<command line>"]
    assert str(first) in problem.message and str(second) in problem.message
    kid = tmp_path / "sub" / "kid.yaml"
    kid.parent.mkdir()
    kid.write_text("id: kid\nextends: our-club\n", encoding="utf-8")
    with pytest.raises(RulesetError, match="two files have the id 'our-club'"):
        Library([tmp_path]).load(kid)


def test_the_oracle_lists_only_the_rulesets_that_load_and_says_why_once(tmp_path: Path) -> None:
    (tmp_path / "good.yaml").write_text(THREE_LINES, encoding="utf-8")
    (tmp_path / "bad.yaml").write_text(
        "id: broke\nextends: bolivia-da\ngame: {target: lots}\n", encoding="utf-8"
    )
    requests = '{"op": "hello", "id": 1}\n{"op": "hello", "id": 2}\n'
    result = CliRunner().invoke(cli, ["oracle", "--rulesets", str(tmp_path)], input=requests)
    assert result.exit_code == 0, result.output
    answers = [json.loads(line) for line in result.stdout.splitlines()]
    listed = answers[0]["result"]["rulesets"]
    assert "our-club" in listed and "broke" not in listed
    assert result.stderr.count("not serving broke") == 1, result.stderr
    assert "bad.yaml:3: game.target: expected a whole number" in result.stderr


FOUR = "id: four\nextends: canasta\nplayers:\n  seats: {4: {teams: 2, hand_size: 11, draw: 1}}\n"


def test_limiting_play_to_four_players_keeps_the_base_tables_by_players(tmp_path: Path) -> None:
    # canasta has a going-out requirement for two players and a target for
    # three: entries that never apply once only four may play, and no reason to refuse
    path = tmp_path / "four.yaml"
    path.write_text(
        FOUR,
        encoding="utf-8",
    )
    ruleset = Library().load(path)
    assert sorted(ruleset.rules.players.seats) == [4]
    assert 2 in ruleset.rules.going_out.requirement_by_players  # inherited, unused
    # an entry for players who cannot sit, written by the file itself, is still a slip
    path.write_text(
        FOUR + "game: {target_by_players: {3: 9000}}\n",
        encoding="utf-8",
    )
    with pytest.raises(RulesetError, match="an entry for 3 players, who are not allowed"):
        Library().load(path)


def test_the_rulebook_of_four_players_prints_no_entry_for_other_numbers(tmp_path: Path) -> None:
    path = tmp_path / "four.yaml"
    path.write_text(FOUR, encoding="utf-8")
    result = CliRunner().invoke(cli, ["rulebook", str(path)])
    assert result.exit_code == 0, result.output
    # canasta's two-player going-out rule and three-player target stay inherited, unprinted
    assert "with 2 players" not in result.output and "with 3 players" not in result.output
    assert "melded 1 canasta, whatever the number of players." in result.output
    assert "reaches 5,000 points, whatever the number of players;" in result.output
    base = CliRunner().invoke(cli, ["rulebook", "canasta"])
    assert "with 2 players: 2 canastas" in base.output and "with 3 players: 7,500" in base.output


def test_an_entry_written_whole_says_it_inherits_nothing_and_how_to_change_one_key(
    tmp_path: Path,
) -> None:
    path = tmp_path / "four.yaml"
    path.write_text("id: four\nextends: bolivia-da\nplayers:\n  seats: {4: {teams: 2}}\n")
    result = CliRunner().invoke(cli, ["validate", str(path)])
    assert result.exit_code == 1
    lines = result.output.strip().splitlines()
    assert len(lines) == 2, lines  # hand_size and draw, once each
    assert lines[0].endswith(
        "four.yaml:4: players.seats.4.hand_size: hand_size missing: an entry written whole, or "
        "added, inherits nothing from a base's players.seats (to change only some keys of an "
        "entry the base has, write players.seats.4.hand_size: ... for each)"
    ), lines[0]
    # as the hint says: one key of the base's entry, the rest inherited
    path.write_text("id: four\nextends: bolivia-da\nplayers.seats.4.draw: 3\n")
    result = CliRunner().invoke(cli, ["validate", str(path)])
    assert result.exit_code == 0, result.output
    assert result.output.endswith(" 1 house rule; 98 as bolivia-da has them)\n"), result.output
    assert Library().load(path).rules.players.seats[4].hand_size == 15


def test_a_house_note_on_an_inherited_value_is_kept(tmp_path: Path) -> None:
    note = "provenance:\n  going_out.bonus: {house: we checked and keep the 200}\n"
    path = _file(tmp_path, "noted.yaml", f"id: noted\nextends: bolivia-da\n{note}")
    ruleset = Library().load(path)
    base = Library().load("bolivia-da").provenance["going_out.bonus"]
    prov = ruleset.provenance["going_out.bonus"]
    assert (prov.status, prov.claims) == (base.status, base.claims)
    assert prov.note.endswith("house: we checked and keep the 200"), prov.note
    assert "going_out.bonus" not in ruleset.own_leaves
    shown = CliRunner().invoke(cli, ["show", str(path)])
    assert "we checked and keep the 200" in shown.output


EDITS = """\
id: edits
extends: bolivia-da
scoring:
  card_points.3: -200
initial_meld:
  bands.2.minimum: 60
melds.group.max_wild: 1
provenance:
  scoring.card_points.3: {house: black threes hurt}
"""


def test_a_file_sets_one_entry_of_a_table_or_a_list(tmp_path: Path) -> None:
    ruleset = Library().load(_file(tmp_path, "edits.yaml", EDITS))
    base = Library().load("bolivia-da")
    points = dict(ruleset.rules.scoring.card_points)
    assert points.pop("3") == -200
    assert points == {k: v for k, v in base.rules.scoring.card_points.items() if k != "3"}
    bands, base_bands = ruleset.rules.initial_meld.bands, base.rules.initial_meld.bands
    assert bands[2].minimum == 60 and bands[2].from_score == base_bands[2].from_score
    assert bands[:2] == base_bands[:2] and bands[3:] == base_bands[3:]
    assert ruleset.rules.melds.group.max_wild == 1
    assert set(ruleset.own_leaves) == {
        "scoring.card_points",
        "initial_meld.bands",
        "melds.group.max_wild",
    }
    assert ruleset.provenance["scoring.card_points"].reason == "black threes hurt"


def test_entry_edits_that_cannot_be_made_name_their_line(tmp_path: Path) -> None:
    text = EDITS.replace("card_points.3: -200", "card_points.3: lots").replace(
        "bands.2.minimum", "bands.9.minimum"
    )
    path = _file(tmp_path, "bad.yaml", text + "game:\n  targt.x: 1\n")
    with pytest.raises(RulesetError) as info:
        Library().load(path)
    shown = [(p.line, p.message) for p in info.value.problems]
    assert [line for line, _ in shown] == [4, 6, 11], shown
    assert "expected a whole number" in shown[0][1]
    assert "holds 5 entries" in shown[1][1] and "(not '9')" in shown[1][1]
    assert "'game.targt.x' is not a ruleset field" in shown[2][1]


def test_new_writes_an_entry_of_a_table_not_the_whole_table(tmp_path: Path) -> None:
    out = tmp_path / "oc.yaml"
    settings = ["scoring.card_points.3=-200", "initial_meld.bands.2.minimum=60"]
    derive("oc", "bolivia-da", settings, out, Library())
    text = out.read_text(encoding="utf-8")
    assert "  card_points.3: -200\n" in text and "  bands.2.minimum: 60\n" in text
    assert "JK:" not in text and "from:" not in text
    assert Library().load(out).rules.scoring.card_points["3"] == -200


def test_sources_lists_a_folder_of_records_escaped(tmp_path: Path) -> None:
    # a double-quoted YAML string may spell an escape character
    text = HOYLE.replace("title: Hoyle's rules of Bolivia (a published rulebook)", "")
    _file(tmp_path, "hoyle.yaml", text + 'title: "Hoyle\'s rules of Bolivia \\e[31mred"\n')
    result = CliRunner().invoke(cli, ["sources", "--sources", str(tmp_path), "--claims"])
    assert result.exit_code == 0, result.output
    assert "hoyle (en, in of scope): Hoyle's rules of Bolivia" in result.output
    assert "hoyle:going-out [bolivia] page 12" in result.output
    assert "\x1b" not in result.output
    assert result.output.startswith("da (da, in of scope)")  # the shipped ones first


def test_an_unknown_id_names_a_broken_file_of_that_name_here_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    _file(tmp_path, "compose.yaml", "services: {}\n")
    _file(tmp_path, "mine.yaml", "id: [x\n")
    result = CliRunner().invoke(cli, ["show", "mine"])
    assert result.exit_code == 1
    assert "mine.yaml:2: not valid YAML" in result.stderr
    assert "compose.yaml" not in result.stderr
