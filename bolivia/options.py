"""The options every command that takes a ruleset shares, and the library they make:
``--rulesets DIR`` (folders of ruleset files to look in by id) and ``--sources DIR`` (folders
of source records rulesets may cite).

May import: the rules and click.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

if TYPE_CHECKING:
    from bolivia.rules.library import Library

__all__ = ["lang_option", "library", "rulesets_option"]

F = TypeVar("F", bound=Callable[..., Any])

_SOURCE_FOLDERS = "bolivia.source_folders"  # where --sources is kept in the click context


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
