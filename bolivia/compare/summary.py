"""The report's first page: which rulesets are one, which is the outlier, and the rule
differences ranked by what they change.

Rulesets that set every rule alike share one column wherever the report compares. The
*outlier* is the column whose value is its own (no other column has it) on the most rules,
when one column clearly leads. Each differing rule gets an :class:`Effect`: what it changes in
points, measured with what the comparison holds now -- the scoring gallery's positions scored
with only that rule changed (exact, for the rules that score), and otherwise the paired
difference in points a hand between the columns holding the different values, on the same
deals (shared by every rule on which those columns differ, so the page says it once per pair,
not on every rule; 0 when the corrected interval shows none). :func:`rank` orders the
differences by any mapping of effects.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bolivia.compare.differences import SCORING_AREAS, area_of, with_value
from bolivia.compare.paired import POINTS
from bolivia.rules.ruleset import Ruleset
from bolivia.verify.oracle import Oracle

if TYPE_CHECKING:
    from bolivia.compare.findings import Comparison, RuleRow

__all__ = ["Column", "Effect", "columns", "measured_effects", "outlier", "play_gaps", "rank"]


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


@dataclass(frozen=True)
class Effect:
    """What one rule difference changes: ``points`` at stake, and in words how that was
    measured (``basis``); ``scoring`` when the rule only changes what a hand scores; ``alone``
    when the points were measured with only this rule changed (not shared with the other
    rules on which the same rulesets differ)."""

    points: float
    basis: str
    scoring: bool
    alone: bool = False
    basis_play: bool = False  # the points are a pair's paired difference in play


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


Position = tuple[str, Mapping[str, Any], Mapping[str, Any]]  # name, request, results by id


def _scoring_gaps(
    oracle: Oracle, positions: Sequence[Position], path: str, a: Ruleset, b: Ruleset
) -> dict[str, float]:
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


def measured_effects(
    comparison: Comparison, oracle: Oracle
) -> tuple[dict[str, Effect], dict[str, list[str]]]:
    """The effect of every differing rule, from the gallery and the per-ruleset figures; and
    per gallery position, the rules that alone change its score."""
    by_id = {r.id: r for r in comparison.rulesets}
    play = play_gaps(comparison)
    cols = columns(comparison.rows, comparison.ids)
    out: dict[str, Effect] = {}
    deciding: dict[str, list[str]] = {entry.name: [] for entry in comparison.gallery}
    for row in comparison.rows:
        if not row.differs:
            continue
        scoring = area_of(row.path) in SCORING_AREAS
        best = Effect(
            0.0, "no points measured yet (section 3 shows the questions it decides)", scoring
        )
        for x, y in itertools.combinations(cols, 2):
            if row.values[x.first] == row.values[y.first]:
                continue
            for a, b in ((x, y), (y, x)):
                gallery = [(e.name, e.request, e.results) for e in comparison.gallery]
                gaps = _scoring_gaps(oracle, gallery, row.path, by_id[a.first], by_id[b.first])
                for name, gap in gaps.items():
                    if gap and row.path not in deciding[name]:
                        deciding[name].append(row.path)
                    if gap > best.points:
                        best = Effect(
                            gap,
                            f"{gap:,.0f} points for a side in the scored position “{name}”, "
                            f"{a.title} with {b.title}'s value of this rule alone",
                            scoring,
                            alone=True,
                        )
            if not best.alone:  # the gallery does not reach it: section 3's situation may
                positions = _witness_positions(comparison, row.path)
                for a, b in ((x, y), (y, x)):
                    found = _scoring_gaps(
                        oracle, positions, row.path, by_id[a.first], by_id[b.first]
                    )
                    for gap in found.values():
                        if gap > best.points:
                            best = Effect(
                                gap,
                                f"{gap:,.0f} points for a side in the situation section 3 "
                                f"shows for it, {a.title} with {b.title}'s value of this rule "
                                "alone (no position of section 4 reaches it)",
                                scoring,
                                alone=True,
                            )
            gap = play.get((x.first, y.first), 0.0)
            if not scoring and not best.alone and (gap > best.points or not best.basis_play):
                best = Effect(
                    gap,
                    f"not measured alone; in play it goes with the other rules on which "
                    f"{x.title} and {y.title} differ (their paired difference: below)",
                    scoring,
                    basis_play=True,
                )
        out[row.path] = best
    return out, deciding


def rank(rows: Sequence[RuleRow], effects: Mapping[str, Effect]) -> list[tuple[Any, Effect]]:
    """The differing rows: first those whose effect was measured for the rule alone, the
    largest first; then those whose effect is shared with other rules (the play gap between
    rulesets differing on several), the largest first; at equal effect rules that change moves
    before rules that only score, then the rule tree's order."""
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
