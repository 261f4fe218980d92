"""``--precision``: how many deals a sweep needs for the intervals it was asked for.

``--precision MEASURE=HALF`` asks that every combination's difference from the base in that
measure be known to within ``HALF`` either side (95%). A share's ``HALF`` is in percentage
points. ``HALF`` alone is for the share of hands ended by going out, or for hands per game in
a sweep of games.

The sweep plays its deals and reads each difference's spread per deal. It then extends itself
to the deals the widest needs, rounded up to whole chunks
(:func:`bolivia.compare.statistics.units_for_precision`). It does so in rounds, as the spread
is known better. The decisions rest on the results alone, so the same command plays the same
deals. A sweep that would need more than its limit stops at the limit and says so.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from bolivia.compare.statistics import normal_quantile, t_quantile, units_for_precision
from bolivia.sweeps.grid import SweepError
from bolivia.sweeps.measures import Measure, MeasuredVariant

__all__ = ["ROUNDS", "Precision", "deals_needed", "parse_precision"]

ROUNDS = 8  # extensions of a sweep at the most


@dataclass(frozen=True)
class Precision:
    """The measure and the half-width wanted, in the measure's own unit (a share: 0..1)."""

    measure: Measure
    half: float

    def text(self) -> str:
        shown = f"{100 * self.half:g} points" if self.measure.share else f"{self.half:g}"
        return f"{self.measure.label} within ±{shown}"


def _number(raw: str) -> float:
    """A number as written, or NaN if it is none."""
    try:
        return float(raw)
    except ValueError:
        return math.nan


def parse_precision(text: str, measures: Sequence[Measure], games: bool) -> Precision:
    """``[MEASURE=]HALF``: the measure (the default for hands or games) and its half-width."""
    name, _, raw = text.rpartition("=")
    name = name.strip() or ("hands_per_game" if games else "went_out")
    found = next((m for m in measures if m.name == name), None)
    if found is None:
        names = ", ".join(m.name for m in measures)
        raise SweepError(f"--precision {text}: no measure {name!r}; measures: {names}")
    half = _number(raw)
    if not math.isfinite(half) or half <= 0:
        raise SweepError(f"--precision {text}: give a half-width above 0, such as {name}=2")
    return Precision(found, half / 100 if found.share else half)


def deals_needed(
    measured: Sequence[MeasuredVariant], precision: Precision, deals: int, chunk: int
) -> int:
    """The deals every combination's difference from the base (or, with no other
    combination, the base's own figure) needs, in whole chunks; at least ``deals``."""
    name = precision.measure.name
    spreads = [
        d.se * math.sqrt(d.n)
        for mv in measured
        if (d := mv.differences[name]) is not None and d.n >= 2
    ]
    if not spreads:  # the base alone: its own interval (a share's Wilson, a mean's t)
        spreads = [
            (mv.estimates[name].high - mv.estimates[name].low)
            / 2
            / _quantile(precision.measure.share, mv.deals)
            * math.sqrt(mv.deals)
            for mv in measured
        ]
    need = max(units_for_precision(precision.half, sd) for sd in spreads)
    return max(deals, -(-need // chunk) * chunk)


def _quantile(share: bool, n: int) -> float:
    """The quantile a base's own 95% interval was drawn with: the normal's for a share
    (Wilson's interval), Student's t with n - 1 degrees of freedom for a mean."""
    return normal_quantile(0.975) if share or n < 2 else t_quantile(0.975, n - 1)
