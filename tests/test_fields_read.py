"""Fields removed from the ruleset format: a file that still sets one is told so in one line,
what the engine always did and to delete it, not offered a field of a similar name.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from bolivia.errors import RulesetError, SourceError
from bolivia.rules.library import Library
from bolivia.rules.loading import REMOVED_FIELDS
from bolivia.rules.sources import load_sources
from bolivia.rules.variants import LEAVES

# --------------------------------------------------------------------------- removed fields


def test_a_removed_field_is_no_field() -> None:
    assert "initial_meld.counts_pile_rest" in REMOVED_FIELDS
    assert not set(REMOVED_FIELDS) & set(LEAVES)


def _problems(path: Path) -> list[str]:
    with pytest.raises(RulesetError) as caught:
        Library([path.parent]).load(path)
    return [str(problem) for problem in caught.value.problems]


@pytest.mark.parametrize(
    ("text", "lines"),
    [
        ("initial_meld:\n  counts_pile_rest: false\n  counts_top_card: true\n", [4]),
        ("initial_meld.counts_pile_rest: true\n", [3]),
        ("initial_meld: {counts_pile_rest: true}\n", [3]),
        (
            "initial_meld:\n  counts_pile_rest: false\n"
            "provenance:\n  initial_meld.counts_pile_rest: {house: as we play}\n",
            [4, 6],
        ),
    ],
)
def test_a_file_setting_a_removed_field_is_told_to_delete_it(
    tmp_path: Path, text: str, lines: list[int]
) -> None:
    path = tmp_path / "club.yaml"
    path.write_text("id: club\nextends: canasta\n" + text, encoding="utf-8")
    problems = _problems(path)
    assert [problem.split(":")[1] for problem in problems] == [str(n) for n in lines]
    for problem in problems:
        assert "initial_meld.counts_pile_rest: removed from the format" in problem
        assert "never counts toward the first meld" in problem
        assert "delete this key" in problem
        assert "did you mean" not in problem


def test_a_source_fixing_a_removed_field_is_told_to_delete_it(tmp_path: Path) -> None:
    (tmp_path / "club.yaml").write_text(
        textwrap.dedent(
            """\
            id: club
            title: The club's rules
            claims:
              - id: club:first-meld
                about: bolivia
                says: The rest of the pile does not count toward the first meld.
                where: page 2
                fixes: {initial_meld.counts_pile_rest: false}
            """
        ),
        encoding="utf-8",
    )
    with pytest.raises(SourceError) as caught:
        load_sources(tmp_path)
    (problem,) = caught.value.problems
    assert problem.line == 8
    assert "removed from the format" in problem.message
