"""The bodies of the commands about ruleset files (``rulesets``, ``validate``, ``new``,
``lint``). The click commands are declared in :mod:`bolivia.cli`, which calls these.

May import: everything below the command line (rules, authoring, ...), console and click.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from bolivia import formats
from bolivia.console import echo, echo_json
from bolivia.errors import Problem, RulesetError
from bolivia.text import terminal

if TYPE_CHECKING:
    from bolivia.rules.library import Library
    from bolivia.rules.ruleset import Ruleset

__all__ = ["lint_ruleset", "list_rulesets", "new_ruleset", "validate"]

F = TypeVar("F", bound=Callable[..., Any])


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
        echo_json({**formats.head("rulesets"), "rulesets": rows})
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
    from bolivia.rules.loading import STDIN

    problems: list[Problem] = []
    for ref in refs:
        try:
            ruleset = library.load(ref)
        except RulesetError as exc:
            problems.extend(exc.problems)
            continue
        counts = ruleset.counts()
        total = sum(counts[s] for s in ("stated", "assumed", "house"))
        standing = (
            f"{counts['stated']} stated, {counts['assumed']} assumed, "
            f"{counts['house']} house rule{'' if counts['house'] == 1 else 's'}"
        )
        if counts["inherited"]:
            standing += f"; {counts['inherited']} as {ruleset.extends} has them"
        echo(f"{STDIN if ref == '-' else ref}: valid ({ruleset.id}; {total} values: {standing})")
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
    *,
    notes: str = "",
    family: str | None = None,
) -> None:
    """Write a house ruleset; say which settings give the base's value already, and the game
    it plays when that is not its base's."""
    from bolivia.authoring.house import derive, unchanged

    if base_ref == "-":
        raise click.BadParameter(
            "a house ruleset extends an id or a file; standard input (-) is neither: save it "
            "to a file first",
            param_hint="--from",
        )
    ruleset = derive(
        name,
        base_ref,
        settings,
        target,
        library,
        why=whys,
        title=title,
        force=force,
        notes=notes,
        family=family,
    )
    base = ruleset.base
    assert base is not None
    for same in unchanged(base, settings):
        echo(f"note: {same}: {base.id} has this value already (kept, noted as such)")
    if ruleset.family != base.family and family is None:
        echo(
            f"note: {ruleset.id} plays {ruleset.family} (it sets wild melds and sequences as "
            f"the {ruleset.family} rulesets do), where {base.id} plays {base.family}; "
            "give --family to choose another"
        )
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
