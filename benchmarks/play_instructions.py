"""Instructions per hand, counted by valgrind's callgrind: a figure that does not drift with
the machine's load, for comparing two builds of the engine.

    python benchmarks/play_instructions.py [--hands N] [--rulesets ID,...] [--bots random,greedy]

For each ruleset and bot kind, the same seeded hands are played twice under
``valgrind --tool=callgrind``: once with no hands (start-up: imports, loading the ruleset,
building the bots) and once with N; the difference divided by N is printed, in millions of
instructions a hand. Needs valgrind on the PATH (Debian's ``valgrind`` package).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

SIX = ["canasta", "samba", "bolivia-fr", "bolivia-da", "bolivia-zh", "bolivia-ko"]


def play(rid: str, bot: str, hands: int) -> None:
    """The measured work: ``hands`` seeded hands of four bots of one kind."""
    from bolivia.play.bots import GreedyBot, RandomBot
    from bolivia.play.simulate import derive_seed, play_hand
    from bolivia.rules.library import shipped_library

    ruleset = shipped_library().load(rid)
    players = ruleset.rules.players.usual
    bots = [RandomBot() if bot == "random" else GreedyBot()] * players
    for index in range(hands):
        stats, _ = play_hand(ruleset, players, derive_seed(42, index), bots, check="none")
        assert stats.completed, stats.ended_by


def instructions(rid: str, bot: str, hands: int) -> int:
    """The instructions callgrind counts for the whole process."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "callgrind.out")
        done = subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                f"--callgrind-out-file={out}",
                sys.executable,
                __file__,
                "--inner",
                rid,
                bot,
                str(hands),
            ],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "PYTHONHASHSEED": "0"},
        )
    found = re.search(r"Collected : (\d+)", done.stderr)
    if found is None:
        raise SystemExit(f"no instruction count in valgrind's output:\n{done.stderr}")
    return int(found.group(1))


def main() -> None:
    if len(sys.argv) == 5 and sys.argv[1] == "--inner":
        play(sys.argv[2], sys.argv[3], int(sys.argv[4]))
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=10)
    parser.add_argument("--rulesets", default="bolivia-da")
    parser.add_argument("--bots", default="random,greedy")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not on the PATH (apt install valgrind)")
    if args.hands < 1:
        raise SystemExit("--hands must be at least 1")
    print(f"{'ruleset':12} {'bots':7} {'hands':>5} {'M instructions/hand':>20}")
    for rid in args.rulesets.split(","):
        for bot in args.bots.split(","):
            start = instructions(rid, bot, 0)
            total = instructions(rid, bot, args.hands)
            per = (total - start) / args.hands / 1e6
            print(f"{rid:12} {bot:7} {args.hands:>5} {per:>20.2f}")


if __name__ == "__main__":
    main()
