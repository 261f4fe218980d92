"""A club's first steps, as a new user takes them: ``new`` -> ``validate`` -> ``lint`` ->
``rulebook`` -> ``compare`` -> ``sweep``, for a house ruleset that changes nothing yet and for
one written from a published rulebook, on every shipped base (issue 36)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from bolivia.cli import cli
from bolivia.rules.library import shipped_library

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
            "--workers",
            "1",
            "--out",
            str(tmp_path / "report"),
        ),
        "sweep": (
            "sweep",
            "--from",
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
