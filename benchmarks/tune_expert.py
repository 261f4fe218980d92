"""Tuning the expert's weights for a ruleset against greedy, judged on deals kept apart.

    python benchmarks/tune_expert.py RULESET [--weights pair,hand,run,risk] [--seed 100]
        [--deals 600] [--judge-seed 777] [--judge-deals 1000] [--rounds 3]

A coordinate search: from the defaults (:class:`~bolivia.play.bots.tables.Weights`), each weight
named is tried at 0.6, 0.8, 1.25 and 1.6 times its value in turn, and a value is kept where the
expert's share of hands won against greedy on the tuning deals (``--deals`` of ``--seed``,
duplicate: each deal played twice with the seats swapped) rises by more than 0.3 points; rounds
go on while one does. The weights found and the defaults are then played once on the judging
deals (``--judge-deals`` of ``--judge-seed``), which the search never saw. Prints each trial,
then both judged shares and margins. What ``bolivia/play/bots/tuned.py`` holds for bolivia-fr
came from ``python benchmarks/tune_expert.py bolivia-fr``.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence

from bolivia.play.batch.seeds import derive_seed
from bolivia.play.batch.simulate import play_hand
from bolivia.play.bots.expert import ExpertBot
from bolivia.play.bots.simple import GreedyBot
from bolivia.play.bots.tables import Weights
from bolivia.rules.library import shipped_library
from bolivia.rules.ruleset import Ruleset

FACTORS = (0.6, 0.8, 1.25, 1.6)
GAIN = 0.003  # the rise in the share of hands won a new value must bring


def weights_of(values: dict[str, float]) -> Weights:
    weights = Weights()
    for name, value in values.items():
        setattr(weights, name, value)
    return weights


def share_won(
    ruleset: Ruleset, values: dict[str, float], seed: int, deals: int
) -> tuple[float, float]:
    """The expert's share of hands won against greedy (a tie half) and its margin a hand."""
    weights = weights_of(values)
    players = ruleset.rules.players.usual
    won = 0.0
    margin = 0
    for i in range(deals):
        for side in (0, 1):
            bots = [ExpertBot(weights) if s % 2 == side else GreedyBot() for s in range(players)]
            _, hand = play_hand(
                ruleset, players, derive_seed(seed, i), bots, first=i % players, check="none"
            )
            scores = hand.result().scores
            m = scores[side].total - scores[1 - side].total
            won += 1.0 if m > 0 else 0.5 if m == 0 else 0.0
            margin += m
    return won / (2 * deals), margin / (2 * deals)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("ruleset")
    parser.add_argument("--weights", default="pair,hand,run,risk")
    parser.add_argument("--seed", type=int, default=100)
    parser.add_argument("--deals", type=int, default=600)
    parser.add_argument("--judge-seed", type=int, default=777)
    parser.add_argument("--judge-deals", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    ruleset = shipped_library().load(args.ruleset)
    defaults = Weights()
    found: dict[str, float] = {}
    best, _ = share_won(ruleset, found, args.seed, args.deals)
    print(f"defaults on the tuning deals: {100 * best:.2f}%", flush=True)
    for rnd in range(args.rounds):
        improved = False
        for name in args.weights.split(","):
            base = found.get(name, getattr(defaults, name))
            for factor in FACTORS:
                trial = {**found, name: round(base * factor, 4)}
                share, _ = share_won(ruleset, trial, args.seed, args.deals)
                print(f"  round {rnd}: {name} = {trial[name]}: {100 * share:.2f}%", flush=True)
                if share > best + GAIN:
                    best, found, improved = share, trial, True
                    base = trial[name]
        print(f"round {rnd}: {json.dumps(found)} {100 * best:.2f}%", flush=True)
        if not improved:
            break
    for label, values in (("defaults", {}), ("found", found)):
        share, margin = share_won(ruleset, values, args.judge_seed, args.judge_deals)
        print(
            f"judged ({args.judge_deals} deals of seed {args.judge_seed}), {label} "
            f"{json.dumps(values)}: {100 * share:.2f}% of hands won, margin {margin:+,.0f} a hand"
        )


if __name__ == "__main__":
    main()
