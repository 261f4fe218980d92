"""House rules: bolivia new -> lint -> rulebook -> compare, end to end; the linter on broken
rulesets; the rulebook covering every field."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from bolivia.authoring.house import derive
from bolivia.authoring.leftovers import leftovers
from bolivia.authoring.lint import lint
from bolivia.authoring.rulebook import Rulebook
from bolivia.cli import cli
from bolivia.errors import RulesetError
from bolivia.rules.library import Library, shipped_library
from bolivia.rules.tree import leaf_paths

from .strategies import SHIPPED_IDS

LIBRARY = shipped_library()
BOLIVIAS = ["bolivia-fr", "bolivia-da", "bolivia-zh", "bolivia-ko"]
CHANGES = {
    "bolivia-fr": ["going_out.bonus=150", "melds.wild.max_size=7"],
    "bolivia-da": ["going_out.bonus=100", "players.seats.4.hand_size=13"],
    "bolivia-zh": ["game.target=10000", "melds.group.ratio=naturals_exceed_wilds"],
    "bolivia-ko": ["pile.take_top.allowed=false", "game.hand_cap={hands: 40, outcome: draw}"],
}


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bolivia", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


@pytest.mark.parametrize("base", BOLIVIAS)
def test_new_lint_rulebook_compare_end_to_end(base: str, tmp_path: Path) -> None:
    sets = [arg for change in CHANGES[base] for arg in ("--set", change)]
    done = run("new", "club", "--from", base, *sets, "--why", "the club's way", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    house = tmp_path / "club.yaml"
    ruleset = Library([tmp_path]).load(house)
    assert ruleset.extends == base
    assert set(ruleset.own_leaves) == {
        c.split("=")[0].rsplit(".", 2)[0] if c.startswith("players.seats") else c.split("=")[0]
        for c in CHANGES[base]
    }
    for leaf in ruleset.own_leaves:
        assert ruleset.provenance[leaf].status == "house"
        assert ruleset.provenance[leaf].reason == "the club's way"

    done = run("lint", "club.yaml", cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "club: 0 errors" in done.stdout

    for fmt in ("md", "html"):
        done = run("rulebook", "club.yaml", "--format", fmt, "--out", f"club.{fmt}", cwd=tmp_path)
        assert done.returncode == 0, done.stderr
    book = (tmp_path / "club.md").read_text()
    assert f"differ from {LIBRARY.load(base).name}**" in book
    assert "the club's way" in book

    done = run(
        "compare", "club.yaml", "--hands", "10", "--bots", "expert,greedy", "--out", "report",
        cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    data = json.loads((tmp_path / "report" / "comparison.json").read_text())
    assert [r["id"] for r in data["rulesets"]] == [base, "club"]
    report = (tmp_path / "report" / "comparison.md").read_text()
    assert "only the" in report and "rules it changes are shown" in report
    changed = {row["path"] for row in data["rules"] if row["differs"]}
    assert changed == set(ruleset.own_leaves)


BROKEN = [
    # (case, fragment set on bolivia-da, level, keys that must be named, words in the reason)
    (
        "wild-limit-unreachable",
        "melds:\n  group: {max_wild: 3, ratio: naturals_twice_wilds, max_size: 6}\n",
        "warning",
        ("melds.group.max_wild",),
        "never let it hold more than 2",
    ),
    (
        "band-beyond-the-target",
        "initial_meld:\n  bands: [{from: null, minimum: 15}, {from: 0, minimum: 50}, "
        "{from: 20000, minimum: 200}]\n",
        "warning",
        ("initial_meld.bands", "game.target"),
        "can never apply",
    ),
    (
        "band-minimum-falls",
        "initial_meld:\n  bands: [{from: null, minimum: 15}, {from: 0, minimum: 90}, "
        "{from: 1500, minimum: 50}]\n",
        "warning",
        ("initial_meld.bands",),
        "smaller first meld",
    ),
    (
        "three-bolivias",
        "going_out:\n  requirement: {rule: canastas, count: 3, including: {bolivia: 3}}\n",
        "error",
        ("going_out.requirement", "canastas.bolivia.size"),
        "the pack holds 18",
    ),
    (
        "too-many-canastas",
        "going_out:\n  requirement: {rule: canastas, count: 20}\n",
        "error",
        ("going_out.requirement", "players.seats"),
        "20 canastas need 140",
    ),
    (
        "keep-one-card",
        "going_out:\n  keep_cards: 1\n",
        "warning",
        ("going_out.keep_cards",),
        "read as 2 in play",
    ),
    (
        "red-threes-not-replaced",
        "red_threes:\n  replaced: false\n",
        "warning",
        ("red_threes.replaced",),
        "the hand ends there with nobody going out",
    ),
    (
        "going-out-above-concealed",
        "going_out:\n  bonus: 500\n",
        "warning",
        ("going_out.bonus", "going_out.concealed_bonus"),
        "more than going out concealed (200)",
    ),
    (
        "mixed-above-natural",
        "canastas:\n  mixed: {bonus: 600}\n",
        "warning",
        ("canastas.mixed.bonus", "canastas.natural.bonus"),
        "more than a natural one (500)",
    ),
    (
        "all-red-threes-below-each",
        "red_threes:\n  all_value: 500\n",
        "warning",
        ("red_threes.all_value", "red_threes.value"),
        "less than 6 of 100 each (600)",
    ),
    (
        "unusual-bonus",
        "going_out:\n  bonus: 150\n",
        "warning",
        ("going_out.bonus",),
        "no source or shipped ruleset uses",
    ),
    (
        "unusual-seat",
        "players:\n  seats: {4: {teams: 2, hand_size: 12, draw: 2}}\n",
        "warning",
        ("players.seats.4.hand_size",),
        "they use: 11, 13, 15",  # 13: Joker Canasta (rulesets/variants/)
    ),
    (
        "bonus-for-an-impossible-canasta",
        "melds:\n  wild: {allowed: false}\n"
        "going_out:\n  requirement: {rule: canastas, count: 2, including: {escalera: 1}}\n",
        "warning",
        ("canastas.bolivia.bonus",),
        "none can be made",
    ),
    (
        "groups-below-a-canasta",
        "melds:\n  group: {max_size: 5}\n",
        "warning",
        ("melds.group.max_size", "canastas.natural.size"),
        "no group canasta",
    ),
    (
        "first-meld-out-of-reach",
        "initial_meld:\n  bands: [{from: null, minimum: 99999}]\n",
        "error",
        ("initial_meld.bands",),
        "nobody can ever meld",
    ),
    (
        "nothing-scores",
        "scoring:\n  card_points: {JK: 0, '2': 0, A: 0, K: 0, Q: 0, J: 0, '10': 0, '9': 0, "
        "'8': 0, '7': 0, '6': 0, '5': 0, '4': 0, '3': 0}\n"
        "going_out:\n  bonus: 0\nred_threes:\n  value: 0\n"
        "canastas:\n  natural: {bonus: 0}\n  mixed: {bonus: 0}\n  escalera: {bonus: 0}\n"
        "  bolivia: {bonus: 0}\n",
        "error",
        ("game.target", "game.hand_cap"),
        "no side can reach",
    ),
]


@pytest.mark.parametrize(
    ("case", "fragment", "level", "keys", "words"), BROKEN, ids=[b[0] for b in BROKEN]
)
def test_the_linter_catches_broken_rulesets(
    tmp_path: Path, case: str, fragment: str, level: str, keys: tuple[str, ...], words: str
) -> None:
    sections = [line.split(":")[0] for line in fragment.splitlines() if not line.startswith(" ")]
    # a house value with its reason is meant: the unusual-value check looks at the others
    reason = "" if case.startswith("unusual") else "{house: test}"
    provenance = "".join(f"  {s}: {reason}\n" for s in sections if reason)
    path = tmp_path / f"{case}.yaml"
    path.write_text(
        f"id: {case}\nextends: bolivia-da\n{fragment}provenance:\n"
        f"  extends: {{house: test}}\n{provenance}"
    )
    findings = lint(Library([tmp_path]).load(path))
    hits = [
        f for f in findings if f.level == level and set(keys) <= set(f.keys) and words in f.message
    ]
    assert hits, [str(f) for f in findings]
    result = CliRunner().invoke(cli, ["lint", str(path)])
    assert result.exit_code == (1 if level == "error" else 0), result.output


def test_shipped_rulesets_leave_nothing_of_their_bases_behind() -> None:
    """Each shipped ruleset sets or confirms what its changes would leave out of step in its
    base (a target by number of players, other targets, seatings, values assumed unused)."""
    for rid in LIBRARY.ids():
        assert not [str(f) for f in leftovers(LIBRARY.load(rid))], rid


def test_shipped_rulesets_lint_without_errors() -> None:
    for rid in LIBRARY.ids():
        assert not [f for f in lint(LIBRARY.load(rid)) if f.level == "error"], rid


def test_lint_of_an_invalid_file_names_the_problem(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(
        "id: bad\nextends: bolivia-da\nmelds:\n  sequence: {allowed: false}\n"
        "provenance: {extends: {house: x}, melds: {house: x}}\n"
    )
    result = CliRunner().invoke(cli, ["lint", str(path)])
    assert result.exit_code == 1
    assert f"{path}:4: melds.sequence.allowed:" in result.stderr
    assert "Traceback" not in result.output


@pytest.mark.parametrize("rid", [*LIBRARY.ids()])
def test_the_rulebook_covers_every_field(rid: str) -> None:
    ruleset = LIBRARY.load(rid)
    book = Rulebook(ruleset, ruleset.base)
    book.markdown()
    assert book.used == set(leaf_paths())
    html = book.html()
    assert html.startswith("<!DOCTYPE html>") and '<table class="cards ' in html


def test_the_rulebook_escapes_house_text(tmp_path: Path) -> None:
    derive(
        "evil",
        "bolivia-zh",
        ["going_out.bonus=120"],
        tmp_path / "evil.yaml",
        LIBRARY,
        why="<script>alert(1)</script>",
        title="<b>Evil</b> & co",
    )
    ruleset = Library([tmp_path]).load(tmp_path / "evil.yaml")
    html = Rulebook(ruleset, ruleset.base).html()
    assert "<script>alert" not in html and "&lt;script&gt;" in html
    assert "<b>Evil</b>" not in html


@pytest.mark.parametrize(
    ("setting", "where", "words"),
    [
        ("going_out.bonus=lots", "--set going_out.bonus", "expected a whole number, got 'lots'"),
        ("going_out.bonsu=1", "--set going_out.bonsu", "did you mean one of 'going_out.bonus'"),
        (
            "players.seats.9.hand_size=3",
            "--set players.seats.9.hand_size",
            "players.seats.9: input should be less than or equal to 8 (got 9)",
        ),
        (
            "melds.group.ratio=sometimes",
            "--set melds.group.ratio",
            "is not allowed: expected 'any'",
        ),
        ("going_out.bonus", "--set going_out.bonus", "write --set key.path=value"),
        ("pack.decks=[", "--set pack.decks=[", "not valid YAML"),
    ],
)
def test_new_refuses_bad_settings_with_clear_errors(
    tmp_path: Path, setting: str, where: str, words: str
) -> None:
    with pytest.raises(RulesetError) as info:
        derive("evil", "bolivia-zh", [setting], tmp_path / "evil.yaml", LIBRARY)
    lines = [str(p) for p in info.value.problems]
    assert any(where in line and words in line for line in lines), lines
    assert not (tmp_path / "evil.yaml").exists()
    assert not list(tmp_path.iterdir())  # nothing half-written


def test_new_does_not_overwrite_without_force(tmp_path: Path) -> None:
    out = tmp_path / "club.yaml"
    derive("club", "bolivia-da", ["going_out.bonus=100"], out, LIBRARY)
    with pytest.raises(RulesetError, match="exists already"):
        derive("club", "bolivia-da", ["going_out.bonus=150"], out, LIBRARY)
    derive("club", "bolivia-da", ["going_out.bonus=150"], out, LIBRARY, force=True)
    assert Library([tmp_path]).load(out).rules.going_out.bonus == 150


def test_every_field_can_be_set(tmp_path: Path) -> None:
    """--set takes every field of the format: each leaf set to its own value re-reads the
    same (numbers, choices, lists, tables, named choices)."""
    base = LIBRARY.load("samba")
    settings = []
    for path in leaf_paths():
        value = base.value(path)
        settings.append(f"{path}={json.dumps(value)}")
    derived = derive("everything", "samba", settings, tmp_path / "all.yaml", LIBRARY)
    assert derived.rules == base.rules
    assert set(derived.own_leaves) == set(leaf_paths())


def test_house_rules_ship_for_every_id() -> None:
    assert set(BOLIVIAS) <= set(SHIPPED_IDS)
