"""The ruleset loader under mutated files: arbitrary YAML values at arbitrary key paths, huge
numbers, deep nesting, odd keys, aliases, odd paths in ``extends``, broken text. Whatever the
file, loading it gives a ruleset or problems naming the file, the line and the key, in bounded
time; a ruleset that loads can be linted; a broken file in a folder leaves the rest usable.

Examples follow the Hypothesis profile (``HYPOTHESIS_PROFILE=thorough`` runs more).
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest
from hypothesis import given

from bolivia.authoring.lint import LEVELS, lint
from bolivia.errors import Problem, RulesetError
from bolivia.rules.library import Library, shipped_library
from bolivia.verify.oracle import Oracle
from tests.limits import within
from tests.strategies import SHIPPED_IDS, hostile_ruleset_texts

LIBRARY = Library()  # every example's file has a path of its own: only the bases are shared
_COUNTER = itertools.count()


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("fuzz")


def _write(folder: Path, text: str) -> Path:
    here = folder / f"example-{next(_COUNTER)}"
    here.mkdir()
    path = here / "fuzz.yaml"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    return path


def _check_problems(problems: list[Problem], path: Path) -> None:
    assert problems
    for problem in problems:
        assert problem.message, problem
        assert "Traceback" not in str(problem)
        if problem.file == str(path) and problem.path:
            assert problem.line is not None, f"no line: {problem}"


@given(hostile_ruleset_texts())
def test_a_mutated_ruleset_loads_or_names_file_line_and_key(folder: Path, text: str) -> None:
    path = _write(folder, text)
    with within(20):
        try:
            ruleset = LIBRARY.load(path)
        except RulesetError as exc:
            _check_problems(exc.problems, path)
            return
        findings = lint(ruleset)
    assert all(f.level in LEVELS for f in findings)


@given(hostile_ruleset_texts())
def test_a_mutated_file_in_a_folder_leaves_the_other_rulesets_usable(
    folder: Path, text: str
) -> None:
    path = _write(folder, text)
    with within(20):
        library = Library([path.parent])
        assert set(SHIPPED_IDS) <= set(library.ids())
        for problem in library.index_problems():
            assert problem.file == str(path) and problem.message
        hello = json.loads(Oracle(library).handle_line('{"op": "hello"}'))
        assert hello["ok"] and set(SHIPPED_IDS) <= set(hello["result"]["rulesets"])
        indexed = any(library.path_of(rid) == path.resolve() for rid in library.ids())
        reported = any(problem.file == str(path) for problem in library.index_problems())
        assert indexed or reported  # never passed over in silence
    assert shipped_library().load("bolivia-da").id == "bolivia-da"
