"""One way to say each thing on the command line: the rulesets a command works on are its
arguments, ``--json`` prints JSON, every ``--seed`` and ``--workers`` has the same default,
``-`` reads standard input where a file is read, and the old spellings still work for one
release, each with a note (``docs/cli.md``)."""

from __future__ import annotations

import json
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from bolivia.cli import cli
from bolivia.defaults import MAX_SEED, REPORT_SEED
from bolivia.options import MAX_DEALS, MAX_KEPT_DEALS

HOUSE = (
    "id: club\nextends: bolivia-da\ngame: {target: 5000}\n"
    "provenance: {extends: {house: ours}, game.target: {house: short}}\n"
)


def run(
    *args: str, stdin: str | None = None, env: dict[str, str] | None = None
) -> click.testing.Result:
    result = CliRunner().invoke(cli, list(args), input=stdin, env=env)
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


def commands() -> dict[str, click.Command]:
    assert isinstance(cli, click.Group)
    return dict(cli.commands)


def visible(command: click.Command) -> set[str]:
    """The long option names a command's help shows."""
    return {
        name
        for param in command.params
        if isinstance(param, click.Option) and not param.hidden
        for name in param.opts
        if name.startswith("--")
    }


def steady(out: str) -> object:
    """What a command printed, but the time it took (JSON documents that say it)."""
    if not out.startswith("{"):
        return out
    data = json.loads(out)
    for key in ("seconds", "hands_per_second", "actions_per_second", "outcomes"):
        data.pop(key, None)
    return data


# ---- one spelling


def test_a_ruleset_option_is_left_only_where_it_qualifies_another_subject() -> None:
    """--ruleset picks conform's cases, --from names new's base; nowhere else are rulesets
    options any more (the old ones are hidden)."""
    found = {
        (name, option)
        for name, command in commands().items()
        for option in visible(command) & {"--ruleset", "--from"}
    }
    assert found == {("conform", "--ruleset"), ("new", "--from")}


def test_format_is_left_only_where_a_document_is_written_in_several_forms() -> None:
    users = {name for name, command in commands().items() if "--format" in visible(command)}
    assert users == {"compare", "sweep", "rulebook"}


def test_json_is_one_flag_wherever_json_is_printed() -> None:
    users = {name for name, command in commands().items() if "--json" in visible(command)}
    assert users == {
        *("rulesets", "sources", "show", "simulate", "match", "ladder", "sweep", "conform"),
        "profile",
    }
    for name in users:
        option = next(p for p in commands()[name].params if "--json" in p.opts)
        assert isinstance(option, click.Option) and option.is_flag, name


def test_every_seed_has_the_same_default() -> None:
    seeds = {
        name: param.default
        for name, command in commands().items()
        for param in command.params
        if "--seed" in param.opts
    }
    assert set(seeds) == {"compare", "simulate", "match", "ladder", "sweep"}
    assert set(seeds.values()) == {REPORT_SEED}
    for name in seeds:  # every seed fits the sweep store's integers
        done = run(name, "--seed", str(MAX_SEED + 1))
        assert done.exit_code == 2 and f"0<=x<={MAX_SEED}" in done.stderr, name


def test_every_workers_option_reads_the_one_default() -> None:
    users = {name for name, command in commands().items() if "--workers" in visible(command)}
    assert users == {"compare", "simulate", "match", "ladder", "sweep"}
    done = run("simulate", "samba", "--hands", "2", "--json", env={"BOLIVIA_WORKERS": "0"})
    assert done.exit_code == 2 and "BOLIVIA_WORKERS is '0'" in done.stderr


def test_every_count_of_deals_has_one_of_the_two_ranges() -> None:
    """1 to 1,000,000, or to 100,000 where every deal's figures are kept (compare, ladder)."""
    counts = {
        (name, param.opts[0]): param.type
        for name, command in commands().items()
        for param in command.params
        if {"--hands", "--deals", "--games"} & set(param.opts)
    }
    assert {name for name, _ in counts} == {"compare", "simulate", "match", "ladder", "sweep"}
    for (name, option), kind in counts.items():
        assert isinstance(kind, click.IntRange), (name, option)
        kept = name in {"compare", "ladder"}
        assert kind.max == (MAX_KEPT_DEALS if kept else MAX_DEALS), (name, option)


# ---- old spellings: the same output, and a note


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (
            ["simulate", "--ruleset", "samba", "--hands", "2", "--json"],
            ["simulate", "samba", "--hands", "2", "--json"],
        ),
        (
            ["match", "greedy", "random", "--ruleset", "samba", "--deals", "2", "--json"],
            ["match", "samba", "--bots", "greedy,random", "--deals", "2", "--json"],
        ),
        (
            ["ladder", "--ruleset", "samba", "--bots", "greedy,random", "--deals", "2", "--json"],
            ["ladder", "samba", "--bots", "greedy,random", "--deals", "2", "--json"],
        ),
        (["show", "samba", "--format", "json"], ["show", "samba", "--json"]),
        (["show", "samba", "--format", "yaml"], ["show", "samba"]),
        (["conform", "cards", "--format", "json"], ["conform", "cards", "--json"]),
    ],
)
def test_an_old_spelling_does_what_it_did_and_says_what_it_is_now(
    old: list[str], new: list[str]
) -> None:
    before, now = run(*old), run(*new)
    assert before.exit_code == now.exit_code == 0, before.stderr
    assert steady(before.stdout) == steady(now.stdout)
    assert "note: " in before.stderr and "goes in the next release" in before.stderr
    assert "note: " not in now.stderr


def test_the_old_sweep_spelling_is_read_with_a_note(tmp_path: Path) -> None:
    done = run(
        *("sweep", "--from", "samba", "--vary", "going_out.bonus=100,200", "--hands", "2"),
        *("--store", str(tmp_path / "s.sqlite"), "--out", str(tmp_path / "out"), "--json"),
    )
    assert done.exit_code == 0, done.stderr
    assert "note: --from RULESET is now an argument" in done.stderr
    assert json.loads(done.stdout)["base"]["id"] == "samba"


@pytest.mark.parametrize(
    "args",
    [
        ["simulate", "samba", "--ruleset", "samba"],
        ["simulate", "samba", "canasta"],
        ["simulate"],
        ["match", "samba", "--bots", "greedy"],
        ["match", "samba", "--bots", "greedy,random,expert"],
        ["match", "greedy", "random", "expert", "--ruleset", "samba"],
        ["sweep", "--vary", "going_out.bonus=100,200"],
    ],
)
def test_a_ruleset_given_wrong_is_a_usage_error(args: list[str]) -> None:
    done = run(*args)
    assert done.exit_code == 2 and "Error: " in done.stderr and "Traceback" not in done.stderr


@pytest.mark.parametrize(
    "args",
    [
        ["simulate", "samba", "--check", "every", "--no-check"],
        ["show", "samba", "--json", "--standalone"],
    ],
)
def test_two_options_that_disagree_are_refused_not_one_dropped(args: list[str]) -> None:
    done = run(*args)
    assert done.exit_code == 2 and "not both" in done.stderr


def test_the_ladder_s_help_names_its_default_bots() -> None:
    from bolivia.ladder_cli import DEFAULT_BOTS
    from bolivia.play.bots.registry import split_specs

    shown = " ".join(run("ladder", "--help").stdout.split())
    for bot in split_specs(DEFAULT_BOTS):
        assert bot in shown, bot


# ---- standard input


def test_a_ruleset_from_standard_input_reads_as_its_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "club.yaml").write_text(HOUSE, encoding="utf-8")
    for command in (["show"], ["show", "--json"], ["lint"], ["rulebook"]):
        from_file = run(*command, "club.yaml")
        from_stdin = run(*command, "-", stdin=HOUSE)
        assert from_stdin.exit_code == from_file.exit_code
        assert from_stdin.stdout.replace("<stdin>", "club.yaml") == from_file.stdout, command
    assert run("validate", "-", stdin=HOUSE).exit_code == 0


@pytest.mark.parametrize(
    "args",
    [
        ["rulebook", "samba", "--out", "-"],
        ["schema", "--out", "-"],
        ["new", "x", "--from", "samba", "--out", "-"],
        ["conform", "cards", "--junit", "-"],
        ["compare", "samba", "canasta", "--suite", "-"],
        ["simulate", "samba", "--replays", "-"],
        ["sweep", "samba", "--vary", "going_out.bonus=100", "--store", "-"],
    ],
)
def test_standard_input_is_no_place_to_write(args: list[str], tmp_path: Path) -> None:
    done = run(*args)
    assert done.exit_code == 2 and "- is standard input, not a place to write" in done.stderr
    assert not (tmp_path / "-").exists() and not Path("-").exists()


def test_a_ruleset_from_standard_input_extends_a_file_of_the_working_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "club.yaml").write_text(HOUSE, encoding="utf-8")
    child = (
        "id: club2\nextends: club.yaml\ngame: {target: 4000}\n"
        "provenance: {extends: {house: ours}, game.target: {house: shorter}}\n"
    )
    done = run("show", "-", "--json", stdin=child)
    assert done.exit_code == 0, done.stderr
    assert json.loads(done.stdout)["chain"][-2:] == ["club", "club2"]


def test_a_broken_ruleset_from_standard_input_is_named_with_its_line() -> None:
    done = run("validate", "-", stdin="id: club\nextends: bolivia-da\ngame: {targt: 5000}\n")
    assert done.exit_code == 1
    assert done.stderr.startswith("<stdin>:3: game.targt: unknown key 'targt'")
    done = run("validate", "-", stdin=HOUSE)
    assert done.stdout.startswith("<stdin>: valid (club; ")


def test_standard_input_over_the_bound_is_refused_not_cut() -> None:
    done = run("validate", "-", stdin="id: club\n" + "#" * (300 * 1024) + "\n")
    assert done.exit_code == 1 and "bytes are refused" in done.stderr


@pytest.mark.parametrize(
    "args",
    [
        ["simulate", "-"],
        ["match", "-", "--bots", "greedy,random"],
        ["ladder", "-"],
        ["compare", "-"],
        ["new", "x", "--from", "-"],
    ],
)
def test_commands_that_need_a_file_refuse_standard_input(args: list[str]) -> None:
    done = run(*args, stdin=HOUSE)
    assert done.exit_code == 2 and "standard input (-)" in done.stderr


def test_the_oracle_serves_no_ruleset_from_standard_input() -> None:
    """Its standard input carries the requests."""
    done = run("oracle", "--serve", "bolivia-da=-", stdin="")
    assert done.exit_code == 2 and "standard input carries the requests" in done.stderr


def test_a_replay_from_standard_input(tmp_path: Path) -> None:
    folder = tmp_path / "replays"
    assert run("simulate", "samba", "--hands", "1", "--replays", str(folder)).exit_code == 0
    text = next(folder.iterdir()).read_text(encoding="utf-8")
    done = run("replay", "-", stdin=text)
    assert done.exit_code == 0 and done.stdout == "<stdin>: 1 hand verified\n"
    tampered = text.replace('"step":2,', '"step":3,', 1)
    done = run("replay", "-", stdin=tampered)
    assert done.exit_code == 1 and done.stderr.startswith("<stdin>:3: step 3: ")


def test_a_suite_from_standard_input() -> None:
    from bolivia.verify.conformance import suites_dir

    text = (suites_dir() / "cards.yaml").read_text(encoding="utf-8")
    from_stdin, from_name = run("conform", "-", stdin=text), run("conform", "cards")
    assert from_stdin.exit_code == from_name.exit_code == 0
    assert from_stdin.stdout.splitlines()[-1] == from_name.stdout.splitlines()[-1]
    broken = run("conform", "-", stdin="suite: x\n")
    assert broken.exit_code == 1 and "<stdin>:1: cases: required key missing" in broken.stderr
