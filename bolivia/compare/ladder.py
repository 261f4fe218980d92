"""A ladder's figures: each ruleset's ratings of the bots (:mod:`bolivia.compare.ratings`)
and each match's share of hands won, as data (``bolivia ladder --json``) and as text.

May import: the batch runs and the statistics.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bolivia import formats
from bolivia.compare.ratings import RESAMPLES, rate
from bolivia.compare.statistics import clustered_share
from bolivia.play.batch.ladder import LadderMatch
from bolivia.play.batch.seeds import derive_seed
from bolivia.text import terminal

__all__ = ["FORMAT", "VERSION", "anchor_of", "ladder_json", "ladder_text"]

FORMAT = formats.name("ladder")
VERSION = formats.version("ladder")


def anchor_of(bots: Sequence[str]) -> str:
    """The bot rated 0: ``greedy`` where it plays, else the first."""
    return "greedy" if "greedy" in bots else bots[0]


def ladder_json(
    matches: Sequence[LadderMatch],
    bots: Sequence[str],
    players: dict[str, int],
    *,
    deals: int,
    seed: int,
) -> dict[str, Any]:
    """The ladder as data: per ruleset, the ratings with their intervals and every match."""
    anchor = anchor_of(bots)
    rulesets = list(dict.fromkeys(m.ruleset for m in matches))
    out: list[dict[str, Any]] = []
    for k, rid in enumerate(rulesets):
        mine = [m for m in matches if m.ruleset == rid]
        ratings = rate(
            bots,
            {(m.bot_a, m.bot_b): m.scores for m in mine},
            {(m.bot_a, m.bot_b): m.hands for m in mine},
            anchor=anchor,
            seed=derive_seed(seed, 1, k),
        )
        out.append(
            {
                "ruleset": rid,
                "players": players[rid],
                "ratings": [
                    {
                        "bot": r.bot,
                        "rating": round(r.rating, 1),
                        "low": round(r.low, 1),
                        "high": round(r.high, 1),
                    }
                    for r in sorted(ratings, key=lambda r: -r.rating)
                ],
                "matches": [_match_json(m) for m in mine],
            }
        )
    return {
        **formats.head("ladder"),
        "seed": seed,
        "deals": deals,
        "bots": list(bots),
        "anchor": anchor,
        "resamples": RESAMPLES,
        "rulesets": out,
    }


def _match_json(m: LadderMatch) -> dict[str, Any]:
    hands = sum(m.hands)
    # the deal is the unit (its two hands share their cards), as a match's; scores count in
    # halves (a tie), so in whole half-points the share's sums are integers
    halves = [round(2 * s) for s in m.scores]
    sizes = [2 * n for n in m.hands]
    share = (
        clustered_share(
            len(halves),
            sum(halves),
            sum(sizes),
            sum(h * h for h in halves),
            sum(h * n for h, n in zip(halves, sizes, strict=True)),
            sum(n * n for n in sizes),
        )
        if hands
        else None
    )
    return {
        "a": m.bot_a,
        "b": m.bot_b,
        "deals": len(m.scores),
        "hands": hands,
        "a_points": sum(m.scores),
        "a_won": None
        if share is None
        else {
            "value": round(m.won, 4),
            "low": round(share.low, 4),
            "high": round(share.high, 4),
        },
        "not_ended_by_a_rule": m.not_by_rule,
        "conservation_failures": m.conservation_failures,
    }


def ladder_text(data: dict[str, Any]) -> str:
    """The ladder for a terminal: per ruleset, the ratings, then each match (names escaped
    for the terminal: a ruleset's id or a bot's spec may come from a user's file)."""
    bots = ", ".join(terminal(b) for b in data["bots"])
    lines = [
        f"Ladder of {bots}: {data['deals']:,} deals of seed {data['seed']} a match, each "
        f"played twice. Ratings on the Elo scale ({terminal(data['anchor'])} 0; 100 points "
        f"more is 64% of hands won), with 95% intervals from {data['resamples']:,} draws of "
        "the deals."
    ]
    for entry in data["rulesets"]:
        lines += ["", f"{terminal(entry['ruleset'])} ({entry['players']} players)"]
        width = max(len(terminal(r["bot"])) for r in entry["ratings"])
        for r in entry["ratings"]:
            lines.append(
                f"  {terminal(r['bot']):<{width}}  {r['rating']:+7.0f}  "
                f"[{r['low']:+.0f}, {r['high']:+.0f}]"
            )
        for m in entry["matches"]:
            won = m["a_won"]
            shown = (
                "no hand ended"
                if won is None
                else f"{100 * won['value']:.1f}% [{100 * won['low']:.1f}, {100 * won['high']:.1f}]"
            )
            extra = (
                f"; {m['not_ended_by_a_rule']} not ended by a rule"
                if m["not_ended_by_a_rule"]
                else ""
            )
            lines.append(
                f"  {terminal(m['a'])} against {terminal(m['b'])}: {shown} of "
                f"{m['hands']:,} hands won{extra}"
            )
    return "\n".join(lines)
