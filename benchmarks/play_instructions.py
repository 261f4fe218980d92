"""Instructions per hand, counted by valgrind's callgrind: a figure that does not drift with
the machine's load, for comparing two builds of the engine.

    python benchmarks/play_instructions.py [--hands N] [--rulesets ID,...]
        [--bots random,greedy,expert] [--check every|sampled|end|none]
        [--python VENV/bin/python]

For each ruleset and bot kind, the same seeded hands are played twice under
``valgrind --tool=callgrind``: once with no hands (start-up: imports, loading the ruleset,
building the bots) and once with N; the difference divided by N is printed, in millions of
instructions a hand, and divided by the actions played, in thousands an action. ``--python``
runs it under another interpreter, and so measures the build installed there (``-P``: never a
checkout); the build is printed. A build from before the check's modes (issue 14's start,
``git checkout 85a534b~1``) is measured too, with ``--check every`` or ``none``: its two.
Needs valgrind on the PATH (Debian's ``valgrind`` package).
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


def play(rid: str, bot: str, hands: int, check: str) -> None:
    """The measured work: ``hands`` seeded hands of four bots of one kind; prints the number
    of actions played and the build."""
    from bolivia.rules.library import shipped_library

    try:
        from bolivia.play.batch import simulate
        from bolivia.play.bots.registry import make_bot
    except ImportError:  # a build from before play/ was cut into table, bots and batch
        from bolivia.play import simulate  # type: ignore[no-redef]
        from bolivia.play.bots import make_bot  # type: ignore[no-redef]

    try:
        from bolivia.version import compiled
    except ImportError:  # a build from before the compiled one

        def compiled() -> bool:
            return False

    ruleset = shipped_library().load(rid)
    players = ruleset.rules.players.usual
    bots = [make_bot(bot) for _ in range(players)]
    mode: str | bool = check
    if not hasattr(simulate, "checks_every_action"):
        # a build from before the check's modes (issue 14's start): on or off only
        if check not in ("every", "none"):
            raise SystemExit(f"this build checks after every action or never, not {check!r}")
        mode = check == "every"
    actions = 0
    for index in range(hands):
        seed = simulate.derive_seed(42, index)
        stats, _ = simulate.play_hand(ruleset, players, seed, bots, check=mode)
        assert stats.completed, stats.ended_by
        actions += stats.actions
    print(actions, "compiled" if compiled() else "pure")


def instructions(python: str, rid: str, bot: str, hands: int, check: str) -> tuple[int, int, str]:
    """The instructions callgrind counts for the whole process, the actions played, the build."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "callgrind.out")
        done = subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                f"--callgrind-out-file={out}",
                python,
                "-P",
                __file__,
                "--inner",
                rid,
                bot,
                str(hands),
                check,
            ],
            capture_output=True,
            text=True,
            check=False,
            env={**os.environ, "PYTHONHASHSEED": "0"},
        )
    if done.returncode != 0:  # the measured run's own last lines: its reason
        last = [line for line in done.stderr.splitlines() if not line.startswith("==")]
        raise SystemExit(f"{rid} {bot}: the measured run failed: {' / '.join(last[-3:])}")
    found = re.search(r"Collected : (\d+)", done.stderr)
    if found is None:
        raise SystemExit(f"no instruction count in valgrind's output:\n{done.stderr}")
    actions, build = done.stdout.split()
    return int(found.group(1)), int(actions), build


def main() -> None:
    if len(sys.argv) == 6 and sys.argv[1] == "--inner":
        play(sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5])
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=10)
    parser.add_argument("--rulesets", default="bolivia-da")
    parser.add_argument("--bots", default="random,greedy")
    parser.add_argument("--check", choices=["every", "sampled", "end", "none"], default="none")
    parser.add_argument(
        "--python", default=sys.executable, help="The interpreter (and so the installed build)."
    )
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not on the PATH (apt install valgrind)")
    if args.hands < 1:
        raise SystemExit("--hands must be at least 1")
    print(
        f"{'ruleset':12} {'bots':7} {'build':9} {'check':8} {'hands':>5} "
        f"{'M instructions/hand':>20} {'k instructions/action':>22}"
    )
    for rid in args.rulesets.split(","):
        for bot in args.bots.split(","):
            start, _, _ = instructions(args.python, rid, bot, 0, args.check)
            total, actions, build = instructions(args.python, rid, bot, args.hands, args.check)
            per_hand = (total - start) / args.hands / 1e6
            per_action = (total - start) / actions / 1e3
            print(
                f"{rid:12} {bot:7} {build:9} {args.check:8} {args.hands:>5} "
                f"{per_hand:>20.2f} {per_action:>22.1f}"
            )


if __name__ == "__main__":
    main()
