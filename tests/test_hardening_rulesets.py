"""Ruleset files under hostile input: each test reproduces a fault found by review (a
traceback, a hang, a value silently read as another) and holds the fix.

Grouped by fault: over-long and out-of-range numbers; counts that made checks loop for ever;
odd paths and endless chains in ``extends``; number keys spelt oddly; the bound on the size of
suite files; and a broken file in a folder of rulesets.
"""

from __future__ import annotations

import dataclasses
import json
import re
import textwrap
import typing
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner
from pydantic import BaseModel
from pydantic.fields import FieldInfo

from bolivia.authoring.lint import lint
from bolivia.cli import cli
from bolivia.errors import Problem, RulesetError
from bolivia.rules import coherence
from bolivia.rules.library import MAX_CHAIN, Library
from bolivia.rules.loading import MAX_NUMBER_DIGITS, MAX_PROBLEMS, load_yaml_text
from bolivia.rules.model import Rules
from bolivia.rules.ruleset import Ruleset
from bolivia.rules.schema import ruleset_schema
from bolivia.rules.tree import leaf_paths
from bolivia.verify.conformance import load_suite
from bolivia.verify.oracle import Oracle
from tests.limits import within

HOUSE = """\
id: {id}
extends: {base}
{body}
provenance:
  extends: {{house: test}}
{entries}
"""


def house(folder: Path, body: str, *, rid: str = "hostile", base: str = "bolivia-da") -> Path:
    """A ruleset file on ``base`` setting ``body`` (YAML, from line 3), every leaf it sets
    given a house provenance, so that only the fault under test is reported."""
    # read with PyYAML itself (not the loader under test), long numbers made short
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    loaded = yaml.load(re.sub(r"\d{41,}", "0", body), Loader=loader) or {}
    paths = [
        leaf
        for leaf in leaf_paths()
        if _sets(loaded, leaf.split(".")) and leaf.split(".")[0] in Rules.model_fields
    ]
    entries = "".join(f"  {leaf}: {{house: test}}\n" for leaf in paths)
    path = folder / f"{rid}.yaml"
    path.write_text(HOUSE.format(id=rid, base=base, body=body, entries=entries), encoding="utf-8")
    return path


def _sets(data: Any, parts: list[str]) -> bool:
    for part in parts:
        if not isinstance(data, dict) or part not in data:
            return False
        data = data[part]
    return True


def problems_of(ref: str | Path, folders: tuple[Path, ...] = ()) -> list[Problem]:
    with pytest.raises(RulesetError) as caught, within(20):
        Library(folders).load(ref)
    return caught.value.problems


def invoke(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    """A command as a user runs it: its exit status and output; an exception is a failure."""
    result = CliRunner().invoke(cli, list(args), input=stdin)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


# --------------------------------------------------------------------------- 1. numbers


def test_an_integer_of_thousands_of_digits_is_a_problem_naming_file_line_and_key(
    tmp_path: Path,
) -> None:
    path = house(tmp_path, f"going_out:\n  bonus: {'9' * 5000}\n")
    [problem] = problems_of(path)
    assert (problem.file, problem.line, problem.path) == (str(path), 4, "going_out.bonus")
    assert f"more than {MAX_NUMBER_DIGITS} digits" in problem.message


def test_an_integer_key_of_thousands_of_digits_is_a_problem(tmp_path: Path) -> None:
    # a plain key is at most 1,024 characters: a longer one is written as an explicit key
    path = house(tmp_path, f"players:\n  seats:\n    ? {'4' * 4400}\n    : {{teams: 2}}\n")
    problems = problems_of(path)
    assert any(p.line == 5 and "digits" in p.message for p in problems), problems


@pytest.mark.parametrize("spelling", ["0x" + "f" * 5000, "1_" * 3000 + "1", ":".join(["5"] * 3000)])
def test_integers_in_any_yaml_spelling_are_bounded_by_their_digits(spelling: str) -> None:
    with within(5):
        loaded = load_yaml_text(f"n: {spelling}\n", "n.yaml")
    [problem] = loaded.problems
    assert (problem.line, problem.path) == (1, "n") and "digits" in problem.message


def test_a_400_digit_bonus_is_refused_not_left_to_crash_the_simulator(tmp_path: Path) -> None:
    path = house(tmp_path, f"going_out:\n  bonus: {'9' * 400}\n")
    [problem] = problems_of(path)
    assert (problem.line, problem.path) == (4, "going_out.bonus")


@pytest.mark.parametrize(
    ("body", "key", "line"),
    [
        ("going_out:\n  bonus: 1000000000000000000000000000000\n", "going_out.bonus", 4),
        ("canastas:\n  natural: {bonus: 1000001}\n", "canastas.natural.bonus", 4),
        ("scoring:\n  card_points: {JK: -1000001}\n", "scoring.card_points.JK", 4),
        ("game:\n  target: 10000001\n", "game.target", 4),
        ("game:\n  target_options: [5000, 100000000]\n", "game.target_options.1", 4),
        ("game:\n  hand_cap: {hands: 10001, outcome: draw}\n", "game.hand_cap.hands", 4),
        ("melds:\n  group:\n    max_wild: 441\n", "melds.group.max_wild", 5),
        ("going_out:\n  keep_cards: 441\n", "going_out.keep_cards", 4),
        (
            "initial_meld:\n  bands:\n    - {from: null, minimum: 50}\n"
            "    - {from: 100000000, minimum: 90}\n",
            "initial_meld.bands.1.from",
            6,
        ),
        (
            "going_out:\n  requirement: {rule: canastas, count: 221}\n",
            "going_out.requirement.count",
            4,
        ),
    ],
)
def test_a_value_past_its_range_is_refused_with_file_line_and_key(
    tmp_path: Path, body: str, key: str, line: int
) -> None:
    path = house(tmp_path, body)
    problems = problems_of(path)
    assert [(p.file, p.line, p.path) for p in problems] == [(str(path), line, key)], problems
    assert "less than or equal" in problems[0].message or "greater than" in problems[0].message


def _int_bounds(annotation: Any, metadata: list[Any], where: str) -> list[str]:
    """Every whole number inside a field's type that lacks a lower or an upper bound."""
    if annotation is int:
        inner = [m for item in metadata if isinstance(item, FieldInfo) for m in item.metadata]
        bounds = [*metadata, *inner]
        has_low = any(getattr(b, "ge", None) is not None for b in bounds)
        has_high = any(getattr(b, "le", None) is not None for b in bounds)
        return [] if has_low and has_high else [where]
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        missing = []
        for name, info in annotation.model_fields.items():
            missing += _int_bounds(info.annotation, list(info.metadata), f"{where}.{name}")
        return missing
    if typing.get_origin(annotation) is typing.Annotated:
        first, *rest = typing.get_args(annotation)
        return _int_bounds(first, rest, where)
    return [m for arg in typing.get_args(annotation) for m in _int_bounds(arg, [], where)]


def test_every_number_of_the_rule_tree_has_a_range_and_the_schema_says_it() -> None:
    assert _int_bounds(Rules, [], "rules") == []
    text = json.dumps(ruleset_schema())
    assert '"maximum": 440' in text and '"maximum": 10000000' in text


def test_the_largest_values_play_whole_games(tmp_path: Path) -> None:
    path = house(
        tmp_path,
        "going_out: {bonus: 1000000, concealed_bonus: 1000000}\n"
        "red_threes: {value: 1000000, all_value: 1000000}\n"
        "canastas:\n  mixed: {bonus: 1000000}\n  natural: {bonus: 1000000}\n"
        "game: {target: 10000000}\n",
    )
    code, out, err = invoke("simulate", str(path), "--games", "2", "--json")
    assert code == 0, err
    assert json.loads(out)["games"] == 2
    report = tmp_path / "report"
    code, _, err = invoke(
        "compare", str(path), "--hands", "10", "--bots", "greedy", "--workers", "1",
        "--format", "json", "--out", str(report),
    )  # fmt: skip
    assert code == 0, err
    assert json.loads((report / "comparison.json").read_text(encoding="utf-8"))


# --------------------------------------------------------------------------- 2. huge counts


@pytest.mark.parametrize(
    ("body", "key"),
    [
        ("melds:\n  group:\n    min_size: 1000000000000\n", "melds.group.min_size"),
        ("melds:\n  group:\n    max_wild: 1000000000000\n", "melds.group.max_wild"),
        ("canastas:\n  mixed: {size: 1000000000000}\n", "canastas.mixed.size"),
    ],
)
def test_a_huge_count_is_refused_at_once(tmp_path: Path, body: str, key: str) -> None:
    path = house(tmp_path, body)
    with within(10):
        problems = problems_of(path)
    assert [p.path for p in problems] == [key]


def test_a_huge_count_in_a_folder_does_not_hang_the_list_or_the_oracle(tmp_path: Path) -> None:
    house(tmp_path, "melds:\n  group:\n    min_size: 1000000000000\n")
    with within(30):
        code, _, err = invoke("rulesets", "--rulesets", str(tmp_path))
        oracle = Oracle(Library([tmp_path]))
        answer = json.loads(oracle.handle_line('{"op": "info", "ruleset": "hostile"}'))
    assert code == 1 and "melds.group.min_size" in err
    assert answer["ok"] is False and "melds.group.min_size" in answer["error"]["message"]


def _with_rules(ruleset: Ruleset, **sections: dict[str, Any]) -> Ruleset:
    """The ruleset with values set past validation (as a bug elsewhere could)."""
    rules = ruleset.rules
    for section, values in sections.items():
        part: BaseModel = getattr(rules, section)
        for dotted, value in values.items():
            *inner, name = dotted.split(".")
            if inner:
                record = getattr(part, inner[0])
                part = part.model_copy(update={inner[0]: record.model_copy(update={name: value})})
            else:
                part = part.model_copy(update={name: value})
        rules = rules.model_copy(update={section: part})
    return dataclasses.replace(ruleset, rules=rules)


def test_coherence_and_lint_do_not_loop_in_proportion_to_a_rule_value() -> None:
    base = Library().load("bolivia-da")
    huge = 10**12
    ruleset = _with_rules(
        base,
        melds={"group.min_size": huge, "group.max_wild": huge},
        canastas={"mixed.size": huge},
    )
    with within(10):
        coherence.check(ruleset.rules)
        lint(ruleset)


def test_the_range_limits_still_lint_quickly(tmp_path: Path) -> None:
    path = house(
        tmp_path,
        "pack: {decks: 8, jokers: 24}\n"
        "melds:\n  group: {max_wild: 440, min_size: 440, max_size: 440}\n",
    )
    with within(20):
        try:
            ruleset = Library().load(path)
        except RulesetError:
            return  # refused as incoherent: what matters is the time
        lint(ruleset)


def test_a_wild_rank_given_twice_is_refused(tmp_path: Path) -> None:
    path = house(tmp_path, "pack:\n  wild_ranks: ['2', '2', '2']\n")
    [problem] = problems_of(path)
    assert (problem.line, problem.path) == (4, "pack.wild_ranks")
    assert "more than once: 2" in problem.message


# --------------------------------------------------------------------------- 3. extends


@pytest.mark.parametrize(
    ("extends", "words"),
    [
        ('"a\\0b.yaml"', "control character"),
        ('"a\\x1bb.yaml"', "control character"),
        ("a" * 300 + ".yaml", "305 characters"),
        ('""', "name the base"),
    ],
)
def test_an_extends_that_cannot_be_a_path_is_refused(
    tmp_path: Path, extends: str, words: str
) -> None:
    path = house(tmp_path, "", base=extends)
    problems = problems_of(path)
    assert [(p.line, p.path) for p in problems] == [(2, "extends")], problems
    assert words in problems[0].message


def test_an_extends_too_long_for_the_file_system_is_a_problem(tmp_path: Path) -> None:
    name = "é" * 200 + ".yaml"  # 205 characters, 405 bytes: too long for a file name
    path = house(tmp_path, "", base=name)
    problems = problems_of(path)
    assert [(p.line, p.path) for p in problems] == [(2, "extends")], problems
    assert "too long" in problems[0].message


def _chain(folder: Path, length: int) -> Path:
    """``length`` files, each extending the next by a relative path, the last bolivia-da."""
    for i in range(length):
        base = f"r{i + 1}.yaml" if i + 1 < length else "bolivia-da"
        house(folder, "", rid=f"r{i}", base=base)
    return folder / "r0.yaml"


def test_a_thousand_file_chain_is_refused_naming_the_chain(tmp_path: Path) -> None:
    problems = problems_of(_chain(tmp_path, 1000))
    deepest = [p for p in problems if "longer than" in p.message]
    assert len(deepest) == 1
    assert f"longer than {MAX_CHAIN} files: r0 -> r1 -> " in deepest[0].message
    assert deepest[0].path == "extends" and deepest[0].line == 2


def test_a_chain_of_the_limit_loads_and_one_more_is_refused(tmp_path: Path) -> None:
    shipped = len(Library().load("bolivia-da").chain)  # canasta -> samba -> bolivia-da
    ok = tmp_path / "ok"
    ok.mkdir()
    assert len(Library().load(_chain(ok, MAX_CHAIN - shipped)).chain) == MAX_CHAIN
    over = tmp_path / "over"
    over.mkdir()
    assert any(
        "longer than" in p.message for p in problems_of(_chain(over, MAX_CHAIN - shipped + 1))
    )


@pytest.mark.parametrize(
    "ref", ["a\x00b.yaml", "x" * 300 + ".yaml", "a/" * 3000 + "x.yaml", "\u00e9" * 200 + ".yaml"]
)
def test_a_path_that_cannot_be_opened_is_a_problem(ref: str) -> None:
    [problem] = problems_of(ref)
    assert problem.message and len(problem.file) <= 400


@pytest.mark.parametrize("folder", ["a\x00b", "x" * 300, "a/" * 3000])
def test_a_rulesets_folder_that_cannot_be_opened_is_a_problem(folder: str) -> None:
    with pytest.raises(RulesetError, match="not a folder of rulesets"):
        Library([folder])


def test_an_unknown_id_of_thousands_of_characters_is_not_echoed_whole() -> None:
    code, _, err = invoke("show", "a" * 5000)
    assert code == 1 and "no ruleset has the id 'aaaa" in err and len(err) < 1000


# --------------------------------------------------------------------------- 4. number keys


@pytest.mark.parametrize("key", ["'04'", "'\u0664'", "04", "0x4", "+4", "'\uff14'", "4_"])
def test_a_seat_key_not_in_plain_digits_is_refused(tmp_path: Path, key: str) -> None:
    path = house(tmp_path, f"players:\n  seats:\n    {key}: {{teams: 2, hand_size: 11, draw: 2}}\n")
    problems = problems_of(path)
    assert [p.line for p in problems] == [5], problems
    assert "plain ASCII digits" in problems[0].message


@pytest.mark.parametrize(
    ("body", "line"),
    [
        ("going_out:\n  requirement_by_players:\n    '04': {rule: canastas, count: 2}\n", 5),
        ("game:\n  target_by_players: {'\u0664': 5000}\n", 4),
    ],
)
def test_other_tables_by_players_refuse_odd_digits_too(
    tmp_path: Path, body: str, line: int
) -> None:
    problems = problems_of(house(tmp_path, body))
    assert [p.line for p in problems] == [line] and "plain ASCII digits" in problems[0].message


def test_card_points_refuse_a_rank_spelt_as_an_octal_number(tmp_path: Path) -> None:
    problems = problems_of(house(tmp_path, "scoring:\n  card_points: {04: 5}\n"))
    assert [p.path for p in problems] == ["scoring.card_points.04"], problems


@pytest.mark.parametrize(
    ("body", "key"),
    [
        (
            "players:\n  seats:\n    4: {teams: 2, hand_size: 11, draw: 2}\n"
            "    '4': {teams: 2, hand_size: 13, draw: 2}\n",
            "players.seats",
        ),
        ("scoring:\n  card_points: {10: 10, T: 20}\n", "scoring.card_points"),
    ],
)
def test_two_spellings_of_one_key_are_a_key_given_twice(
    tmp_path: Path, body: str, key: str
) -> None:
    problems = problems_of(house(tmp_path, body))
    assert [p.path for p in problems] == [key] and "given twice" in problems[0].message


def test_plain_number_keys_still_load(tmp_path: Path) -> None:
    path = house(
        tmp_path,
        "players:\n  seats:\n    4: {teams: 2, hand_size: 11, draw: 2}\n"
        "    '6': {teams: 3, hand_size: 11, draw: 2}\n  usual: 4\n"
        "game:\n  target_by_players: {}\n"
        "going_out:\n  requirement_by_players: {}\n",
    )
    assert sorted(Library().load(path).rules.players.seats) == [4, 6]


# --------------------------------------------------------------------------- many problems


@pytest.mark.parametrize(
    "body",
    [
        "pack:\n  wild_ranks: [" + ", ".join(["x"] * 5_000) + "]\n",  # pydantic's errors
        "melds:\n  group:\n" + "".join(f"    max_wil{i}: 1\n" for i in range(12_000)),
        "going_out:\n  bonus: [" + ", ".join(["9" * 41] * 5_000) + "]\n",  # the loader's
    ],
)
def test_a_file_of_thousands_of_mistakes_lists_the_first_and_counts_the_rest(
    tmp_path: Path, body: str
) -> None:
    path = house(tmp_path, body)
    with within(20):
        problems = problems_of(path)
    assert len(problems) <= MAX_PROBLEMS + 1, len(problems)
    assert problems[-1].file == str(path)
    assert f"only the first {MAX_PROBLEMS} are listed" in problems[-1].message


def test_thousands_of_unknown_provenance_keys_are_listed_in_part(tmp_path: Path) -> None:
    path = tmp_path / "many.yaml"
    keys = "".join(f"  k{i}: {{house: x}}\n" for i in range(12_000))
    path.write_text(f"id: many\nextends: bolivia-da\nprovenance:\n{keys}", encoding="utf-8")
    with within(20):
        problems = problems_of(path)
    assert len(problems) <= MAX_PROBLEMS + 1
    assert "only the first" in problems[-1].message


def test_bands_out_of_order_are_named_without_echoing_the_list(tmp_path: Path) -> None:
    bands = ", ".join(["{from: 5, minimum: 1}"] * 1_000)
    path = house(tmp_path, f"initial_meld:\n  bands: [{{from: null, minimum: 1}}, {bands}]\n")
    [problem] = problems_of(path)
    assert problem.path == "initial_meld.bands" and len(problem.message) < 200
    assert "bands[2] starts at 5, not above bands[1] (5)" in problem.message


# --------------------------------------------------------------------------- 5. suite files


def _suite(cases: int) -> str:
    case = textwrap.dedent(
        """\
          - id: case-{i}
            about: three natural eights are a group in bolivia-da
            source: [da:groups]
            op: meld
            input: {{cards: [8H, 8S, 8D]}}
            expect:
              bolivia-da: {{legal: true, kind: group, canasta: null}}
        """
    )
    return "suite: big\ncases:\n" + "".join(case.format(i=i) for i in range(cases))


def test_a_suite_of_thousands_of_cases_loads(tmp_path: Path) -> None:
    path = tmp_path / "big.yaml"
    path.write_text(_suite(3000), encoding="utf-8")
    assert path.stat().st_size < 4 * 1024 * 1024
    assert len(load_suite(path).cases) == 3000


def test_an_alias_bomb_in_a_suite_is_still_refused(tmp_path: Path) -> None:
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, 9)]
    path = tmp_path / "bomb.yaml"
    path.write_text(_suite(3) + "\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(RulesetError, match="aliases"), within(3):
        load_suite(path)


def test_a_suite_over_four_mebibytes_is_refused_unread(tmp_path: Path) -> None:
    path = tmp_path / "huge.yaml"
    path.write_text(_suite(1) + "# " + "x" * (4 * 1024 * 1024) + "\n", encoding="utf-8")
    with pytest.raises(RulesetError, match="bytes"):
        load_suite(path)


# --------------------------------------------------------------------------- a broken file


@pytest.fixture
def broken_folder(tmp_path: Path) -> Path:
    house(tmp_path, f"going_out:\n  bonus: {'9' * 5000}\n", rid="broken")
    house(tmp_path, "going_out:\n  bonus: 150\n", rid="fine")
    return tmp_path


def test_a_broken_file_is_listed_as_a_problem_and_the_rest_as_rulesets(broken_folder: Path) -> None:
    code, out, err = invoke("rulesets", "--rulesets", str(broken_folder))
    assert code == 1
    assert "fine" in out and "bolivia-da" in out
    assert "broken.yaml:4: going_out.bonus:" in err and "Traceback" not in err


@pytest.mark.parametrize(
    "args",
    [
        ("show", "fine"),
        ("show", "bolivia-da"),
        ("validate", "fine", "bolivia-da"),
        ("lint", "fine"),
    ],
)
def test_a_broken_file_leaves_commands_about_other_rulesets_working(
    broken_folder: Path, args: tuple[str, ...]
) -> None:
    code, _, err = invoke(*args, "--rulesets", str(broken_folder))
    assert code == 0, err


@pytest.mark.parametrize("args", [("validate", "broken"), ("show", "broken"), ("lint", "broken")])
def test_asking_for_the_broken_file_names_its_problem(
    broken_folder: Path, args: tuple[str, ...]
) -> None:
    code, _, err = invoke(*args, "--rulesets", str(broken_folder))
    assert code == 1
    assert "could not be read" in err and "broken.yaml:4: going_out.bonus:" in err


def test_the_oracle_says_hello_beside_a_broken_file(broken_folder: Path) -> None:
    oracle = Oracle(Library([broken_folder]))
    hello = json.loads(oracle.handle_line('{"op": "hello"}'))
    assert hello["ok"] and "fine" in hello["result"]["rulesets"]
    answer = json.loads(oracle.handle_line('{"op": "info", "ruleset": "broken"}'))
    assert answer["error"]["code"] == "unknown-ruleset"
    assert "broken.yaml" in answer["error"]["message"]
