"""A duplicate match's figures with their intervals, as data (versioned JSON) and as a small
table. The counts come from :func:`bolivia.play.batch.match.play_match`.

Per hand: the share of the hands that ended which A's side won (ties apart), with an interval
taking the deal (or game) played in both seatings as the unit, as its hands share their cards
(:func:`~bolivia.compare.statistics.clustered_share`). Paired: a deal (or a game) played in
both seatings is the unit, so the luck of the cards cancels: A's margin (its side's points
minus B's, averaged over the two seatings), with Student's t interval over those units.
Games: the share of the games played that A won, with Wilson's interval over them.
"""

from __future__ import annotations

from typing import Any

from bolivia import formats
from bolivia.compare.statistics import (
    Difference,
    clustered_share,
    difference_from_sums,
    proportion_ci,
)

__all__ = ["FORMAT", "VERSION", "match_json", "match_text"]

FORMAT = formats.name("match")
VERSION = formats.version("match")


def _paired(n: int, total: int, squares: int) -> Difference:
    """The mean over units of a figure summed over the two seatings, halved: the mean of the
    two seatings' figures, unit by unit."""
    return difference_from_sums(n, total, squares, scale=0.5)


def match_json(counts: dict[str, Any]) -> dict[str, Any]:
    """The match's figures, intervals included, with stable keys in a fixed order."""
    players = counts["players"]
    hands = counts["hands"]
    ended = hands["won"] + hands["lost"] + hands["tied"]
    n, sums = counts["paired_units"], counts["sums"]
    out: dict[str, Any] = {
        **formats.head("match"),
        "ruleset": counts["ruleset"],
        "players": players,
        "bots": counts["bots"],
        "seatings": counts["seatings"],
        "seed": counts["seed"],
        "seeds": f"{counts['unit']} i: derive_seed({counts['seed']}, i), i = 0 .. "
        f"{counts['units'] - 1}",
        "check": counts["check"],
        "unit": counts["unit"],
        "units": counts["units"],
        "hands": {
            "played": counts["hands_played"],
            "ended": ended,
            **hands,
            "a_win_rate": clustered_share(
                counts["units"],
                hands["won"],
                ended,
                sums["won_squares"],
                sums["won_ended"],
                sums["ended_squares"],
            ).as_json(),
        },
        "paired": {
            "unit": counts["unit"],
            "n": n,
            **counts["pairs"],
            "a_margin": _paired(n, sums["margin"], sums["margin_squares"]).as_json(),
        },
    }
    if "games" in counts:
        games = counts["games"]
        out["games"] = {
            **games,
            "a_win_rate": proportion_ci(games["won"], games["played"]).as_json(),
            "hands_per_game_mean": round(counts["game_hands"] / games["played"], 3),
        }
    out["ended_by"] = counts["ended_by"]
    out["not_ended_by_a_rule"] = counts["not_ended_by_a_rule"]
    out["conservation_failures"] = counts["conservation_failures"]
    return out


def _interval(figure: dict[str, Any], digits: int) -> str:
    if figure["low"] is None:
        return "-"
    return f"[{figure['low']:.{digits}f}, {figure['high']:.{digits}f}]"


def match_text(summary: dict[str, Any]) -> str:
    """The figures of :func:`match_json` as a few lines and a table."""
    from tabulate import tabulate

    a, b = summary["bots"]["a"], summary["bots"]["b"]
    unit, units = summary["unit"], summary["units"]
    first, second = (", ".join(map(str, s["a"])) for s in summary["seatings"])
    hands, paired = summary["hands"], summary["paired"]
    win, margin = hands["a_win_rate"], paired["a_margin"]
    df = f"t, {paired['n'] - 1} df" if paired["n"] > 1 else "t"
    rows = [
        [
            f"hands A won (of {hands['ended']} ended; {hands['tied']} tied)",
            f"{win['value']:.3f}",
            _interval(win, 3),
            f"{unit} as unit, t",
        ],
        [
            f"A's margin a {'game' if unit == 'game' else 'hand'} (A's side minus B's)",
            f"{margin['value']:+.1f}",
            _interval(margin, 1),
            f"paired, {unit} as unit, {df}",
        ],
    ]
    if "games" in summary:
        games = summary["games"]
        rows.append(
            [
                f"games A won (of {games['played']}; {games['draws']} drawn)",
                f"{games['a_win_rate']['value']:.3f}",
                _interval(games["a_win_rate"], 3),
                "Wilson, game as unit",
            ]
        )
    lines = [
        f"{summary['ruleset']}, {summary['players']} players: {a} (A) against {b} (B); "
        f"{units} {unit}{'s' if units != 1 else ''}, each played twice: "
        f"A at seats {first}, then {second}",
        f"seed {summary['seed']} ({unit} i from derive_seed({summary['seed']}, i)); "
        f"check {summary['check']}",
        "",
        tabulate(
            rows,
            headers=["", "value", "95% interval", "how"],
            tablefmt="simple",
            disable_numparse=True,
        ),
        "",
        f"{unit}s in both seatings: {paired['both_won']} both won by A, {paired['split']} "
        f"split, {paired['both_lost']} both lost, {paired['with_a_tie']} with a tie "
        f"(of {paired['n']} whose two plays ended)",
    ]
    if "games" in summary:
        games = summary["games"]
        lines.append(
            f"games: {games['capped']} ended by the cap on hands, "
            f"{games['stopped_hand_limit'] + games['stopped_hand_not_ended']} stopped; "
            f"{games['hands_per_game_mean']} hands a game"
        )
    return "\n".join(lines)
