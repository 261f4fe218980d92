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
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from markupsafe import Markup

from bolivia import formats
from bolivia.compare.play_text import bots_words as seat_bots
from bolivia.compare.report import report_environment, write_formats
from bolivia.compare.statistics import Difference, Estimate, p_json
from bolivia.language import current, decimal, ngettext, speaking
from bolivia.language import gettext_ as _
from bolivia.rules.phrases import capital
from bolivia.sweeps.grid import value_text
from bolivia.sweeps.measures import Measure, MeasuredVariant
from bolivia.sweeps.plots import plots
from bolivia.sweeps.run import SweepSpec
from bolivia.sweeps.words import AS_IT_IS, BASE_MARK, combination_words, field_label, value_words

__all__ = ["FORMAT_VERSION", "REPORT_NAME", "sweep_data", "write_report"]

REPORT_NAME = "sweep"
FORMAT_VERSION = formats.version("sweep")
SIGNIFICANT = 0.05  # Holm-adjusted p below which a difference is marked


def _estimate(e: Estimate) -> dict[str, Any]:
    return e.as_json()


def _difference(d: Difference | None, log_adjusted: float | None) -> dict[str, Any] | None:
    if d is None:
        return None
    if log_adjusted is None:
        return {**d.as_json(), "p_holm": None, "log10_p_holm": None}
    return {**d.as_json(), **p_json(log_adjusted, "p_holm")}


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
        **formats.head("sweep"),
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
    return decimal(x * scale, digits, sign=signed)


def value_cell(e: dict[str, Any], m: dict[str, Any]) -> str:
    """A value with its interval: ``25.0% [7.1, 59.1]``."""
    shown = _("{value}% [{low}, {high}]") if m["share"] else _("{value} [{low}, {high}]")
    return shown.format(
        value=number(e["value"], m), low=number(e["low"], m), high=number(e["high"], m)
    )


def difference_cell(d: dict[str, Any] | None, m: dict[str, Any]) -> str:
    """A difference from the base with its interval, ``*`` if it holds after Holm's
    correction; empty for the base itself."""
    if d is None:
        return ""
    if d["low"] is None:
        return f"{number(d['value'], m, signed=True)}"
    text = _("{value} [{low}, {high}]").format(
        value=number(d["value"], m, signed=True),
        low=number(d["low"], m, signed=True),
        high=number(d["high"], m, signed=True),
    )
    return text + (" *" if d["p_holm"] is not None and d["p_holm"] < SIGNIFICANT else "")


def combination_label(c: dict[str, Any]) -> str:
    """A combination in words, the base marked: ``300 points (as the ruleset has it)``."""
    if c["base"]:
        return _("{value} ({base})").format(value=c["label"], base=_(BASE_MARK))
    return str(c["label"])


def rows_header(data: dict[str, Any]) -> str:
    """The head of the column of combinations: the varied rule's name, or ``rules``."""
    axes = data["axes"]
    return str(axes[0]["label"]) if len(axes) == 1 else _("rules")


def difference_header(m: dict[str, Any]) -> str:
    if m["share"]:
        return _("difference from {base}, in points of percentage").format(base=_(AS_IT_IS))
    return _("difference from {base}").format(base=_(AS_IT_IS))


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
    one = len(data["axes"]) == 1
    name = capital(m["label"])
    low = min(combos, key=lambda c: c["measures"][m["name"]]["value"])
    high = max(combos, key=lambda c: c["measures"][m["name"]]["value"])
    shown = _("{value}%") if m["share"] else "{value}"
    low_text = shown.format(value=number(low["measures"][m["name"]]["value"], m))
    high_text = shown.format(value=number(high["measures"][m["name"]]["value"], m))
    if low_text == high_text:
        every = (
            _("{measure}: {value} under every value")
            if one
            else _("{measure}: {value} under every combination")
        )
        span = every.format(measure=name, value=low_text)
    else:
        span = _("{measure}: from {low} ({low_named}) to {high} ({high_named})").format(
            measure=name,
            low=low_text,
            low_named=_named(low),
            high=high_text,
            high_named=_named(high),
        )
    differ = [
        c
        for c in combos
        if (d := c["measures"][m["name"]]["difference"]) and d["p_holm"] is not None
        if d["p_holm"] < SIGNIFICANT
    ]
    if not differ:
        return _("{span}; none differs from {base} beyond chance.").format(
            span=span, base=_(AS_IT_IS)
        )
    others = len(combos) - 1
    said = (
        ngettext(
            "{span}; {n} of the {others} other value differs from {base} beyond chance (*).",
            "{span}; {n} of the {others} other values differ from {base} beyond chance (*).",
            len(differ),
        )
        if one
        else ngettext(
            "{span}; {n} of the {others} other combinations differs from {base} beyond chance (*).",
            "{span}; {n} of the {others} other combinations differ from {base} beyond chance (*).",
            len(differ),
        )
    )
    return said.format(span=span, n=len(differ), others=others, base=_(AS_IT_IS))


def _named(c: dict[str, Any]) -> str:
    """A combination inside brackets: ``2 canastas, as the ruleset has it``."""
    if c["base"]:
        return _("{value}, {base}").format(value=c["label"], base=_(BASE_MARK))
    return str(c["label"])


def bots_words(data: dict[str, Any]) -> str:
    """The bots in words: ``greedy bots in every seat``, or seat by seat."""
    bots = data["bots"]
    if len(set(bots)) == 1:
        return _("{bots} in every seat").format(bots=seat_bots(bots[0]))
    return _("bots seat by seat: {bots}").format(bots=_(", ").join(bots))


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
        "base_mark": _(BASE_MARK),
        "as_it_is": _(AS_IT_IS),
        "problems": sum(
            c["not_ended_by_a_rule"] + c["conservation_failures"] + c["games_not_over"]
            for c in data["combinations"]
        ),
    }


def render_markdown(data: dict[str, Any], plot_files: dict[str, str]) -> str:
    env = report_environment(autoescape=False, package="bolivia.sweeps")
    text = env.get_template("sweep.md.j2").render(**_context(data), plot_files=plot_files)
    return current().spaced(text)


def render_html(data: dict[str, Any], svgs: dict[str, str]) -> str:
    env = report_environment(autoescape=True, package="bolivia.sweeps")
    page = env.get_template("sweep.html.j2").render(
        **_context(data),
        svgs={name: Markup(svg) for name, svg in svgs.items()},
        lang=current().code,
    )
    return current().spaced(page)


def write_report(
    data_of: Callable[[], dict[str, Any]], out: Path, formats: Iterable[str], lang: str = "en"
) -> tuple[dict[str, Any], list[Path]]:
    """Write the chosen formats (md, html, json) into ``out``, all staged before any older
    file is replaced: the text in the language ``lang``, the JSON's words English (data for
    programs). ``data_of`` gives the sweep's data in the current language. The English data
    and the paths written."""
    with speaking("en"):
        data = data_of()
    with speaking(lang):
        shown = data if lang == "en" else data_of()
        written = write_formats(
            out,
            REPORT_NAME,
            formats,
            lambda: plots(shown),
            lambda names: render_markdown(shown, names),
            lambda svgs: render_html(shown, svgs),
            lambda: render_json(data),
        )
    return data, written
