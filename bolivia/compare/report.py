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
from collections.abc import Iterable, Sequence
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import jinja2
from markupsafe import Markup
from tabulate import tabulate

from bolivia.compare.findings import Comparison
from bolivia.compare.statistics import Estimate
from bolivia.compare.witnesses import AREA_OPS, Witness, compared_keys
from bolivia.output import prepare_folder, write_files
from bolivia.rules.phrases import answer as humanize
from bolivia.text import code, environment, md

__all__ = [
    "render_html",
    "render_json",
    "render_markdown",
    "witness_suite",
    "write_report",
]

REPORT_NAME = "comparison"


def _environment(autoescape: bool) -> jinja2.Environment:
    env = environment("bolivia.compare", autoescape=autoescape)
    env.filters["est"] = lambda e, digits=1: e.text(digits)
    env.filters["pct"] = lambda e: f"{100 * e.value:.1f}% [{100 * e.low:.1f}, {100 * e.high:.1f}]"
    return env


def _verdict_text(witness: Witness, ruleset: str) -> str:
    result = witness.results[ruleset]
    if "error" in result:
        return f"error {result['error']['code']}"
    parts = []
    for key in compared_keys(witness.op):
        if key in result:
            parts.append(f"{key}: {json.dumps(result[key], ensure_ascii=False)}")
    return ", ".join(parts)


def _request_text(witness: Witness) -> str:
    return json.dumps({"op": witness.op, **witness.input}, ensure_ascii=False)


def _witness_number(comparison: Comparison) -> dict[str, int]:
    return {w.key: i + 1 for i, w in enumerate(comparison.witnesses)}


def _context(comparison: Comparison) -> dict[str, Any]:
    ids = comparison.ids
    numbers = _witness_number(comparison)
    counts = {r.id: r.counts() for r in comparison.rulesets}
    findings_by_area: dict[str, list[dict[str, Any]]] = {area: [] for area in AREA_OPS}
    for finding in comparison.findings:
        findings_by_area[finding.area].append(
            {
                "pair": finding.pair,
                "rule": finding.rule,
                "witness": numbers.get(finding.witness or "", None),
                "how": finding.how,
            }
        )
    pairs = sorted({f.pair for f in comparison.findings})
    matrix = []
    for area in AREA_OPS:
        cells = []
        for pair in pairs:
            mine = [f for f in comparison.findings if f.area == area and f.pair == pair]
            shown = sorted({numbers[f.witness] for f in mine if f.witness})
            if all(f.rule is None for f in mine):
                cells.append("same")
            elif shown:
                cells.append(" ".join(f"#{n}" for n in shown))
            else:
                cells.append("values differ")
        matrix.append((area, cells))
    same_everywhere = [
        pair for pair in pairs if all(f.rule is None for f in comparison.findings if f.pair == pair)
    ]
    rows_view = [
        SimpleNamespace(
            path=row.path,
            differs=row.differs,
            status=row.status,
            claims=row.claims,
            values={rid: humanize(row.path, json.loads(row.values[rid])) for rid in ids},
        )
        for row in _shown_rows(comparison)
    ]
    disagreements = [
        (d.path, [(humanize(d.path, json.loads(value)), claims) for value, claims in d.values])
        for d in comparison.disagreements
    ]
    witnesses = [
        {
            "number": numbers[w.key],
            "area": w.area,
            "op": w.op,
            "request": _request_text(w),
            "verdicts": {rid: _verdict_text(w, rid) for rid in ids},
            "reasons": {rid: w.results[rid].get("reason", "") for rid in ids},
            "distinct": len({_verdict_text(w, rid) for rid in ids}),
        }
        for w in comparison.witnesses
    ]
    return {
        "c": comparison,
        "ids": ids,
        "counts": counts,
        "findings": findings_by_area,
        "witnesses": witnesses,
        "areas": list(AREA_OPS),
        "pairs": pairs,
        "matrix": matrix,
        "same_everywhere": same_everywhere,
        "rows": rows_view,
        "disagreements": disagreements,
        "hidden_rows": len(comparison.rows) - len(_shown_rows(comparison)),
        "plot_titles": {
            "points": "Points per hand by side",
            "canastas": "Canastas per hand by kind",
            "turns": "How long hands last",
        },
    }


def _shown_rows(comparison: Comparison) -> list[Any]:
    """All rules; only the changed ones when a ruleset is compared with its own base."""
    if comparison.base is None:
        return list(comparison.rows)
    return [row for row in comparison.rows if row.differs]


def _rules_table(comparison: Comparison, *, markdown: bool) -> str:
    ids = comparison.ids
    rows = []
    for row in _shown_rows(comparison):
        cells = []
        for rid in ids:
            value = humanize(row.path, json.loads(row.values[rid]))
            mark = {"assumed": " †", "house": " ‡"}.get(row.status[rid], "")
            claims = ", ".join(row.claims[rid])
            if markdown:
                cell = code(value) + mark
                if claims:
                    cell += f" <sub>{md(claims)}</sub>"
            else:
                cell = value + mark + (f" [{claims}]" if claims else "")
            cells.append(cell)
        name = code(row.path) if markdown else row.path
        rows.append([("**≠** " if row.differs else "") + name, *cells])
    return tabulate(
        rows,
        headers=["rule", *ids],
        tablefmt="pipe" if markdown else "plain",
        disable_numparse=True,
    )


def _play_table(comparison: Comparison) -> str:
    head = ["", *[p.ruleset for p in comparison.play]]
    lines = [
        ["hands played (completed)", *[f"{p.hands} ({p.completed})" for p in comparison.play]],
        ["turns per hand", *[p.turns.text(1) for p in comparison.play]],
        [
            "hands ended by going out",
            *[
                f"{100 * p.went_out.value:.1f}% [{100 * p.went_out.low:.1f}"
                f", {100 * p.went_out.high:.1f}]"
                for p in comparison.play
            ],
        ],
        ["points per hand, first side", *[p.points_first.text(0) for p in comparison.play]],
        ["points per hand, second side", *[p.points_second.text(0) for p in comparison.play]],
        ["first side's advantage", *[p.advantage.text(0) for p in comparison.play]],
        *[
            [f"{kind} canastas per hand", *[p.canastas[kind].text(2) for p in comparison.play]]
            for kind in ("natural", "mixed", "escalera", "bolivia")
        ],
        ["cards in the pile when taken", *[p.pile_taken.text(1) for p in comparison.play]],
        [
            "conservation failures (every hand at its end; one in 16 after every action)",
            *[str(p.conservation_failures) for p in comparison.play],
        ],
    ]
    return tabulate(lines, headers=head, tablefmt="pipe", disable_numparse=True)


def _gallery_tables(comparison: Comparison) -> list[dict[str, Any]]:
    out = []
    for entry in comparison.gallery:
        rows = []
        for rid in comparison.ids:
            result = entry.results[rid]
            if isinstance(result, dict) and "error" in result:
                rows.append(
                    [rid, f"not a position of {rid}: {result['error']['code']}", "", "", "", "", ""]
                )
                continue
            for t, team in enumerate(result):
                rows.append(
                    [
                        rid if t == 0 else "",
                        f"side {t + 1}",
                        team["cards"],
                        team["bonuses"],
                        team["red_threes"],
                        team["going_out"],
                        team["hands"],
                        team["total"],
                    ]
                )
        out.append(
            {
                "entry": entry,
                "rows": rows,
                "table": tabulate(
                    rows,
                    headers=[
                        "ruleset",
                        "",
                        "cards",
                        "bonuses",
                        "red threes",
                        "going out",
                        "hands",
                        "total",
                    ],
                    tablefmt="pipe",
                    disable_numparse=True,
                ),
            }
        )
    return out


# --------------------------------------------------------------------------- plots


def _svg(figure: Any) -> str:
    buffer = io.StringIO()
    figure.savefig(buffer, format="svg", metadata={"Date": None, "Creator": None})
    text = buffer.getvalue()
    start = text.find("<svg")
    return text[start:] if start >= 0 else text


def plots(comparison: Comparison) -> dict[str, str]:
    """name -> SVG text of each plot."""
    import matplotlib

    matplotlib.use("Agg")
    matplotlib.rcParams["svg.hashsalt"] = "bolivia"
    matplotlib.rcParams["svg.fonttype"] = "none"
    from matplotlib import pyplot as plt

    out: dict[str, str] = {}
    names = [p.ruleset for p in comparison.play]
    x = range(len(names))

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

    fig, ax = plt.subplots(figsize=(7, 3.4))
    bars(ax, [p.points_first for p in comparison.play], -0.2, 0.4, "first side")
    bars(ax, [p.points_second for p in comparison.play], 0.2, 0.4, "second side")
    ax.set_xticks(list(x), names)
    ax.set_ylabel("points per hand")
    ax.set_title("Points per hand by side (95% CI)")
    ax.legend()
    fig.tight_layout()
    out["points"] = _svg(fig)
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(7, 3.4))
    kinds = ("natural", "mixed", "escalera", "bolivia")
    for k, kind in enumerate(kinds):
        bars(ax, [p.canastas[kind] for p in comparison.play], -0.3 + 0.2 * k, 0.2, kind)
    ax.set_xticks(list(x), names)
    ax.set_ylabel("canastas per hand")
    ax.set_title("Canastas per hand by kind (95% CI)")
    ax.legend(ncols=4, fontsize="small")
    fig.tight_layout()
    out["canastas"] = _svg(fig)
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(7, 3.4))
    for play in comparison.play:
        turns = sorted(play.turns_histogram)
        if turns:
            total = sum(play.turns_histogram.values())
            ax.step(
                turns,
                [play.turns_histogram[t] / total for t in turns],
                where="mid",
                label=play.ruleset,
            )
    ax.set_xlabel("turns in the hand")
    ax.set_ylabel("share of hands")
    ax.set_title("How long hands last")
    ax.legend(fontsize="small")
    fig.tight_layout()
    out["turns"] = _svg(fig)
    plt.close(fig)
    return out


# --------------------------------------------------------------------------- renderers


def render_markdown(comparison: Comparison, plot_files: dict[str, str]) -> str:
    env = _environment(autoescape=False)
    return env.get_template("report.md.j2").render(
        **_context(comparison),
        rules_table=_rules_table(comparison, markdown=True),
        play_table=_play_table(comparison),
        gallery=_gallery_tables(comparison),
        plot_files=plot_files,
    )


def render_html(comparison: Comparison, svgs: dict[str, str]) -> str:
    env = _environment(autoescape=True)
    return env.get_template("report.html.j2").render(
        **_context(comparison),
        gallery=_gallery_tables(comparison),
        svgs={name: Markup(svg) for name, svg in svgs.items()},
    )


def _estimate(e: Estimate) -> dict[str, Any]:
    return e.as_json()


def render_json(comparison: Comparison) -> str:
    data = {
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
                "values": row.values,
                "status": row.status,
                "claims": row.claims,
                "differs": row.differs,
            }
            for row in comparison.rows
        ],
        "witnesses": [w.as_json() for w in comparison.witnesses],
        "findings": [
            {
                "area": f.area,
                "pair": list(f.pair),
                "rule": f.rule,
                "witness": next(
                    (i for i, w in enumerate(comparison.witnesses) if w.key == f.witness), None
                ),
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
            {"path": d.path, "values": [{"value": v, "claims": c} for v, c in d.values]}
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
    formats = list(formats)
    prepare_folder(out)
    files: dict[Path, str] = {}
    svgs = plots(comparison) if {"md", "html"} & set(formats) else {}
    if "md" in formats:
        prepare_folder(out / "plots")
        names = {}
        for name, svg in svgs.items():
            files[out / "plots" / f"{name}.svg"] = svg
            names[name] = f"plots/{name}.svg"
        files[out / f"{REPORT_NAME}.md"] = render_markdown(comparison, names)
    if "html" in formats:
        files[out / f"{REPORT_NAME}.html"] = render_html(comparison, svgs)
    if "json" in formats:
        files[out / f"{REPORT_NAME}.json"] = render_json(comparison)
    write_files(files)
    return list(files)
