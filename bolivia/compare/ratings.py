"""Ratings of bots from duplicate matches: a Bradley-Terry model on the hands, on the Elo
scale, with intervals from a bootstrap over the deals.

Each match of a ladder gives, for each deal, what bot A scored on the deal's two hands (a hand
won 1, tied 1/2, lost 0; a hand that did not end by a rule is left out). The Bradley-Terry model
says A beats B in a hand with the chance pi_A / (pi_A + pi_B); its maximum-likelihood strengths
come by Hunter's MM iteration (2004). Every pair of bots that met is given one more, virtual,
tied hand, so a bot that never won (random against the expert) keeps a finite rating instead of
minus infinity (a weak prior, worth one hand in hundreds). A rating is 400 log10(pi / pi_anchor):
100 points more is 64% of hands won, 400 is 91%; the anchor (``greedy`` where it plays) is 0.

The interval of a rating is the bootstrap's: the deals of every match drawn again with
replacement (the deal is the unit, as the two hands of a deal share their cards), the model
fitted again, the 2.5% and 97.5% points of each rating over :data:`RESAMPLES` draws, from a
seeded generator: the same ladder gives the same intervals.

>>> fit = bradley_terry(["a", "b"], {("a", "b"): [2, 2, 2, 1, 0]}, anchor="b")
>>> round(fit["a"], 1)  # a won 7 hands of 10 against b (and the virtual tie): 7.5 of 11
132.4
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

__all__ = ["RESAMPLES", "Rating", "bradley_terry", "rate"]

RESAMPLES = 1000  # bootstrap draws of the deals
_ITERATIONS = 10_000  # the MM iteration's most rounds (it converges in tens)
_TOLERANCE = 1e-12

#: a match's result: bot A's points on each deal's two hands (0 to 2 in halves), by (A, B)
Matches = Mapping[tuple[str, str], Sequence[float]]


@dataclass(frozen=True)
class Rating:
    """A bot's rating on the Elo scale with its 95% bootstrap interval (the anchor's is 0)."""

    bot: str
    rating: float
    low: float
    high: float


def _totals(
    bots: Sequence[str], matches: Matches, hands: Mapping[tuple[str, str], int]
) -> tuple[dict[str, float], dict[tuple[int, int], float]]:
    """Each bot's points and each pair's hands, the virtual tie added to every pair that met."""
    index = {bot: i for i, bot in enumerate(bots)}
    wins = dict.fromkeys(bots, 0.0)
    games: dict[tuple[int, int], float] = {}
    for (a, b), scores in matches.items():
        n = hands[(a, b)]
        won = float(sum(scores))
        wins[a] += won + 0.5
        wins[b] += n - won + 0.5
        key = (min(index[a], index[b]), max(index[a], index[b]))
        games[key] = games.get(key, 0.0) + n + 1
    return wins, games


def _fit(
    bots: Sequence[str], wins: dict[str, float], games: dict[tuple[int, int], float]
) -> list[float]:
    """The strengths pi by Hunter's MM iteration, normalized to a geometric mean of 1."""
    k = len(bots)
    pi = [1.0] * k
    for _ in range(_ITERATIONS):
        new = []
        for i, bot in enumerate(bots):
            denominator = 0.0
            for (x, y), n in games.items():
                if i in (x, y):
                    j = y if x == i else x
                    denominator += n / (pi[i] + pi[j])
            new.append(wins[bot] / denominator if denominator else pi[i])
        scale = math.exp(sum(math.log(p) for p in new) / k)
        new = [p / scale for p in new]
        done = max(abs(a - b) / b for a, b in zip(new, pi, strict=True)) < _TOLERANCE
        pi = new
        if done:
            break
    return pi


def bradley_terry(
    bots: Sequence[str],
    matches: Matches,
    *,
    anchor: str,
    hands: Mapping[tuple[str, str], int] | None = None,
) -> dict[str, float]:
    """Each bot's rating on the Elo scale, ``anchor`` at 0, from the matches' deal scores.

    ``hands``: the hands each match counted (by default two a deal).
    """
    counted = hands if hands is not None else {pair: 2 * len(s) for pair, s in matches.items()}
    wins, games = _totals(bots, matches, counted)
    pi = _fit(bots, wins, games)
    base = pi[bots.index(anchor)]
    return {bot: 400 * math.log10(p / base) for bot, p in zip(bots, pi, strict=True)}


def rate(
    bots: Sequence[str],
    matches: Matches,
    hands_per_deal: Mapping[tuple[str, str], Sequence[int]],
    *,
    anchor: str,
    seed: int,
    resamples: int = RESAMPLES,
) -> list[Rating]:
    """The ratings with their bootstrap intervals (see the module).

    ``hands_per_deal``: the hands of each deal that ended by a rule (two, or fewer), in the
    order of the deals' scores.
    """
    counted = {pair: sum(hands_per_deal[pair]) for pair in matches}
    point = bradley_terry(bots, matches, anchor=anchor, hands=counted)
    draws = random.Random(seed)
    samples: dict[str, list[float]] = {bot: [] for bot in bots}
    for _ in range(resamples):
        drawn: dict[tuple[str, str], list[float]] = {}
        drawn_hands: dict[tuple[str, str], int] = {}
        for pair, scores in matches.items():
            n = len(scores)
            picks = [draws.randrange(n) for _ in range(n)] if n else []
            drawn[pair] = [scores[i] for i in picks]
            drawn_hands[pair] = sum(hands_per_deal[pair][i] for i in picks)
        fit = bradley_terry(bots, drawn, anchor=anchor, hands=drawn_hands)
        for bot in bots:
            samples[bot].append(fit[bot])
    out = []
    for bot in bots:
        ordered = sorted(samples[bot])
        low = ordered[int(0.025 * (len(ordered) - 1))] if ordered else point[bot]
        high = ordered[math.ceil(0.975 * (len(ordered) - 1))] if ordered else point[bot]
        out.append(Rating(bot, point[bot], low, high))
    return out
