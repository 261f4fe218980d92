"""Differences between the report's columns, paired on the same deals (and games).

Per deal, a difference is the value under column A minus the value under column B. So the
luck of the cards falls on both. A mean difference gets Student's t interval. A share (hands
ended by going out, games won by the first side) gets Tango's score interval with McNemar's
test.

All differences of the report are one family, corrected together by Holm's step-down
procedure. A difference is *shown* when its corrected interval excludes 0. Only then does the
text say the columns differ. Otherwise the text says "no difference shown". It then gives the
smallest difference the run would have detected (80% power at the strictest level of the
family).

How many deals to play is a fixed number, or the number :func:`deals_for_precision` finds. That
number gives the corrected interval of the points a hand the half-width asked for. It is
estimated from a first batch of deals, within a lower and an upper bound.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

from bolivia.compare.playing import GAME_BOT, Deal, GamePlayed, Runs
from bolivia.compare.statistics import (
    Corrected,
    Difference,
    Estimate,
    Method,
    correct,
    detectable_difference,
    log_normal_p,
    no_change_bound,
    paired_difference,
    paired_ratio_ci,
    paired_share,
    proportion_ci,
    units_for_precision,
)
from bolivia.language import N_

__all__ = [
    "ALPHA",
    "DEAL_FIGURES",
    "GAME_FIGURES",
    "HouseCheck",
    "PairedFigure",
    "deals_for_precision",
    "family_size",
    "house_check",
    "paired_figures",
]

ALPHA = 0.05
METHOD: Method = "holm"
POWER = 0.8

Kind = Literal["mean", "share"]


@dataclass(frozen=True)
class Figure:
    """A figure measured on every deal (or game): its name, its unit, how it is compared.
    ``relative``: an amount (points, turns, canastas) whose difference is also told in
    relative terms, scale-free (:attr:`PairedFigure.relative`); not a share, nor a margin
    that can be either side of 0."""

    name: str
    kind: Kind
    digits: int
    relative: bool = False


DEAL_FIGURES: tuple[tuple[Figure, Callable[[Deal], int]], ...] = (
    (Figure(N_("points a hand (both sides)"), "mean", 0, True), lambda d: sum(d.points)),
    (
        Figure(N_("first side's advantage a hand"), "mean", 0),
        lambda d: d.first_points - d.second_points,
    ),
    (Figure(N_("turns a hand"), "mean", 1, True), lambda d: d.turns),
    (Figure(N_("hands ended by going out"), "share", 3), lambda d: int(d.went_out)),
    (Figure(N_("canastas a hand"), "mean", 2, True), lambda d: sum(d.canastas)),
    (Figure(N_("escalera canastas a hand"), "mean", 2, True), lambda d: d.canastas[2]),
)
GAME_FIGURES: tuple[tuple[Figure, Callable[[GamePlayed], int]], ...] = (
    (Figure(N_("hands a game"), "mean", 1, True), lambda g: g.hands),
    (Figure(N_("games won by the first side"), "share", 3), lambda g: int(g.winner == 0)),
)
POINTS = DEAL_FIGURES[0][0]


@dataclass(frozen=True)
class PairedFigure:
    """One paired difference, column ``a`` minus column ``b``, under one bot; ``n`` deals (or
    games) ended under both; ``same`` when the value was the same on every one."""

    a: str
    b: str
    bot: str
    figure: Figure
    unit: str  # "deal" or "game"
    difference: Difference
    sd: float  # the standard deviation of the per-unit differences
    same: bool
    corrected: Corrected | None = None
    detectable: float = math.inf
    # a relative figure's per-unit values under a and under b (for :attr:`relative`)
    values: tuple[tuple[int, ...], tuple[int, ...]] = field(default=((), ()), repr=False)

    @property
    def shown(self) -> bool:
        return self.corrected is not None and self.corrected.different

    @property
    def interval(self) -> Estimate:
        if self.corrected is None:
            return self.difference.interval()
        return self.corrected.interval

    @property
    def relative(self) -> Estimate | None:
        """The difference in relative terms, scale-free, so that rulesets with other packs or
        scoring can be set side by side: a's mean over b's on the same units, less 1 (0.54:
        54% more under a), with Fieller's interval at the level of the corrected one
        (:func:`~bolivia.compare.statistics.paired_ratio_ci`), which leaves out 0 exactly when
        the corrected interval does. None for a figure not told so, for a difference the same on
        every unit (tested by the sign test, not t), or where the ratio has no bounded
        interval."""
        if not self.figure.relative or self.difference.se == 0:
            return None
        under_a, under_b = self.values
        level = self.corrected.level if self.corrected else 0.95
        e = paired_ratio_ci(under_a, under_b, level)
        return None if e is None else Estimate(e.value - 1, e.low - 1, e.high - 1, e.n)


def _difference(figure: Figure, a: Sequence[int], b: Sequence[int]) -> Difference:
    if figure.kind == "share":
        only_a = sum(1 for x, y in zip(a, b, strict=True) if x and not y)
        only_b = sum(1 for x, y in zip(a, b, strict=True) if y and not x)
        return paired_share(only_a, only_b, len(a))
    return paired_difference([float(x) for x in a], [float(y) for y in b])


def _pairs(
    columns: Sequence[str],
) -> list[tuple[str, str]]:
    return list(itertools.combinations(columns, 2))


def family_size(columns: int, bots: int, games: bool) -> int:
    """How many differences the report corrects together."""
    pairs = columns * (columns - 1) // 2
    return pairs * (bots * len(DEAL_FIGURES) + (len(GAME_FIGURES) if games else 0))


def _paired_units(first: Sequence[Deal], second: Sequence[Deal]) -> list[tuple[Deal, Deal]]:
    return [(x, y) for x, y in zip(first, second, strict=True) if x.completed and y.completed]


def _figure(
    a: str, b: str, bot: str, unit: str, figure: Figure, xs: Sequence[int], ys: Sequence[int]
) -> PairedFigure:
    diff = _difference(figure, xs, ys)
    sd = diff.se * math.sqrt(max(diff.n, 1))
    values = (tuple(xs), tuple(ys)) if figure.relative else ((), ())
    return PairedFigure(a, b, bot, figure, unit, diff, sd, list(xs) == list(ys), values=values)


def _deal_figures(runs: Runs, a: str, b: str) -> list[PairedFigure]:
    """The pair's differences in the deals' figures under each bot (not yet corrected)."""
    out = []
    for bot in runs.bots:
        units = _paired_units(runs.deals[(bot, a)], runs.deals[(bot, b)])
        for figure, value in DEAL_FIGURES:
            xs = [value(x) for x, _ in units]
            ys = [value(y) for _, y in units]
            out.append(_figure(a, b, bot, "deal", figure, xs, ys))
    return out


def _game_figures(runs: Runs, a: str, b: str) -> list[PairedFigure]:
    """The pair's differences in the figures of the games both columns played to the end."""
    games = [(x, y) for x, y in zip(runs.games[a], runs.games[b], strict=True) if x.over and y.over]
    out = []
    for figure, game_value in GAME_FIGURES:
        xs = [game_value(x) for x, _ in games]
        ys = [game_value(y) for _, y in games]
        out.append(_figure(a, b, GAME_BOT, "game", figure, xs, ys))
    return out


def paired_figures(runs: Runs, columns: Sequence[str]) -> list[PairedFigure]:
    """Every paired difference of the report, corrected as one family (Holm), each with the
    smallest difference its run detects at the family's strictest level."""
    out: list[PairedFigure] = []
    for a, b in _pairs(columns):
        out += _deal_figures(runs, a, b)
        if runs.games:
            out += _game_figures(runs, a, b)
    if not out:
        return out
    corrected = correct([p.difference for p in out], METHOD, ALPHA)
    strictest = ALPHA / len(out)
    return [
        replace(p, corrected=c, detectable=_detectable(p, strictest))
        for p, c in zip(out, corrected, strict=True)
    ]


def _detectable(p: PairedFigure, strictest: float) -> float:
    """The smallest difference the run detects at the family's strictest level, or infinity
    where it can detect none: a share's test (McNemar's score test) rejects at that level only
    if its most lopsided outcome, every one of the ``n`` units differing one way (z = sqrt n),
    would; ten games give at best p = 0.0016, so a family of 42 differences (0.0012) can call
    none of them."""
    n = p.difference.n
    if p.figure.kind == "share" and log_normal_p(math.sqrt(n)) > math.log(strictest):
        return math.inf
    return detectable_difference(n, p.sd, power=POWER, alpha=strictest)


def deals_for_precision(
    runs: Runs, columns: Sequence[str], precision: float, bounds: tuple[int, int], games: bool
) -> tuple[int, int]:
    """The number of deals that makes the corrected interval of every pair's difference in
    points a hand at most ``precision`` either side, under every bot, estimated from the deals
    played so far, clamped to ``bounds``; and the number it wanted."""
    level = 1 - ALPHA / max(1, family_size(len(columns), len(runs.bots), games))
    low, high = bounds
    needed = low
    for a, b in _pairs(columns):
        for bot in runs.bots:
            units = _paired_units(runs.deals[(bot, a)], runs.deals[(bot, b)])
            diff = paired_difference(
                [float(sum(x.points)) for x, _ in units], [float(sum(y.points)) for _, y in units]
            )
            sd = diff.se * math.sqrt(max(diff.n, 1))
            needed = max(needed, units_for_precision(precision, sd, level=level, limit=high + 1))
    return min(max(needed, low), high), needed


# --------------------------------------------------------------------------- house and base


@dataclass(frozen=True)
class HouseCheck:
    """A house ruleset against its base, per bot.

    ``deals``: the deals ended under both.
    ``other_winner``: how many ended with another winner, and ``share`` that share with its
      Wilson interval.
    ``identical_play``: whether every deal was played with the same actions under both.
    ``bound``: the most a share of deals played differently can be when none was (95%).
    """

    bot: str
    deals: int
    other_winner: int
    share: Estimate
    identical_play: bool
    identical_scores: bool
    bound: float


def house_check(runs: Runs, base: str, house: str) -> list[HouseCheck]:
    out = []
    for bot in runs.bots:
        units = _paired_units(runs.deals[(bot, base)], runs.deals[(bot, house)])
        other = sum(1 for x, y in units if x.winner != y.winner)
        out.append(
            HouseCheck(
                bot,
                len(units),
                other,
                proportion_ci(other, len(units)),
                all(x.actions == y.actions for x, y in units),
                all(x.points == y.points for x, y in units),
                no_change_bound(len(units)),
            )
        )
    return out
