"""The options every command that takes a ruleset shares, and the library they make:
``--rulesets DIR`` (folders of ruleset files to look in by id) and ``--sources DIR`` (folders
of source records rulesets may cite); and the one way a command is given the rulesets it works
on, as its arguments (``bolivia simulate bolivia-da``), with the old option spellings kept
hidden for one release.

May import: the rules and click.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from bolivia.text import terminal

if TYPE_CHECKING:
    from bolivia.rules.library import Library

__all__ = [
    "MAX_DEALS",
    "MAX_KEPT_DEALS",
    "OutputPath",
    "default_workers",
    "given_rulesets",
    "json_option",
    "lang_option",
    "library",
    "old_spelling",
    "renamed",
    "ruleset_arguments",
    "rulesets_option",
    "seed_option",
    "workers_option",
]

MAX_WORKERS = 64
# the most deals (hands or games) a command plays: simulate, match (each deal twice), sweep (under
# each combination); and where every deal's figures are kept for the intervals, 100,000 (a
# column of compare, a match of the ladder): the range of every count is 1 to one of these
MAX_DEALS = 1_000_000
MAX_KEPT_DEALS = 100_000
WORKERS_VARIABLE = "BOLIVIA_WORKERS"  # the default of --workers, where it is set

F = TypeVar("F", bound=Callable[..., Any])

_SOURCE_FOLDERS = "bolivia.source_folders"  # where --sources is kept in the click context
_OLD_JSON = "bolivia.old_format_json"  # --format json was given (the old spelling of --json)
_OLD_SPELLING = "bolivia.old_ruleset_option"  # (option, values) of an old spelling, if given


def _keep_source_folders(ctx: click.Context, _param: click.Parameter, value: Any) -> None:
    ctx.meta[_SOURCE_FOLDERS] = tuple(value)


def rulesets_option(func: F) -> F:
    """``--rulesets DIR`` (the command's ``folders``) and ``--sources DIR`` (kept for
    :func:`library`): where the command looks for rulesets and for source records."""
    func = click.option(
        "--sources",
        "source_folders",
        multiple=True,
        type=click.Path(file_okay=False, path_type=Path),
        expose_value=False,
        callback=_keep_source_folders,
        help="A folder of source records (YAML, like seeds/) rulesets may cite (repeatable).",
    )(func)
    return click.option(
        "--rulesets",
        "folders",
        multiple=True,
        type=click.Path(file_okay=False, path_type=Path),
        help="A folder of ruleset files to look in by id (repeatable).",
    )(func)


def lang_option(func: F) -> F:
    """``--lang en|fr|da|zh|ko`` (the command's ``lang``): the language of what a club reads."""
    from bolivia.language import LANGUAGES, NAMES

    listed = ", ".join(f"{code} ({NAMES[code]})" for code in LANGUAGES)
    return click.option(
        "--lang",
        type=click.Choice(LANGUAGES),
        default="en",
        show_default=True,
        help=f"The language of the text: {listed}.",
    )(func)


def library(folders: Sequence[Path], *, strict: bool = False) -> Library:
    """The library a command looks in: the shipped rulesets, ``--rulesets`` folders, and the
    source records of ``--sources`` folders."""
    from bolivia.rules.library import Library

    ctx = click.get_current_context(silent=True)
    sources = ctx.meta.get(_SOURCE_FOLDERS, ()) if ctx is not None else ()
    return Library(folders, strict=strict, source_folders=sources)


def ruleset_arguments(*, many: bool = False, old: str | None = None) -> Callable[[F], F]:
    """The rulesets a command works on, as its arguments (``refs``): ``RULESET`` (an id or a
    file), or ``[RULESET]...`` when it takes several. ``old`` is the option that named them
    before (``--ruleset``, ``--from``): still read, hidden, with a note, for one release.
    :func:`given_rulesets` merges the two."""

    def decorate(func: F) -> F:
        if old is not None:
            func = click.option(
                old,
                "_old_rulesets",
                multiple=True,
                hidden=True,
                expose_value=False,
                callback=_keep_old_spelling(old),
                help="The old spelling of the argument.",
            )(func)
        metavar = "[RULESET]..." if many else "RULESET"
        return click.argument("refs", nargs=-1, metavar=metavar)(func)

    return decorate


def _keep_old_spelling(option: str) -> Callable[[click.Context, click.Parameter, Any], None]:
    def keep(ctx: click.Context, _param: click.Parameter, value: Any) -> None:
        if value:
            ctx.meta[_OLD_SPELLING] = (option, tuple(value))

    return keep


def old_spelling() -> tuple[str, tuple[str, ...]] | None:
    """The old option a command's rulesets were given with, and its values, if they were."""
    return click.get_current_context().meta.get(_OLD_SPELLING)


def given_rulesets(
    refs: Sequence[str], *, many: bool = False, required: bool = True
) -> tuple[str, ...]:
    """The rulesets a command that plays was given, as arguments or, said with a note on
    standard error, in the old option; a usage error for none (when one is required), for more
    than one where one is taken, for both spellings at once, and for standard input."""
    option, old = old_spelling() or ("", ())
    if old:
        if refs:
            raise click.UsageError(f"give the rulesets as arguments, not also with {option}")
        command = click.get_current_context().command_path
        renamed(f"{option} RULESET", f"an argument ({command} RULESET)", option)
        refs = old
    if "-" in refs:
        raise click.UsageError(
            "a ruleset from standard input (-) is read by show, lint, rulebook and validate; "
            "the worker processes that play read rulesets from files: give a file"
        )
    if required and not refs:
        raise click.UsageError("give a RULESET: a ruleset id (bolivia rulesets lists them) or file")
    if not many and len(refs) > 1:
        listed = terminal(", ".join(refs))
        raise click.UsageError(f"give one RULESET, not {len(refs)} ({listed})")
    return tuple(refs)


def renamed(old: str, new: str, goes: str | None = None) -> None:
    """Say on standard error that ``old`` is now ``new``: the old spelling still works, for
    one release (``goes`` is what goes then, ``old`` unless said)."""
    click.echo(f"note: {old} is now {new}; {goes or old} goes in the next release", err=True)


def json_option(
    *, old: tuple[str, ...] = (), help: str = "JSON instead of text."
) -> Callable[[F], F]:
    """``--json`` (the command's ``as_json``): print one JSON document (``docs/json.md``)
    instead of text. ``old`` are the choices of the ``--format`` it replaces, the text's form
    first: still read, hidden, with a note, for one release."""

    def old_format(ctx: click.Context, _param: click.Parameter, value: str | None) -> None:
        if value is not None:
            ctx.meta[_OLD_JSON] = value == "json"
            renamed(f"--format {value}", "--json" if value == "json" else "the default", "--format")

    def flag(ctx: click.Context, _param: click.Parameter, value: bool) -> bool:
        # processed after a given --format when not given itself, so the old spelling counts
        return value or bool(ctx.meta.get(_OLD_JSON))

    def decorate(func: F) -> F:
        if old:
            func = click.option(
                "--format",
                "_old_format",
                type=click.Choice(old),
                hidden=True,
                expose_value=False,
                callback=old_format,
                help="The old spelling of --json.",
            )(func)
        return click.option("--json", "as_json", is_flag=True, callback=flag, help=help)(func)

    return decorate


def default_workers() -> int:
    """The worker processes a command that plays starts when not told: ``BOLIVIA_WORKERS``
    if set (a whole number from 1 to 64), else the CPUs, up to 4 (the machine is often
    shared). Results never depend on it."""
    import os

    given = os.environ.get(WORKERS_VARIABLE, "").strip()
    if given:
        if not given.isdigit() or not 1 <= int(given) <= MAX_WORKERS:
            raise click.UsageError(
                f"{WORKERS_VARIABLE} is {terminal(given)!r}: a whole number from 1 to "
                f"{MAX_WORKERS}, or unset"
            )
        return int(given)
    return max(1, min(4, os.cpu_count() or 1))


def workers_option(func: F) -> F:
    """``--workers N`` (the command's ``workers``), by default :func:`default_workers`."""

    def resolve(_ctx: click.Context, _param: click.Parameter, value: int | None) -> int:
        return default_workers() if value is None else value

    return click.option(
        "--workers",
        type=click.IntRange(min=1, max=MAX_WORKERS),
        callback=resolve,
        help=f"Worker processes (default: ${WORKERS_VARIABLE}, else the CPUs up to 4); "
        "the results do not depend on it.",
    )(func)


def seed_option(func: F) -> F:
    """``--seed S`` (the command's ``seed``), by default the report's seed: the same default
    in every command, so that a hand seen in one command is found again in another."""
    from bolivia.defaults import MAX_SEED, REPORT_SEED

    return click.option(
        "--seed",
        type=click.IntRange(min=0, max=MAX_SEED),
        default=REPORT_SEED,
        show_default=True,
        help="The run's seed; every deal's seed derives from it. The default is one no bot "
        "was tuned or screened on.",
    )(func)


class OutputPath(click.Path):
    """A file or folder a command writes: a path, never ``-``, which is standard input (a
    command that prints by default prints when the option is left out)."""

    def __init__(self, *, dir_okay: bool = True, file_okay: bool = True) -> None:
        super().__init__(dir_okay=dir_okay, file_okay=file_okay, path_type=Path)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if str(value) == "-":
            self.fail(
                "- is standard input, not a place to write: give a path (where the command "
                "prints by default, leave the option out)",
                param,
                ctx,
            )
        return super().convert(value, param, ctx)
