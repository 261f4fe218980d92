"""What the report's templates print, put together once from a :class:`Comparison`: the first
page, the rules side by side (identical rulesets in one column), the witnesses as situations,
the scoring gallery, the play figures, and where the sources disagree or are silent. Every
rule is named in words (:mod:`bolivia.rules.phrases`); key paths stay as secondary labels.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Sequence
from typing import Any

from bolivia.compare.comparison import Comparison, RuleRow
from bolivia.compare.play_text import play_context
from bolivia.compare.situations import refusal_words, rulings, situation
from bolivia.compare.summary import Column, columns, outlier, rank
from bolivia.compare.witnesses import AREA_OPS, Finding
from bolivia.engine.scoring import SCORE_PARTS
from bolivia.language import N_, current, number, percent
from bolivia.language import gettext_ as _
from bolivia.rules.phrases import answer, join_words, label, question, reason_words
from bolivia.rules.resolution import NO_REASON
from bolivia.rules.ruleset import Ruleset

__all__ = ["context", "shown_rows", "witness_numbers"]


# the languages of the sources, as a reader names them (else the ISO code)
LANGUAGES = {
    "da": N_("Danish"),
    "en": N_("English"),
    "fr": N_("French"),
    "hu": N_("Hungarian"),
    "ko": N_("Korean"),
    "zh": N_("Chinese"),
}


# each behaviour area (section 3) in words
AREA_WORDS = {
    "melds": N_("melds"),
    "extending": N_("extending"),
    "initial meld": N_("initial meld"),
    "pickup": N_("pickup"),
    "taking the top card": N_("taking the top card"),
    "going out": N_("going out"),
    "card points": N_("card points"),
    "scoring": N_("scoring"),
    "game end": N_("game end"),
    "turn rules": N_("turn rules"),
}
# the columns of a scored position's table, after the side
SCORE_HEADS = (
    N_("cards"),
    N_("bonuses"),
    N_("red threes"),
    N_("going out"),
    N_("in hand"),
    N_("melds left"),
)


def witness_numbers(comparison: Comparison) -> dict[str, int]:
    """Witness key -> its number in the text (from 1)."""
    return {w.key: i + 1 for i, w in enumerate(comparison.witnesses)}


def shown_rows(comparison: Comparison) -> list[RuleRow]:
    """All rules; only the changed ones when a ruleset is compared with its own base."""
    if comparison.base is None:
        return list(comparison.rows)
    return [row for row in comparison.rows if row.differs]


def and_list(items: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``: names of documents, which hold no comma (in
    English: always commas, however long the names)."""
    if len(items) > 1 and current().code == "en":
        return ", ".join(items[:-1]) + " and " + items[-1]
    return join_words(list(items), "and")


def cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _owner(ruleset: Ruleset, path: str) -> tuple[str, str]:
    """Whose standing a rule has, and the words that say so when it is the base's.

    A house's rule taken from its base as it is keeps the base's standing.
    """
    base = ruleset.base if ruleset.is_house else None
    if base is not None and path not in (*ruleset.own_leaves, *ruleset.covered):
        return base.id, _("as {base} has it, ").format(base=base.id)
    return ruleset.id, ""


def _ruleset(comparison: Comparison, rid: str) -> Ruleset:
    return comparison.rulesets[comparison.ids.index(rid)]


def _status_words(comparison: Comparison, row: RuleRow, rid: str) -> str:
    """Where a value comes from, in words: stated, assumed or a house rule."""
    status = row.status[rid]
    claims = row.claims[rid]
    ruleset = _ruleset(comparison, rid)
    reason = ruleset.provenance[row.path].reason or ""
    why = reason_words(comparison.sources, reason) if reason else ""
    why = why[:1].lower() + why[1:] if why[1:2].islower() else why
    owner, said = _owner(ruleset, row.path)
    if status == "assumed":
        return said + _("assumed (no source of {ruleset} states it): {why}").format(
            ruleset=owner, why=why
        )
    if status == "house":
        if not reason or reason == NO_REASON:
            return said + _("a house rule, no reason given")
        return said + _("a house rule: {why}").format(why=why)
    documents = comparison.sources.documents(claims)
    if not documents:
        return said + _("stated")
    return said + _("stated by {documents}").format(documents=and_list(documents))


def _cell(comparison: Comparison, row: RuleRow, col: Column) -> dict[str, Any]:
    rid = col.first
    statuses = {row.status[r] for r in col.ids}
    return {
        "words": cap(answer(row.path, json.loads(row.values[rid]))),
        "status": "assumed" if "assumed" in statuses else row.status[rid],
        "claims": sorted({c for r in col.ids for c in row.claims[r]}),
        "why": _status_words(comparison, row, rid),
    }


def _rows(comparison: Comparison, cols: Sequence[Column]) -> list[dict[str, Any]]:
    return [
        {
            "path": row.path,
            "label": cap(label(row.path)),
            "question": question(row.path),
            "differs": row.differs,
            "cells": [_cell(comparison, row, col) for col in cols],
        }
        for row in shown_rows(comparison)
    ]


def _column_of(cols: Sequence[Column]) -> dict[str, Column]:
    return {rid: col for col in cols for rid in col.ids}


def _matrix_cell(mine: Sequence[Finding], numbers: dict[str, int]) -> str:
    """One cell of the behaviour matrix: same, the witnesses' numbers, or why none."""
    shown = sorted({numbers[f.witness] for f in mine if f.witness})
    if all(f.rule is None for f in mine):
        return _("same")
    if shown:
        return " ".join(f"#{n}" for n in shown)
    return _("rules differ, no question turns on them")


def _combined(finding: Finding, findings: Sequence[Finding], numbers: dict[str, int]) -> list[int]:
    """The numbers of the witnesses that show several rules together, for a finding's area
    and pair."""
    return [
        numbers[g.witness]
        for g in findings
        if g.area == finding.area
        and g.pair == finding.pair
        and g.witness
        and " + " in (g.rule or "")
    ]


def _how_shown(finding: Finding, findings: Sequence[Finding], numbers: dict[str, int]) -> str:
    """How a differing rule is shown: by its own witness, a combined one, or none."""
    if finding.witness is not None:
        if " + " in (finding.rule or ""):
            return _("shown only by these rules together")
        return _("shown by this rule alone")
    combined = _combined(finding, findings, numbers)
    if combined:
        return _(
            "the rule differs but decides no question of this area alone; "
            "see the combined witness #{number}"
        ).format(number=combined[0])
    return _("no witness: other rules decide first in every situation searched")


def _finding_entry(
    finding: Finding,
    findings: Sequence[Finding],
    numbers: dict[str, int],
    column_of: dict[str, Column],
) -> dict[str, Any]:
    """One differing rule of an area, as the behaviour section lists it."""
    rule = finding.rule or ""
    return {
        "pair": (column_of[finding.pair[0]].title, column_of[finding.pair[1]].title),
        "rule": join_words([label(p) for p in rule.split(" + ")], "and"),
        "path": finding.rule,
        "witness": numbers.get(finding.witness or ""),
        "how": _how_shown(finding, findings, numbers),
    }


Pair = tuple[Column, Column]


def _of_pair(findings: Sequence[Finding], pair: Pair) -> list[Finding]:
    """The findings for one pair of columns."""
    return [f for f in findings if f.pair == (pair[0].first, pair[1].first)]


def _matrix(
    findings: Sequence[Finding], col_pairs: Sequence[Pair], numbers: dict[str, int]
) -> list[tuple[str, list[str]]]:
    """Per area, a cell for every pair of columns."""
    return [
        (
            area,
            [
                _matrix_cell([f for f in _of_pair(findings, pair) if f.area == area], numbers)
                for pair in col_pairs
            ],
        )
        for area in AREA_OPS
    ]


def _by_area(
    findings: Sequence[Finding], numbers: dict[str, int], column_of: dict[str, Column]
) -> dict[str, list[dict[str, Any]]]:
    """Per area, its differing rules and how each is shown."""
    return {
        area: [
            _finding_entry(f, findings, numbers, column_of)
            for f in findings
            if f.area == area and f.rule is not None
        ]
        for area in AREA_OPS
    }


def _behaviour(comparison: Comparison, cols: Sequence[Column]) -> dict[str, Any]:
    """The behaviour section: per area and pair of columns, what the witnesses show."""
    numbers = witness_numbers(comparison)
    col_pairs = list(itertools.combinations(cols, 2))
    wanted = {(a.first, b.first) for a, b in col_pairs}
    findings = [f for f in comparison.findings if f.pair in wanted]
    same = [
        (pair[0].title, pair[1].title)
        for pair in col_pairs
        if all(f.rule is None for f in _of_pair(findings, pair))
    ]
    return {
        "pairs": [(a.title, b.title) for a, b in col_pairs],
        "matrix_heads": [_("{a} vs {b}").format(a=a.title, b=b.title) for a, b in col_pairs],
        "matrix": _matrix(findings, col_pairs, numbers),
        "findings": _by_area(findings, numbers, _column_of(cols)),
        "same_everywhere": same,
    }


def _witnesses(comparison: Comparison, cols: Sequence[Column]) -> list[dict[str, Any]]:
    numbers = witness_numbers(comparison)
    rules_of: dict[str, list[str]] = {}
    for f in comparison.findings:
        if f.witness and f.rule:
            for path in f.rule.split(" + "):
                if path not in rules_of.setdefault(f.witness, []):
                    rules_of[f.witness].append(path)
    out = []
    for w in comparison.witnesses:
        shown = {col.title: w.results[col.first] for col in cols}
        parts = rulings(w.op, shown, {col.title: _ruleset(comparison, col.first) for col in cols})
        out.append(
            {
                "number": numbers[w.key],
                "area": w.area,
                "op": w.op,
                "situation": situation(w.op, w.input),
                "request": json.dumps({"op": w.op, **w.input}, ensure_ascii=False),
                "rulings": [(col.title, parts[col.title]) for col in cols],
                "rules": [label(p) for p in rules_of.get(w.key, [])],
                "paths": rules_of.get(w.key, []),
            }
        )
    return out


def _gallery(comparison: Comparison, cols: Sequence[Column]) -> list[dict[str, Any]]:
    out = []
    for entry in comparison.gallery:
        rows: list[dict[str, Any]] = []
        for col in cols:
            result = entry.results[col.first]
            if isinstance(result, dict) and "error" in result:
                rows.append(
                    {
                        "ruleset": col.title,
                        "error": _("not a position of this ruleset: {why}").format(
                            why=refusal_words(result["error"], _ruleset(comparison, col.first))
                        ),
                    }
                )
                continue
            for t, team in enumerate(result):
                rows.append(
                    {
                        "owner": col.title,
                        "ruleset": col.title if t == 0 else "",
                        "side": _("side {number}").format(number=t + 1),
                        "cells": [number(team[k]) for k in SCORE_PARTS],
                        "total": number(team["total"]),
                    }
                )
        deciding = comparison.gallery_rules.get(entry.name, [])
        out.append(
            {
                "entry": entry,
                "name": str(entry.name),
                "about": str(entry.about),
                "situation": situation("score", entry.request),
                "rows": rows,
                "why": join_words([label(p) for p in deciding], "and"),
            }
        )
    return out


def _first_page(comparison: Comparison, cols: Sequence[Column]) -> dict[str, Any]:
    rows = comparison.rows
    rulesets = {r.id: r for r in comparison.rulesets}
    apart = outlier(rows, cols)
    ranked = []
    for n, (row, effect) in enumerate(rank(rows, comparison.effects), 1):
        ranked.append(
            {
                "number": n,
                "path": row.path,
                "question": question(row.path),
                "cells": [(col.title, _cell(comparison, row, col)) for col in cols],
                "effect": str(effect.basis),
                "in_play": effect.basis_play,
            }
        )
    return {
        "identical": [col for col in cols if len(col.ids) > 1],
        "outlier": None
        if apart is None
        else {
            "column": apart[0],
            "rules": [
                (question(p), cap(answer(p, rulesets[apart[0].first].value(p)))) for p in apart[1]
            ],
        },
        "differing": sum(1 for row in rows if row.differs),
        "ranked": ranked,
    }


def _silences(comparison: Comparison) -> list[dict[str, Any]]:
    """The assumed values grouped by reason: one reason, the rules it covers."""
    groups: dict[tuple[str, str], list[str]] = {}
    for path, reasons in comparison.silences:
        for rids, reason in reasons.items():
            groups.setdefault((rids, reason), []).append(label(path))
    return [
        {"rulesets": rids, "reason": reason_words(comparison.sources, reason), "rules": rules}
        for (rids, reason), rules in sorted(groups.items(), key=lambda g: (-len(g[1]), g[0]))
    ]


def _disagreements(comparison: Comparison, cols: Sequence[Column]) -> list[dict[str, Any]]:
    column_of = _column_of(cols)
    out = []
    for d in comparison.disagreements:
        values = []
        for value, claims in d.values:
            held = list(dict.fromkeys(column_of[r].title for r in d.holders.get(value, [])))
            values.append(
                {
                    "words": answer(d.path, json.loads(value)),
                    "claims": claims,
                    "documents": and_list(comparison.sources.documents(claims)),
                    "held": join_words(held, "and") if held else "",
                }
            )
        out.append({"path": d.path, "question": question(d.path), "claimed": values})
    return out


def context(comparison: Comparison) -> dict[str, Any]:
    cols = columns(comparison.rows, comparison.ids)
    if comparison.base is not None:
        title = _("{house} compared with {base}").format(
            house=comparison.rulesets[1].id, base=comparison.base
        )
    else:
        title = _("Bolivia variants compared")
    used_sources = [
        sid for sid in comparison.sources if any(sid in r.sources for r in comparison.rulesets)
    ]
    return {
        "c": comparison,
        "title": title,
        "cols": cols,
        # a house ruleset that changes nothing yet: one column, and the report says why
        "unchanged": comparison.base is not None and len(cols) == 1,
        "ids": comparison.ids,
        "counts": {r.id: r.counts() for r in comparison.rulesets},
        "first": _first_page(comparison, cols),
        "rows": _rows(comparison, cols),
        "hidden_rows": len(comparison.rows) - len(shown_rows(comparison)),
        "areas": list(AREA_OPS),
        "area_words": {area: _(AREA_WORDS.get(area, area)) for area in AREA_OPS},
        "score_parts": [_(part) for part in SCORE_HEADS],
        **_behaviour(comparison, cols),
        "witnesses": _witnesses(comparison, cols),
        "gallery": _gallery(comparison, cols),
        "play": play_context(comparison, cols),
        "disagreements": _disagreements(comparison, cols),
        "silences": _silences(comparison),
        "sources": [comparison.sources[sid] for sid in used_sources],
        "languages": {code: _(name) for code, name in LANGUAGES.items()},
        "plot_titles": {
            "points": _(
                "Points a hand for each side; the lines on the bars are {level} intervals."
            ).format(level=percent(95)),
            "canastas": _(
                "Canastas a hand of each kind, on one scale; the lines on the bars are {level} "
                "intervals."
            ).format(level=percent(95)),
            "turns": _("The share of hands that last each number of turns."),
        },
    }
