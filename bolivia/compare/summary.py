"""The report's first page: rulesets alike, the outlier, differences ranked.

Rulesets that set every rule alike share one column wherever the report compares. The
*outlier* is the column whose value is its own (no other column has it) on the most rules.
There is one only when one column clearly leads.

Each differing rule gets an :class:`Effect`: what it changes in points. It is measured with
what the comparison holds now. For the rules that score, it is exact: the scoring gallery's
positions scored with only that rule changed. Otherwise it is the paired difference in points
a hand between the columns holding the different values, on the same deals. That difference
is shared by every rule on which those columns differ, so the page says it once per pair, not
on every rule. It is 0 when the corrected interval shows none.

:func:`rank` orders the differences by any mapping of effects.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bolivia.compare.comparison import Comparison, Effect, RuleRow
from bolivia.compare.differences import SCORING_AREAS, area_of, with_value
from bolivia.compare.paired import POINTS
from bolivia.language import N_, Said, said
from bolivia.rules.ruleset import Ruleset
from bolivia.verify.oracle import Oracle

__all__ = ["Column", "columns", "measured_effects", "outlier", "play_gaps", "rank"]


@dataclass(frozen=True)
class Column:
    """One column of the report: a ruleset, or several that set every rule alike."""

    ids: tuple[str, ...]

    @property
    def title(self) -> str:
        return " = ".join(self.ids)

    @property
    def first(self) -> str:
        return self.ids[0]


def columns(rows: Sequence[RuleRow], ids: Sequence[str]) -> list[Column]:
    """The rulesets grouped by identical rules, in the order first met."""
    groups: dict[tuple[str, ...], list[str]] = {}
    for rid in ids:
        key = tuple(row.values[rid] for row in rows)
        groups.setdefault(key, []).append(rid)
    return [Column(tuple(members)) for members in groups.values()]


def own_values(rows: Sequence[RuleRow], cols: Sequence[Column]) -> dict[str, list[str]]:
    """Per column, the rules on which its value is its own (no other column has it)."""
    out: dict[str, list[str]] = {c.title: [] for c in cols}
    if len(cols) < 3:
        return out
    for row in rows:
        values = [row.values[c.first] for c in cols]
        for col, value in zip(cols, values, strict=True):
            if values.count(value) == 1:
                out[col.title].append(row.path)
    return out


def outlier(rows: Sequence[RuleRow], cols: Sequence[Column]) -> tuple[Column, list[str]] | None:
    """The column that stands apart, with the rules it alone sets so; None when no column
    leads the others (or there are fewer than three to tell)."""
    own = own_values(rows, cols)
    ranked = sorted(cols, key=lambda c: -len(own[c.title]))
    if len(ranked) < 3 or len(own[ranked[0].title]) <= len(own[ranked[1].title]):
        return None
    return ranked[0], own[ranked[0].title]


def play_gaps(comparison: Comparison) -> dict[tuple[str, str], float]:
    """Per pair of columns (their first ids, in column order), the largest paired difference in
    points a hand that play shows under any bot (its corrected interval excluding 0); pairs
    with none shown are left out."""
    out: dict[tuple[str, str], float] = {}
    for figure in comparison.play.paired:
        if figure.figure.name == POINTS.name and figure.shown:
            key = (figure.a, figure.b)
            out[key] = max(out.get(key, 0.0), abs(figure.difference.value))
    return out


# a position scored: its name (a gallery entry's, or what it is), request, results by id
Position = tuple[Any, Mapping[str, Any], Mapping[str, Any]]


def _scoring_gaps(
    oracle: Oracle, positions: Sequence[Position], path: str, a: Ruleset, b: Ruleset
) -> dict[Any, float]:
    """Per position, the largest change of a side's score when ``a`` takes ``b``'s value of
    the one rule ``path``."""
    variant = with_value(a, path, b)
    oracle.register(variant)
    out: dict[str, float] = {}
    for name, request, results in positions:
        mine = results.get(a.id)
        if not isinstance(mine, list):
            continue
        answer = oracle.handle({"op": "score", "ruleset": variant.id, **request})
        if not answer["ok"]:
            continue
        teams = answer["result"]["teams"]
        out[name] = float(
            max(abs(t["total"] - m["total"]) for m, t in zip(mine, teams, strict=False))
        )
    return out


def _witness_positions(comparison: Comparison, path: str) -> list[Position]:
    """The scoring witnesses section 3 found for this rule alone, as positions to score."""
    keys = {f.witness for f in comparison.findings if f.rule == path and f.witness}
    return [
        (
            "section 3's situation",
            witness.input,
            {rid: r["teams"] for rid, r in witness.results.items() if "teams" in r},
        )
        for witness in comparison.witnesses
        if witness.key in keys and witness.op == "score"
    ]


_UNMEASURED = said(N_("no points measured yet (section 3 shows the questions it decides)"))


@dataclass
class _Measuring:
    """What measuring the rules' effects reads, and the gallery's deciding rules it finds."""

    comparison: Comparison
    oracle: Oracle
    by_id: dict[str, Ruleset]
    deciding: dict[Said, list[str]]

    def gaps(
        self, positions: Sequence[Position], path: str, a: Column, b: Column
    ) -> dict[Any, float]:
        """Per position, the largest change of a side's score when ``a`` takes ``b``'s value."""
        return _scoring_gaps(self.oracle, positions, path, self.by_id[a.first], self.by_id[b.first])

    def in_gallery(self, best: Effect, path: str, x: Column, y: Column) -> Effect:
        """The largest change the gallery's positions show, either column taking the other's
        value; notes the positions whose score the rule alone changes."""
        for a, b in ((x, y), (y, x)):
            gallery = [(e.name, e.request, e.results) for e in self.comparison.gallery]
            for name, gap in self.gaps(gallery, path, a, b).items():
                if gap and path not in self.deciding[name]:
                    self.deciding[name].append(path)
                if gap > best.points:
                    best = Effect(
                        gap,
                        said(
                            N_(
                                "{points} points for a side in the scored position “{name}”, "
                                "{a} with {b}'s value of this rule alone"
                            ),
                            points=round(gap),
                            name=name,
                            a=a.title,
                            b=b.title,
                        ),
                        best.scoring,
                        alone=True,
                    )
        return best

    def in_situation(self, best: Effect, path: str, x: Column, y: Column) -> Effect:
        """The largest change section 3's situation for the rule shows, where the gallery
        does not reach it."""
        positions = _witness_positions(self.comparison, path)
        for a, b in ((x, y), (y, x)):
            for gap in self.gaps(positions, path, a, b).values():
                if gap > best.points:
                    best = Effect(
                        gap,
                        said(
                            N_(
                                "{points} points for a side in the situation section 3 shows "
                                "for it, {a} with {b}'s value of this rule alone (no position "
                                "of section 4 reaches it)"
                            ),
                            points=round(gap),
                            a=a.title,
                            b=b.title,
                        ),
                        best.scoring,
                        alone=True,
                    )
        return best


def _in_play(best: Effect, gap: float, x: Column, y: Column) -> Effect:
    """The pair's paired difference in play, for a rule that changes moves and was not
    measured alone."""
    if not best.scoring and not best.alone and (gap > best.points or not best.basis_play):
        return Effect(
            gap,
            said(
                N_("measured in play only, with every other rule on which {a} and {b} differ"),
                a=x.title,
                b=y.title,
            ),
            best.scoring,
            basis_play=True,
        )
    return best


def measured_effects(
    comparison: Comparison, oracle: Oracle
) -> tuple[dict[str, Effect], dict[Said, list[str]]]:
    """The effect of every differing rule, and per gallery position the rules that alone
    change its score.

    An effect comes from the gallery, else from section 3's situation, else from play.
    """
    measuring = _Measuring(
        comparison,
        oracle,
        {r.id: r for r in comparison.rulesets},
        {entry.name: [] for entry in comparison.gallery},
    )
    play = play_gaps(comparison)
    cols = columns(comparison.rows, comparison.ids)
    out: dict[str, Effect] = {}
    for row in comparison.rows:
        if not row.differs:
            continue
        best = Effect(0.0, _UNMEASURED, area_of(row.path) in SCORING_AREAS)
        for x, y in itertools.combinations(cols, 2):
            if row.values[x.first] == row.values[y.first]:
                continue
            best = measuring.in_gallery(best, row.path, x, y)
            if not best.alone:
                best = measuring.in_situation(best, row.path, x, y)
            best = _in_play(best, play.get((x.first, y.first), 0.0), x, y)
        out[row.path] = best
    return out, measuring.deciding


def rank(rows: Sequence[RuleRow], effects: Mapping[str, Effect]) -> list[tuple[Any, Effect]]:
    """The differing rows, in the order the first page ranks them.

    First come the rows whose effect was measured for the rule alone, the largest first. Then
    come those whose effect is shared with other rules (the play gap between rulesets
    differing on several), the largest first. At equal effect, rules that change moves come
    before rules that only score, then the rule tree's order decides.
    """
    order = {row.path: i for i, row in enumerate(rows)}
    differing = [row for row in rows if row.differs and row.path in effects]
    differing.sort(
        key=lambda row: (
            not effects[row.path].alone,
            -round(effects[row.path].points),
            effects[row.path].scoring,
            order[row.path],
        )
    )
    return [(row, effects[row.path]) for row in differing]
