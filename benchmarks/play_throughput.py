"""Hands and actions per second: every ruleset, random and greedy bots, one process.

    python benchmarks/play_throughput.py [--hands N] [--repeat R] [--rulesets ID,...]
        [--check every|sampled|end|none]

Each hand is dealt from its own seed and played to its end by four bots of one kind (the
ruleset's usual number of players); legal-action generation, the bots' choices and the
verification of every applied action are all counted. With --check, the card-conservation
check runs as `bolivia simulate --check` says (its default: sampled). Each measurement
is repeated (--repeat, default 3) and the median printed, with the slowest and fastest run's
actions per second beside it: the spread says how much to trust the figure on a shared
machine.
"""

from __future__ import annotations

import argparse
import statistics
import time

from bolivia.play.batch.seeds import derive_seed
from bolivia.play.batch.simulate import play_hand
from bolivia.play.bots.simple import GreedyBot, RandomBot
from bolivia.rules.library import shipped_library

SIX = ["canasta", "samba", "bolivia-fr", "bolivia-da", "bolivia-zh", "bolivia-ko"]


def measure(rid: str, bot: str, hands: int, check: str) -> tuple[float, float, float]:
    ruleset = shipped_library().load(rid)
    players = ruleset.rules.players.usual
    bots = [RandomBot() if bot == "random" else GreedyBot()] * players
    actions = 0
    start = time.perf_counter()
    for index in range(hands):
        stats, _ = play_hand(ruleset, players, derive_seed(42, index), bots, check=check)
        assert stats.completed, stats.ended_by
        actions += stats.actions
    seconds = time.perf_counter() - start
    return hands / seconds, actions / seconds, actions / hands


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=100)
    parser.add_argument("--rulesets", default=",".join(SIX))
    parser.add_argument("--bots", default="random,greedy")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--check", choices=["every", "sampled", "end", "none"], default="none")
    args = parser.parse_args()
    print(
        f"{'ruleset':12} {'bots':7} {'hands/s':>9} {'actions/s':>10} {'actions/hand':>13} "
        f"{'actions/s range':>17}"
    )
    for rid in args.rulesets.split(","):
        for bot in args.bots.split(","):
            runs = [measure(rid, bot, args.hands, args.check) for _ in range(args.repeat)]
            hps = statistics.median(r[0] for r in runs)
            aps = [r[1] for r in runs]
            per = runs[0][2]  # the same hands every run
            spread = f"{min(aps):,.0f}-{max(aps):,.0f}"
            print(
                f"{rid:12} {bot:7} {hps:9.1f} {statistics.median(aps):10,.0f} {per:13.1f} "
                f"{spread:>17}"
            )


if __name__ == "__main__":
    main()
