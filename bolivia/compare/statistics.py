"""Statistics for the play figures: intervals, corrections and sample sizes.

It covers:

- A mean or a proportion with its 95% confidence interval.
- Differences over matched units, with Student's t intervals. Matched (paired) units are
  the same deals played twice.
- Corrections for a family of differences (Holm, Benjamini-Hochberg, Bonferroni).
- Intervals for counts with no events.
- The sample sizes a claim needs.

Student's t distribution is computed here, without scipy, for every number of degrees of
freedom. Its distribution function goes through the regularized incomplete beta function
(continued fraction, Numerical Recipes 6.4). Its quantiles come by bisection on it. The normal
quantiles are :class:`statistics.NormalDist`'s.

A p-value is worked out as a tail, never as 1 minus a distribution function (which rounds to
exactly 0 past about 1e-16), and kept as its logarithm (:meth:`Difference.log_p`), which stays
exact where the value itself is too small for a float. The corrections order and adjust the
logarithms, so the smallest p-values keep their true order. Written out, a p-value is floored
at :data:`P_FLOOR`, and its base-10 logarithm given beside it (:func:`p_json`).

>>> mean_ci([1, 2, 3]).text()  # t(2) = 4.303 standard errors, not 1.96
'2.0 [-0.5, 4.5]'
>>> proportion_ci(0, 10).low
0.0
>>> round(t_quantile(0.975, 9), 3)
2.262
>>> paired_mean([1.2, 2.4, 1.3, 1.3, 0.0, 1.0, 1.8, 0.8, 4.6, 1.4]).interval().text(2)
'1.58 [0.70, 2.46]'
>>> round(paired_mean([5.0] * 40 + [6.0] * 60).log_p() / math.log(10), 1)  # t = 114, df = 99
-106.0
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from statistics import NormalDist
from typing import Any, Literal

from bolivia.language import decimal, gettext_

__all__ = [
    "METHODS",
    "Corrected",
    "Difference",
    "Estimate",
    "PairedProportion",
    "benjamini_hochberg",
    "benjamini_hochberg_log",
    "bonferroni",
    "bonferroni_log",
    "clustered_mean_ci",
    "clustered_ratio_ci",
    "clustered_share",
    "correct",
    "count_mean_ci",
    "detectable_difference",
    "difference_from_sums",
    "holm",
    "holm_log",
    "log_normal_p",
    "log_t_p",
    "mcnemar_p",
    "mean_ci",
    "no_change_bound",
    "normal_quantile",
    "p_json",
    "paired_difference",
    "paired_mean",
    "paired_proportions",
    "paired_ratio_ci",
    "paired_share",
    "proportion_ci",
    "t_cdf",
    "t_quantile",
    "units_for_power",
    "units_for_precision",
]


@dataclass(frozen=True)
class Estimate:
    """A mean (or a proportion) with its 95% confidence interval."""

    value: float
    low: float
    high: float
    n: int

    def text(self, digits: int = 1) -> str:
        """``6,680.0 [5,542.1, 7,819.3]``, its numbers as the current language writes them."""
        return gettext_("{value} [{low}, {high}]").format(
            value=decimal(self.value, digits),
            low=decimal(self.low, digits),
            high=decimal(self.high, digits),
        )

    def as_json(self) -> dict[str, Any]:
        return {
            "value": round(self.value, 4),
            "low": round(self.low, 4),
            "high": round(self.high, 4),
            "n": self.n,
        }


def mean_ci(values: Sequence[float], *, floor: float | None = None) -> Estimate:
    """The mean and its 95% interval (Student's t with n - 1 degrees of freedom: with 10 units
    2.262 standard errors, not the normal's 1.96); ``floor`` bounds a quantity that cannot go
    below it (a count cannot be negative)."""
    n = len(values)
    if n == 0:
        return Estimate(0.0, 0.0, 0.0, 0)
    mean = sum(values) / n
    if n == 1:
        return Estimate(mean, mean, mean, 1)
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = t_quantile(0.975, n - 1) * math.sqrt(var / n)
    low = mean - half if floor is None else max(floor, mean - half)
    return Estimate(mean, low, mean + half, n)


def clustered_mean_ci(groups: Sequence[Sequence[float]], *, floor: float | None = None) -> Estimate:
    """The mean of values that come in groups (the pick-ups of the pile in one deal) with a 95%
    interval that holds however alike a group's values are: the group is the unit. The mean is
    the ratio of the groups' sums to their sizes; its variance is the ratio estimator's, over
    the groups (each group's sum less the mean times its size, over the mean size: a
    cluster-robust standard error), with Student's t on groups - 1 degrees of freedom. A group
    may be empty (a deal with no pick-up). ``n`` is the number of values; ``floor`` as in
    :func:`mean_ci`.

    >>> clustered_mean_ci([[4, 6], [10, 10, 10], [], [2]]).text()
    '7.0 [0.2, 13.8]'
    """
    return clustered_ratio_ci([sum(g) for g in groups], [len(g) for g in groups], floor=floor)


def clustered_ratio_ci(
    sums: Sequence[float], sizes: Sequence[int], *, floor: float | None = None
) -> Estimate:
    """:func:`clustered_mean_ci` from each group's sum and size (all it reads of a group)."""
    k = len(sums)
    count = sum(sizes)
    if count == 0:
        return Estimate(0.0, 0.0, 0.0, 0)
    mean = sum(sums) / count
    if k < 2:
        return Estimate(mean, mean, mean, count)
    size = count / k
    var = sum(((s - mean * n) / size) ** 2 for s, n in zip(sums, sizes, strict=True)) / (
        k * (k - 1)
    )
    half = t_quantile(0.975, k - 1) * math.sqrt(var)
    low = mean - half if floor is None else max(floor, mean - half)
    return Estimate(mean, low, mean + half, count)


def paired_ratio_ci(a: Sequence[float], b: Sequence[float], level: float = 0.95) -> Estimate | None:
    """The ratio of two means over the same units, mean(a) / mean(b), with Fieller's interval
    at ``level``: the ratios r for which the paired t test of ``a - r * b`` does not reject,
    with Student's t on units - 1. At r = 1 that test is the paired difference's own, so the
    interval leaves out 1 exactly when the difference's t interval at the same level leaves
    out 0: the two never disagree. None where the interval is not bounded (b's mean not told
    apart from 0) or where either mean is not above 0.

    >>> paired_ratio_ci([12, 9, 15, 13], [10, 8, 11, 10]).text(2)
    '1.26 [1.06, 1.40]'
    """
    n = len(a)
    if n < 2:
        return None
    ma, mb = sum(a) / n, sum(b) / n
    if ma <= 0 or mb <= 0:
        return None
    saa = sum((x - ma) ** 2 for x in a) / (n - 1)
    sbb = sum((y - mb) ** 2 for y in b) / (n - 1)
    sab = sum((x - ma) * (y - mb) for x, y in zip(a, b, strict=True)) / (n - 1)
    t2 = t_quantile(0.5 + level / 2, n - 1) ** 2 / n
    # (ma - r mb)^2 = t2 (saa - 2 r sab + r^2 sbb): a quadratic in r
    qa = mb * mb - t2 * sbb
    qb = ma * mb - t2 * sab
    qc = ma * ma - t2 * saa
    disc = qb * qb - qa * qc
    if qa <= 0 or disc < 0:
        return None
    root = math.sqrt(disc)
    return Estimate(ma / mb, (qb - root) / qa, (qb + root) / qa, n)


def clustered_share(
    units: int, hits: int, count: int, hits_squares: int, cross: int, count_squares: int
) -> Estimate:
    """A share of items that come in units (the hands of a deal played in both seatings) with
    a 95% interval taking the unit as the unit: the ratio estimator's variance (as
    :func:`clustered_ratio_ci`), worked out exactly from integer running sums over the units
    (of their hits, items, hits squared, hits times items and items squared), with Student's
    t on units - 1. Where every unit went all one way (all hits, or none), the exact bound for
    ``units`` alike units (:func:`no_change_bound`) instead of a zero-width interval. One unit
    says nothing of how units differ, and no item says nothing at all: the interval is then
    every share, 0 to 1.

    >>> clustered_share(3, 4, 6, 2 * 2 + 2 * 2, 2 * 2 + 2 * 2, 3 * 4).text(2)  # 2, 2, 0 of 2
    '0.67 [0.00, 1.00]'
    """
    if count == 0:
        return Estimate(0.0, 0.0, 1.0, 0)
    share = Fraction(hits, count)
    value = float(share)
    if units < 2:
        return Estimate(value, 0.0, 1.0, count)
    size = Fraction(count, units)
    spread = hits_squares - 2 * share * cross + share * share * count_squares
    var = spread / (size * size) / (units * (units - 1))
    if var == 0 and share in (0, 1):
        bound = no_change_bound(units)
        if share == 0:
            return Estimate(value, 0.0, bound, count)
        return Estimate(value, 1 - bound, 1.0, count)
    half = t_quantile(0.975, units - 1) * math.sqrt(float(var))
    return Estimate(value, max(0.0, value - half), min(1.0, value + half), count)


def proportion_ci(hits: int, n: int) -> Estimate:
    """Wilson's interval, sound near 0 and 1."""
    if n == 0:
        return Estimate(0.0, 0.0, 0.0, 0)
    p = hits / n
    z = 1.96
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return Estimate(p, max(0.0, centre - half), min(1.0, centre + half), n)


def count_mean_ci(values: Sequence[int]) -> Estimate:
    """The mean of a count per unit (canastas a hand, ...) with its 95% interval. When no unit
    has any event the interval is not the zero-width [0, 0] of :func:`mean_ci`: its top is the
    exact Poisson bound for no event in ``n`` units, ``-ln(0.025) / n`` (about 3.69 / n; the
    "rule of three", 3 / n, is its one-sided 95% form)."""
    n = len(values)
    if n and not any(values):
        return Estimate(0.0, 0.0, -math.log(0.025) / n, n)
    return mean_ci(values, floor=0.0)


# --------------------------------------------------------------------------- distributions


def normal_quantile(p: float) -> float:
    """The standard normal distribution's ``p`` quantile."""
    return NormalDist().inv_cdf(p)


def _beta_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1.0)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 100_000):
        m2 = 2 * m
        for numerator in (
            m * (b - m) * x / ((a + m2 - 1.0) * (a + m2)),
            -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1.0)),
        ):
            d = 1.0 + numerator * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + numerator / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1.0) < 1e-15:
            break
    return h


def _regularized_beta(a: float, b: float, x: float) -> float:
    """I_x(a, b), the regularized incomplete beta function."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    return math.exp(_log_regularized_beta(a, b, x))


def _log_regularized_beta(a: float, b: float, x: float) -> float:
    """The natural logarithm of I_x(a, b) (0 < x < 1), exact where I_x is too small for a
    float: the front factor and the continued fraction are multiplied as logarithms."""
    log_front = (
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    )
    if x < (a + 1.0) / (a + b + 2.0):
        return log_front + math.log(_beta_fraction(a, b, x)) - math.log(a)
    return math.log1p(-math.exp(log_front) * _beta_fraction(b, a, 1.0 - x) / b)


def t_cdf(t: float, df: int) -> float:
    """Student's t distribution function with ``df`` degrees of freedom."""
    if df < 1:
        raise ValueError("the t distribution needs one degree of freedom or more")
    if math.isinf(t):
        return 1.0 if t > 0 else 0.0
    tail = 0.5 * _regularized_beta(df / 2.0, 0.5, df / (df + t * t))
    return 1.0 - tail if t > 0 else tail


def log_t_p(t: float, df: int) -> float:
    """The natural logarithm of the two-sided p-value of ``t`` under Student's t with ``df``
    degrees of freedom, P(|T| >= |t|): the tail itself, I_x(df/2, 1/2) at x = df/(df + t^2),
    never 1 minus the distribution function (exact however small).

    >>> round(math.exp(log_t_p(2.262157, 9)), 4)
    0.05
    """
    if df < 1:
        raise ValueError("the t distribution needs one degree of freedom or more")
    if t == 0:
        return 0.0
    if math.isinf(t):
        return -math.inf
    return min(0.0, _log_regularized_beta(df / 2.0, 0.5, df / (df + t * t)))


def log_normal_p(z: float) -> float:
    """The natural logarithm of the two-sided normal p-value of ``z``, P(|Z| >= |z|) =
    erfc(|z| / sqrt 2), exact however small (past erfc's smallest float, its asymptotic
    series).

    >>> round(math.exp(log_normal_p(1.959964)), 4)
    0.05
    """
    u = abs(z) / math.sqrt(2.0)
    p = math.erfc(u)
    if p > 1e-300:
        return math.log(p)
    # erfc(u) = exp(-u^2) / (u sqrt(pi)) * (1 - 1/(2u^2) + 3/(4u^4) - 15/(8u^6) + ...), u > 26
    w = 1.0 / (2.0 * u * u)
    series = 1.0 - w + 3.0 * w * w - 15.0 * w * w * w
    return -u * u - math.log(u * math.sqrt(math.pi)) + math.log(series)


#: the smallest p-value written out as a number; the logarithm beside it is exact (p_json)
P_FLOOR = 1e-300


def p_json(log_p: float, key: str = "p") -> dict[str, float]:
    """A p-value as the JSON outputs write it, from its natural logarithm: ``key`` to six
    significant digits and at least :data:`P_FLOOR` (never exactly 0), and ``log10_`` + key,
    its base-10 logarithm to three decimals, exact below the floor too.

    >>> p_json(math.log(0.0123456789))
    {'p': 0.0123457, 'log10_p': -1.908}
    >>> p_json(-1000.0)
    {'p': 1e-300, 'log10_p': -434.294}
    """
    log10 = log_p / math.log(10.0)
    value = P_FLOOR if log10 < -300 else max(P_FLOOR, float(f"{math.exp(log_p):.6g}"))
    return {key: value, "log10_" + key: round(log10, 3) + 0.0}


@functools.lru_cache(maxsize=4096)
def t_quantile(p: float, df: int) -> float:
    """Student's t distribution's ``p`` quantile (0 < p < 1) with ``df`` degrees of freedom,
    to about 1e-12, by bisection on :func:`t_cdf` (each kept once worked out: a report asks
    the same few hundreds of times)."""
    if not 0.0 < p < 1.0:
        raise ValueError("a quantile is of a probability strictly between 0 and 1")
    if p < 0.5:
        return -t_quantile(1.0 - p, df)
    if p == 0.5:
        return 0.0
    low, high = 0.0, max(1.0, 2 * normal_quantile(p))
    while t_cdf(high, df) < p:
        low, high = high, high * 2
    while high - low > 1e-12 * max(1.0, high):
        middle = (low + high) / 2
        if t_cdf(middle, df) < p:
            low = middle
        else:
            high = middle
    return (low + high) / 2


# --------------------------------------------------------------------------- paired differences


@dataclass(frozen=True)
class Difference:
    """A mean difference over ``n`` matched units (each unit, a deal, seen under both sides),
    with its standard error; intervals and the two-sided p-value use Student's t with n - 1
    degrees of freedom. A difference that is the same on every unit has no spread: its
    interval is that one value (``[0, 0]`` for identical sides), and its p-value 1 when it is
    0, else the exact sign test's, 2^(1-n) (the chance that n differences all take one sign when
    either sign is as likely): the t test has nothing to say there, and 0 would claim
    certainty. Fewer than two units give no interval (an unbounded one)."""

    value: float
    se: float
    n: int

    def interval(self, level: float = 0.95) -> Estimate:
        if self.n < 2:
            return Estimate(self.value, -math.inf, math.inf, self.n)
        half = 0.0 if self.se == 0 else t_quantile(0.5 + level / 2, self.n - 1) * self.se
        return Estimate(self.value, self.value - half, self.value + half, self.n)

    def log_p(self) -> float:
        """The natural logarithm of the two-sided p-value (exact however small)."""
        if self.n < 2:
            return 0.0
        if self.se == 0:
            return 0.0 if self.value == 0 else (1 - self.n) * math.log(2.0)
        return log_t_p(self.value / self.se, self.n - 1)

    def p_value(self) -> float:
        """The two-sided p-value (as a float: 0.0 only past about 1e-308; :meth:`log_p` is
        exact there)."""
        return math.exp(self.log_p())

    def as_json(self, level: float = 0.95) -> dict[str, Any]:
        interval = self.interval(level)
        return {
            "value": round(self.value, 4),
            "low": round(interval.low, 4) if self.n >= 2 else None,
            "high": round(interval.high, 4) if self.n >= 2 else None,
            "se": round(self.se, 4),
            "n": self.n,
            **p_json(self.log_p()),
        }


def difference_from_sums(
    n: int, total: float | Fraction, squares: float | Fraction, scale: float = 1.0
) -> Difference:
    """The mean difference of ``n`` units from the sum of their differences and the sum of
    their squares (times ``scale``). Integer (or fraction) sums are used exactly, so the figures
    do not depend on the order the units came in."""
    if n == 0:
        return Difference(0.0, 0.0, 0)
    mean = Fraction(total) / n
    if n == 1:
        return Difference(float(mean * Fraction(scale)), 0.0, 1)
    variance = (Fraction(squares) - n * mean * mean) / (n - 1)
    se = math.sqrt(max(0.0, float(variance / n))) * abs(scale)
    return Difference(float(mean * Fraction(scale)), se, n)


def paired_mean(differences: Sequence[float | Fraction]) -> Difference:
    """The mean of differences measured on matched units (the paired t interval)."""
    exact = [Fraction(d) for d in differences]
    return difference_from_sums(len(exact), sum(exact, Fraction(0)), sum(d * d for d in exact))


def paired_difference(a: Sequence[float], b: Sequence[float]) -> Difference:
    """The mean of ``a - b`` over units measured under both (``a[i]`` and ``b[i]`` the same
    unit)."""
    if len(a) != len(b):
        raise ValueError("paired values come in pairs: one of each side for every unit")
    return paired_mean([Fraction(x) - Fraction(y) for x, y in zip(a, b, strict=True)])


def paired_proportions(only_a: int, only_b: int, n: int) -> Difference:
    """The difference of two proportions measured on the same ``n`` units (``only_a`` units
    with the event under side a alone, ``only_b`` under b alone; the concordant units add
    nothing): the paired difference of the indicators' means, whose test is McNemar's (see
    :func:`mcnemar_p` for its exact form)."""
    if min(only_a, only_b) < 0 or only_a + only_b > n:
        raise ValueError("the discordant units are counts of at most n units")
    return difference_from_sums(n, only_a - only_b, only_a + only_b)


def mcnemar_p(only_a: int, only_b: int) -> float:
    """McNemar's exact two-sided p-value: the binomial test of ``only_a`` among the
    ``only_a + only_b`` discordant units, at 1/2."""
    m = only_a + only_b
    if m == 0:
        return 1.0
    k = min(only_a, only_b)
    tail = sum(math.comb(m, i) for i in range(k + 1))
    return float(min(Fraction(1), Fraction(2 * tail, 2**m)))


@dataclass(frozen=True)
class PairedProportion(Difference):
    """The difference of two proportions on the same ``n`` units.

    ``only_a`` units have the event under side a alone, ``only_b`` under b alone. The interval
    is Tango's score interval (Tango 1998). It holds the deltas whose score statistic stays
    within the normal quantile. The test is the matching score test, McNemar's asymptotic one.
    So the interval excludes 0 exactly when the test rejects at its level. Unlike the Wald
    interval it is never of zero width: with no discordant unit it is ``±z²/(n + z²)``.
    """

    only_a: int = 0
    only_b: int = 0

    def _score(self, delta: float) -> float:
        """Tango's statistic at ``delta`` (decreasing in it)."""
        n, b, c = self.n, self.only_a, self.only_b
        big_a = 2 * n
        big_b = -b - c + (2 * n - b + c) * delta
        big_c = -c * delta * (1 - delta)
        q = (math.sqrt(max(0.0, big_b * big_b - 4 * big_a * big_c)) - big_b) / (2 * big_a)
        spread = n * (2 * q + delta * (1 - delta))
        if spread <= 0:
            return math.inf if b - c - n * delta > 0 else -math.inf if b - c - n * delta < 0 else 0
        return (b - c - n * delta) / math.sqrt(spread)

    def _root(self, z: float, low: float, high: float) -> float:
        """The delta in [low, high] where the statistic crosses ``z`` (bisection)."""
        for _ in range(200):
            middle = (low + high) / 2
            if self._score(middle) > z:
                low = middle
            else:
                high = middle
        return (low + high) / 2

    def interval(self, level: float = 0.95) -> Estimate:
        if self.n < 1:
            return Estimate(self.value, -1.0, 1.0, self.n)
        z = normal_quantile(0.5 + level / 2)
        low = -1.0 if self._score(-1.0) <= z else self._root(z, -1.0, self.value)
        high = 1.0 if self._score(1.0) >= -z else self._root(-z, self.value, 1.0)
        return Estimate(self.value, low, high, self.n)

    def log_p(self) -> float:
        """McNemar's score test, two-sided, as a logarithm (exact however small)."""
        m = self.only_a + self.only_b
        if m == 0:
            return 0.0
        return log_normal_p((self.only_a - self.only_b) / math.sqrt(m))


def paired_share(only_a: int, only_b: int, n: int) -> PairedProportion:
    """:func:`paired_proportions` with Tango's score interval and McNemar's score test."""
    d = paired_proportions(only_a, only_b, n)
    return PairedProportion(d.value, d.se, d.n, only_a, only_b)


def no_change_bound(n: int, level: float = 0.95) -> float:
    """The largest share of units that may differ when none of ``n`` did: the exact binomial
    (Clopper-Pearson) two-sided bound, 1 - ((1 - level) / 2) ** (1 / n)."""
    if n < 1:
        return 1.0
    return float(1 - ((1 - level) / 2) ** (1 / n))


# --------------------------------------------------------------------------- a family of them


def _logs(p_values: Sequence[float]) -> list[float]:
    return [math.log(p) if p > 0 else -math.inf for p in p_values]


def _exps(log_p: Sequence[float]) -> list[float]:
    return [math.exp(v) for v in log_p]


def bonferroni_log(log_p: Sequence[float]) -> list[float]:
    """:func:`bonferroni` on natural logarithms of p-values."""
    m = len(log_p)
    return [min(0.0, v + math.log(m)) for v in log_p]


def holm_log(log_p: Sequence[float]) -> list[float]:
    """:func:`holm` on natural logarithms of p-values: the order is that of the true values,
    however small (ties by position only where two are equal)."""
    m = len(log_p)
    order = sorted(range(m), key=lambda i: (log_p[i], i))
    adjusted = [0.0] * m
    running = -math.inf
    for rank, i in enumerate(order):
        running = max(running, min(0.0, math.log(m - rank) + log_p[i]))
        adjusted[i] = running
    return adjusted


def benjamini_hochberg_log(log_p: Sequence[float]) -> list[float]:
    """:func:`benjamini_hochberg` on natural logarithms of p-values."""
    m = len(log_p)
    order = sorted(range(m), key=lambda i: (log_p[i], i))
    adjusted = [0.0] * m
    running = 0.0
    for rank in range(m - 1, -1, -1):
        i = order[rank]
        running = min(running, math.log(m) + log_p[i] - math.log(rank + 1))
        adjusted[i] = running
    return adjusted


def bonferroni(p_values: Sequence[float]) -> list[float]:
    """Bonferroni's adjusted p-values: each times the family's size, at most 1."""
    return _exps(bonferroni_log(_logs(p_values)))


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values (they control the family-wise error rate)."""
    return _exps(holm_log(_logs(p_values)))


def benjamini_hochberg(p_values: Sequence[float]) -> list[float]:
    """Benjamini and Hochberg's step-up adjusted p-values (the false discovery rate)."""
    return _exps(benjamini_hochberg_log(_logs(p_values)))


METHODS = ("holm", "bh", "bonferroni")
Method = Literal["holm", "bh", "bonferroni"]


@dataclass(frozen=True)
class Corrected:
    """One difference of a family after correction: its interval at the corrected ``level``,
    its p-value and adjusted p-value (and their natural logarithms, exact however small), and
    whether it is called different (its corrected interval excludes 0)."""

    difference: Difference
    level: float
    p: float
    adjusted: float
    different: bool
    log_p: float = 0.0
    log_adjusted: float = 0.0

    @property
    def interval(self) -> Estimate:
        return self.difference.interval(self.level)


def _excludes_zero(estimate: Estimate) -> bool:
    return estimate.low > 0 or estimate.high < 0


def correct(
    family: Sequence[Difference], method: Method = "holm", alpha: float = 0.05
) -> list[Corrected]:
    """Correct a family of differences for being looked at together, at ``alpha``.

    Each difference gets an interval at a corrected level. It is called different when the
    procedure rejects it and that interval excludes 0. The one implies the other. Asking both
    keeps rounding at the border from calling different what its interval does not show.

    ``bonferroni``: every interval at 1 - alpha/m. These are simultaneous intervals: all m
    hold together with probability 1 - alpha or more.

    ``holm``: Holm's step-down procedure. It calls different all that Bonferroni does, and
    possibly more. The difference ranked k-th smallest p is shown at 1 - alpha/(m - k + 1), the
    level its step tests it at.

    ``bh``: Benjamini-Hochberg's step-up procedure (false discovery rate alpha). With R
    differences selected, every interval is at 1 - R*alpha/m (at least 1 - alpha/m). These are
    the false-coverage-rate intervals of Benjamini and Yekutieli (2005).
    """
    if method not in METHODS:
        raise ValueError(f"method is one of {', '.join(METHODS)}, not {method!r}")
    m = len(family)
    logs = [d.log_p() for d in family]
    if method == "bonferroni":
        adjusted = bonferroni_log(logs)
        levels = [1 - alpha / m] * m
    elif method == "holm":
        adjusted = holm_log(logs)
        order = sorted(range(m), key=lambda i: (logs[i], i))
        levels = [0.0] * m
        for rank, i in enumerate(order):
            levels[i] = 1 - alpha / (m - rank)
    else:
        adjusted = benjamini_hochberg_log(logs)
        selected = sum(1 for q in adjusted if q <= math.log(alpha))
        levels = [1 - max(selected, 1) * alpha / m] * m
    out = []
    for d, level, raw, adj in zip(family, levels, logs, adjusted, strict=True):
        shown = d.interval(level)
        called = adj <= math.log(alpha) and _excludes_zero(shown)
        out.append(Corrected(d, level, math.exp(raw), math.exp(adj), called, raw, adj))
    return out


# --------------------------------------------------------------------------- how many units


def detectable_difference(n: int, sd: float, *, power: float = 0.8, alpha: float = 0.05) -> float:
    """The smallest true mean difference ``n`` paired units detect.

    ``sd`` is the standard deviation of the differences. The test is two-sided at ``alpha``,
    and detecting means rejecting with probability ``power``. The answer is
    (t(1 - alpha/2) + t(power)) * sd / sqrt(n), with t on n - 1 degrees of freedom. This is
    the usual approximation. For sd = 1 and n = 34 it gives 0.495, where the exact noncentral t
    says n = 34 detects 0.5.
    """
    if n < 2:
        return math.inf
    df = n - 1
    return (t_quantile(1 - alpha / 2, df) + t_quantile(power, df)) * sd / math.sqrt(n)


def _smallest_n(fits: Callable[[int], bool], start: int, limit: int) -> int:
    n = max(2, start)  # the normal's answer: t's is a few units more
    while n < limit and not fits(n):
        n += 1
    return min(n, limit)


def units_for_power(
    delta: float, sd: float, *, power: float = 0.8, alpha: float = 0.05, limit: int = 10**9
) -> int:
    """The number of paired units that detects a true difference ``delta`` with ``power``
    (the inverse of :func:`detectable_difference`), at most ``limit``."""
    if delta <= 0:
        raise ValueError("the difference to detect is positive")
    if sd == 0:
        return 2
    z = normal_quantile(1 - alpha / 2) + normal_quantile(power)
    start = math.ceil((z * sd / delta) ** 2)
    return _smallest_n(
        lambda n: detectable_difference(n, sd, power=power, alpha=alpha) <= delta, start, limit
    )


def units_for_precision(
    half_width: float, sd: float, *, level: float = 0.95, limit: int = 10**9
) -> int:
    """The number of units whose interval (at ``level``) is at most ``half_width`` either side
    of the estimate, for this standard deviation per unit, at most ``limit``."""
    if half_width <= 0:
        raise ValueError("the precision wanted is a positive half-width")
    if sd == 0:
        return 2
    q = 0.5 + level / 2
    start = math.ceil((normal_quantile(q) * sd / half_width) ** 2)
    return _smallest_n(
        lambda n: t_quantile(q, n - 1) * sd / math.sqrt(n) <= half_width, start, limit
    )
