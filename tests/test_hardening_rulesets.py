"""Ruleset files under hostile input: each test reproduces a fault found by review (a
traceback, a hang, a value silently read as another) and holds the fix.

Grouped by fault: over-long and out-of-range numbers; counts that made checks loop for ever;
odd paths and endless chains in ``extends``; number keys spelt oddly; the bound on the size of
suite files; and a broken file in a folder of rulesets.
"""

from __future__ import annotations

import re
import textwrap
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

from bolivia.cli import cli
from bolivia.errors import Problem, RulesetError
from bolivia.rules.library import Library
from bolivia.rules.loading import MAX_NUMBER_DIGITS, load_yaml_text
from bolivia.rules.model import Rules, leaf_paths
from bolivia.verify.conformance import load_suite
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
    loaded = yaml.safe_load(re.sub(r"\d{41,}", "0", body)) or {}
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
    path.write_text(_suite(2857), encoding="utf-8")
    assert path.stat().st_size < 4 * 1024 * 1024
    assert len(load_suite(path).cases) == 2857


def test_an_alias_bomb_in_a_suite_is_still_refused(tmp_path: Path) -> None:
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, 9)]
    path = tmp_path / "bomb.yaml"
    path.write_text(_suite(3) + "\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(RulesetError, match="aliases"), within(10):
        load_suite(path)


def test_a_suite_over_four_mebibytes_is_refused_unread(tmp_path: Path) -> None:
    path = tmp_path / "huge.yaml"
    path.write_text(_suite(1) + "# " + "x" * (4 * 1024 * 1024) + "\n", encoding="utf-8")
    with pytest.raises(RulesetError, match="bytes"):
        load_suite(path)
