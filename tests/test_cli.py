"""The command line: what a user types, what comes back, and never a traceback."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from bolivia.cli import cli
from bolivia.rules.tree import leaf_paths

RUNNER = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    result = RUNNER.invoke(cli, list(args))
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def test_rulesets_json_lists_the_six() -> None:
    code, out, _ = run("rulesets", "--json")
    assert code == 0
    listed = json.loads(out)
    assert (listed["format"], listed["version"]) == ("bolivia-rulesets", 1)
    rows = listed["rulesets"]
    ids = {row["id"] for row in rows}
    assert {"canasta", "samba", "bolivia-fr", "bolivia-da", "bolivia-zh", "bolivia-ko"} <= ids
    for row in rows:
        assert {"id", "name", "extends", "sources"} <= row.keys()


def test_rulesets_table() -> None:
    code, out, _ = run("rulesets")
    assert code == 0
    assert "bolivia-da" in out and "samba" in out and "stated/assumed/house" in out


def test_show_yaml_comments_every_value() -> None:
    code, out, _ = run("show", "bolivia-fr")
    assert code == 0
    assert out.count("  # ") >= len(list(leaf_paths()))
    assert "max_wild: 3  # fr:groups-wild-limit" in out


def test_show_json() -> None:
    code, out, _ = run("show", "bolivia-zh", "--json")
    data = json.loads(out)
    assert code == 0
    assert data["rules"]["game"]["hand_cap"] == {"hands": 60, "outcome": "draw"}
    assert data["provenance"]["game.hand_cap"]["claims"] == ["zh:hand-cap"]


def test_show_standalone_validates(tmp_path: Path) -> None:
    code, out, _ = run("show", "bolivia-da", "--standalone")
    path = tmp_path / "flat.yaml"
    path.write_text(out, encoding="utf-8")
    code, out, _ = run("validate", str(path))
    assert code == 0 and "valid (bolivia-da" in out


def test_validate_reports_file_line_key_message(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(
        "id: bad\nextends: bolivia-da\nmelds:\n  group:\n    max_wilds: 3\n"
        "provenance: {extends: {house: x}, melds: {house: x}}\n"
    )
    code, out, err = run("validate", str(path))
    assert code == 1
    assert (
        f"{path}:5: melds.group.max_wilds: unknown key 'max_wilds'; did you mean 'max_wild'?" in err
    )
    assert "Traceback" not in err + out


def test_validate_several_files_lists_all_problems(tmp_path: Path) -> None:
    good = tmp_path / "good.yaml"
    good.write_text("id: good\nextends: samba\nprovenance: {extends: {house: x}}\n")
    bad = tmp_path / "bad.yaml"
    bad.write_text("id: bad\nextends: nothing\nprovenance: {extends: {house: x}}\n")
    code, out, err = run("validate", str(good), str(bad), "bolivia-ko")
    assert code == 1
    assert "good.yaml: valid" in out and "bolivia-ko: valid" in out
    assert f"{bad}:2: extends: no ruleset has the id 'nothing'" in err


def test_unknown_ruleset_is_one_line_and_exit_1() -> None:
    code, _, err = run("show", "bolivia-xx")
    assert code == 1
    assert err.strip().count("\n") == 0
    assert "no ruleset has the id 'bolivia-xx'" in err


def test_missing_file() -> None:
    code, _, err = run("show", "no/such/file.yaml")
    assert code == 1 and "no such file" in err


def test_schema_is_json_and_fields_markdown() -> None:
    code, out, _ = run("schema")
    assert code == 0 and json.loads(out)["title"] == "Bolivia ruleset"
    code, out, _ = run("schema", "--fields")
    assert code == 0 and "`melds.group.max_wild`" in out


def test_sources_listing() -> None:
    code, out, _ = run("sources")
    assert code == 0 and "hu (hu, out of scope)" in out
    code, out, _ = run("sources", "--claims")
    assert "da:groups-wild-limit" in out
    code, out, _ = run("sources", "--json")
    assert {s["id"] for s in json.loads(out)["sources"]} == {"fr", "zh", "da", "ko", "hu", "ref"}


def test_extra_ruleset_folders(tmp_path: Path) -> None:
    (tmp_path / "club.yaml").write_text(
        "id: club\nextends: bolivia-zh\ngame: {target: 5000}\n"
        "provenance: {extends: {house: x}, game.target: {house: short}}\n"
    )
    code, out, _ = run("show", "club", "--rulesets", str(tmp_path))
    assert code == 0 and "target: 5000" in out
    code, out, _ = run("rulesets", "--rulesets", str(tmp_path), "--json")
    assert "club" in {row["id"] for row in json.loads(out)["rulesets"]}


def test_broken_file_in_a_folder_is_reported_not_dropped(tmp_path: Path) -> None:
    (tmp_path / "broken.yaml").write_text("name: no id here\n")
    code, _, err = run("rulesets", "--rulesets", str(tmp_path))
    assert code == 1 and "broken.yaml:1: id: a ruleset file needs an id" in err


@pytest.mark.parametrize("args", [["--version"], ["--help"], ["show", "--help"]])
def test_help_and_version(args: list[str]) -> None:
    code, out, _ = run(*args)
    assert code == 0 and out


def test_python_dash_m_runs_the_cli() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bolivia", "rulesets", "--json"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "bolivia-da" in done.stdout


# what the command line may load before a command runs: click, and the commands' declarations
_HEAVY = ("pydantic", "jinja2", "yaml", "matplotlib", "tabulate", "babel", "markdown", "dask")
_BELOW = ("rules", "engine", "play", "verify", "compare", "authoring", "profiles", "sweeps")


@pytest.mark.parametrize("args", [["--version"], ["--help"], ["simulate", "--help"]])
def test_the_command_line_starts_without_what_its_commands_use(args: list[str]) -> None:
    """``bolivia --version`` and the help load no rule model, template, YAML, engine or bot
    (each command imports what it uses when it runs): the start every command and every
    worker process pays stays small."""
    code = (
        "import sys\nfrom bolivia.cli import main\nstatus = main(sys.argv[1:])\n"
        "print('\\nloaded:', *sorted(sys.modules))\nsys.exit(status)"
    )
    done = subprocess.run(
        [sys.executable, "-P", "-c", code, *args], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    loaded = done.stdout.rsplit("\nloaded: ", 1)[1].split()
    assert "click" in loaded and "bolivia.cli" in loaded  # the list is the process's
    heavy = [
        name
        for name in loaded
        if name.split(".")[0] in _HEAVY
        or (name.startswith("bolivia.") and name.split(".")[1] in _BELOW)
        or name == "bolivia.cards"
    ]
    assert heavy == [], f"bolivia {' '.join(args)} loaded {heavy}"


def test_ctrl_c_while_a_c_extension_imports_is_an_interrupt(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Ctrl-C during matplotlib's import surfaces as ImportError("initialization failed") caused
    by the KeyboardInterrupt: one line and status 130, as any Ctrl-C; another ImportError is
    not hidden."""
    from bolivia import cli as module
    from bolivia.console import INTERRUPTED

    def interrupted_import(**_: object) -> None:
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt as cause:
            raise ImportError("initialization failed") from cause

    monkeypatch.setattr(module.cli, "main", interrupted_import)
    assert module.main(["--version"]) == INTERRUPTED
    assert capsys.readouterr().err == "interrupted\n"

    def broken_import(**_: object) -> None:
        raise ImportError("no module named x")

    monkeypatch.setattr(module.cli, "main", broken_import)
    with pytest.raises(ImportError, match="no module named x"):
        module.main(["--version"])


def test_the_help_groups_every_command_once_in_lines_that_fit() -> None:
    """``bolivia --help``: the commands for clubs, then for engine developers, every command
    in one of the two and none twice, each line whole (no first line cut with "...")."""
    from bolivia.console import SECTIONS

    listed = [name for rows in SECTIONS.values() for name, _line in rows]
    visible = sorted(name for name, command in cli.commands.items() if not command.hidden)
    assert sorted(listed) == visible and len(set(listed)) == len(listed)
    shown = RUNNER.invoke(cli, ["--help"], terminal_width=80).output
    for title in SECTIONS:
        assert f"{title}:" in shown
    commands = shown.split("For clubs and rules committees:", 1)[1]
    assert "..." not in commands and "Other commands" not in shown
    assert all(len(line) <= 80 for line in shown.splitlines())
    clubs = shown.index("For clubs and rules committees:")
    assert clubs < shown.index("  compare ") < shown.index("For engine developers:")


def test_the_readme_counts_the_shipped_rulesets() -> None:
    from bolivia.rules.library import shipped_library

    readme = Path(__file__).resolve().parent.parent / "README.md"
    if not readme.is_file():
        pytest.skip("needs the checkout's README")
    count = len(shipped_library().ids())
    assert f"{count} in all" in " ".join(readme.read_text(encoding="utf-8").split())


@pytest.mark.parametrize("command", [["compare"], ["sweep", "bolivia-da"]])
def test_a_format_list_is_checked_as_the_line_is_read(command: list[str]) -> None:
    """``--format`` of the report and of the sweep: a choice of md, html and json, one or more,
    checked before any work, the wrong one named with the choices."""
    done = RUNNER.invoke(cli, [*command, "--format", "md,pdf"])
    assert done.exit_code == 2
    assert "takes md, html, json, comma-separated (not pdf)" in done.output
    assert "--format" in done.output
    done = RUNNER.invoke(cli, [*command, "--format", " , "])
    assert done.exit_code == 2 and "(not nothing)" in done.output
    shown = " ".join(RUNNER.invoke(cli, [*command[:1], "--help"]).output.split())
    assert "--format md,html,json" in shown


def test_the_help_of_compare_bots_names_the_reports_bots() -> None:
    """The help's default is written out (the command line does not load the play to start);
    it names the bots the report plays."""
    from bolivia.compare.playing import BOTS

    shown = " ".join(RUNNER.invoke(cli, ["compare", "--help"], terminal_width=200).output.split())
    assert f"(default: {','.join(BOTS)}," in shown
