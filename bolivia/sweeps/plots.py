"""The plots of a sweep: one figure a measure, against the first varied rule, in words.

Every figure has the same size. The horizontal axis names the rule and its values in words
(``2 canastas, 1 of them an escalera``), or numbers with their unit (``going-out bonus
(points)``). The base's point is ringed and its value in bold. Measures of one kind share
their scale (the points of each side, the canastas of each kind, the wins of each side), and
counts and shares start from zero (shares run to 100%). With several varied rules, each
combination of the others is a line of its own, named in words below the plot.
"""

from __future__ import annotations

import itertools
import textwrap
from collections import Counter
from collections.abc import Sequence
from typing import Any

from bolivia.compare.report import drawing, new_figure, svg_text
from bolivia.language import gettext_ as _
from bolivia.language import number, percent
from bolivia.sweeps.words import BASE_MARK

__all__ = ["FIGURE_SIZE", "plots"]

FIGURE_SIZE = (4.2, 3.2)  # inches: every figure alike, readable scaled to a phone
_FONT = 10
# characters a legend line holds inside the figure's width (a longer line is cut by the frame:
# seen in French, where the ring's line runs past the figure's edge)
_LEGEND_WIDTH = 52
_KINDS = ("points_", "canastas_", "wins_")  # measures of one kind share their scale


def _numeric(values: Sequence[Any]) -> bool:
    return all(isinstance(v, int | float) and not isinstance(v, bool) for v in values)


def _kind(name: str) -> str:
    return next((k for k in _KINDS if name.startswith(k)), name)


def _series(data: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    """The combinations by the other rules' values in words: one line each."""
    axes = data["axes"]
    series: dict[str, list[dict[str, Any]]] = {}
    for c in data["combinations"]:
        named = _("{rule}: {value}")
        rest = _("; ").join(
            named.format(rule=a["label"], value=w)
            for a, w in zip(axes[1:], c["words"][1:], strict=True)
        )
        series.setdefault(rest, []).append(c)
    return series


def _scales(data: dict[str, Any]) -> dict[str, tuple[float, float]]:
    """Each kind of measure's vertical range: shares 0 to 100%, counts from zero, points
    from zero or below it; the same for every figure of the kind."""
    spans: dict[str, list[float]] = {}
    for m in data["measures"]:
        scale = 100.0 if m["share"] else 1.0
        for c in data["combinations"]:
            e = c["measures"][m["name"]]
            spans.setdefault(_kind(m["name"]), []).extend(
                [0.0, scale * e["low"], scale * e["high"]]
            )
    out = {}
    for m in data["measures"]:
        kind = _kind(m["name"])
        if m["share"]:
            out[kind] = (0.0, 104.0)  # a point at 100% whole, not cut by the frame
            continue
        low, high = min(spans[kind]), max(spans[kind])
        pad = 0.08 * (high - low) or 1.0
        out[kind] = (low - pad if low < 0 else 0.0, high + pad)
    return out


def _unit(axis: dict[str, Any]) -> str:
    """The unit the words give a numeric rule's values (``points``; ``分`` where the language
    sets no space after a number), or nothing."""
    units = Counter(
        w[len(number(v)) :].strip()
        for v, w in zip(axis["resolved"], axis["words"], strict=True)
        if isinstance(v, int) and v != 1 and w.startswith(number(v))
    )
    units.pop("", None)
    return units.most_common(1)[0][0] if units else ""


def _x_axis(ax: Any, axis: dict[str, Any], positions: list[float]) -> None:
    """The rule's values along the bottom, in words or as numbers, the base's in bold."""
    values = axis["resolved"]
    name = axis["label"][:1].upper() + axis["label"][1:]
    if _numeric(values):
        unit = _unit(axis)
        shown = _("{rule} ({unit})").format(rule=name, unit=unit) if unit else name
        ax.set_xlabel(shown, fontsize=_FONT)
        if len(values) > 12:
            return
        labels = [number(v) if isinstance(v, int) else f"{v:,}" for v in values]
    else:
        ax.set_xlabel(name, fontsize=_FONT)
        width = max(10, min(22, 64 // len(values)))
        labels = [textwrap.fill(w, width) for w in axis["words"]]
        ax.set_xlim(-0.5, len(values) - 0.5)
    ax.set_xticks(positions, labels, fontsize=_FONT - 1)
    for tick, value in zip(ax.get_xticklabels(), values, strict=True):
        if value == axis["resolved"][axis["values"].index(axis["base"])]:
            tick.set_fontweight("bold")


def _line(
    ax: Any, m: dict[str, Any], at: list[float], combos: list[dict[str, Any]], style: Any
) -> None:
    """One line: a measure's estimates with their intervals, the base ringed."""
    scale = 100.0 if m["share"] else 1.0
    es = [c["measures"][m["name"]] for c in combos]
    ys = [scale * e["value"] for e in es]
    low = [scale * (e["value"] - e["low"]) for e in es]
    high = [scale * (e["high"] - e["value"]) for e in es]
    ax.errorbar(at, ys, yerr=[low, high], marker="o", markersize=4, capsize=3, **style)
    for c, x, y in zip(combos, at, ys, strict=True):
        if c["base"]:
            ax.plot([x], [y], marker="o", markersize=11, fillstyle="none", color="k")


def _dodge(positions: list[float], lines: int) -> list[float]:
    """How far each line is moved sideways, so that lines of equal values stay apart."""
    if lines < 2:
        return [0.0]
    gap = min((b - a for a, b in itertools.pairwise(positions)), default=1.0)
    step = 0.25 * gap / (lines - 1)
    return [(i - (lines - 1) / 2) * step for i in range(lines)]


def _figure(data: dict[str, Any], m: dict[str, Any], scale: tuple[float, float]) -> Any:
    """One measure's figure."""
    axis = data["axes"][0]
    values = axis["resolved"]
    numeric = _numeric(values)
    positions = [float(v) for v in values] if numeric else [float(i) for i in range(len(values))]
    series = _series(data)
    fig = new_figure(FIGURE_SIZE)
    ax = fig.subplots()
    dodge = _dodge(positions, len(series))
    for i, combos in enumerate(series.values()):
        at = [positions[axis["values"].index(c["values"][0])] + dodge[i] for c in combos]
        style = {"linestyle": "-" if numeric else "none", "color": f"C{i}"}
        _line(ax, m, at, combos, style)
    title = m["label"][:1].upper() + m["label"][1:]
    ax.set_title(textwrap.fill(title, 60), fontsize=_FONT + 1)
    ax.set_ylim(*scale)
    ax.tick_params(labelsize=_FONT - 1)
    ax.grid(axis="y", color="#e3e6eb", linewidth=0.6)
    ax.set_axisbelow(True)
    if m["share"]:
        ax.set_yticks([0, 20, 40, 60, 80, 100])
        ax.yaxis.set_major_formatter(lambda y, _pos: percent(y))
    else:
        ax.yaxis.set_major_formatter(
            lambda y, _pos: number(round(y)) if scale[1] >= 10 else f"{y:g}"
        )
    _x_axis(ax, axis, positions)
    _legend(fig, ax, series)
    return fig


def _legend(fig: Any, ax: Any, series: dict[str, list[dict[str, Any]]]) -> None:
    """What the ring means and, with several varied rules, what each line holds."""
    handles, names = [], []
    for i, rest in enumerate(series):
        if rest:
            handles.append(ax.plot([], [], marker="o", markersize=4, color=f"C{i}")[0])
            names.append(textwrap.fill(rest, _LEGEND_WIDTH))
    ring = ax.plot([], [], marker="o", markersize=11, fillstyle="none", color="k", ls="none")[0]
    handles.append(ring)
    ring_means = _("ringed, {base}; the bars are {level} intervals")
    names.append(
        textwrap.fill(ring_means.format(base=_(BASE_MARK), level=percent(95)), _LEGEND_WIDTH)
    )
    below = len(handles) > 1
    fig.legend(
        handles,
        names,
        loc="lower center",
        frameon=False,
        fontsize=_FONT - 1,
        ncols=1,
    )
    rows = sum(name.count("\n") + 1 for name in names)
    fig.tight_layout(rect=(0, min(0.5, 0.06 * rows + (0.02 if below else 0.0)), 1, 1))


def plots(data: dict[str, Any]) -> dict[str, str]:
    """``{measure name: SVG text}``: every measure against the first varied rule."""
    scales = _scales(data)
    out = {}
    with drawing():
        for m in data["measures"]:
            out[m["name"]] = svg_text(_figure(data, m, scales[_kind(m["name"])]))
    return out
