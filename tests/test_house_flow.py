"""A club's first steps, as a new user takes them: ``new`` -> ``validate`` -> ``lint`` ->
``rulebook`` -> ``compare`` -> ``sweep``, for a house ruleset that changes nothing yet and for
one written from a published rulebook, on every shipped base (issue 36)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

from bolivia.cli import cli
from bolivia.rules.library import Library, shipped_library
from bolivia.rules.ruleset import Ruleset

from .reading import people_markdown
from .test_house_files import CITING, HOYLE

RUNNER = CliRunner()
BASES = shipped_library().ids()  # every shipped ruleset, the examples of house/ and variants/ too


def run(*args: str) -> tuple[int, str, str]:
    result = RUNNER.invoke(cli, list(args))
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def flow(tmp_path: Path, house: str, base: str) -> dict[str, str]:
    """Each step of the flow on ``house``.yaml; what each wrote. A step that fails fails the
    test with what it said."""
    file = str(tmp_path / f"{house}.yaml")
    out: dict[str, str] = {}
    steps = {
        "validate": ("validate", file),
        "lint": ("lint", file),
        "rulebook": ("rulebook", file, "--out", str(tmp_path / "book" / f"{house}.md")),
        "compare": (
            "compare",
            file,
            "--hands",
            "10",
            "--games",
            "1",
            "--bots",  # the steps, not the search's play (a search hand of some bases is long)
            "expert,greedy",
            "--workers",
            "1",
            "--out",
            str(tmp_path / "report"),
        ),
        "sweep": (
            "sweep",
            file,
            "--vary",
            "going_out.bonus=0,1000",
            "--hands",
            "10",
            "--workers",
            "1",
            "--store",
            str(tmp_path / "store.sqlite"),
            "--out",
            str(tmp_path / "sweep"),
        ),
    }
    for step, args in steps.items():
        code, stdout, stderr = run(*args)
        assert code == 0, f"{step} of a house on {base}: {stdout}{stderr}"
        out[step] = stdout
    return out


@pytest.mark.parametrize("base", BASES)
def test_a_house_that_changes_nothing_goes_through_every_step(base: str, tmp_path: Path) -> None:
    code, stdout, stderr = run("new", "club", "--from", base, "--out", str(tmp_path / "club.yaml"))
    assert code == 0, stdout + stderr
    said = flow(tmp_path, "club", base)
    assert "club: 0 errors" in said["lint"]
    report = (tmp_path / "report" / "comparison.md").read_text(encoding="utf-8")
    assert f"**club changes no rule of {base} yet**" in report
    assert "No rule differs" in report
    data = json.loads((tmp_path / "report" / "comparison.json").read_text(encoding="utf-8"))
    assert [r["id"] for r in data["rulesets"]] == [base, "club"]
    assert not [row for row in data["rules"] if row["differs"]]


def test_every_command_that_loads_rulesets_reads_the_sources_folder(tmp_path: Path) -> None:
    """A ruleset citing a source record of its own folder of records (``--sources``), not one
    beside it: each command finds the record, in its own process and in worker processes."""
    records = tmp_path / "records"
    records.mkdir()
    (records / "hoyle.yaml").write_text(HOYLE, encoding="utf-8")
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "hoyle-club.yaml").write_text(CITING, encoding="utf-8")
    file = str(mine / "hoyle-club.yaml")
    given = ("--sources", str(records))
    commands = {
        "show": ("show", file),
        "validate": ("validate", file),
        "lint": ("lint", file),
        "rulebook": ("rulebook", file),
        "by id": ("show", "hoyle-club", "--rulesets", str(mine)),
        "new": ("new", "ours", "--from", file, "--out", str(mine / "ours.yaml")),
        "simulate": ("simulate", file, "--hands", "4", "--workers", "2"),
        "match": ("match", file, "--bots", "greedy,random", "--deals", "2"),
        "compare": (
            *("compare", file, "--hands", "10", "--games", "1", "--bots", "greedy"),
            *("--workers", "2", "--out", str(tmp_path / "report")),
        ),
        "sweep": (
            *("sweep", file, "--vary", "going_out.bonus=100", "--hands", "4"),
            *("--store", str(tmp_path / "s.sqlite"), "--out", str(tmp_path / "sweep")),
        ),
        "oracle": ("conform", "--ruleset", file, "-k", "cards:*", "--quiet"),
    }
    for name, args in commands.items():
        refused = run(*args)
        assert refused[0] in (1, 2) and "no source 'hoyle'" in refused[2], (name, refused)
        code, stdout, stderr = run(*args, *given)
        assert code == 0, (name, stdout, stderr)


# --------------------------------------------------------------------------- bolivia new


def new(tmp_path: Path, name: str, base: str, *settings: str, why: str = "") -> str:
    """Run ``bolivia new``; the file it wrote."""
    args = ["new", name, "--from", base, "--out", str(tmp_path / f"{name}.yaml")]
    args += [part for setting in settings for part in ("--set", setting)]
    args += ["--why", why] if why else []
    code, stdout, stderr = run(*args)
    assert code == 0, stdout + stderr
    return (tmp_path / f"{name}.yaml").read_text(encoding="utf-8")


def test_new_writes_its_file_as_the_shipped_ones_are_written(tmp_path: Path) -> None:
    text = new(
        tmp_path,
        "our-club",
        "bolivia-da",
        "game.target=10000",  # given out of the format's order, and as a dotted path
        "scoring.card_points.3=-200",
        "pack.jokers=4",
        why="we always played so",
    )
    lines = text.splitlines()
    assert lines[0].startswith("# yaml-language-server: $schema=")
    schema = (tmp_path / lines[0].split("$schema=", 1)[1]).resolve()
    assert schema.name == "schema.json" and schema.is_file()
    data = yaml.safe_load(text)
    assert data["name"] == "Our club"  # the house's name, not its base's
    assert "notes" not in data  # the reason is each rule's provenance, not the file's notes
    assert list(data)[:3] == ["id", "name", "extends"]
    assert [k for k in data if k in ("pack", "scoring", "game")] == ["pack", "scoring", "game"]
    assert data["pack"] == {"jokers": 4} and data["scoring"] == {"card_points.3": -200}
    assert data["provenance"]["game.target"] == {"house": "we always played so"}


def test_new_adds_an_entry_at_the_end_of_a_list(tmp_path: Path) -> None:
    new(
        tmp_path,
        "bands",
        "canasta",
        "initial_meld.bands.4.from=7000",
        "initial_meld.bands.4.minimum=150",
    )
    bands = Library([tmp_path]).load(tmp_path / "bands.yaml").rules.initial_meld.bands
    assert [(b.from_score, b.minimum) for b in bands][-2:] == [(3000, 120), (7000, 150)]
    # the same in a file, whole
    (tmp_path / "whole.yaml").write_text(
        "id: whole\nextends: canasta\ninitial_meld:\n  bands.4: {from: 7000, minimum: 150}\n",
        encoding="utf-8",
    )
    assert Library([tmp_path]).load(tmp_path / "whole.yaml").rules.initial_meld.bands == bands
    code, _, stderr = run(
        "new", "far", "--from", "canasta", "--set", "initial_meld.bands.5.from=7000",
        "--out", str(tmp_path / "far.yaml"),
    )  # fmt: skip
    assert code == 1
    assert "initial_meld.bands.4 adds one at the end (not '5')" in stderr
    code, _, stderr = run(
        "new", "half", "--from", "canasta", "--set", "initial_meld.bands.4.from=7000",
        "--out", str(tmp_path / "half.yaml"),
    )  # fmt: skip
    assert code == 1
    assert (
        "--set initial_meld.bands.4.from=7000: initial_meld.bands.4.minimum: the fifth " in stderr
    )


def test_a_house_that_plays_another_game_says_so(tmp_path: Path) -> None:
    """A Bolivia club written on Canasta: three decks, sequences and wild melds."""
    settings = ("pack.decks=3", "melds.sequence.allowed=true", "melds.wild.allowed=true")
    text = new(tmp_path, "club", "canasta", *settings)
    assert yaml.safe_load(text)["family"] == "bolivia"
    assert new(tmp_path, "same", "canasta", "pack.decks=3").count("family") == 0


def test_the_rulebook_marks_a_house_rule_once_and_gives_one_reason_once(tmp_path: Path) -> None:
    settings = ("pack.decks=3", "pack.jokers=6", "game.target=15000")
    new(tmp_path, "club", "canasta", *settings, why="our club's way")
    code, book, stderr = run("rulebook", str(tmp_path / "club.yaml"))
    assert code == 0, stderr
    assert "with 3 decks of 52 cards and 6 jokers (162 cards) (house rule)." in book
    assert people_markdown(book).count("our club's way") == 1
    for line in book.splitlines():
        for sentence in re.split(r"[.;:] ", line):  # each clause, outside a table
            assert sentence.count("(house rule)") <= 1, sentence
            assert sentence.count("\N{DAGGER}") <= 1 or line.startswith("|"), sentence


# --------------------------------------------------------------------------- messages


@pytest.mark.parametrize(
    ("text", "said"),
    [
        (
            "id: tab\nextends: bolivia-da\ngame:\n\ttarget: 100\n",
            ":4: a tab (column 1): YAML indents with spaces only",
        ),
        (
            'id: quoted\nextends: bolivia-da\npack:\n  decks: "3"\n',
            ":4: pack.decks: expected a whole number, got the text '3': write 3 without quotes",
        ),
        (
            "id: bands\nextends: bolivia-da\ninitial_meld:\n  bands:\n"
            "    - {from: null, minimum: 15}\n    - {from: 0, minimum: -50}\n",
            ":6: initial_meld.bands.1.minimum: the second band: input should be greater than",
        ),
        (
            "id: lost\npack: {decks: 3}\nmelds:\n  wild: {allowed: true}\n",
            ":1: no extends: a ruleset builds on another (add extends: bolivia-da, the shipped "
            "ruleset nearest to what it sets;",
        ),
    ],
)
def test_a_file_gets_one_line_a_person_can_act_on(tmp_path: Path, text: str, said: str) -> None:
    path = tmp_path / "house.yaml"
    path.write_text(text, encoding="utf-8")
    code, _, stderr = run("validate", str(path))
    assert code == 1
    assert stderr.count("\n") == 1 and said in stderr, stderr


# --------------------------------------------------------------------------- a published rulebook

# A club's published Bolivia page, point by point: three decks and six jokers, sequences and
# wild melds, a game to 15,000, a band from 7,000, two canastas one of them an escalera to go
# out, 1,000 for all the red threes, escaleras 2,000 and bolivias 2,500.
PUBLISHED = (
    "pack.decks=3",
    "pack.jokers=6",
    "melds.sequence.allowed=true",
    "melds.wild.allowed=true",
    "game.target=15000",
    "initial_meld.bands=[{from: null, minimum: 15}, {from: 0, minimum: 50}, "
    "{from: 1500, minimum: 90}, {from: 3000, minimum: 120}, {from: 7000, minimum: 150}]",
    "going_out.requirement={rule: canastas, count: 2, including: {escalera: 1}}",
    "red_threes.all_value=1000",
    "canastas.escalera.bonus=2000",
    "canastas.bolivia.bonus=2500",
)


def _seated(base: Ruleset, path: str) -> dict[str, Any]:
    seated = {str(n) for n in base.rules.players.seats}
    return {n: v for n, v in base.value(path).items() if str(n) in seated}


def expected_leftovers(base: Ruleset) -> set[str]:
    """What the published page leaves of the base, read off the base's own values: its
    exceptions by number of players, its other targets and its seatings for another pack."""
    by_players = ("game.target_by_players", "going_out.requirement_by_players")
    left = {p for p in by_players if _seated(base, p)}
    if base.value("game.target_options") and base.value("game.target") != 15000:
        left.add("game.target_options")
    if (base.rules.pack.decks, base.rules.pack.jokers) != (3, 6):
        left.add("players.seats")
    return left


def warned(lint_output: str) -> set[str]:
    """The keys lint's warnings name."""
    return {
        key
        for line in lint_output.splitlines()
        if line.startswith("warning:")
        for key in line.split(": ", 2)[1].split(", ")
    }


@pytest.mark.parametrize("base_id", BASES)
def test_a_published_rulebook_on_any_base_has_every_leftover_named(
    base_id: str, tmp_path: Path
) -> None:
    base = shipped_library().load(base_id)
    new(tmp_path, "club", base_id, *PUBLISHED, why="the club's published page")
    said = flow(tmp_path, "club", base_id)["lint"]
    left = expected_leftovers(base)
    assert left <= warned(said), said
    # as lint says: each dropped, or restated as the club plays it
    path = tmp_path / "club.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    seats = {base.rules.players.usual: {"teams": 2, "hand_size": 15, "draw": 2}}
    drop = {"game.target_by_players": {}, "going_out.requirement_by_players": {}}
    drop |= {"game.target_options": [], "players.seats": seats}
    for key in left:
        section, field = key.split(".")
        data.setdefault(section, {})[field] = drop[key]
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    code, said, stderr = run("lint", str(path))
    assert code == 0 and not left & warned(said), said + stderr
    code, book, _ = run("rulebook", str(path))
    printed = {
        "game.target_by_players": "points (with",
        "going_out.requirement_by_players": "with some numbers of players it is different",
        "game.target_options": "the table may choose another target",
    }
    assert not [printed[k] for k in left if k in printed and printed[k] in book], book
