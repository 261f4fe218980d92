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
    holm_log,
    mean_ci,
    paired_mean,
    proportion_ci,
)
from bolivia.language import N_, Said, join, said
from bolivia.language import gettext_ as _
from bolivia.sweeps.jobs import CANASTA_KINDS, GAME_FIELDS, HAND_FIELDS

__all__ = ["Measure", "MeasuredVariant", "measure_all", "measures_for", "side_seats"]


@dataclass(frozen=True)
class Measure:
    """One figure of the play: its name (JSON), its label in words (in the language it is
    shown in), shown as a share or not."""

    name: str
    words: Said
    share: bool = False
    digits: int = 2

    @property
    def label(self) -> str:
        return str(self.words)


class _Seats:
    """``seats 1 and 3``: a side's seats, counted from 1 (seat 1 leads the first deal), put
    into words when shown."""

    def __init__(self, side: int, teams: int, players: int) -> None:
        self.seats = [str(p + 1) for p in range(players) if p % teams == side]

    def __str__(self) -> str:
        if len(self.seats) == 1:
            return _("seat {seat}").format(seat=self.seats[0])
        return _("seats {seats}").format(seats=join(self.seats, "and"))


def side_seats(side: int, teams: int, players: int) -> str:
    """``seats 1 and 3``: a side's seats, counted from 1 (seat 1 leads the first deal)."""
    return str(_Seats(side, teams, players))


# a measure's label: of a sweep of hands, of a sweep of games (figures per hand: each game's mean)
_LABELS = {
    "went_out": (N_("hands ended by going out"), N_("hands ended by going out")),
    "turns": (N_("turns per hand"), N_("turns per hand (each game's mean)")),
    "points": (
        N_("points per hand, side {side} ({seats})"),
        N_("points per hand (each game's mean), side {side} ({seats})"),
    ),
    "natural": (
        N_("natural canastas per hand"),
        N_("natural canastas per hand (each game's mean)"),
    ),
    "mixed": (N_("mixed canastas per hand"), N_("mixed canastas per hand (each game's mean)")),
    "escalera": (
        N_("escalera canastas per hand"),
        N_("escalera canastas per hand (each game's mean)"),
    ),
    "bolivia": (
        N_("bolivia canastas per hand"),
        N_("bolivia canastas per hand (each game's mean)"),
    ),
    "wins": (N_("hands won by side {side} ({seats})"), N_("games won by side {side} ({seats})")),
}


def measures_for(games: bool, teams: int, players: int) -> list[Measure]:
    """The measures of a sweep of hands or of games, in the order the report gives them."""

    def words(key: str, **values: object) -> Said:
        return said(_LABELS[key][int(games)], **values)

    sides = [(t, t + 1, _Seats(t, teams, players)) for t in range(teams)]
    out = [
        Measure("went_out", words("went_out"), share=True),
        Measure("turns", words("turns"), digits=1),
        *[
            Measure(f"points_{t + 1}", words("points", side=side, seats=seats), digits=0)
            for t, side, seats in sides
        ],
        *[Measure(f"canastas_{kind}", words(kind)) for kind in CANASTA_KINDS],
        *[
            Measure(f"wins_{t + 1}", words("wins", side=side, seats=seats), share=True)
            for t, side, seats in sides
        ],
    ]
    if games:
        out += [Measure("hands_per_game", said(N_("hands per game")), digits=2)]
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
    base (None for the base), the natural logarithm of the Holm-corrected p-value (exact
    however small), and the deals that did not end by a rule or failed the card check."""

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
    """Every difference's p-value, Holm-corrected as one family (as logarithms)."""
    found = [(v, name, d) for v, mv in enumerate(out) for name, d in mv.differences.items() if d]
    adjusted = holm_log([d.log_p() for _v, _name, d in found])
    for mv in out:
        mv.adjusted = dict.fromkeys(mv.differences)
    for (v, name, _d), p in zip(found, adjusted, strict=True):
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
