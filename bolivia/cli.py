"""The ``bolivia`` command line.

Every command that takes a ruleset takes an id (``bolivia-da``) or a file path; ``--rulesets
DIR`` adds a folder of ruleset files to look in by id. Bad input prints one line per problem
(``FILE:LINE: key.path: message``) on stderr and exits 1; a traceback would be a bug.

Exit status: 0 done, 1 a finding or an error (invalid rulesets, a file that cannot be written),
2 a usage error, 130 interrupted (Ctrl-C; one line, ``interrupted``), 141 standard output closed
by its reader (``bolivia show x | head``; quietly). Everything printed that comes from
ruleset data or the user passes through :func:`bolivia.text.terminal`, so no escape sequence
reaches the terminal, even through a pipe.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, TypeVar, cast

import click

from bolivia import formats
from bolivia.compare_cli import bots_option, compare_bots, compare_meter, compared
from bolivia.console import (
    BROKEN_PIPE,
    INTERRUPTED,
    Formats,
    Group,
    Seconds,
    Terminal,
    echo,
    echo_json,
    interrupted,
    silence,
)
from bolivia.ladder_cli import ladder_command
from bolivia.options import (
    MAX_DEALS,
    MAX_KEPT_DEALS,
    OutputPath,
    json_option,
    lang_option,
    ruleset_arguments,
    seed_option,
    workers_option,
)
from bolivia.options import library as _library
from bolivia.options import rulesets_option as _rulesets_option
from bolivia.output import prepare_folder, write_text
from bolivia.play_cli import (
    FORMATS,
    match,
    play_options,
    simulate,
    sweep_options,
)
from bolivia.rules_cli import lint_ruleset, list_rulesets, new_ruleset, validate
from bolivia.text import terminal
from bolivia.version import __version__, compiled

if TYPE_CHECKING:
    from bolivia.rules.sources import Source

__all__ = ["BROKEN_PIPE", "INTERRUPTED", "main"]

F = TypeVar("F", bound=Callable[..., Any])


@click.group(cls=Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(
    __version__,
    prog_name="bolivia",
    message=f"%(prog)s, version %(version)s, {'compiled' if compiled() else 'pure Python'}",
)
def cli() -> None:
    """Verify and compare rulebooks of Bolivia (Bolivian Canasta), Samba and Canasta."""


@cli.command("rulesets")
@json_option(help="JSON instead of a table.")
@_rulesets_option
def rulesets_command(as_json: bool, folders: tuple[Path, ...]) -> None:
    """List the rulesets: id, name, base, sources. A file that cannot be read is named with
    its problem and the rest are listed; exit 1 when any file is broken."""
    list_rulesets(_library(folders), as_json=as_json)


@cli.command("show")
@click.argument("ruleset")
@json_option(old=("yaml", "json"), help="JSON instead of commented YAML.")
@click.option(
    "--standalone",
    is_flag=True,
    help="Write a ruleset file with no extends that loads back to this ruleset.",
)
@_rulesets_option
@lang_option
def show_command(
    ruleset: str, as_json: bool, standalone: bool, folders: tuple[Path, ...], lang: str
) -> None:
    """Show a resolved ruleset (ID, FILE or - for standard input), each value with its
    provenance (the comments' prose in the --lang language)."""
    from bolivia.rules.rendering import ruleset_json, show_yaml, standalone_yaml

    if as_json and standalone:
        raise click.UsageError("give --json or --standalone (a YAML file), not both")
    resolved = _library(folders).load(ruleset)
    if as_json:
        echo_json({**formats.head("ruleset"), **ruleset_json(resolved)})
    elif standalone:
        echo(standalone_yaml(resolved), nl=False)
    else:
        echo(show_yaml(resolved, lang), nl=False)


@cli.command("validate")
@click.argument("files", nargs=-1, required=True, metavar="RULESET...")
@click.option(
    "--strict",
    is_flag=True,
    help="Every value a file sets, and its extends, must have provenance (as shipped ones do).",
)
@_rulesets_option
def validate_command(files: tuple[str, ...], strict: bool, folders: tuple[Path, ...]) -> None:
    """Check rulesets (files, ids, - for standard input); list every problem as FILE:LINE:
    key: message."""
    validate(_library(folders, strict=strict), files)


@cli.command("schema")
@click.option(
    "--out",
    type=OutputPath(dir_okay=False),
    help="Write to this file instead of standard output.",
)
@click.option("--fields", is_flag=True, help="The field reference as Markdown instead.")
def schema_command(out: Path | None, fields: bool) -> None:
    """Write the JSON Schema of ruleset files (for editors)."""
    from bolivia.rules.schema import fields_markdown, schema_text

    text = fields_markdown() if fields else schema_text()
    if out is None:
        click.echo(text, nl=False)
    else:
        write_text(out, text)


@cli.command("sources")
@click.option("--claims", "with_claims", is_flag=True, help="List every claim too.")
@json_option()
@click.option(
    "--sources",
    "folders",
    multiple=True,
    type=click.Path(file_okay=False, path_type=Path),
    help="A folder of source records of your own to list too (repeatable).",
)
def sources_command(with_claims: bool, as_json: bool, folders: tuple[Path, ...]) -> None:
    """List the source documents and what they claim."""
    from bolivia.rules.library import Library
    from bolivia.rules.sources import shipped_sources

    sources = Library(source_folders=folders).sources if folders else shipped_sources()
    if as_json:
        data = [source.model_dump(mode="json") for source in sources.values()]
        if not with_claims:
            for item in data:
                item["claims"] = len(item["claims"])
        echo_json({**formats.head("sources"), "sources": data})
        return
    for source in sources.values():
        _echo_source(source, with_claims)


def _echo_source(source: Source, with_claims: bool) -> None:
    """A source document in a line, and each of its claims if asked."""
    modelled = sum(1 for claim in source.claims if claim.fixes)
    echo(
        f"{source.id} ({source.language}, {source.scope} of scope): {source.title}; "
        f"{len(source.claims)} claims, {modelled} fix ruleset values"
    )
    if not with_claims:
        return
    for claim in source.claims:
        fixes = ", ".join(claim.fixes) if claim.fixes else f"not modelled: {claim.not_modelled}"
        echo(f"  {claim.id} [{claim.about or '-'}] {claim.where}\n    {claim.says}\n    -> {fixes}")


@cli.command("oracle")
@click.option(
    "--serve",
    "served",
    multiple=True,
    metavar="ID=FILE",
    help="Answer for the ruleset file FILE under the id ID, in place of any ruleset of that id "
    "(bolivia-da=house.yaml: an engine of bolivia-da with house changes); repeatable.",
)
@click.option(
    "--max-states",
    type=int,
    default=None,
    metavar="N",
    help="Answer too-costly where a search for a way out passes N states (1 to 1,000,000, the "
    "default): a tighter bound on one request's work.",
)
@click.option("--protocol", is_flag=True, help="Print the protocol's document and exit.")
@_rulesets_option
def oracle_command(
    served: tuple[str, ...], max_states: int | None, protocol: bool, folders: tuple[Path, ...]
) -> None:
    """Answer rules-oracle requests (JSON Lines) on standard input, until its end.

    The protocol is oracle-protocol.md, shipped in the package's _data/docs/ folder (docs/ in
    a source checkout); --protocol prints it. checking-your-engine.md beside it shows how to
    check another engine with bolivia conform.
    """
    from bolivia.resources import docs_dir
    from bolivia.verify.oracle import serve
    from bolivia.verify.runner import UsageProblem, served_oracle
    from bolivia.verify.wire import TransportError

    if protocol:
        echo((docs_dir() / "oracle-protocol.md").read_text(encoding="utf-8"), nl=False)
        return
    try:
        oracle = served_oracle(_library(folders), served, max_states)
    except UsageProblem as exc:
        raise click.BadParameter(str(exc), param_hint=f"'{exc.param}'") from None
    for rid, problems in oracle.unloadable().items():  # said once, not at every request
        more = f" (and {len(problems) - 1} more problems)" if len(problems) > 1 else ""
        click.echo(terminal(f"bolivia oracle: not serving {rid}: {problems[0]}{more}"), err=True)
    for name, stream in (("input", sys.stdin), ("output", sys.stdout)):
        if stream is None:
            click.echo(f"bolivia oracle: standard {name} is closed", err=True)
            sys.exit(1)
    try:
        serve(sys.stdin.buffer, sys.stdout.buffer, oracle)
    except TransportError as exc:
        silence(sys.stdout)
        click.echo(f"bolivia oracle: {exc}", err=True)
        sys.exit(1)
    except KeyboardInterrupt:
        silence(sys.stdout)
        sys.exit(130)


@cli.command("conform")
@click.argument("suites", nargs=-1)
@click.option(
    "--ruleset",
    "only",
    multiple=True,
    help="Run only the cases for this ruleset (repeatable); a ruleset file (a profile) is "
    "checked as the ruleset it extends, against what the oracle answers under the file.",
)
@click.option(
    "-k",
    "patterns",
    multiple=True,
    metavar="PATTERN",
    help="Run only the cases whose name SUITE:CASE:RULESET holds PATTERN, or matches it whole "
    "as a glob when it has * ? or [...] (melds:*:bolivia-da); repeatable: any may match.",
)
@click.option(
    "--engine",
    "command",
    help='Check this program instead, e.g. "bolivia oracle": '
    "it is started and spoken to over the oracle protocol.",
)
@click.option(
    "--timeout",
    default=10.0,
    show_default=True,
    type=Seconds(min=0.1, max=3600),
    help="Seconds the engine may take to answer one request (its first, hello, at least 10).",
)
@click.option(
    "--deadline",
    default=600.0,
    show_default=True,
    type=Seconds(min=0.1, max=86400),
    help="Seconds the whole run may take; the cases left then are reported as not run.",
)
@click.option(
    "--give-up",
    default=3,
    show_default=True,
    type=click.IntRange(min=1),
    help="Stop after the engine gave no answer or died on this many cases in a row; "
    "the cases left are reported as not run.",
)
@click.option("-x", "--exitfirst", is_flag=True, help="Stop at the first failure.")
@click.option(
    "--maxfail",
    type=click.IntRange(min=1),
    help="Stop after this many failures; the cases left are reported as not run.",
)
@json_option(old=("text", "json"), help="One JSON document of every outcome, not text.")
@click.option(
    "--junit",
    type=OutputPath(dir_okay=False),
    help="Also write the outcomes as JUnit XML to this file (for CI).",
)
@click.option("-q", "--quiet", is_flag=True, help="Print only the last line (the counts).")
@click.option("-v", "--verbose", is_flag=True, help="Print every outcome and every failure whole.")
@_rulesets_option
def conform_command(
    suites: tuple[str, ...],
    only: tuple[str, ...],
    patterns: tuple[str, ...],
    command: str | None,
    timeout: float,
    deadline: float,
    give_up: int,
    exitfirst: bool,
    maxfail: int | None,
    as_json: bool,
    junit: Path | None,
    quiet: bool,
    verbose: bool,
    folders: tuple[Path, ...],
) -> None:
    """Run conformance suites (names, files, - for standard input; default: all shipped)
    against an engine.

    Text output: the first 20 failures in full, every failure on a line by suite when there
    are more, the counts per suite, the skips and cases not run by reason, and last the line
    "N passed, N failed[, N skipped][, N not run]". Exit 0 when something ran and nothing
    failed, 1 when a case failed or was not run or nothing was checked, 130 on Ctrl-C. How to
    check an engine: checking-your-engine.md, beside the protocol (bolivia oracle --help).
    """
    from bolivia.verify import runner

    if quiet and verbose:
        raise click.UsageError("give --quiet or --verbose, not both")
    library = _library(folders)
    try:
        runner.check_target(junit)
        loaded = runner.load_suites(suites)
        planned = runner.pick(loaded, only, patterns, library)
        run = runner.run(
            loaded,
            planned,
            library,
            command=command,
            timeout=timeout,
            deadline=deadline,
            give_up=give_up,
            maxfail=1 if exitfirst else maxfail,
        )
    except runner.UsageProblem as exc:
        raise click.BadParameter(str(exc), param_hint=f"'{exc.param}'") from None
    out, warnings = runner.report(
        run,
        "json" if as_json else "text",
        "quiet" if quiet else "verbose" if verbose else "normal",
        runner.rule_fields(library, only),
    )
    echo(out)
    for line in [*run.failure, *warnings]:  # the failure's lines are escaped already
        click.echo(line, err=True)
    if junit is not None:
        runner.write_junit(run, junit)
    sys.exit(runner.status(run))


@cli.command("simulate")
@ruleset_arguments(old="--ruleset")
@click.option(
    "--hands",
    type=click.IntRange(min=1, max=MAX_DEALS),
    help=f"Play this many hands (default 100, at most {MAX_DEALS:,}).",
)
@click.option(
    "--games",
    type=click.IntRange(min=1, max=MAX_DEALS),
    help=f"Play this many whole games instead (at most {MAX_DEALS:,}).",
)
@play_options
@click.option(
    "--bots",
    "bot_names",
    default="greedy",
    show_default=True,
    help="A bot for every seat, or one per seat: greedy,random,...; the bots are random, "
    "greedy, expert and search, whose budget a spec sets (search:playouts=16,width=3).",
)
@click.option(
    "--replays",
    type=OutputPath(file_okay=False),
    help="Write every hand's replay (JSON Lines) into this folder: a new or empty one, or "
    "one holding only the replays of an earlier run, which are replaced.",
)
@click.option(
    "--strict",
    is_flag=True,
    help="Exit 1 when a hand or a game did not end by a rule (a dead end, a cap reached).",
)
@_rulesets_option
def simulate_command(
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
    """Let bots play hands or games under RULESET (an id or a file), and count what happened."""
    simulate(
        refs,
        hands,
        games,
        seed,
        players,
        bot_names,
        workers,
        replays,
        as_json,
        check,
        no_check,
        strict,
        folders,
    )


@cli.command("match")
@ruleset_arguments(old="--ruleset")
@click.option("--bots", "bot_names", help="The two bots, comma-separated: greedy,random.")
@click.option(
    "--deals",
    type=click.IntRange(min=1, max=MAX_DEALS),
    help=f"Play this many deals, each twice (default 100, at most {MAX_DEALS:,}).",
)
@click.option(
    "--games",
    type=click.IntRange(min=1, max=MAX_DEALS),
    help=f"Play this many whole games instead, each twice (at most {MAX_DEALS:,}).",
)
@play_options
@_rulesets_option
def match_command(
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
    """A duplicate match under RULESET (an id or a file): the two bots of --bots (A,B) play the
    same deals (or games) twice, A at the seats of one side and then of the other; A's win rate
    and margin, with intervals paired by deal."""
    match(
        refs,
        bot_names,
        deals,
        games,
        seed,
        players,
        workers,
        check,
        no_check,
        as_json,
        folders,
    )


@cli.command("replay")
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False, path_type=Path))
@_rulesets_option
def replay_command(files: tuple[Path, ...], folders: tuple[Path, ...]) -> None:
    """Re-verify recorded hands action by action, and their scores (- reads standard input)."""
    from bolivia.play.batch.replay import ReplayError, verify_replay
    from bolivia.rules.loading import STDIN

    library = _library(folders)
    if sys.stdout is None:
        click.echo("bolivia replay: standard output is closed", err=True)
        sys.exit(1)
    failed = 0
    for path in files:
        try:
            hands = verify_replay(path, library)
        except ReplayError as exc:
            failed += 1
            click.echo(terminal(str(exc)), err=True)  # a replay file's text, escaped
            continue
        shown = STDIN if str(path) == "-" else path
        echo(f"{shown}: {hands} hand{'s' if hands != 1 else ''} verified")
    if failed:
        sys.exit(1)


@cli.command("compare")
@click.argument("refs", nargs=-1, metavar="[RULESET]...")
@click.option(
    "--out",
    type=OutputPath(file_okay=False),
    default=Path("reports"),
    show_default=True,
    help="The folder the report is written to.",
)
@click.option(
    "--hands",
    default=100,
    show_default=True,
    type=click.IntRange(min=10, max=MAX_KEPT_DEALS),
    help="Deals played per column under each bot, the same deals under every column (at most "
    f"{MAX_KEPT_DEALS:,}).",
)
@bots_option
@click.option(
    "--precision",
    type=click.FloatRange(min=1.0, max=100_000.0),
    help="Choose the number of deals instead: enough for a corrected interval of this many "
    "points a hand either side on every pair's paired difference, between 100 and 4,000 "
    "deals (the report says when a bound is hit).",
)
@click.option(
    "--games",
    default=10,
    show_default=True,
    type=click.IntRange(min=0, max=MAX_KEPT_DEALS),
    help="Whole games to the target per column (greedy bots); 0 for none.",
)
@seed_option
@workers_option
@click.option(
    "--format",
    "formats",
    type=Formats(FORMATS),
    default="md,html,json",
    show_default=True,
    help="The report's formats, comma-separated.",
)
@click.option(
    "--suite",
    type=OutputPath(dir_okay=False),
    help="Also write the behaviour witnesses as a conformance suite (YAML).",
)
@_rulesets_option
@lang_option
def compare_command(
    refs: tuple[str, ...],
    out: Path,
    hands: int,
    bot_names: str | None,
    precision: float | None,
    games: int,
    seed: int,
    workers: int,
    formats: list[str],
    suite: Path | None,
    folders: tuple[Path, ...],
    lang: str,
) -> None:
    """Compare rulesets: rules side by side, where they rule differently, scores and play.

    With no RULESET, all shipped Bolivia rulesets; with one, that ruleset and its base.
    """
    from bolivia.compare.findings import build
    from bolivia.compare.report import load_plotting, witness_suite, write_report

    chosen = formats
    bots = compare_bots(bot_names)
    library = _library(folders)
    rulesets = compared(refs, library)
    source = click.get_current_context().get_parameter_source("hands")
    if precision is not None and source is not click.core.ParameterSource.DEFAULT:
        raise click.UsageError("--hands and --precision both choose the deals: give one")
    prepare_folder(out)  # before a minute of work, not after it
    if suite is not None:
        prepare_folder(suite.parent)
    meter = compare_meter(rulesets, hands, precision, games, len(bots))

    def more(plays: int, deals: int) -> None:
        if plays:
            meter.extend(plays, f"the precision asks {deals:,} deals per column: {plays:,} more")
        else:
            meter.note(f"the first {deals:,} deals per column give the precision asked")

    comparison = build(
        rulesets,
        hands=hands,
        games=games,
        bots=bots,
        precision=precision,
        seed=seed,
        workers=workers,
        where=library.spec,
        progress=meter.update,
        meanwhile=load_plotting if {"md", "html"} & set(chosen) else None,  # beside the play
        more=more,
    )
    meter.finish()
    for path in write_report(comparison, out, chosen, lang):
        echo(str(path))
    if suite is not None:
        write_text(suite, witness_suite(comparison))
        echo(str(suite))


@cli.command("new")
@click.argument("name")
@click.option("--from", "base_ref", required=True, help="The ruleset (id or file) to start from.")
@click.option(
    "--set",
    "settings",
    multiple=True,
    metavar="KEY.PATH=VALUE",
    help="A rule to change, its value in YAML (repeatable): going_out.bonus=100, "
    "melds.group.ratio=naturals_exceed_wilds; one entry of a table or list by its key or "
    "position from 0, players.seats.4.hand_size=13, initial_meld.bands.2.minimum=60; the "
    "position after the last adds an entry at the end, whole or key by key: "
    "initial_meld.bands.4={from: 7000, minimum: 150}.",
)
@click.option(
    "--why",
    "whys",
    multiple=True,
    help="Why the house plays it so (kept as each rule's provenance): one for all settings, "
    "or one per --set in the same order.",
)
@click.option("--title", help="A name for people (default: NAME in words, our-club: Our club).")
@click.option("--notes", default="", help="A few words about the house rules, for people.")
@click.option(
    "--family",
    help="The game it plays: canasta, samba, bolivia... (default: its base's, or the game its "
    "changes to wild melds and sequences make it).",
)
@click.option(
    "--out",
    type=OutputPath(dir_okay=False),
    help="The file to write (default: NAME.yaml here).",
)
@click.option("--force", is_flag=True, help="Replace the file if it exists.")
@_rulesets_option
def new_command(
    name: str,
    base_ref: str,
    settings: tuple[str, ...],
    whys: tuple[str, ...],
    title: str | None,
    notes: str,
    family: str | None,
    out: Path | None,
    force: bool,
    folders: tuple[Path, ...],
) -> None:
    """Write a house ruleset NAME: the base, and only the rules the house changes."""
    target = out or Path(f"{name}.yaml")
    new_ruleset(
        name,
        base_ref,
        settings,
        target,
        _library(folders),
        whys,
        title,
        force,
        notes=notes,
        family=family,
    )


@cli.command("lint")
@click.argument("ruleset")
@_rulesets_option
def lint_command(ruleset: str, folders: tuple[Path, ...]) -> None:
    """Look for what a valid ruleset (ID, FILE or -) may still get wrong; exit 1 on errors."""
    lint_ruleset(_library(folders).load(ruleset))


@cli.command("rulebook")
@click.argument("ruleset")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["md", "html"]),
    default="md",
    show_default=True,
    help="Markdown, or one HTML page that needs nothing else.",
)
@click.option("--out", type=OutputPath(dir_okay=False), help="Write it to a file.")
@_rulesets_option
@lang_option
def rulebook_command(ruleset: str, fmt: str, out: Path | None, folders: Any, lang: str) -> None:
    """Write a ruleset (ID, FILE or -) as a rulebook a table can play from (Markdown or
    HTML)."""
    from bolivia.authoring.rulebook import render_rulebook

    library = _library(folders)
    resolved = library.load(ruleset)
    # the sources a file may cite include the records beside it, named in words in the book
    sources = library.sources_for(resolved.path) if resolved.path else library.sources
    text = render_rulebook(resolved, fmt, sources, lang)
    if out is None:
        echo(text, nl=False)
    else:
        write_text(out, text)
        echo(str(out))


@cli.command("profile")
@click.option("--engine", "command", required=True, help='The engine, e.g. "bolivia oracle".')
@click.option("--as", "as_id", help="The ruleset id to ask it under (default: of fewest changes).")
@click.option("--out", type=OutputPath(dir_okay=False), help="Write the ruleset.")
@click.option("--force", is_flag=True, help="Replace the --out file if it exists.")
@json_option(old=("text", "json"))
@click.option("--max-questions", default=20_000, type=click.IntRange(1, 1_000_000), help="A cap.")
@click.option(
    "--max-requests",
    default=400_000,
    type=click.IntRange(1, 100_000_000),
    help="A cap on the search's requests to the rules oracle.",
)
@click.option("--timeout", default=10.0, type=Seconds(0.1, 3600), help="Seconds an answer.")
@_rulesets_option
def profile_command(command: str, folders: tuple[Path, ...], **options: Any) -> None:
    """Find the rule values an engine plays by: the closest ruleset it claims and what differs
    (exit 1 when it answered no question or stopped answering)."""
    from bolivia.profiles.command import profile_output
    from bolivia.verify.engines import EngineFailure

    try:
        text, status = profile_output(command, _library(folders), **options)
    except EngineFailure as exc:
        if exc.kind == "start":
            raise click.BadParameter(str(exc), param_hint="'--engine'") from None
        raise
    echo(text)
    sys.exit(status)


@cli.command("sweep")
@sweep_options
@_rulesets_option
def sweep_command(show_status: bool, **options: Any) -> None:
    """Play every combination of rule values on the same deals, paired with the base RULESET
    (an id or a file), and report what each value does; resumable, locally or on a Dask
    cluster."""
    from bolivia.sweep_cli import status, sweep

    if show_status:
        status(options["store_path"], options["as_json"])
    else:
        sweep(**options)


cli.add_command(ladder_command)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the console script: the exit status (see the module's docstring)."""
    try:
        try:
            args = list(argv) if argv is not None else None
            status = cli.main(args=args, prog_name="bolivia", standalone_mode=False)
        except click.ClickException as exc:  # a usage error quotes the command line
            exc.show(file=cast(IO[str], Terminal(sys.stderr)))
            return exc.exit_code
        except click.Abort as exc:
            if isinstance(exc.__cause__, KeyboardInterrupt):
                return interrupted()  # click has ended the line the terminal shows ^C on
            click.echo("Aborted!", err=True)
            return 1
        except SystemExit as exc:
            return int(exc.code or 0) if not isinstance(exc.code, str) else 1
    except KeyboardInterrupt:
        return interrupted()
    except ImportError as exc:  # Ctrl-C in a C extension's import (matplotlib's) surfaces so
        if isinstance(exc.__cause__, KeyboardInterrupt):
            return interrupted()
        raise
    return status if isinstance(status, int) else 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
