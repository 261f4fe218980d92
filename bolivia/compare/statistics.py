"""Statistics for the report's play figures: a mean or a proportion with its 95% confidence
interval.

>>> mean_ci([1, 2, 3]).text()
'2.0 [0.9, 3.1]'
>>> proportion_ci(0, 10).low
0.0
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["Estimate", "mean_ci", "proportion_ci"]


@dataclass(frozen=True)
class Estimate:
    """A mean (or a proportion) with its 95% confidence interval."""

    value: float
    low: float
    high: float
    n: int

    def text(self, digits: int = 1) -> str:
        return f"{self.value:.{digits}f} [{self.low:.{digits}f}, {self.high:.{digits}f}]"

    def as_json(self) -> dict[str, Any]:
        return {
            "value": round(self.value, 4),
            "low": round(self.low, 4),
            "high": round(self.high, 4),
            "n": self.n,
        }


def mean_ci(values: Sequence[float], *, floor: float | None = None) -> Estimate:
    """The mean and its normal-approximation 95% interval; ``floor`` bounds a quantity that
    cannot go below it (a count cannot be negative)."""
    n = len(values)
    if n == 0:
        return Estimate(0.0, 0.0, 0.0, 0)
    mean = sum(values) / n
    if n == 1:
        return Estimate(mean, mean, mean, 1)
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = 1.96 * math.sqrt(var / n)
    low = mean - half if floor is None else max(floor, mean - half)
    return Estimate(mean, low, mean + half, n)


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
