"""The variant comparison report, written as Markdown, a self-contained HTML page, JSON, and
(on request) a conformance suite of its witnesses.

Templates (``bolivia/compare/templates``) use ``StrictUndefined``; the HTML one autoescapes, and the
Markdown one passes every user-written text (names, notes, reasons) through a filter that
escapes HTML and Markdown (``bolivia.text.md``); neither writes a raw control character.
Plots are drawn by matplotlib as SVG with fixed ids and no dates, so the same comparison gives
the same bytes. The files are written together, atomically (``bolivia.output``).
"""

from __future__ import annotations

import contextlib
import functools
import io
import json
import re
import warnings
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any, Literal

import jinja2
from markupsafe import Markup
from tabulate import tabulate

from bolivia import formats
from bolivia.compare.comparison import Comparison, Disagreement, RuleRow
from bolivia.compare.context import context, witness_numbers
from bolivia.compare.play_text import bots_words
from bolivia.compare.playing import KINDS, GameStats, PlayStats
from bolivia.compare.situations import KIND_WORDS
from bolivia.compare.statistics import Estimate, p_json
from bolivia.compare.summary import Column, columns, outlier, rank
from bolivia.compare.witnesses import Witness, compared_keys
from bolivia.language import current, decimal, join, number, speaking
from bolivia.language import gettext_ as _
from bolivia.output import prepare_folder, write_files
from bolivia.rules.phrases import answer, capital, count, label, question
from bolivia.rules.ruleset import Ruleset
from bolivia.text import environment, yaml_text

__all__ = [
    "drawing",
    "load_plotting",
    "new_figure",
    "plotted",
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
    env.filters["cap"] = capital
    env.filters["words"] = lambda items, joiner="and": join(list(items), joiner)
    env.filters["slug"] = slug
    env.filters["number"] = number
    # a text that may be the catalog's (a shipped ruleset's name) or a user's, in the language
    # (a plain string, escaped as any other: ``_()`` in a template returns markup)
    env.filters["tr"] = lambda text: str(_(str(text)))
    env.filters["count_of"] = count
    env.filters["pct"] = _pct
    return env


def slug(heading: str) -> str:
    """A heading's anchor as Markdown viewers make it (GitHub's way): lower case, every
    character but letters, digits, ``-``, ``_`` and spaces dropped, spaces as ``-``; letters
    of any script kept.

    >>> slug("3. Behaviour: where the rulesets rule differently")
    '3-behaviour-where-the-rulesets-rule-differently'
    >>> slug("5. Jeu"), slug("3. 행동: 규칙이 다르게 판정하는 곳")
    ('5-jeu', '3-행동-규칙이-다르게-판정하는-곳')
    """
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def _pct(e: Estimate) -> str:
    return _("{value}% [{low}, {high}]").format(
        value=decimal(100 * e.value, 1), low=decimal(100 * e.low, 1), high=decimal(100 * e.high, 1)
    )


def _of_each(play: Sequence[tuple[str, Any]]) -> list[Any]:
    return [figures for _title, figures in play]


def _play_lines(play: Sequence[tuple[str, PlayStats]]) -> list[list[str]]:
    """The play figures of one bot, a row per figure, a cell per column."""
    stats: list[PlayStats] = _of_each(play)
    both = _("{all} ({some})")
    return [
        [
            _("hands played (completed)"),
            *[both.format(all=number(p.hands), some=number(p.completed)) for p in stats],
        ],
        [_("turns per hand"), *[p.turns.text(1) for p in stats]],
        [_("hands ended by going out"), *[_pct(p.went_out) for p in stats]],
        [_("points per hand, first side"), *[p.points_first.text(0) for p in stats]],
        [_("points per hand, second side"), *[p.points_second.text(0) for p in stats]],
        [_("first side's advantage"), *[p.advantage.text(0) for p in stats]],
        *[
            [
                _("{kind} canastas per hand").format(kind=_(KIND_WORDS[kind])),
                *[p.canastas[kind].text(2) for p in stats],
            ]
            for kind in KINDS
        ],
        [_("cards in the pile when taken"), *[p.pile_taken.text(1) for p in stats]],
        [
            _("conservation failures (every hand at its end; one in 16 after every action)"),
            *[number(p.conservation_failures) for p in stats],
        ],
    ]


def _table(head: list[str], lines: list[list[str]]) -> str:
    return tabulate(lines, headers=head, tablefmt="pipe", disable_numparse=True)


def _play_table(play: Sequence[tuple[str, PlayStats]]) -> str:
    return _table(["", *[title for title, _figures in play]], _play_lines(play))


def _games_lines(games: Sequence[tuple[str, GameStats]]) -> list[list[str]]:
    """The games' figures, a row per figure, a cell per column."""
    stats: list[GameStats] = _of_each(games)
    both = _("{all} ({some})")
    return [
        [
            _("games played (ended by their rules)"),
            *[both.format(all=number(g.played), some=number(g.over)) for g in stats],
        ],
        [_("won by the first side"), *[_pct(g.first_wins) for g in stats]],
        [_("won by the second side"), *[_pct(g.second_wins) for g in stats]],
        [_("drawn"), *[_pct(g.draws) for g in stats]],
        [_("ended by the cap on hands"), *[_pct(g.capped) for g in stats]],
        [_("hands per game"), *[g.hands.text(1) for g in stats]],
    ]


def _games_table(games: Sequence[tuple[str, GameStats]]) -> str:
    return _table(["", *[title for title, _figures in games]], _games_lines(games))


def _pairs_table(pair: dict[str, Any], bots: Sequence[str]) -> str:
    under = [_("under {bots}").format(bots=bots_words(bot)) for bot in bots]
    head = ["", *under, _("conclusion")]
    lines = [[_(row["figure"]), *row["cells"], row["conclusion"]] for row in pair["rows"]]
    return _table(head, lines)


# --------------------------------------------------------------------------- plots


def svg_text(figure: Any) -> str:
    """A matplotlib figure as SVG text, with no date or creator: the same bytes each time with
    one matplotlib. What it plots (:func:`plotted`) goes into its description as JSON, so that
    two plots can be compared by their data where another matplotlib draws them otherwise."""
    buffer = io.StringIO()
    with drawing():
        metadata = {"Date": None, "Creator": None, "Description": plotted(figure)}
        figure.savefig(buffer, format="svg", metadata=metadata)
    text = buffer.getvalue()
    start = text.find("<svg")
    return text[start:] if start >= 0 else text


def plotted(figure: Any) -> str:
    """What a figure shows, as JSON: each plot's title and axis labels, its bars (where and how
    high), its lines and error bars (their points), and the legends' words; the numbers to six
    decimals. Not how it is drawn: tick positions, fonts, paths."""

    def points(xy: Iterable[Sequence[float]]) -> list[list[float]]:
        return [[round(float(v), 6) + 0.0 for v in p] for p in xy]  # (+ 0.0: no -0.0)

    axes = []
    for ax in figure.axes:
        axes.append(
            {
                "title": ax.get_title(),
                "x": ax.get_xlabel(),
                "y": ax.get_ylabel(),
                "bars": points((p.get_x(), p.get_width(), p.get_height()) for p in ax.patches),
                "lines": [points(line.get_xydata()) for line in ax.lines],
                "segments": [
                    points(segment) for c in ax.collections for segment in c.get_segments()
                ],
            }
        )
    legends = [[t.get_text() for t in legend.get_texts()] for legend in figure.legends]
    return json.dumps({"axes": axes, "legends": legends}, ensure_ascii=False, sort_keys=True)


#: the settings every plot is drawn and written with: the same SVG bytes each time (fixed ids,
#: text kept as text), in one size of type
_RC: dict[Any, Any] = {"svg.hashsalt": "bolivia", "svg.fonttype": "none", "font.size": 10}


@contextlib.contextmanager
def drawing() -> Iterator[None]:
    """Draw and write plots with :data:`_RC`, and text of any script without a warning per
    glyph; matplotlib's settings and the warnings filter are as they were on leaving, so a
    notebook that draws its own plots keeps its own. The SVG keeps text as text
    (``svg.fonttype`` none): the reader's fonts draw it, so a script matplotlib's own font
    lacks (Chinese, Korean) is only laid out with that font's metrics."""
    import matplotlib

    with matplotlib.rc_context(_RC), warnings.catch_warnings():
        warnings.filterwarnings("ignore", "Glyph .* missing from font", UserWarning)
        yield


def new_figure(size: tuple[float, float], layout: Literal["constrained"] | None = None) -> Any:
    """A figure of its own, drawn for SVG: a ``Figure`` object, never pyplot's (no backend
    chosen, no figure kept by matplotlib), to be drawn within :func:`drawing`."""
    from matplotlib.figure import Figure

    return Figure(figsize=size, layout=layout)


def load_plotting() -> None:
    """Import what the plots are drawn with (to do beside other work, not after it)."""
    import matplotlib.backends.backend_svg
    import matplotlib.figure  # noqa: F401


def _bars(
    ax: Any,
    x: Sequence[int],
    estimates: Sequence[Estimate],
    offset: float,
    width: float,
    label: str,
) -> None:
    """One series of bars with their 95% intervals."""
    ax.bar(
        [i + offset for i in x],
        [e.value for e in estimates],
        width,
        yerr=[[e.value - e.low for e in estimates], [e.high - e.value for e in estimates]],
        capsize=3,
        label=label,
    )


# every figure of the report: one size, drawn to be read on a phone's width as on a desktop
_FIGSIZE = (5.6, 3.6)


def _legend(fig: Any, count: int) -> None:
    fig.legend(loc="outside lower center", ncols=min(2, max(1, count)), frameon=False)


def _played_by(play: Sequence[tuple[str, PlayStats]]) -> str:
    """The bots the plotted figures were played by, in words (the first bot of the report)."""
    return bots_words(play[0][1].bot) if play else ""


def _points_plot(play: Sequence[tuple[str, PlayStats]]) -> str:
    """Points a hand by side: a pair of bars for each column, from zero."""
    names = [title.replace(" = ", " =\n") for title, _ in play]
    stats = [p for _, p in play]
    x = list(range(len(names)))
    fig = new_figure(_FIGSIZE, "constrained")
    ax = fig.subplots()
    _bars(ax, x, [p.points_first for p in stats], -0.2, 0.4, _("side that starts the hand"))
    _bars(ax, x, [p.points_second for p in stats], 0.2, 0.4, _("the other side"))
    ax.set_xticks(x, names)
    ax.set_ylim(bottom=0)
    ax.set_ylabel(_("points a hand"))
    ax.set_title(_("Points a hand, by side ({bots})").format(bots=_played_by(play)))
    _legend(fig, 2)
    return svg_text(fig)


def _canastas_plot(play: Sequence[tuple[str, PlayStats]]) -> str:
    """Canastas a hand by kind: a group of bars for each kind, a bar for each column, on one
    scale from zero."""
    x = list(range(len(KINDS)))
    width = 0.8 / max(1, len(play))
    fig = new_figure(_FIGSIZE, "constrained")
    ax = fig.subplots()
    for i, (title, p) in enumerate(play):
        offset = (i - (len(play) - 1) / 2) * width
        _bars(ax, x, [p.canastas[kind] for kind in KINDS], offset, width, title)
    ax.set_xticks(x, [_(KIND_WORDS[kind]) for kind in KINDS])
    ax.set_ylim(bottom=0)
    ax.set_ylabel(_("canastas a hand"))
    ax.set_title(_("Canastas a hand, by kind ({bots})").format(bots=_played_by(play)))
    _legend(fig, len(play))
    return svg_text(fig)


_STYLES = ["-", "--", ":", "-."]


def _turns_plot(play: Sequence[tuple[str, PlayStats]]) -> str:
    """How long hands last: the share of hands by turns, a line for each column, from zero."""
    fig = new_figure(_FIGSIZE, "constrained")
    ax = fig.subplots()
    for i, (title, p) in enumerate(play):
        turns = sorted(p.turns_histogram)
        if turns:
            total = sum(p.turns_histogram.values())
            ax.step(
                turns,
                [100 * p.turns_histogram[t] / total for t in turns],
                where="mid",
                label=title,
                linestyle=_STYLES[i % len(_STYLES)],
                linewidth=1.6,
            )
    ax.set_ylim(bottom=0)
    ax.set_xlabel(_("turns in the hand"))
    ax.set_ylabel(_("share of hands (%)"))
    ax.set_title(_("How long hands last ({bots})").format(bots=_played_by(play)))
    _legend(fig, len(play))
    return svg_text(fig)


def plots(comparison: Comparison, data: dict[str, Any] | None = None) -> dict[str, str]:
    """name -> SVG text of each plot: one measure a figure, one series per column of the
    report, every figure the same size, counts and shares from zero.

    Rulesets that set every rule alike are drawn once, under both names. Legends stay
    outside the data; the bars' lines are 95% intervals.
    """
    play = context_play(comparison, data)
    out: dict[str, str] = {}
    with drawing():
        out["points"] = _points_plot(play)
        out["canastas"] = _canastas_plot(play)
        out["turns"] = _turns_plot(play)
    return out


def context_play(
    comparison: Comparison, data: dict[str, Any] | None = None
) -> list[tuple[str, PlayStats]]:
    """The play figures per column under the first bot (rulesets with the same rules play the
    same hands once); ``data``: the comparison's :func:`context`, where the caller has it."""
    data = data if data is not None else context(comparison)
    tables: list[tuple[str, list[tuple[str, PlayStats]]]] = data["play"]["tables"]
    return tables[0][1]


# --------------------------------------------------------------------------- renderers


def render_markdown(
    comparison: Comparison, plot_files: dict[str, str], data: dict[str, Any] | None = None
) -> str:
    """The Markdown page; ``data``: the comparison's :func:`context`, where the caller has it
    (in the language being written)."""
    env = report_environment(autoescape=False)
    data = data if data is not None else context(comparison)
    return current().spaced(
        env.get_template("report.md.j2").render(
            **data,
            play_tables=[
                (bots_words(bot), _play_table(table)) for bot, table in data["play"]["tables"]
            ],
            games_table=_games_table(data["play"]["games"]) if data["play"]["games"] else "",
            pair_tables=[
                _pairs_table(pair, data["play"]["bots"]) for pair in data["play"]["pairs"]
            ],
            plot_files=plot_files,
        )
    )


def _html_tables(data: dict[str, Any]) -> dict[str, Any]:
    """The rows of the page's tables that reflow into cards on a phone (the first cell of
    each row its header)."""
    c: Comparison = data["c"]
    counts = data["counts"]
    return {
        "ruleset_rows": [
            [
                r.id,
                _(r.name),
                " → ".join(r.chain[:-1]) or "—",
                "; ".join(c.sources.called(sid) for sid in r.sources),
                {"text": counts[r.id]["stated"], "cls": "num"},
                {"text": counts[r.id]["assumed"], "cls": "num"},
                {"text": counts[r.id]["house"], "cls": "num"},
            ]
            for r in c.rulesets
        ],
        "matrix_rows": [[data["area_words"][area], *cells] for area, cells in data["matrix"]],
        "play_rows": [_play_lines(table) for _, table in data["play"]["tables"]],
        "game_rows": _games_lines(data["play"]["games"]) if data["play"]["games"] else [],
    }


def render_html(
    comparison: Comparison, svgs: dict[str, str], data: dict[str, Any] | None = None
) -> str:
    """The HTML page; ``data`` as :func:`render_markdown` takes it."""
    env = report_environment(autoescape=True)
    data = data if data is not None else context(comparison)
    page = env.get_template("report.html.j2").render(
        **data,
        **_html_tables(data),
        lang=current().code,
        svgs={name: Markup(svg) for name, svg in svgs.items()},
    )
    return current().spaced(page)


def _estimate(e: Estimate) -> dict[str, Any]:
    return e.as_json()


def _stats_json(p: PlayStats) -> dict[str, Any]:
    return {
        "ruleset": p.ruleset,
        "bot": p.bot,
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


def _relative_json(e: Estimate | None) -> dict[str, float] | None:
    if e is None:
        return None
    return {"value": round(e.value, 6), "low": round(e.low, 6), "high": round(e.high, 6)}


def _play_json(comparison: Comparison) -> dict[str, Any]:
    play = comparison.play
    s = play.sizing
    return {
        "deals": s.deals,
        "games": s.games,
        "precision": s.precision,
        "bounds": list(s.bounds),
        "bound_hit": s.bound_hit,
        "wanted": s.wanted,
        "bots": list(comparison.play.bots),
        "columns": play.columns,
        "correction": {"method": "holm", "alpha": 0.05, "family": len(play.paired)},
        "rulesets": [_stats_json(p) for p in play.stats],
        "games_played": [
            {
                "ruleset": g.ruleset,
                "bot": g.bot,
                "played": g.played,
                "over": g.over,
                "first_wins": _estimate(g.first_wins),
                "second_wins": _estimate(g.second_wins),
                "draws": _estimate(g.draws),
                "capped": _estimate(g.capped),
                "hands": _estimate(g.hands),
                "stopped": g.stopped,
            }
            for g in play.games
        ],
        "paired": [
            {
                "a": p.a,
                "b": p.b,
                "bot": p.bot,
                "figure": p.figure.name,
                "unit": p.unit,
                "kind": p.figure.kind,
                **p.difference.as_json(),
                "same": p.same,
                "level": round(p.corrected.level, 6) if p.corrected else None,
                "corrected_low": round(p.interval.low, 4) if p.corrected else None,
                "corrected_high": round(p.interval.high, 4) if p.corrected else None,
                **(
                    p_json(p.corrected.log_adjusted, "adjusted_p")
                    if p.corrected
                    else {"adjusted_p": None, "log10_adjusted_p": None}
                ),
                "shown": p.shown,
                "detectable": round(p.detectable, 4) if p.detectable != float("inf") else None,
                "relative": _relative_json(p.relative),
                "standardized": round(p.difference.value / p.sd, 4) if p.sd > 0 else None,
            }
            for p in play.paired
        ],
        "house": [
            {
                "bot": h.bot,
                "deals": h.deals,
                "other_winner": h.other_winner,
                "share": _estimate(h.share),
                "identical_play": h.identical_play,
                "identical_scores": h.identical_scores,
            }
            for h in play.house
        ],
    }


def _rule_json(row: RuleRow) -> dict[str, Any]:
    """One rule side by side, its values as JSON values and in words."""
    return {
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


def _outlier_json(apart: tuple[Column, list[str]] | None) -> dict[str, Any] | None:
    return None if apart is None else {"rulesets": list(apart[0].ids), "rules": apart[1]}


def _disagreement_json(d: Disagreement) -> dict[str, Any]:
    """A rule the sources disagree on: each value, the claims saying it, who holds it."""
    return {
        "path": d.path,
        "values": [
            {"value": json.loads(v), "claims": c, "rulesets": d.holders.get(v, [])}
            for v, c in d.values
        ],
    }


def render_json(comparison: Comparison) -> str:
    """The comparison as data (``docs/schemas/comparison.json`` describes it): rule values as
    JSON values, witnesses numbered from 1 as in the text. Its words are English, whatever
    the report's language: data for programs."""
    with speaking("en"):
        return _json_text(comparison)


def _json_text(comparison: Comparison) -> str:
    numbers = witness_numbers(comparison)
    cols = columns(comparison.rows, comparison.ids)
    data = {
        **formats.head("comparison"),
        "tool": f"bolivia {comparison.version}",
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
        "rules": [_rule_json(row) for row in comparison.rows],
        "columns": [list(col.ids) for col in cols],
        "outlier": _outlier_json(outlier(comparison.rows, cols)),
        "ranked": [
            {
                "path": row.path,
                "points": effect.points,
                "basis": str(effect.basis),
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
                "name": str(g.name),
                "about": str(g.about),
                "request": g.request,
                "results": g.results,
                "differs": g.differs,
            }
            for g in comparison.gallery
        ],
        "play": _play_json(comparison),
        "disagreements": [_disagreement_json(d) for d in comparison.disagreements],
        "silences": [{"path": path, "assumed": reasons} for path, reasons in comparison.silences],
    }
    return json.dumps(data, indent=1, ensure_ascii=False, sort_keys=False) + "\n"


def _rules_for(comparison: Comparison) -> dict[str, set[str]]:
    """Per witness, the rules it shows."""
    rules_for: dict[str, set[str]] = {}
    for finding in comparison.findings:
        if finding.witness and finding.rule:
            rules_for.setdefault(finding.witness, set()).update(finding.rule.split(" + "))
    return rules_for


def _claims(rulesets: Sequence[Ruleset], rules: Iterable[str]) -> list[str]:
    """The claims behind the rulesets' values of these rules, each once, in order."""
    claims: list[str] = []
    for ruleset in rulesets:
        for rule in rules:
            for claim in ruleset.provenance[rule].claims:
                if claim not in claims:
                    claims.append(claim)
    return claims


def _expect(witness: Witness, ids: Sequence[str]) -> dict[str, Any]:
    """What each ruleset answers a witness: its error's code, or the fields compared."""
    expect: dict[str, Any] = {}
    for rid in ids:
        result = witness.results[rid]
        if "error" in result:
            expect[rid] = {"error": result["error"]["code"]}
        else:
            expect[rid] = {k: result[k] for k in compared_keys(witness.op) if k in result}
    return expect


def witness_suite(comparison: Comparison) -> str:
    """The witnesses as a conformance suite (YAML, the spec's case format)."""

    rules_for = _rules_for(comparison)
    cases = []
    for n, witness in enumerate(comparison.witnesses, 1):
        rules = sorted(rules_for.get(witness.key, ()))
        cases.append(
            {
                "id": f"w{n:03d}-{witness.area.replace(' ', '-')}",
                "about": f"{witness.area}: where the rulesets compared rule differently "
                f"({', '.join(rules or ['rules'])})",
                "source": _claims(comparison.rulesets, rules),
                "op": witness.op,
                "input": witness.input,
                "expect": _expect(witness, comparison.ids),
            }
        )
    return yaml_text(
        {"suite": "comparison witnesses", "cases": cases},
        width=100,
    )


def write_report(
    comparison: Comparison, out: Path, formats: Iterable[str], lang: str = "en"
) -> list[Path]:
    """Write the chosen formats into ``out``, the text in the language ``lang`` (the JSON's
    words are English); the paths written. All are staged before any older file is replaced
    (:mod:`bolivia.output`): a failure leaves the older report whole."""
    with speaking(lang):
        # the figures and words every page shows, worked out once for the three (read only)
        shared = functools.cache(lambda: context(comparison))
        return write_formats(
            out,
            REPORT_NAME,
            formats,
            lambda: plots(comparison, shared()),
            lambda names: render_markdown(comparison, names, shared()),
            lambda svgs: render_html(comparison, svgs, shared()),
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
