"""The bodies of the commands that play (``simulate``, ``match``): their shared options (and
``sweep``'s, whose body is :mod:`bolivia.sweep_cli`), the checks of what they were given
(usage errors, as click reports them) and their output. The click commands are declared in
:mod:`bolivia.cli`, which calls these.

May import: everything below the command line (play, compare, ...), console and click.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from bolivia import formats
from bolivia.console import Formats, echo, echo_json
from bolivia.options import (
    MAX_DEALS,
    OutputPath,
    given_rulesets,
    json_option,
    lang_option,
    old_spelling,
    renamed,
    ruleset_arguments,
    seed_option,
    workers_option,
)
from bolivia.options import library as ruleset_library
from bolivia.output import OutputError
from bolivia.text import terminal

if TYPE_CHECKING:
    from bolivia.rules.ruleset import Ruleset

__all__ = [
    "FORMATS",
    "MAX_DEALS",
    "bots_of",
    "check_of",
    "match",
    "named_bot",
    "play_option_list",
    "play_options",
    "players_of",
    "report_unruled",
    "simulate",
    "sweep_options",
]

F = TypeVar("F", bound=Callable[..., Any])

FORMATS = ("md", "html", "json")


def play_option_list() -> list[Any]:
    """The options of the commands that play (simulate, match, ladder, sweep)."""
    return [
        seed_option,
        click.option(
            "--players",
            type=click.IntRange(min=2, max=8),
            help="Number of players (default: the ruleset's usual number).",
        ),
        workers_option,
        click.option(
            "--check",
            type=click.Choice(["every", "sampled", "end", "none"]),
            default="sampled",
            show_default=True,
            help="The card-conservation check: after every action; after every action of one "
            "hand in 16 and at the end of every hand; at the end of every hand; never.",
        ),
        click.option(  # one spelling of each choice: kept one release, hidden, with a note
            "--no-check",
            is_flag=True,
            hidden=True,
            callback=_renamed("--no-check", "--check none"),
            help="The same as --check none (the old spelling).",
        ),
        json_option(help="One JSON object, not a table."),
    ]


def _renamed(old: str, new: str) -> Callable[[click.Context, click.Parameter, Any], Any]:
    """An option's callback that says, on standard error, that ``old`` is now ``new`` (the
    old spelling still works for one release)."""

    def note(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
        if value:
            renamed(old, new)
        return value

    return note


def check_of(check: str, no_check: bool) -> str:
    """The card check asked for: ``--check``, or ``none`` for the old ``--no-check``; a usage
    error when both are given and disagree."""
    if not no_check:
        return check
    given = click.get_current_context().get_parameter_source("check")
    if given is not click.core.ParameterSource.DEFAULT and check != "none":
        raise click.UsageError(f"give --check {check} or --no-check (--check none), not both")
    return "none"


def play_options(func: F) -> F:
    """The options of the commands that play (simulate, match)."""
    for option in reversed(play_option_list()):
        func = option(func)
    return func


def sweep_options(func: F) -> F:
    """The options of ``bolivia sweep``."""
    options = [
        ruleset_arguments(old="--from"),
        click.option(
            "--vary",
            multiple=True,
            help="FIELD=V1,V2,... (YAML values) or FIELD=LOW..HIGH/STEP (whole numbers, both "
            "ends included); repeat for more fields: every combination is played.",
        ),
        click.option(
            "--hands",
            type=click.IntRange(min=1, max=MAX_DEALS),
            help=f"Hands under every combination (default 200, at most {MAX_DEALS:,}).",
        ),
        click.option(
            "--games",
            type=click.IntRange(min=1, max=MAX_DEALS),
            help=f"Whole games under every combination instead (at most {MAX_DEALS:,}).",
        ),
        click.option(
            "--chunk",
            type=click.IntRange(min=1, max=10_000),
            help="Deals in a job: what a worker plays at once and the store keeps together "
            "(default 100 hands or 10 games; part of the store's key).",
        ),
        click.option(
            "--precision",
            metavar="[MEASURE=]HALF",
            help="Play more deals until every difference from the base in MEASURE is known "
            "to within HALF either side (a share in percentage points; default measure: "
            "went_out, or hands_per_game with --games), at most "
            f"{MAX_DEALS:,} deals.",
        ),
        click.option(
            "--bots",
            "bot_names",
            default="greedy",
            show_default=True,
            help="One bot for every seat, or one name per seat: greedy,random,...",
        ),
        click.option(
            "--cluster",
            metavar="tcp://HOST:PORT",
            help="Run the jobs on this Dask scheduler instead (pip install 'bolivia[cluster]').",
        ),
        click.option(
            "--store",
            "store_path",
            type=OutputPath(dir_okay=False),
            help="The SQLite file of finished chunks (default: "
            "$XDG_CACHE_HOME/bolivia/sweeps.sqlite, or ~/.cache/bolivia/sweeps.sqlite).",
        ),
        click.option(
            "--out",
            type=OutputPath(file_okay=False),
            default=Path("reports/sweep"),
            show_default=True,
            help="The report's folder (sweep.md, sweep.html, sweep.json, plots/, and the "
            "derived rulesets in rulesets/).",
        ),
        click.option(
            "--format",
            "formats",
            type=Formats(FORMATS),
            default="md,html,json",
            show_default=True,
            help="The sweep's formats, comma-separated.",
        ),
        click.option("--status", "show_status", is_flag=True, help="Say what the store holds."),
        *play_option_list(),
    ]
    for option in reversed(options):
        func = option(func)
    return lang_option(func)


def players_of(ruleset: Ruleset, players: int | None) -> int:
    """The number of players asked for (or the usual one), if the ruleset seats it."""
    count = players or ruleset.rules.players.usual
    if count not in ruleset.rules.players.seats:
        allowed = ", ".join(map(str, sorted(ruleset.rules.players.seats)))
        raise click.UsageError(f"{ruleset.id} is played by {allowed} players, not {count}")
    return count


def bots_of(bot_names: str, count: int) -> list[str]:
    """``--bots``: one bot name for every seat, or one per seat; a usage error otherwise."""
    from bolivia.play.bots.registry import BOTS, make_bot, split_specs

    names = split_specs(bot_names)
    if len(names) == 1:
        names = names * count
    if len(names) != count:
        raise click.UsageError(
            f"--bots takes {', '.join(BOTS)}: one name, or one per seat ({count} seats)"
        )
    bots = []
    for name in names:
        try:
            bots.append(make_bot(name).name)
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="--bots") from None
    return bots


def simulate(
    refs: tuple[str, ...],
    hands: int | None,
    games: int | None,
    seed: int,
    players: int | None,
    bot_names: str,
    workers: int,
    replays: Path | None,
    as_json: bool,
    check: str,
    no_check: bool,
    strict: bool,
    folders: tuple[Path, ...],
) -> None:
    """Let bots play hands or games under a ruleset, and count what happened."""
    from bolivia.play.batch.simulate import RunSpec, run

    (ruleset_ref,) = given_rulesets(refs)
    if hands and games:
        raise click.UsageError("give --hands or --games, not both")
    library = ruleset_library(folders)
    ruleset = library.load(ruleset_ref)
    count = players_of(ruleset, players)
    names = bots_of(bot_names, count)
    if replays is not None:
        _prepare_replays(replays)
    spec = RunSpec(
        _ref(ruleset),
        library.spec,
        count,
        tuple(names),
        seed,
        hands=0 if games else (hands or 100),
        games=games or 0,
        check=check_of(check, no_check),
        replays=str(replays) if replays else None,
    )
    total = spec.games or spec.hands
    label = f"{ruleset.id}: {'games' if spec.games else 'hands'}"
    with click.progressbar(length=total, label=label, file=sys.stderr) as bar:
        summary = run(spec, workers, progress=bar.update, ruleset=ruleset)
    if as_json:
        echo_json({**formats.head("simulation"), **summary})
    else:
        _echo_table(summary)
    report_unruled(summary, strict, replays is not None)


def _ref(ruleset: Ruleset) -> str:
    """How a worker finds the ruleset: its file unless shipped, else its id."""
    return str(ruleset.path) if ruleset.path and not ruleset.shipped else ruleset.id


def _prepare_replays(replays: Path) -> None:
    """Make the replays' folder ready, saying when an earlier run's files are replaced."""
    from bolivia.play.batch.simulate import prepare_replays

    try:
        removed = prepare_replays(replays)
    except OutputError as exc:
        raise click.BadParameter(str(exc), param_hint="--replays") from None
    if removed:
        click.echo(
            terminal(f"note: {replays}: replacing the {removed} files of an earlier run"),
            err=True,
        )


def _echo_table(summary: dict[str, Any]) -> None:
    """A run's summary as a plain table of keys and values."""
    from tabulate import tabulate

    rows = [
        [key, json.dumps(value) if isinstance(value, dict | list) else value]
        for key, value in summary.items()
    ]
    echo(tabulate(rows, tablefmt="plain"))


def _unruled(summary: dict[str, Any], replays: bool) -> list[str]:
    """The hands and games of a run that did not end by a rule, each kind in a sentence."""
    problems = []
    if summary["not_ended_by_a_rule"]:
        from bolivia.play.table.state import ENDINGS as ruled

        other = {k: v for k, v in summary["ended_by"].items() if k not in ruled}
        problems.append(
            f"{summary['not_ended_by_a_rule']} hands did not end by a rule "
            f"({', '.join(f'{k}: {v}' for k, v in other.items())})"
            + ("; no replay is written of such a hand" if replays else "")
        )
    for reason, n in summary.get("games_stopped", {}).items():
        why = (
            f"stopped after {summary.get('game_hand_limit')} hands without reaching the end"
            if reason == "hand_limit"
            else "stopped at a hand that did not end by a rule"
        )
        problems.append(f"{n} games {why}")
    return problems


def report_unruled(summary: dict[str, Any], strict: bool, replays: bool = False) -> None:
    """Say so when a hand or a game did not end by a rule; with --strict, exit 1."""
    problems = _unruled(summary, replays)
    for problem in problems:
        click.echo(terminal(f"warning: {problem}"), err=True)
    if strict and problems:
        raise SystemExit(1)


def match_subject(refs: tuple[str, ...], bot_names: str | None) -> tuple[str, str, str]:
    """``match RULESET --bots A,B``: the ruleset and the two bots (the same bot twice is a
    null match). The old form, ``match A B --ruleset RULESET``, is read with a note."""
    from bolivia.play.bots.registry import split_specs

    old = old_spelling()
    if old is not None and bot_names is None:
        if len(refs) != 2:
            raise click.UsageError("give the ruleset and the bots as: match RULESET --bots A,B")
        renamed("match A B --ruleset RULESET", "match RULESET --bots A,B", "the old form")
        return old[1][0], named_bot(refs[0], "BOT_A"), named_bot(refs[1], "BOT_B")
    (ref,) = given_rulesets(refs)
    names = split_specs(bot_names or "")
    if len(names) != 2:
        raise click.BadParameter(
            "name the two bots, comma-separated: greedy,random", param_hint="--bots"
        )
    return ref, named_bot(names[0], "--bots"), named_bot(names[1], "--bots")


def match(
    refs: tuple[str, ...],
    bot_names: str | None,
    deals: int | None,
    games: int | None,
    seed: int,
    players: int | None,
    workers: int,
    check: str,
    no_check: bool,
    as_json: bool,
    folders: tuple[Path, ...],
) -> None:
    """A duplicate match of two bots (see :mod:`bolivia.play.batch.match`), printed."""
    from bolivia.compare.matches import match_json, match_text
    from bolivia.play.batch.match import MatchError, MatchSpec, play_match, sides

    ruleset_ref, bot_a, bot_b = match_subject(refs, bot_names)
    if deals and games:
        raise click.UsageError("give --deals or --games, not both")
    library = ruleset_library(folders)
    ruleset = library.load(ruleset_ref)
    count = players_of(ruleset, players)
    try:
        sides(ruleset, count)
    except MatchError as exc:
        raise click.UsageError(str(exc)) from None
    spec = MatchSpec(
        _ref(ruleset),
        library.spec,
        count,
        bot_a,
        bot_b,
        seed,
        deals=0 if games else (deals or 100),
        games=games or 0,
        check=check_of(check, no_check),
    )
    label = f"{ruleset.id}: {'games' if spec.games else 'deals'}"
    with click.progressbar(length=spec.games or spec.deals, label=label, file=sys.stderr) as bar:
        summary = match_json(play_match(spec, workers, progress=bar.update))
    if as_json:
        echo_json(summary)
    else:
        echo(match_text(summary))
    report_unruled({**summary, "games_stopped": _games_stopped(summary)}, strict=False)


def named_bot(name: str, hint: str) -> str:
    """A bot's spec as the bot names itself (a budget's keys in one order)."""
    from bolivia.play.bots.registry import make_bot

    try:
        return make_bot(name).name
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint=hint) from None


def named_bots(text: str, least: int) -> tuple[str, ...]:
    """``--bots`` of a command that plays each bot on its own (a ladder, a report): the bots,
    comma-separated (a search budget's own commas stay with it), each as it names itself, at
    least ``least`` of them and each once; a usage error otherwise."""
    from bolivia.play.bots.registry import split_specs

    bots = tuple(named_bot(name, "--bots") for name in split_specs(text))
    if len(bots) < least or len(set(bots)) != len(bots):
        many = {1: "one bot", 2: "two bots"}.get(least, f"{least} bots")
        raise click.BadParameter(f"name {many} or more, each once", param_hint="--bots")
    return bots


def _games_stopped(summary: dict[str, Any]) -> dict[str, int]:
    """A match's games stopped before their end, by why."""
    return {
        key.removeprefix("stopped_"): n
        for key, n in summary.get("games", {}).items()
        if key.startswith("stopped_") and n
    }
