"""The play section in words, as the templates print it.

It holds:

- The figures per bot and column.
- The paired differences, grouped by pair of columns, with what holds under both bots.
- The games to the target.
- The sentence naming the correction and its family.
- For a house ruleset, the check against its base.

Nothing here claims a difference the corrected interval does not show.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from typing import Any

from bolivia.compare.comparison import Comparison
from bolivia.compare.paired import (
    ALPHA,
    DEAL_FIGURES,
    GAME_FIGURES,
    POINTS,
    Figure,
    PairedFigure,
)
from bolivia.compare.playing import GAME_BOT, bot_kind
from bolivia.compare.statistics import no_change_bound
from bolivia.compare.summary import Column
from bolivia.language import N_, decimal, ngettext, number, percent, worded
from bolivia.language import gettext_ as _
from bolivia.rules.phrases import count, join_words, label

__all__ = [
    "bots_words",
    "figure_parts",
    "figure_text",
    "play_context",
    "play_sentence",
    "play_sentences",
]

# each bot of the report as the text names the four at a table
_BOTS = {
    "expert": N_("expert bots"),
    "greedy": N_("greedy bots"),
    "random": N_("random bots"),
    "search": N_("search bots"),
}


def bots_words(bot: str) -> str:
    """The four bots of a kind at a table, in words, without a budget: ``search bots`` for
    ``search:playouts=16,width=3``."""
    return worded(_BOTS, bot_kind(bot), N_("{key} bots"))


# what each kind of bot does, for a club: a sentence each, after the deals played
_ABOUT = {
    "search": N_(
        "Search bots are the strongest bots here: at the big decisions (taking the pile, going "
        "out) they try their best few moves, play each to the end of the hand on many guesses "
        "of the cards they cannot see, and keep the one that did best."
    ),
    "expert": N_(
        "Expert bots weigh each move by what it builds, what it risks and what it leaves the "
        "next player."
    ),
    "greedy": N_("Greedy bots make the move that scores most at once."),
    "random": N_("Random bots pick any legal move."),
}


# a figure's unit, named in a sentence: "too few deals" (counted by the rules' phrases: "100 deals")
_UNITS = {"deal": N_("deals"), "game": N_("games")}


def _number(value: float, digits: int, share: bool, sign: bool = True) -> str:
    if share:
        value, digits = value * 100, 1
    return decimal(value, digits, sign=sign)


def figure_parts(p: PairedFigure) -> tuple[str, str]:
    """A paired difference in words, in two parts: the value and its corrected interval (a
    share's in percentage points, pp), or that it was the same on every unit; and, when no
    difference is shown, that none is and the smallest one the run detects ("" when shown)."""
    share = p.figure.kind == "share"
    digits = p.figure.digits
    units = _UNITS.get(p.unit, N_("units"))
    if p.difference.n == 0:
        return _("none of the {units} ended under both").format(units=_(units)), ""
    e = p.interval
    interval = N_("{value} [{low}, {high}] pp") if share else N_("{value} [{low}, {high}]")
    text = _(interval).format(
        value=_number(e.value, digits, share),
        low=_number(e.low, digits, share, sign=False),
        high=_number(e.high, digits, share, sign=False),
    )
    if p.same:
        n = p.difference.n
        all_of = count(n, p.unit)
        if share:
            return _("the same on all {units}: {interval}").format(units=all_of, interval=text), ""
        bound = 100 * no_change_bound(n, p.corrected.level if p.corrected else 0.95)
        return _("the same on all {units} (at most {share} of {unit_name} differ)").format(
            units=all_of, share=percent(bound, 1), unit_name=_(units)
        ), ""
    if p.shown:
        return text, ""
    if math.isinf(p.detectable) or (share and p.detectable >= 1):
        return text, _("no difference shown (too few {units} to detect one)").format(units=_(units))
    detects = _number(p.detectable, digits, share, False)
    return text, _("no difference shown (detects ±{size})").format(size=detects)


def _signed_percent(share: float) -> str:
    return _("{value}%").format(value=decimal(100 * share, 0, sign=True))


def _relative(text: str, p: PairedFigure) -> str:
    """A shown difference with, beside it, the same in relative terms (``+54% [40%, 69%]``),
    where its figure is told so."""
    r = p.relative
    if r is None:
        return text
    return _("{difference} ({relative} [{low}, {high}])").format(
        difference=text,
        relative=_signed_percent(r.value),
        low=_signed_percent(r.low),
        high=_signed_percent(r.high),
    )


def figure_text(p: PairedFigure) -> str:
    """:func:`figure_parts` as one phrase, a shown amount with its relative difference."""
    value, note = figure_parts(p)
    if note:
        return _("{value}: {note}").format(value=value, note=note)
    return _relative(value, p) if p.shown else value


def _cell(p: PairedFigure) -> tuple[str, str, str]:
    """A table cell's lines: :func:`figure_parts`, and a shown amount's relative difference
    ("" for none), in its brackets, for a line of its own."""
    value, note = figure_parts(p)
    return value, note, _relative("", p).strip() if p.shown and p.relative else ""


def _conclusion(figures: Sequence[PairedFigure]) -> str:
    shown = [p for p in figures if p.shown]
    if not shown:
        if len(figures) > 1:
            return _("no difference shown under either bot")
        return _("no difference shown")
    if len(figures) == 1:
        return _("shown (games under {bots})").format(bots=bots_words(figures[0].bot))
    signs = {p.difference.value > 0 for p in shown}
    if len(shown) == len(figures):
        if len(signs) == 1:
            return _("shown under both bots")
        return _("the bots disagree on its sign")
    return _("shown under {bots} only").format(bots=bots_words(shown[0].bot))


# what a figure's difference does to play, said of the first column against the second, each
# a whole sentence: (when it is larger, when it is smaller, the unit its size is told in)
_SENTENCES = {
    "points a hand (both sides)": (
        N_("Under {a}, hands score more points (both sides together) than under {b}: {sizes}."),
        N_("Under {a}, hands score fewer points (both sides together) than under {b}: {sizes}."),
        "points a hand",
    ),
    "first side's advantage a hand": (
        N_("Under {a}, the side that starts a hand ends it further ahead than under {b}: {sizes}."),
        N_(
            "Under {a}, the side that starts a hand ends it less far ahead than under {b}: {sizes}."
        ),
        "points a hand",
    ),
    "turns a hand": (
        N_("Under {a}, hands last longer than under {b}: {sizes}."),
        N_("Under {a}, hands are shorter than under {b}: {sizes}."),
        "turns",
    ),
    "hands ended by going out": (
        N_("Under {a}, hands end by going out more often than under {b}: {sizes}."),
        N_("Under {a}, hands end by going out less often than under {b}: {sizes}."),
        "points of percentage",
    ),
    "canastas a hand": (
        N_("Under {a}, sides make more canastas than under {b}: {sizes}."),
        N_("Under {a}, sides make fewer canastas than under {b}: {sizes}."),
        "a hand",
    ),
    "escalera canastas a hand": (
        N_("Under {a}, sides make more escaleras than under {b}: {sizes}."),
        N_("Under {a}, sides make fewer escaleras than under {b}: {sizes}."),
        "a hand",
    ),
    "hands a game": (
        N_("Under {a}, games last more hands than under {b}: {sizes}."),
        N_("Under {a}, games last fewer hands than under {b}: {sizes}."),
        "hands a game",
    ),
    "games won by the first side": (
        N_("Under {a}, the side that starts a game wins more often than under {b}: {sizes}."),
        N_("Under {a}, the side that starts a game wins less often than under {b}: {sizes}."),
        "points of percentage",
    ),
}
# a size in its unit, with its corrected interval
_SIZES = {
    "points a hand": N_("{value} points a hand (between {low} and {high})"),
    "turns": N_("{value} turns (between {low} and {high})"),
    "points of percentage": N_("{value} points of percentage (between {low} and {high})"),
    "a hand": N_("{value} a hand (between {low} and {high})"),
    "hands a game": N_("{value} hands a game (between {low} and {high})"),
}
# what each bot shows: a size, or no difference
_BY_BOT = {
    "expert": (N_("by {size} with expert bots"), N_("no difference shown with expert bots")),
    "greedy": (N_("by {size} with greedy bots"), N_("no difference shown with greedy bots")),
    "random": (N_("by {size} with random bots"), N_("no difference shown with random bots")),
    "search": (N_("by {size} with search bots"), N_("no difference shown with search bots")),
}


def _size(p: PairedFigure, unit: str) -> str:
    """A shown difference's size, unsigned, with its unit and corrected interval in words:
    ``16.2 turns (between 14.1 and 18.3)``."""
    share = p.figure.kind == "share"
    e = p.interval
    low, high = (e.low, e.high) if e.value >= 0 else (-e.high, -e.low)

    def number(x: float) -> str:
        return _number(x, p.figure.digits, share, sign=False)

    return _(_SIZES[unit]).format(value=number(abs(e.value)), low=number(low), high=number(high))


def play_sentence(a: str, b: str, figures: Sequence[PairedFigure]) -> str | None:
    """What one figure's paired differences say, as a sentence for the first page; None when
    no bot shows a difference.

    Each size comes with its corrected interval and the bots it holds under: "Under A, hands
    are shorter than under B: by 16.2 turns (between 14.1 and 18.3) with expert bots, by 15.8
    turns (between 13.6 and 18.0) with greedy bots."
    """
    shown = [p for p in figures if p.shown]
    if not shown:
        return None
    more, fewer, unit = _SENTENCES[figures[0].figure.name]
    signs = {p.interval.value > 0 for p in shown}
    if len(signs) > 1:
        return _(
            "On {figure}, the bots disagree between {a} and {b}: one shows more, the other "
            "less (section 5)."
        ).format(figure=_(figures[0].figure.name), a=a, b=b)
    sizes = [
        _(_BY_BOT[bot_kind(p.bot)][0]).format(size=_size(p, unit))
        if p.shown
        else _(_BY_BOT[bot_kind(p.bot)][1])
        for p in figures
    ]
    return _(more if signs.pop() else fewer).format(a=a, b=b, sizes=_(", ").join(sizes))


def play_sentences(comparison: Comparison, cols: Sequence[Column]) -> list[str]:
    """The first page's sentences on what the differences do to play, pair by pair, each
    figure a difference is shown for."""
    titles = _titles(cols)
    out = []
    for a, b in itertools.combinations([c.first for c in cols], 2):
        mine = [p for p in comparison.play.paired if (p.a, p.b) == (a, b)]
        for figure, _measure in (*DEAL_FIGURES, *GAME_FIGURES):
            said = play_sentence(titles[a], titles[b], [p for p in mine if p.figure == figure])
            if said is not None:
                out.append(said)
    return out


def _titles(cols: Sequence[Column]) -> dict[str, str]:
    return {col.first: col.title for col in cols}


def _figure_row(figure: Figure, of: Sequence[PairedFigure], bots: Sequence[str]) -> dict[str, Any]:
    """One figure's row of a pair's table: its difference under each bot, and what it shows."""
    by_bot = {p.bot: p for p in of}
    return {
        "figure": figure.name,
        "unit": of[0].unit,
        "cells": [figure_text(by_bot[bot]) if bot in by_bot else "" for bot in bots],
        "parts": [_cell(by_bot[bot]) if bot in by_bot else ("", "", "") for bot in bots],
        "conclusion": _conclusion(of),
        "shown": any(p.shown for p in of),
    }


def _pair(
    titles: dict[str, str], a: str, b: str, mine: Sequence[PairedFigure], bots: Sequence[str]
) -> dict[str, Any]:
    """One pair of columns: a row for each figure measured, and the points a hand."""
    rows = []
    for figure, _measure in (*DEAL_FIGURES, *GAME_FIGURES):
        of = [p for p in mine if p.figure == figure]
        if of:
            rows.append(_figure_row(figure, of, bots))
    points = [p for p in mine if p.figure == POINTS]
    return {
        "a": titles[a],
        "b": titles[b],
        "rows": rows,
        "points": {p.bot: figure_text(p) for p in points},
        "points_conclusion": _conclusion(points),
    }


def _pairs(comparison: Comparison, cols: Sequence[Column]) -> list[dict[str, Any]]:
    """Every pair of columns, each with its paired differences."""
    titles = _titles(cols)
    return [
        _pair(
            titles,
            a,
            b,
            [p for p in comparison.play.paired if (p.a, p.b) == (a, b)],
            comparison.play.bots,
        )
        for a, b in itertools.combinations([c.first for c in cols], 2)
    ]


def _correction(comparison: Comparison, cols: Sequence[Column]) -> str:
    m = len(comparison.play.paired)
    pairs = len(cols) * (len(cols) - 1) // 2
    if not pairs:
        return _("With every ruleset in one column, there is no difference to pair.")
    strictest = percent(100 * (1 - ALPHA / max(m, 1)), 2)
    family = (
        _("{pairs}; {figures} figures of hands under each of {bots} bots and the games' figures")
        if comparison.play.games
        else _("{pairs}; {figures} figures of hands under each of {bots} bots")
    ).format(
        pairs=ngettext("{n} pair of columns", "{n} pairs of columns", pairs).format(n=pairs),
        figures=len(DEAL_FIGURES),
        bots=len(comparison.play.bots),
    )
    said = _(
        "Every difference is paired on the same deals (and games) and corrected with Holm's "
        "step-down procedure over the family of all {m} differences of this section "
        "({family}), family-wise error {alpha}: each interval is at the level Holm's step "
        "tests it at (from {strictest} for the smallest p-value up to {level}), and a "
        "difference is called only when that interval excludes 0. Means: Student's t over the "
        "deals; shares: Tango's score interval with McNemar's test, in percentage points (pp). "
        "Where no difference is shown, the smallest difference the run detects ({power} power "
        "at the strictest level, {strictest}) is given."
    ).format(
        m=m,
        family=family,
        alpha=percent(100 * ALPHA),
        strictest=strictest,
        level=percent(95),
        power=percent(80),
    )
    relative = _(
        "Beside an amount shown to differ (points, turns, canastas, hands), the same in "
        "relative terms, which holds across packs and scoring: the first column's mean over "
        "the second's on the same deals, less 1, with Fieller's interval at the same level "
        "(it leaves out no change exactly when the difference's interval does)."
    )
    return f"{said} {relative}"


def _sizing(comparison: Comparison) -> str:
    s = comparison.play.sizing
    bots = join_words([bots_words(bot) for bot in comparison.play.bots], "and")
    deals = count(s.deals, "deal")
    text = _(
        "{deals} per column under each kind of bot ({bots}, four of a kind at the table)"
    ).format(deals=deals, bots=bots)
    if s.precision is not None:
        low, high = s.bounds
        text += _(
            ", the number chosen for a corrected interval of ±{precision} points a hand on every "
            "pair's difference, between {low} and {high} deals"
        ).format(precision=number(round(s.precision)), low=number(low), high=number(high))
        if s.bound_hit:
            if s.wanted > high:
                text += _("; the upper bound was hit: that precision wanted {n} deals").format(
                    n=number(s.wanted)
                )
            else:
                text += _("; the lower bound was hit: {n} deals would have given it").format(
                    n=number(s.wanted)
                )
    return text + _("; {games} to the target per column under {bots}").format(
        games=count(s.games, "game"),
        bots=bots_words(GAME_BOT),
    )


def _about_bots(comparison: Comparison) -> str:
    """What each kind of bot played does, a sentence each, in the order they are named."""
    played = (*comparison.play.bots, GAME_BOT) if comparison.play.games else comparison.play.bots
    return " ".join(_(_ABOUT[kind]) for kind in dict.fromkeys(map(bot_kind, played)))


def _house(comparison: Comparison, cols: Sequence[Column]) -> dict[str, Any] | None:
    checks = comparison.play.house
    if not checks or comparison.base is None:
        return None
    changed = [label(row.path) for row in comparison.rows if row.differs]
    rows = [
        {
            "bots": bots_words(c.bot),
            "deals": c.deals,
            "other": c.other_winner,
            "share": c.share,
            "identical": c.identical_play,
        }
        for c in checks
    ]
    warning = None
    if all(c.identical_play for c in checks):
        scores = all(c.identical_scores for c in checks)
        shows = _("shows nothing at all") if scores else _("shows only in what the hands score")
        warning = _(
            "Play is identical on every deal under every bot ({deals} deals each): no bot "
            "reacts to {rules}, so in single hands the change {shows}. A rule of the whole game "
            "(the target, a cap on hands, ties) shows in the games' figures instead. People may "
            "well play differently: only a bot that reads the rule could show it here (with "
            "{deals} identical deals, at most {share} of deals would be played differently, "
            "{level})."
        ).format(
            deals=number(checks[0].deals),
            rules=join_words(changed, "or"),
            shows=shows,
            share=percent(100 * checks[0].bound, 1),
            level=percent(95),
        )
    return {"base": comparison.base, "rows": rows, "warning": warning}


def play_context(comparison: Comparison, cols: Sequence[Column]) -> dict[str, Any]:
    titles = _titles(cols)
    play = comparison.play
    tables = [
        (bot, [(titles[p.ruleset], p) for p in play.stats if p.bot == bot and p.ruleset in titles])
        for bot in play.bots
    ]
    return {
        "sizing": _sizing(comparison),
        "about_bots": _about_bots(comparison),
        "tables": tables,
        "games": [(titles[g.ruleset], g) for g in play.games if g.ruleset in titles],
        "game_bot": GAME_BOT,
        "game_bots": bots_words(GAME_BOT),
        "bots": list(play.bots),
        "bots_words": [bots_words(bot) for bot in play.bots],
        "pairs": _pairs(comparison, cols),
        "correction": _correction(comparison, cols),
        "house": _house(comparison, cols),
        "sentences": play_sentences(comparison, cols),
    }
