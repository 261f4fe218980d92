"""The pieces of ``bolivia compare`` around the comparison: which rulesets and bots, and
the progress line while it plays."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import click

from bolivia.console import Progress
from bolivia.options import given_rulesets

if TYPE_CHECKING:
    from bolivia.rules.library import Library
    from bolivia.rules.ruleset import Ruleset

__all__ = ["bots_option", "compare_bots", "compare_meter", "compared", "default_compared"]


def default_compared(library: Library) -> list[Ruleset]:
    """The rulesets ``bolivia compare`` compares when none is named: the shipped Bolivias,
    not the house-rule examples (``house/``) nor the published variants (``variants/``)."""
    picked = []
    for rid in library.ids():
        path = library.path_of(rid)  # (a file that is not one of them is not loaded)
        if library.is_shipped(path) and not any(
            f"/{folder}/" in str(path) for folder in ("house", "variants")
        ):
            ruleset = library.load(rid)
            if ruleset.family == "bolivia":
                picked.append(ruleset)
    return picked


#: ``--bots`` of ``bolivia compare``
bots_option = click.option(
    "--bots",
    "bot_names",
    help="The bots the deals are played under, four of a kind at the table, comma-separated "
    "(default: search:playouts=16,width=3,greedy, the strongest and a weaker one; expert,greedy "
    "plays about 20 times faster, a little weaker).",
)


def compare_bots(bot_names: str | None) -> tuple[str, ...]:
    """``--bots``: the bots the deals are played under, each named once (a search budget's
    own commas stay with it), as each bot names itself; the report's own when none is given."""
    from bolivia.compare.playing import BOTS
    from bolivia.play_cli import named_bots

    return BOTS if bot_names is None else named_bots(bot_names, 1)


def compared(refs: tuple[str, ...], library: Library) -> list[Ruleset]:
    """The rulesets to compare: those named (one: it and its base), or the shipped ones."""
    refs = given_rulesets(refs, many=True, required=False)
    rulesets = [library.load(ref) for ref in refs] if refs else default_compared(library)
    if len(rulesets) == 1:
        base = rulesets[0].base
        if base is None:
            raise click.UsageError(f"{rulesets[0].id} extends nothing: name a second ruleset")
        rulesets.insert(0, base)
    ids = [r.id for r in rulesets]
    if len(set(ids)) != len(ids):
        raise click.UsageError("a ruleset is named twice")
    return rulesets


def compare_meter(
    rulesets: Sequence[Ruleset], hands: int, precision: float | None, games: int, bots: int
) -> Progress:
    """The progress line of a comparison, after a line saying what it plays first."""
    from bolivia.compare.findings import PRECISION_BOUNDS, planned_plays

    first = PRECISION_BOUNDS[0] if precision is not None else hands
    total = planned_plays(rulesets, first, games, bots)
    meter = Progress(total, "deals and games played")
    meter.note(
        f"comparing {len(rulesets)} rulesets: finding witnesses, then {total:,} deals and games"
        + (" (then as many more deals as the precision needs)" if precision is not None else "")
    )
    return meter
