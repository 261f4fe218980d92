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
        "simulate": ("simulate", "--ruleset", file, "--hands", "4", "--workers", "2"),
        "match": ("match", "greedy", "random", "--ruleset", file, "--deals", "2"),
        "compare": (
            *("compare", file, "--hands", "10", "--games", "1", "--workers", "2"),
            *("--out", str(tmp_path / "report")),
        ),
        "sweep": (
            *("sweep", "--from", file, "--vary", "going_out.bonus=100", "--hands", "4"),
            *("--store", str(tmp_path / "s.sqlite"), "--out", str(tmp_path / "sweep")),
        ),
        "oracle": ("conform", "--ruleset", file, "-k", "cards:*", "--quiet"),
    }
    for name, args in commands.items():
        refused = run(*args)
        assert refused[0] in (1, 2) and "no source 'hoyle'" in refused[2], (name, refused)
        code, stdout, stderr = run(*args, *given)
        assert code == 0, (name, stdout, stderr)
