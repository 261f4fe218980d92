"""The bodies of the commands about ruleset files (``rulesets``, ``validate``, ``new``,
``lint``) and the options every command that takes a ruleset shares: ``--rulesets DIR``
(folders of ruleset files to look in by id) and ``--sources DIR`` (folders of source records
rulesets may cite). The click commands are declared in :mod:`bolivia.cli`, which calls these.

May import: everything below the command line (rules, authoring, ...), console and click.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import click

from bolivia.console import echo, echo_json
from bolivia.errors import Problem, RulesetError
from bolivia.rules.library import Library
from bolivia.rules.ruleset import Ruleset
from bolivia.text import terminal

__all__ = ["library", "lint_ruleset", "list_rulesets", "new_ruleset", "rulesets_option", "validate"]

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


def library(folders: Sequence[Path], *, strict: bool = False) -> Library:
    """The library a command looks in: the shipped rulesets, ``--rulesets`` folders, and the
    source records of ``--sources`` folders."""
    ctx = click.get_current_context(silent=True)
    sources = ctx.meta.get(_SOURCE_FOLDERS, ()) if ctx is not None else ()
    return Library(folders, strict=strict, source_folders=sources)


def list_rulesets(library: Library, *, as_json: bool) -> None:
    """Every ruleset of the library as a table (or JSON); a file that cannot be read is named
    with its problem and the rest are listed."""
    loaded: list[Ruleset] = []
    problems: list[Problem] = list(library.index_problems())
    for rid in library.ids():
        try:
            loaded.append(library.load(rid))
        except RulesetError as exc:
            problems.extend(exc.problems)
    if as_json:
        rows = [
            {
                "id": r.id,
                "name": r.name,
                "extends": r.extends,
                "family": r.family,
                "sources": list(r.sources),
                "shipped": r.shipped,
                "path": str(r.path) if r.path else None,
                "counts": r.counts(),
            }
            for r in loaded
        ]
        echo_json(rows)
    else:
        from tabulate import tabulate

        table = [
            [
                terminal(cell)
                for cell in (
                    r.id,
                    r.name,
                    r.extends or "-",
                    r.family,
                    ", ".join(r.sources),
                    "{stated}/{assumed}/{house}".format(**r.counts()),
                )
            ]
            for r in loaded
        ]
        echo(
            tabulate(
                table,
                headers=["id", "name", "extends", "family", "sources", "stated/assumed/house"],
            )
        )
    if problems:
        raise RulesetError(problems)


def validate(library: Library, refs: Sequence[str]) -> None:
    """A line for each ruleset that loads; every problem of those that do not, at once."""
    problems: list[Problem] = []
    for ref in refs:
        try:
            ruleset = library.load(ref)
        except RulesetError as exc:
            problems.extend(exc.problems)
            continue
        counts = ruleset.counts()
        echo(
            f"{ref}: valid ({ruleset.id}; {sum(counts.values())} values: "
            f"{counts['stated']} stated, {counts['assumed']} assumed, "
            f"{counts['house']} house rule{'' if counts['house'] == 1 else 's'})"
        )
    if problems:
        raise RulesetError(problems)


def new_ruleset(
    name: str,
    base_ref: str,
    settings: Sequence[str],
    target: Path,
    library: Library,
    whys: Sequence[str],
    title: str | None,
    force: bool,
) -> None:
    """Write a house ruleset; say which settings give the base's value already."""
    from bolivia.authoring.house import derive, unchanged

    ruleset = derive(name, base_ref, settings, target, library, why=whys, title=title, force=force)
    assert ruleset.base is not None
    for same in unchanged(ruleset.base, settings):
        echo(f"note: {same}: {ruleset.base.id} has this value already (kept, noted as such)")
    changed = ", ".join(ruleset.own_leaves) or "nothing yet"
    echo(f"{target}: {ruleset.id} extends {ruleset.extends}; changes {changed}")


def lint_ruleset(resolved: Ruleset) -> None:
    """The linter's findings, then the counts; exit 1 on errors."""
    from bolivia.authoring.lint import lint

    findings = lint(resolved)
    for finding in findings:
        echo(str(finding))
    errors = sum(1 for f in findings if f.level == "error")
    warnings = sum(1 for f in findings if f.level == "warning")
    echo(
        f"{resolved.id}: {errors} error{'s' if errors != 1 else ''}, {warnings} "
        f"warning{'s' if warnings != 1 else ''}"
    )
    if errors:
        sys.exit(1)
