"""Hands and actions per second: every ruleset, random and greedy bots, one process.

    python benchmarks/play_throughput.py [--hands N] [--rulesets ID,...] [--check]

Each hand is dealt from its own seed and played to its end by four bots of one kind (the
ruleset's usual number of players); legal-action generation, the bots' choices and the
verification of every applied action are all counted. With --check, the card-conservation
check runs after every action too (as `bolivia simulate` does by default).
"""

from __future__ import annotations

import argparse
import time

from bolivia.bots import GreedyBot, RandomBot
from bolivia.ruleset import shipped_library
from bolivia.simulate import derive_seed, play_hand

SIX = ["canasta", "samba", "bolivia-fr", "bolivia-da", "bolivia-zh", "bolivia-ko"]


def measure(rid: str, bot: str, hands: int, check: bool) -> tuple[float, float, float]:
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
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    print(f"{'ruleset':12} {'bots':7} {'hands/s':>9} {'actions/s':>10} {'actions/hand':>13}")
    for rid in args.rulesets.split(","):
        for bot in args.bots.split(","):
            hps, aps, per = measure(rid, bot, args.hands, args.check)
            print(f"{rid:12} {bot:7} {hps:9.1f} {aps:10,.0f} {per:13.1f}")


if __name__ == "__main__":
    main()
