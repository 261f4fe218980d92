"""Screening search budgets against the expert: what the search bot changes, and what it gains.

    python benchmarks/search_screen.py SPEC [SPEC ...] [--ruleset bolivia-da] [--deals 100]
                                       [--first 0] [--seed 0]

For each bot spec (``search``, ``search:playouts=16,width=3``, ...), the deals ``first`` to
``first + deals - 1`` of ``seed`` are played twice, as ``bolivia match SPEC expert`` plays
them (the spec's side at seats 0, 2, then 1, 3), in this process. Printed for each spec: the
decisions its side made, how many it searched (by the kinds of the expert's candidates), the
playouts it played (fewer than playouts times width where ``prune`` drops alternatives) and
how many times it chose otherwise than the expert would have (by the expert's choice and its
own), and the spec's margin a hand with a 95% t interval paired by deal, and its hands won.
A deal on which the search never departs from the expert is played identically in both
seatings, so it adds exactly 0 to the paired margin: the interval is the departures' doing.

Use it to screen budgets on a few hundred deals, then confirm the chosen one on other deals
with ``bolivia match SPEC expert --seed S`` (a budget picked as the best of several on the same
deals is biased upward on those deals).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from collections import Counter
from collections.abc import Sequence
from typing import Any

from bolivia.play.batch.seeds import derive_seed
from bolivia.play.batch.simulate import play_hand
from bolivia.play.bots.expert import ExpertBot
from bolivia.play.bots.registry import Bot, make_bot
from bolivia.play.bots.search import SearchBot
from bolivia.play.table.actions import Action
from bolivia.play.table.hand import Hand
from bolivia.rules.library import shipped_library

T95 = 1.96  # the normal quantile; the deals are hundreds


class Watched:
    """A search bot that counts its searched decisions and its departures from the expert."""

    def __init__(self, spec: str, tally: Counter[str]) -> None:
        bot = make_bot(spec)
        if not isinstance(bot, SearchBot):
            raise SystemExit(f"{spec}: not a search bot")
        self.bot: SearchBot = bot
        self.name = bot.name
        self.expert = ExpertBot()
        self.tally = tally

    def choose(self, hand: Hand, actions: Sequence[Action], rng: random.Random) -> Action:
        before = self.bot.played
        mine = self.bot.choose(hand, actions, rng)
        self.tally["playouts"] += self.bot.played - before
        self.tally["decisions"] += 1
        options = self.expert.consider(hand, actions)[: self.bot.width]
        if len(actions) > 1 and len(options) > 1 and self.bot.searches(options):
            self.tally["searched"] += 1
            self.tally["searched " + "/".join(type(o).__name__ for o in options)] += 1
        expert = self.expert.choose(hand, actions, random.Random(0))
        if mine != expert:
            self.tally["departed"] += 1
            self.tally[f"departed {type(expert).__name__} -> {type(mine).__name__}"] += 1
        return mine


def screen(spec: str, rid: str, deals: int, first: int, seed: int) -> dict[str, Any]:
    ruleset = shipped_library().load(rid)
    players = ruleset.rules.players.usual
    tally: Counter[str] = Counter()
    pairs: list[int] = []
    won = played = 0
    start = time.perf_counter()
    for i in range(first, first + deals):
        hand_seed = derive_seed(seed, i)
        pair = 0
        for side in (0, 1):
            bots: list[Bot] = [
                Watched(spec, tally) if s % 2 == side else ExpertBot() for s in range(players)
            ]
            _, hand = play_hand(ruleset, players, hand_seed, bots, first=i % players, check="end")
            scores = hand.result().scores
            margin = scores[side].total - scores[1 - side].total
            pair += margin
            won += margin > 0
            played += 1
        pairs.append(pair)
    mean = statistics.fmean(pairs) / 2
    half = T95 * statistics.stdev(pairs) / math.sqrt(len(pairs)) / 2 if len(pairs) > 1 else 0.0
    return {
        "spec": spec,
        "tally": tally,
        "margin": (mean, mean - half, mean + half),
        "won": (won, played),
        "seconds": time.perf_counter() - start,
    }


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("specs", nargs="+")
    parser.add_argument("--ruleset", default="bolivia-da")
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    for spec in args.specs:
        found = screen(spec, args.ruleset, args.deals, args.first, args.seed)
        tally = found["tally"]
        mean, low, high = found["margin"]
        won, played = found["won"]
        print(
            f"{found['spec']} against expert, {args.ruleset}, deals {args.first}-"
            f"{args.first + args.deals - 1} of seed {args.seed}: margin a hand {mean:+,.0f} "
            f"[{low:+,.0f}, {high:+,.0f}], hands won {won} of {played}, "
            f"{found['seconds']:.0f} s"
        )
        print(
            f"  {tally['decisions']:,} decisions, {tally['searched']:,} searched, "
            f"{tally['departed']:,} departures from the expert, {tally['playouts']:,} playouts"
        )
        for key, n in sorted(tally.items(), key=lambda kv: (-kv[1], kv[0])):
            if key.startswith(("searched ", "departed ")):
                print(f"    {n:6,}  {key}")


if __name__ == "__main__":
    main()
