"""The report of a sweep: a table and a plot for every measure.

The table lists the combinations, the base marked. Each value has its 95% interval and its
difference from the base on the same deals. The plot shows the measure against the varied
value.

It is written as Markdown (plots beside it as SVG files), a self-contained HTML page and JSON
(``"format": "bolivia-sweep"``). All are written together and atomically
(:mod:`bolivia.output`).

The report holds nothing that depends on how it was run: no times, no worker counts, no paths
of the store. So the same sweep gives the same bytes locally, on a cluster, with any number of
workers, and run at once or resumed. It reuses the comparison report's templates environment
and plotting (:mod:`bolivia.compare.report`).
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from markupsafe import Markup

from bolivia.compare.report import report_environment, write_formats
from bolivia.compare.statistics import Difference, Estimate
from bolivia.sweeps.grid import value_text
from bolivia.sweeps.measures import Measure, MeasuredVariant
from bolivia.sweeps.plots import plots
from bolivia.sweeps.run import SweepSpec
from bolivia.sweeps.words import AS_IT_IS, BASE_MARK, combination_words, field_label, value_words

__all__ = ["FORMAT_VERSION", "REPORT_NAME", "sweep_data", "write_report"]

REPORT_NAME = "sweep"
FORMAT_VERSION = 1
SIGNIFICANT = 0.05  # Holm-adjusted p below which a difference is marked


def _estimate(e: Estimate) -> dict[str, Any]:
    return e.as_json()


def _difference(d: Difference | None, adjusted: float | None) -> dict[str, Any] | None:
    if d is None:
        return None
    return {**d.as_json(), "p_holm": None if adjusted is None else round(adjusted, 6)}


def _axes(spec: SweepSpec) -> list[dict[str, Any]]:
    """Each varied field: its name in words, its values as given, as the rulesets hold them
    and in words, and the base's value."""
    out = []
    for i, axis in enumerate(spec.axes):
        resolved = [
            next(v.resolved[i] for v in spec.variants if v.values[i] == value)
            for value in axis.values
        ]
        out.append(
            {
                "field": axis.field,
                "label": field_label(axis.field),
                "values": list(axis.values),
                "resolved": resolved,
                "words": [value_words(axis.field, r) for r in resolved],
                "base": axis.base,
            }
        )
    return out


def sweep_data(
    spec: SweepSpec,
    measures: Sequence[Measure],
    measured: Sequence[MeasuredVariant],
    files: Sequence[str | None],
) -> dict[str, Any]:
    """The sweep as JSON data: what every renderer prints."""
    return {
        "format": "bolivia-sweep",
        "version": FORMAT_VERSION,
        "base": {"id": spec.base.id, "name": spec.base.name, "digest": spec.base.digest},
        "axes": _axes(spec),
        "bots": list(spec.bots),
        "players": spec.players,
        "unit": "game" if spec.games else "hand",
        "deals": spec.deals,
        "seed": spec.seed,
        "check": spec.check,
        "measures": [
            {"name": m.name, "label": m.label, "share": m.share, "digits": m.digits}
            for m in measures
        ],
        "combinations": [
            {
                "label": combination_words([a.field for a in spec.axes], v.resolved),
                "words": [
                    value_words(a.field, r) for a, r in zip(spec.axes, v.resolved, strict=True)
                ],
                "values": list(v.values),
                "resolved": list(v.resolved),
                "base": v.is_base,
                "ruleset": v.ruleset.id,
                "digest": v.ruleset.digest,
                "file": file,
                "settings": list(v.settings),
                "deals": mv.deals,
                "not_ended_by_a_rule": mv.not_by_rule,
                "conservation_failures": mv.not_conserved,
                "games_not_over": mv.not_over,
                "measures": {
                    m.name: {
                        **_estimate(mv.estimates[m.name]),
                        "difference": _difference(mv.differences[m.name], mv.adjusted[m.name]),
                    }
                    for m in measures
                },
            }
            for v, mv, file in zip(spec.variants, measured, files, strict=True)
        ],
    }


# --------------------------------------------------------------------------- text


def number(x: float, m: dict[str, Any], signed: bool = False) -> str:
    """A measure's number as the report writes it: a share in percent, one decimal."""
    scale, digits = (100.0, 1) if m["share"] else (1.0, m["digits"])
    return f"{x * scale:{'+' if signed else ''},.{digits}f}"


def value_cell(e: dict[str, Any], m: dict[str, Any]) -> str:
    """A value with its interval: ``25.0% [7.1, 59.1]``."""
    unit = "%" if m["share"] else ""
    return f"{number(e['value'], m)}{unit} [{number(e['low'], m)}, {number(e['high'], m)}]"


def difference_cell(d: dict[str, Any] | None, m: dict[str, Any]) -> str:
    """A difference from the base with its interval, ``*`` if it holds after Holm's
    correction; empty for the base itself."""
    if d is None:
        return ""
    if d["low"] is None:
        return f"{number(d['value'], m, signed=True)}"
    text = (
        f"{number(d['value'], m, signed=True)} "
        f"[{number(d['low'], m, signed=True)}, {number(d['high'], m, signed=True)}]"
    )
    return text + (" *" if d["p_holm"] is not None and d["p_holm"] < SIGNIFICANT else "")


def combination_label(c: dict[str, Any]) -> str:
    """A combination in words, the base marked: ``300 points (as the ruleset has it)``."""
    return f"{c['label']} ({BASE_MARK})" if c["base"] else c["label"]


def rows_header(data: dict[str, Any]) -> str:
    """The head of the column of combinations: the varied rule's name, or ``rules``."""
    axes = data["axes"]
    return axes[0]["label"] if len(axes) == 1 else "rules"


def difference_header(m: dict[str, Any]) -> str:
    unit = ", in points of percentage" if m["share"] else ""
    return f"difference from {AS_IT_IS}{unit}"


def tables(data: dict[str, Any]) -> list[dict[str, Any]]:
    """Per measure: its label, rows (combination, value, difference from the base) and a
    sentence of what changes."""
    out = []
    for m in data["measures"]:
        rows = []
        for c in data["combinations"]:
            e = c["measures"][m["name"]]
            rows.append(
                {
                    "label": combination_label(c),
                    "base": c["base"],
                    "value": value_cell(e, m),
                    "difference": difference_cell(e["difference"], m),
                }
            )
        out.append(
            {
                "name": m["name"],
                "label": m["label"],
                "rows": rows,
                "says": _says(data, m),
                "difference": difference_header(m),
                "cards": [_card(row) for row in rows],
            }
        )
    return out


def _card(row: dict[str, Any]) -> dict[str, Any]:
    """A row as the ``cards`` table macro takes it (bolivia/templates/tables.html.j2)."""
    cells = [
        row["label"],
        {"text": row["value"], "cls": "num"},
        {"text": row["difference"], "cls": "num"},
    ]
    return {"cells": cells, "cls": "base"} if row["base"] else {"cells": cells}


def _says(data: dict[str, Any], m: dict[str, Any]) -> str:
    """One sentence: the lowest and highest value, and how many combinations differ from the
    base beyond chance (Holm-corrected over the whole sweep)."""
    combos = data["combinations"]
    unit = "%" if m["share"] else ""
    name = m["label"][:1].upper() + m["label"][1:]
    low = min(combos, key=lambda c: c["measures"][m["name"]]["value"])
    high = max(combos, key=lambda c: c["measures"][m["name"]]["value"])
    low_text = number(low["measures"][m["name"]]["value"], m) + unit
    high_text = number(high["measures"][m["name"]]["value"], m) + unit
    if low_text == high_text:
        span = f"{name}: {low_text} under every {_noun(data)}"
    else:
        span = f"{name}: from {low_text} ({_named(low)}) to {high_text} ({_named(high)})"
    differ = [
        c
        for c in combos
        if (d := c["measures"][m["name"]]["difference"]) and d["p_holm"] is not None
        if d["p_holm"] < SIGNIFICANT
    ]
    if not differ:
        return f"{span}; none differs from {AS_IT_IS} beyond chance."
    verb = "differs" if len(differ) == 1 else "differ"
    return (
        f"{span}; {len(differ)} of the {len(combos) - 1} other {_noun(data)}s {verb} from "
        f"{AS_IT_IS} beyond chance (*)."
    )


def _named(c: dict[str, Any]) -> str:
    """A combination inside brackets: ``2 canastas, as the ruleset has it``."""
    return f"{c['label']}, {BASE_MARK}" if c["base"] else c["label"]


def _noun(data: dict[str, Any]) -> str:
    return "value" if len(data["axes"]) == 1 else "combination"


def bots_words(data: dict[str, Any]) -> str:
    """The bots in words: ``greedy bots in every seat``, or seat by seat."""
    bots = data["bots"]
    if len(set(bots)) == 1:
        return f"{bots[0]} bots in every seat"
    return "bots seat by seat: " + ", ".join(bots)


# --------------------------------------------------------------------------- files


def render_json(data: dict[str, Any]) -> str:
    def finite(x: Any) -> Any:
        if isinstance(x, float) and not math.isfinite(x):
            return None
        if isinstance(x, dict):
            return {k: finite(v) for k, v in x.items()}
        if isinstance(x, list):
            return [finite(v) for v in x]
        return x

    return json.dumps(finite(data), indent=2, ensure_ascii=False) + "\n"


def _context(data: dict[str, Any]) -> dict[str, Any]:
    return {
        "data": data,
        "tables": tables(data),
        "value_text": value_text,
        "zip": zip,
        "rows_header": rows_header(data),
        "bots": bots_words(data),
        "base_mark": BASE_MARK,
        "as_it_is": AS_IT_IS,
        "problems": sum(
            c["not_ended_by_a_rule"] + c["conservation_failures"] + c["games_not_over"]
            for c in data["combinations"]
        ),
    }


def render_markdown(data: dict[str, Any], plot_files: dict[str, str]) -> str:
    env = report_environment(autoescape=False, package="bolivia.sweeps")
    return env.get_template("sweep.md.j2").render(**_context(data), plot_files=plot_files)


def render_html(data: dict[str, Any], svgs: dict[str, str]) -> str:
    env = report_environment(autoescape=True, package="bolivia.sweeps")
    return env.get_template("sweep.html.j2").render(
        **_context(data), svgs={name: Markup(svg) for name, svg in svgs.items()}
    )


def write_report(data: dict[str, Any], out: Path, formats: Iterable[str]) -> list[Path]:
    """Write the chosen formats (md, html, json) into ``out``, all staged before any older
    file is replaced; the paths written."""
    return write_formats(
        out,
        REPORT_NAME,
        formats,
        lambda: plots(data),
        lambda names: render_markdown(data, names),
        lambda svgs: render_html(data, svgs),
        lambda: render_json(data),
    )
