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

from bolivia.compare.report import pyplot, report_environment, svg_text, write_formats
from bolivia.compare.statistics import Difference, Estimate
from bolivia.sweeps.grid import value_text
from bolivia.sweeps.measures import Measure, MeasuredVariant
from bolivia.sweeps.run import SweepSpec

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
        "axes": [{"field": a.field, "values": list(a.values), "base": a.base} for a in spec.axes],
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
                "label": v.label(spec.axes),
                "values": list(v.values),
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


def _number(x: float, m: dict[str, Any], signed: bool = False) -> str:
    scale, digits = (100.0, 1) if m["share"] else (1.0, m["digits"])
    return f"{x * scale:{'+' if signed else ''},.{digits}f}"


def _cell(e: dict[str, Any], m: dict[str, Any]) -> str:
    unit = "%" if m["share"] else ""
    return f"{_number(e['value'], m)}{unit} [{_number(e['low'], m)}, {_number(e['high'], m)}]"


def _difference_cell(d: dict[str, Any] | None, m: dict[str, Any]) -> str:
    if d is None:
        return "(base)"
    if d["low"] is None:
        return f"{_number(d['value'], m, signed=True)}"
    text = (
        f"{_number(d['value'], m, signed=True)} "
        f"[{_number(d['low'], m, signed=True)}, {_number(d['high'], m, signed=True)}]"
    )
    return text + (" *" if d["p_holm"] is not None and d["p_holm"] < SIGNIFICANT else "")


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
                    "label": c["label"] + (" (base)" if c["base"] else ""),
                    "base": c["base"],
                    "value": _cell(e, m),
                    "difference": _difference_cell(e["difference"], m),
                }
            )
        out.append({"name": m["name"], "label": m["label"], "rows": rows, "says": _says(data, m)})
    return out


def _says(data: dict[str, Any], m: dict[str, Any]) -> str:
    """One sentence: the lowest and highest value, and how many combinations differ from the
    base beyond chance (Holm-corrected over the whole sweep)."""
    combos = data["combinations"]
    unit = "%" if m["share"] else ""
    low = min(combos, key=lambda c: c["measures"][m["name"]]["value"])
    high = max(combos, key=lambda c: c["measures"][m["name"]]["value"])
    differ = [
        c
        for c in combos
        if (d := c["measures"][m["name"]]["difference"]) and d["p_holm"] is not None
        if d["p_holm"] < SIGNIFICANT
    ]
    span = (
        f"from {_number(low['measures'][m['name']]['value'], m)}{unit} ({low['label']}) "
        f"to {_number(high['measures'][m['name']]['value'], m)}{unit} ({high['label']})"
    )
    if not differ:
        return f"{m['label'].capitalize()}: {span}; no value differs from the base beyond chance."
    return (
        f"{m['label'].capitalize()}: {span}; {len(differ)} of {len(combos) - 1} "
        "differ from the base beyond chance (*)."
    )


# --------------------------------------------------------------------------- plots


def _numeric(values: Sequence[Any]) -> bool:
    return all(isinstance(v, int | float) and not isinstance(v, bool) for v in values)


def _series(data: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    """The combinations by the other fields' values: one line of a panel each."""
    axes = data["axes"]
    series: dict[str, list[dict[str, Any]]] = {}
    for c in data["combinations"]:
        rest = ", ".join(
            f"{a['field']} = {value_text(v)}"
            for a, v in zip(axes[1:], c["values"][1:], strict=True)
        )
        series.setdefault(rest, []).append(c)
    return series


def _line(
    ax: Any, m: dict[str, Any], at: list[Any], combos: list[dict[str, Any]], style: dict[str, Any]
) -> None:
    """One line of a panel: a measure's estimates with their intervals, the base ringed."""
    scale = 100.0 if m["share"] else 1.0
    es = [c["measures"][m["name"]] for c in combos]
    ys = [scale * e["value"] for e in es]
    ax.errorbar(
        at,
        ys,
        yerr=[
            [scale * (e["value"] - e["low"]) for e in es],
            [scale * (e["high"] - e["value"]) for e in es],
        ],
        marker="o",
        markersize=4,
        capsize=3,
        **style,
    )
    for c, x, y in zip(combos, at, ys, strict=True):
        if c["base"]:
            ax.plot([x], [y], marker="o", markersize=11, fillstyle="none", color="k")


def _panel(
    ax: Any,
    m: dict[str, Any],
    series: dict[str, list[dict[str, Any]]],
    xs: list[Any],
    positions: list[Any],
) -> None:
    """One measure's panel against the first field's values."""
    numeric = _numeric(xs)
    for i, (rest, combos) in enumerate(series.items()):
        at = [positions[xs.index(c["values"][0])] for c in combos]
        style = {"linestyle": "-" if numeric else "none", "color": f"C{i}", "label": rest or None}
        _line(ax, m, at, combos, style)
    title = m["label"].replace(" (each game's mean)", "")
    ax.set_title(_short(title + (" (%)" if m["share"] else ""), 48), fontsize=9)
    ax.tick_params(labelsize=8)
    if not numeric:
        ax.set_xticks(positions, [str(i + 1) for i in positions], fontsize=8)


def plots(data: dict[str, Any]) -> dict[str, str]:
    """``{"sweep": SVG text}``: every measure against the first varied field.

    Each measure has its own panel and scale, one line for each combination of the other
    fields' values, the base's point ringed, 95% intervals.
    """
    plt = pyplot()
    first = data["axes"][0]
    xs = first["values"]
    numeric = _numeric(xs)
    positions = list(xs) if numeric else list(range(len(xs)))
    series = _series(data)
    measures = data["measures"]
    columns = 3
    rows = -(-len(measures) // columns)
    fig, grid = plt.subplots(
        rows, columns, figsize=(10, 2.5 * rows + 0.8), squeeze=False, sharex=True
    )
    for ax, m in zip(grid.flat, measures, strict=False):
        _panel(ax, m, series, xs, positions)
    for ax in list(grid.flat)[len(measures) :]:
        ax.set_visible(False)
    fig.suptitle(
        f"{data['base']['id']}: each measure against {first['field']} (ringed: the base; 95% CI)",
        fontsize=10,
    )
    key = "" if numeric else _key(xs)
    fig.supxlabel(first["field"] + key, fontsize=9)
    if len(series) > 1:
        fig.legend(loc="lower center", ncols=min(3, len(series)), frameon=False, fontsize=8)
    fig.tight_layout(rect=(0, 0.06 if len(series) > 1 else 0, 1, 0.97))
    out = {"sweep": svg_text(fig)}
    plt.close(fig)
    return out


def _key(values: Sequence[Any]) -> str:
    """What the numbered ticks of values that are not numbers stand for."""
    items = [f"{i + 1}: {_short(value_text(v), 60)}" for i, v in enumerate(values)]
    joined = "    ".join(items)
    return "\n" + (joined if len(joined) <= 130 else "\n".join(items))


def _short(text: str, width: int = 28) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


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
    return {"data": data, "tables": tables(data), "value_text": value_text}


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
