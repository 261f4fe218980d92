"""``bolivia ladder``: every pair of bots in a duplicate match under each ruleset, and the
bots' ratings with intervals (:mod:`bolivia.play.batch.ladder`, :mod:`bolivia.compare.ratings`).

May import: the command line's plumbing (console, options, play_cli, compare_cli); the rest
late, when the command runs.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from bolivia.console import echo, echo_json
from bolivia.options import MAX_KEPT_DEALS, given_rulesets, ruleset_arguments, rulesets_option
from bolivia.options import library as ruleset_library
from bolivia.play_cli import check_of, named_bots, play_option_list, players_of

__all__ = ["DEFAULT_BOTS", "ladder_command"]

DEFAULT_BOTS = "random,greedy,expert,search:playouts=16,width=3"


F = TypeVar("F", bound=Callable[..., Any])


def _options(func: F) -> F:
    """The options every command that plays takes (``--seed``, ``--workers``, ...)."""
    for option in reversed(play_option_list()):
        func = option(func)
    return func


@click.command("ladder")
@ruleset_arguments(many=True, old="--ruleset")
@click.option(
    "--bots",
    "bot_names",
    default=DEFAULT_BOTS,
    help="The bots, comma-separated (a search budget's own commas stay with it); every pair "
    "plays a match (default: random, greedy, expert and search:playouts=16,width=3).",
)
@click.option(
    "--deals",
    default=200,
    show_default=True,
    type=click.IntRange(min=1, max=MAX_KEPT_DEALS),
    help="Deals a match, each played twice.",
)
@_options
@rulesets_option
def ladder_command(
    refs: tuple[str, ...],
    bot_names: str,
    deals: int,
    seed: int,
    players: int | None,
    workers: int,
    check: str,
    no_check: bool,
    as_json: bool,
    folders: tuple[Path, ...],
) -> None:
    """A ladder: every pair of bots plays a duplicate match on the same deals under each
    ruleset; each bot's rating (Bradley-Terry on the hands, Elo scale, greedy at 0) with a
    95% interval from a bootstrap over the deals, and every match's share of hands won.

    With no RULESET, the shipped Bolivia rulesets.
    """
    from bolivia.compare.ladder import ladder_json, ladder_text
    from bolivia.compare_cli import default_compared
    from bolivia.play.batch.ladder import pairs, play_ladder
    from bolivia.play.batch.match import MatchError, sides

    library = ruleset_library(folders)
    chosen = given_rulesets(refs, many=True, required=False)
    rulesets = [library.load(ref) for ref in chosen] or default_compared(library)
    if len({r.id for r in rulesets}) != len(rulesets):
        raise click.UsageError("a ruleset is named twice")
    bots = list(named_bots(bot_names, 2))
    counts = {}
    for ruleset in rulesets:
        counts[ruleset.id] = players_of(ruleset, players)
        try:
            sides(ruleset, counts[ruleset.id])
        except MatchError as exc:
            raise click.UsageError(str(exc)) from None
    total = len(rulesets) * len(pairs(bots)) * deals
    where = [str(r.path) if r.path and not r.shipped else r.id for r in rulesets]
    with click.progressbar(length=total, label="ladder: deals", file=sys.stderr) as bar:
        matches = play_ladder(
            where,
            library.spec,
            bots,
            players=[counts[r.id] for r in rulesets],
            deals=deals,
            seed=seed,
            workers=workers,
            check=check_of(check, no_check),
            progress=bar.update,
        )
    for match, ruleset in zip(matches, [r for r in rulesets for _ in pairs(bots)], strict=True):
        match.ruleset = ruleset.id
    data = ladder_json(matches, bots, counts, deals=deals, seed=seed)
    if as_json:
        echo_json(data)
    else:
        echo(ladder_text(data))
