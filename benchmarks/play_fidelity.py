"""Play fidelity, at scale: every hand ends by a rule (going out or the stock), never by a dead
end, a cap or a crash, under every shipped ruleset and under random house rules.

    python benchmarks/play_fidelity.py [--random 10000] [--greedy 1000] [--house 200]
                                       [--workers 2] [--seed 1] [--no-check]

For each shipped ruleset, ``--random`` hands of random bots and ``--greedy`` hands of greedy
bots (seeded, with the card-conservation check after every action unless ``--no-check``),
then ``--house`` random house rulesets -- one to six fields of a shipped ruleset set to values
other shipped rulesets use, validated like ``bolivia new`` -- each played for two random and
one greedy hand. Prints how hands ended, how many did not end by a rule, conservation
failures and the speed; the house-rule part also counts rulesets the validation refused and
names any that crashed or dead-ended. Exit status 1 when anything did not end by a rule.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
import traceback
from pathlib import Path
from typing import Any

import yaml

from bolivia.authoring.house import nest_paths
from bolivia.errors import RulesetError
from bolivia.play.batch.seeds import derive_seed
from bolivia.play.batch.simulate import RULE_ENDINGS, RunSpec, play_hand, run
from bolivia.play.bots.simple import GreedyBot, RandomBot
from bolivia.rules.library import Library, LibrarySpec, shipped_library
from bolivia.rules.tree import leaf_paths

SIX = ["canasta", "samba", "bolivia-fr", "bolivia-da", "bolivia-zh", "bolivia-ko"]


def shipped(args: argparse.Namespace) -> int:
    bad = 0
    print(
        f"{'ruleset':12} {'bots':7} {'hands':>6} {'not by rule':>11} {'cons.':>5} "
        f"{'hands/s':>8}  ended by"
    )
    for rid in SIX:
        players = shipped_library().load(rid).rules.players.usual
        for bots, hands in (("random", args.random), ("greedy", args.greedy)):
            if not hands:
                continue
            spec = RunSpec(
                rid,
                LibrarySpec(),
                players,
                (bots,) * players,
                args.seed,
                hands=hands,
                check="none" if args.no_check else "every",
            )
            summary = run(spec, args.workers)
            unruled = summary["not_ended_by_a_rule"]
            bad += unruled + summary["conservation_failures"]
            print(
                f"{rid:12} {bots:7} {summary['hands']:>6} {unruled:>11} "
                f"{summary['conservation_failures']:>5} {summary['hands_per_second']:>8}  "
                f"{summary['ended_by']}",
                flush=True,
            )
    return bad


def _pool() -> dict[str, list[Any]]:
    """Every value each field takes in some shipped ruleset."""
    pool: dict[str, list[Any]] = {}
    for ruleset in shipped_library().all():
        for path in leaf_paths():
            value = ruleset.value(path)
            if value not in pool.setdefault(path, []):
                pool[path].append(value)
    return pool


def house(args: argparse.Namespace) -> int:
    pool = _pool()
    paths = sorted(pool)
    rng = random.Random(args.seed)
    refused = played = 0
    failures: list[str] = []
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        for n in range(args.house):
            base = rng.choice(SIX)
            overrides = {p: rng.choice(pool[p]) for p in rng.sample(paths, rng.randint(1, 6))}
            data = {
                "id": f"house-{n}",
                "extends": base,
                **nest_paths(overrides),
                "provenance": {
                    "extends": {"house": "fuzz"},
                    **{p: {"house": "fuzz"} for p in overrides},
                },
            }
            path = Path(folder) / f"house-{n}.yaml"
            path.write_text(yaml.safe_dump(data), encoding="utf-8")
            try:
                ruleset = Library().load(path)
            except RulesetError:
                refused += 1
                continue
            players = ruleset.rules.players.usual
            if players not in ruleset.rules.players.seats:
                refused += 1
                continue
            played += 1
            for k, bot in enumerate((RandomBot(), RandomBot(), GreedyBot())):
                seed = derive_seed(args.seed, n, k)
                try:
                    stats, _ = play_hand(
                        ruleset,
                        players,
                        seed,
                        [bot] * players,
                        check="none" if args.no_check else "every",
                    )
                except Exception:  # a crash is what this looks for: name it and go on
                    failures.append(
                        f"{base} {overrides} seed {seed}: crash\n{traceback.format_exc(limit=3)}"
                    )
                    continue
                if stats.ended_by not in RULE_ENDINGS or not stats.conserved:
                    failures.append(
                        f"{base} {overrides} seed {seed}: {stats.ended_by}"
                        f"{'' if stats.conserved else ', cards not conserved'}"
                    )
    seconds = time.perf_counter() - start
    print(
        f"house rules: {args.house} drawn, {refused} refused by validation, {played} played "
        f"(3 hands each), {len(failures)} hands not ended by a rule, {seconds:.0f} s"
    )
    for failure in failures[:20]:
        print("  " + failure)
    return len(failures)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--random", type=int, default=10_000)
    parser.add_argument("--greedy", type=int, default=1_000)
    parser.add_argument("--house", type=int, default=200)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-check", action="store_true")
    args = parser.parse_args()
    bad = shipped(args) + house(args)
    print("all hands ended by a rule" if not bad else f"{bad} problems")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
