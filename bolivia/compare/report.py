"""The variant comparison report, written as Markdown, a self-contained HTML page, JSON, and
(on request) a conformance suite of its witnesses.

Templates (``bolivia/compare/templates``) use ``StrictUndefined``; the HTML one autoescapes, and the
Markdown one passes every user-written text (names, notes, reasons) through a filter that
escapes HTML and Markdown (``bolivia.text.md``); neither writes a raw control character.
Plots are drawn by matplotlib as SVG with fixed ids and no dates, so the same comparison gives
the same bytes. The files are written together, atomically (``bolivia.output``).
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup
from tabulate import tabulate

from bolivia.compare.context import context, witness_numbers
from bolivia.compare.findings import Comparison, PlayStats
from bolivia.compare.statistics import Estimate
from bolivia.compare.summary import columns, outlier, rank
from bolivia.compare.witnesses import compared_keys
from bolivia.output import prepare_folder, write_files
from bolivia.rules.phrases import answer, label, question
from bolivia.text import environment

__all__ = [
    "pyplot",
    "render_html",
    "render_json",
    "render_markdown",
    "report_environment",
    "svg_text",
    "witness_suite",
    "write_formats",
    "write_report",
]

REPORT_NAME = "comparison"


def report_environment(autoescape: bool, package: str = "bolivia.compare") -> jinja2.Environment:
    """The templates' environment of a report (this one, or another part's, such as a
    sweep's), with the filters for estimates."""
    env = environment(package, autoescape=autoescape)
    env.filters["est"] = lambda e, digits=1: e.text(digits)
    env.filters["cap"] = lambda text: text[:1].upper() + text[1:]
    env.filters["pct"] = lambda e: f"{100 * e.value:.1f}% [{100 * e.low:.1f}, {100 * e.high:.1f}]"
    return env


def _play_table(play: Sequence[tuple[str, PlayStats]]) -> str:
    head = ["", *[title for title, _ in play]]
    stats = [p for _, p in play]
    lines = [
        ["hands played (completed)", *[f"{p.hands:,} ({p.completed:,})" for p in stats]],
        ["turns per hand", *[p.turns.text(1) for p in stats]],
        [
            "hands ended by going out",
            *[
                f"{100 * p.went_out.value:.1f}% [{100 * p.went_out.low:.1f}"
                f", {100 * p.went_out.high:.1f}]"
                for p in stats
            ],
        ],
        ["points per hand, first side", *[p.points_first.text(0) for p in stats]],
        ["points per hand, second side", *[p.points_second.text(0) for p in stats]],
        ["first side's advantage", *[p.advantage.text(0) for p in stats]],
        *[
            [f"{kind} canastas per hand", *[p.canastas[kind].text(2) for p in stats]]
            for kind in ("natural", "mixed", "escalera", "bolivia")
        ],
        ["cards in the pile when taken", *[p.pile_taken.text(1) for p in stats]],
        [
            "conservation failures (every hand at its end; one in 16 after every action)",
            *[str(p.conservation_failures) for p in stats],
        ],
    ]
    return tabulate(lines, headers=head, tablefmt="pipe", disable_numparse=True)


# --------------------------------------------------------------------------- plots


def svg_text(figure: Any) -> str:
    """A matplotlib figure as SVG text, with no date or creator: the same bytes each time."""
    buffer = io.StringIO()
    figure.savefig(buffer, format="svg", metadata={"Date": None, "Creator": None})
    text = buffer.getvalue()
    start = text.find("<svg")
    return text[start:] if start >= 0 else text


def pyplot() -> Any:
    """matplotlib's pyplot, set up to draw the same SVG bytes each time (no display)."""
    import matplotlib

    matplotlib.use("Agg")
    matplotlib.rcParams["svg.hashsalt"] = "bolivia"
    matplotlib.rcParams["svg.fonttype"] = "none"
    matplotlib.rcParams["font.size"] = 10
    from matplotlib import pyplot as plt

    return plt


def plots(comparison: Comparison) -> dict[str, str]:
    """name -> SVG text of each plot: one series per column of the report (rulesets that set
    every rule alike drawn once, under both names), legends outside the data, each kind of
    canasta on its own scale."""
    plt = pyplot()
    out: dict[str, str] = {}
    play = context_play(comparison)
    names = [title.replace(" = ", " =\n") for title, _ in play]
    stats = [p for _, p in play]
    x = list(range(len(names)))

    def bars(
        ax: Any, estimates: Sequence[Estimate], offset: float, width: float, label: str
    ) -> None:
        ax.bar(
            [i + offset for i in x],
            [e.value for e in estimates],
            width,
            yerr=[[e.value - e.low for e in estimates], [e.high - e.value for e in estimates]],
            capsize=3,
            label=label,
        )

    fig, ax = plt.subplots(figsize=(7, 3.6), layout="constrained")
    bars(ax, [p.points_first for p in stats], -0.2, 0.4, "first side")
    bars(ax, [p.points_second for p in stats], 0.2, 0.4, "second side")
    ax.set_xticks(x, names)
    ax.set_ylabel("points per hand")
    ax.set_title("Points per hand by side (95% CI)")
    fig.legend(loc="outside lower center", ncols=2, frameon=False)
    out["points"] = svg_text(fig)
    plt.close(fig)

    kinds = ("natural", "mixed", "escalera", "bolivia")
    fig, axes = plt.subplots(1, 4, figsize=(10, 3.6), layout="constrained")
    for ax, kind in zip(axes, kinds, strict=True):
        estimates = [p.canastas[kind] for p in stats]
        ax.bar(
            x,
            [e.value for e in estimates],
            0.6,
            yerr=[[e.value - e.low for e in estimates], [e.high - e.value for e in estimates]],
            capsize=3,
            color=[f"C{i}" for i in x],
        )
        ax.set_title(kind)
        ax.set_xticks(x, [str(i + 1) for i in x])
        ax.margins(y=0.15)
    axes[0].set_ylabel("canastas per hand (own scale)")
    key = "   ".join(f"{i + 1}: {title}" for i, (title, _) in enumerate(play))
    fig.suptitle("Canastas per hand by kind (95% CI)")
    fig.supxlabel(key)
    out["canastas"] = svg_text(fig)
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(7, 3.8), layout="constrained")
    styles = ["-", "--", ":", "-."]
    for i, (title, p) in enumerate(play):
        turns = sorted(p.turns_histogram)
        if turns:
            total = sum(p.turns_histogram.values())
            ax.step(
                turns,
                [p.turns_histogram[t] / total for t in turns],
                where="mid",
                label=title,
                linestyle=styles[i % len(styles)],
                linewidth=1.6,
            )
    ax.set_xlabel("turns in the hand")
    ax.set_ylabel("share of hands")
    ax.set_title("How long hands last")
    fig.legend(loc="outside lower center", ncols=min(3, max(1, len(play))), frameon=False)
    out["turns"] = svg_text(fig)
    plt.close(fig)
    return out


def context_play(comparison: Comparison) -> list[tuple[str, PlayStats]]:
    """The play figures per column (rulesets with the same rules play the same hands)."""
    play: list[tuple[str, PlayStats]] = context(comparison)["play"]
    return play


# --------------------------------------------------------------------------- renderers


def render_markdown(comparison: Comparison, plot_files: dict[str, str]) -> str:
    env = report_environment(autoescape=False)
    data = context(comparison)
    return env.get_template("report.md.j2").render(
        **data,
        play_table=_play_table(data["play"]),
        plot_files=plot_files,
    )


def render_html(comparison: Comparison, svgs: dict[str, str]) -> str:
    env = report_environment(autoescape=True)
    return env.get_template("report.html.j2").render(
        **context(comparison),
        svgs={name: Markup(svg) for name, svg in svgs.items()},
    )


def _estimate(e: Estimate) -> dict[str, Any]:
    return e.as_json()


def render_json(comparison: Comparison) -> str:
    """The comparison as data (``docs/comparison-schema.json`` describes it): rule values as
    JSON values, witnesses numbered from 1 as in the text."""
    numbers = witness_numbers(comparison)
    cols = columns(comparison.rows, comparison.ids)
    apart = outlier(comparison.rows, cols)
    data = {
        "format": "bolivia-comparison",
        "format_version": 2,
        "version": comparison.version,
        "seed": comparison.seed,
        "hands": comparison.hands,
        "rulesets": [
            {
                "id": r.id,
                "name": r.name,
                "chain": list(r.chain),
                "sources": list(r.sources),
                "digest": r.digest,
                "counts": r.counts(),
            }
            for r in comparison.rulesets
        ],
        "rules": [
            {
                "path": row.path,
                "area": row.area,
                "label": label(row.path),
                "question": question(row.path),
                "values": {rid: json.loads(v) for rid, v in row.values.items()},
                "answers": {rid: answer(row.path, json.loads(v)) for rid, v in row.values.items()},
                "status": row.status,
                "claims": row.claims,
                "differs": row.differs,
            }
            for row in comparison.rows
        ],
        "columns": [list(col.ids) for col in cols],
        "outlier": None if apart is None else {"rulesets": list(apart[0].ids), "rules": apart[1]},
        "ranked": [
            {
                "path": row.path,
                "points": effect.points,
                "basis": effect.basis,
                "scoring": effect.scoring,
                "alone": effect.alone,
            }
            for row, effect in rank(comparison.rows, comparison.effects)
        ],
        "witnesses": [{"number": numbers[w.key], **w.as_json()} for w in comparison.witnesses],
        "findings": [
            {
                "area": f.area,
                "pair": list(f.pair),
                "rule": f.rule,
                "witness": numbers.get(f.witness or ""),
                "how": f.how,
            }
            for f in comparison.findings
        ],
        "gallery": [
            {
                "name": g.name,
                "about": g.about,
                "request": g.request,
                "results": g.results,
                "differs": g.differs,
            }
            for g in comparison.gallery
        ],
        "play": [
            {
                "ruleset": p.ruleset,
                "hands": p.hands,
                "completed": p.completed,
                "conservation_failures": p.conservation_failures,
                "turns": _estimate(p.turns),
                "went_out": _estimate(p.went_out),
                "points_first": _estimate(p.points_first),
                "points_second": _estimate(p.points_second),
                "advantage": _estimate(p.advantage),
                "canastas": {k: _estimate(v) for k, v in p.canastas.items()},
                "pile_taken": _estimate(p.pile_taken),
                "turns_histogram": {str(k): v for k, v in p.turns_histogram.items()},
            }
            for p in comparison.play
        ],
        "disagreements": [
            {
                "path": d.path,
                "values": [
                    {"value": json.loads(v), "claims": c, "rulesets": d.holders.get(v, [])}
                    for v, c in d.values
                ],
            }
            for d in comparison.disagreements
        ],
        "silences": [{"path": path, "assumed": reasons} for path, reasons in comparison.silences],
    }
    return json.dumps(data, indent=1, ensure_ascii=False, sort_keys=False) + "\n"


def witness_suite(comparison: Comparison) -> str:
    """The witnesses as a conformance suite (YAML, the spec's case format)."""
    import yaml

    cases = []
    rules_for: dict[str, set[str]] = {}
    for finding in comparison.findings:
        if finding.witness and finding.rule:
            rules_for.setdefault(finding.witness, set()).update(finding.rule.split(" + "))
    for number, witness in enumerate(comparison.witnesses, 1):
        claims: list[str] = []
        for ruleset in comparison.rulesets:
            for rule in sorted(rules_for.get(witness.key, ())):
                for claim in ruleset.provenance[rule].claims:
                    if claim not in claims:
                        claims.append(claim)
        expect: dict[str, Any] = {}
        for rid in comparison.ids:
            result = witness.results[rid]
            if "error" in result:
                expect[rid] = {"error": result["error"]["code"]}
            else:
                expect[rid] = {k: result[k] for k in compared_keys(witness.op) if k in result}
        cases.append(
            {
                "id": f"w{number:03d}-{witness.area.replace(' ', '-')}",
                "about": f"{witness.area}: where the rulesets compared rule differently "
                f"({', '.join(sorted(rules_for.get(witness.key, ())) or ['rules'])})",
                "source": claims,
                "op": witness.op,
                "input": witness.input,
                "expect": expect,
            }
        )
    return yaml.safe_dump(
        {"suite": "comparison witnesses", "cases": cases},
        sort_keys=False,
        allow_unicode=True,
        width=100,
    )


def write_report(comparison: Comparison, out: Path, formats: Iterable[str]) -> list[Path]:
    """Write the chosen formats into ``out``; the paths written. All are staged before any
    older file is replaced (:mod:`bolivia.output`): a failure leaves the older report whole."""
    return write_formats(
        out,
        REPORT_NAME,
        formats,
        lambda: plots(comparison),
        lambda names: render_markdown(comparison, names),
        lambda svgs: render_html(comparison, svgs),
        lambda: render_json(comparison),
    )


def write_formats(
    out: Path,
    name: str,
    formats: Iterable[str],
    svgs_of: Callable[[], dict[str, str]],
    markdown: Callable[[dict[str, str]], str],
    html: Callable[[dict[str, str]], str],
    json_text: Callable[[], str],
) -> list[Path]:
    """A report's chosen formats (md, html, json) in ``out`` as ``name.md`` (its plots as
    ``plots/*.svg`` beside it), ``name.html`` (the plots inline) and ``name.json``, all
    staged before any older file is replaced; the paths written."""
    formats = list(formats)
    prepare_folder(out)
    files: dict[Path, str] = {}
    svgs = svgs_of() if {"md", "html"} & set(formats) else {}
    if "md" in formats:
        prepare_folder(out / "plots")
        names = {}
        for plot, svg in svgs.items():
            files[out / "plots" / f"{plot}.svg"] = svg
            names[plot] = f"plots/{plot}.svg"
        files[out / f"{name}.md"] = markdown(names)
    if "html" in formats:
        files[out / f"{name}.html"] = html(svgs)
    if "json" in formats:
        files[out / f"{name}.json"] = json_text()
    write_files(files)
    return list(files)
