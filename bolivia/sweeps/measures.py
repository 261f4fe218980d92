"""The measures of a sweep, for every combination of values: a mean or a share with its 95%
interval, and its difference from the base's on the same deals (paired by deal: Student's t
over the deals' differences), with Holm's correction over every difference of the sweep.

The unit is the deal: a hand (``--hands``), or a game (``--games``), in which case the
figures per hand are each game's own means (going out, turns, points, canastas per hand of
that game), and the game adds the hands it lasted and which side won it. A hand is won by the
side with the most points (a tie: by none). Shares are given with Wilson's interval where the
unit is a yes or no (a hand ended by going out, a hand or game won), with the t interval of
the units' means where it is a mean over a game's hands.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from bolivia.compare.statistics import (
    Difference,
    Estimate,
    holm,
    mean_ci,
    paired_mean,
    proportion_ci,
)
from bolivia.sweeps.jobs import CANASTA_KINDS, GAME_FIELDS, HAND_FIELDS

__all__ = ["Measure", "MeasuredVariant", "measure_all", "measures_for", "side_seats"]


@dataclass(frozen=True)
class Measure:
    """One figure of the play: its name (JSON), its label, shown as a share or not."""

    name: str
    label: str
    share: bool = False
    digits: int = 2


def side_seats(side: int, teams: int, players: int) -> str:
    """``seats 1 and 3``: a side's seats, counted from 1 (seat 1 leads the first deal)."""
    seats = [str(p + 1) for p in range(players) if p % teams == side]
    return "seat " + seats[0] if len(seats) == 1 else "seats " + ", ".join(seats)


def measures_for(games: bool, teams: int, players: int) -> list[Measure]:
    """The measures of a sweep of hands or of games, in the order the report gives them."""
    per = "per hand" if not games else "per hand (each game's mean)"
    out = [
        Measure("went_out", "hands ended by going out", share=True),
        Measure("turns", f"turns {per}", digits=1),
        *[
            Measure(
                f"points_{t + 1}",
                f"points {per}, side {t + 1} ({side_seats(t, teams, players)})",
                digits=0,
            )
            for t in range(teams)
        ],
        *[Measure(f"canastas_{kind}", f"{kind} canastas {per}") for kind in CANASTA_KINDS],
        *[
            Measure(
                f"wins_{t + 1}",
                f"{'games' if games else 'hands'} won by side {t + 1} "
                f"({side_seats(t, teams, players)})",
                share=True,
            )
            for t in range(teams)
        ],
    ]
    if games:
        out += [Measure("hands_per_game", "hands per game", digits=2)]
    return out


def _unit(record: Sequence[int], games: bool, teams: int) -> dict[str, Fraction]:
    """The measures' values for one deal's record."""
    head = len(GAME_FIELDS) if games else 0
    hand = dict(zip(HAND_FIELDS, record[head:], strict=False))
    points = record[head + len(HAND_FIELDS) : head + len(HAND_FIELDS) + teams]
    canastas = record[head + len(HAND_FIELDS) + teams :]
    n = max(hand["hands"], 1)
    out = {
        "went_out": Fraction(hand["went_out"], n),
        "turns": Fraction(hand["turns"], n),
        **{f"points_{t + 1}": Fraction(p, n) for t, p in enumerate(points)},
        **{f"canastas_{k}": Fraction(c, n) for k, c in zip(CANASTA_KINDS, canastas, strict=True)},
    }
    if games:
        winner = record[1]
        out.update({f"wins_{t + 1}": Fraction(int(winner == t)) for t in range(teams)})
        out["hands_per_game"] = Fraction(hand["hands"])
    else:
        best = max(points)
        alone = list(points).count(best) == 1
        out.update(
            {f"wins_{t + 1}": Fraction(int(alone and p == best)) for t, p in enumerate(points)}
        )
    return out


@dataclass
class MeasuredVariant:
    """A combination's figures: each measure's estimate and its paired difference from the
    base (None for the base), the Holm-corrected p-value, and the deals that did not end by
    a rule or failed the card check."""

    estimates: dict[str, Estimate]
    differences: dict[str, Difference | None]
    adjusted: dict[str, float | None]
    deals: int
    not_by_rule: int
    not_conserved: int
    not_over: int


def _estimate(measure: Measure, values: Sequence[Fraction]) -> Estimate:
    """A measure's estimate: a proportion when every value is 0 or 1, else a mean."""
    whole = all(x.denominator == 1 and x in (0, 1) for x in values)
    if measure.share and whole:
        return proportion_ci(int(sum(values)), len(values))
    return mean_ci([float(x) for x in values])


def _counts(raw: Sequence[Sequence[int]], games: bool) -> tuple[int, int, int, int]:
    """The deals, those not ended by a rule, those failing the card check, games not over."""
    head = len(GAME_FIELDS) if games else 0
    return (
        len(raw),
        sum(r[head + HAND_FIELDS.index("not_by_rule")] for r in raw),
        sum(r[head + HAND_FIELDS.index("not_conserved")] for r in raw),
        sum(1 - r[0] for r in raw) if games else 0,
    )


def _adjust(out: Sequence[MeasuredVariant]) -> None:
    """Every difference's p-value, Holm-corrected as one family."""
    found = [(v, name, d) for v, mv in enumerate(out) for name, d in mv.differences.items() if d]
    adjusted = holm([d.p_value() for _, _, d in found])
    for mv in out:
        mv.adjusted = dict.fromkeys(mv.differences)
    for (v, name, _), p in zip(found, adjusted, strict=True):
        out[v].adjusted[name] = p


def measure_all(
    records: Sequence[Sequence[Sequence[int]]],
    base: int,
    games: bool,
    teams: int,
    measures: Sequence[Measure],
) -> list[MeasuredVariant]:
    """Every combination's figures from its deals' records (``records[v][i]``: deal ``i``
    under combination ``v``, the same deals for all); ``base`` is the base's index."""
    units = [[_unit(r, games, teams) for r in variant] for variant in records]
    out = []
    for v, variant in enumerate(units):
        estimates, differences = {}, {}
        for m in measures:
            values = [u[m.name] for u in variant]
            estimates[m.name] = _estimate(m, values)
            differences[m.name] = (
                None
                if v == base
                else paired_mean([x - u[m.name] for x, u in zip(values, units[base], strict=True)])
            )
        out.append(MeasuredVariant(estimates, differences, {}, *_counts(records[v], games)))
    _adjust(out)
    return out
