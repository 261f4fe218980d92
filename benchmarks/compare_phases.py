"""Where the default comparison's time goes, in one process (no pool): the witness search per
area, the gallery, and the play by column and kind of job (expert deals, greedy deals, greedy
games), each job timed alone, so that the figures add up to the work the pool shares out.

    python benchmarks/compare_phases.py [--python VENV/bin/python] [--hands N] [--games N]

``--python`` runs it under another interpreter, and so measures the build installed there
(``-P``: never a checkout). Seconds of one core; the machine's load moves them (compare builds
with instruction counts, ``play_instructions.py``). The play's critical path on two workers is
about half its total, or its longest job, whichever is more.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from collections import defaultdict


def measure(hands: int, games: int) -> None:
    from bolivia.compare import findings, playing
    from bolivia.compare.summary import columns
    from bolivia.compare.witnesses import AREA_OPS, find_witnesses
    from bolivia.compare_cli import default_compared
    from bolivia.rules.library import shipped_library
    from bolivia.verify.oracle import Oracle
    from bolivia.version import compiled

    library = shipped_library()
    rulesets = default_compared(library)
    oracle = Oracle()
    for ruleset in rulesets:
        oracle.register(ruleset)
    print(f"build {'compiled' if compiled() else 'pure'}; {', '.join(r.id for r in rulesets)}")
    total = 0.0
    for area in AREA_OPS:
        start = time.perf_counter()
        find_witnesses(rulesets, oracle, areas=(area,))
        took = time.perf_counter() - start
        total += took
        print(f"  witnesses {area:24} {took:7.2f} s")
    print(f"witnesses, every area {total:18.2f} s")
    start = time.perf_counter()
    findings._gallery(rulesets, oracle, 1)
    print(f"gallery {time.perf_counter() - start:32.2f} s")
    by_id = {r.id: r for r in rulesets}
    rows = findings._rows(rulesets)
    played = [by_id[c.first] for c in columns(rows, [r.id for r in rulesets])]
    jobs = findings._jobs(played, library.spec, 1, range(hands), range(games), False)
    seconds: dict[tuple[str, str], float] = defaultdict(float)
    longest: dict[tuple[str, str], float] = defaultdict(float)
    count: dict[tuple[str, str], int] = defaultdict(int)
    for column, job in jobs:
        start = time.perf_counter()
        playing.play_job(job)
        took = time.perf_counter() - start
        key = (column, "greedy games" if job.game else f"{job.bot} deals")
        seconds[key] += took
        longest[key] = max(longest[key], took)
        count[key] += 1
    print(f"{'column':12} {'jobs':14} {'n':>4} {'seconds':>8} {'longest':>8}")
    for key in sorted(seconds):
        print(f"{key[0]:12} {key[1]:14} {count[key]:>4} {seconds[key]:>8.2f} {longest[key]:>8.2f}")
    print(f"play, every job {sum(seconds.values()):24.2f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=100, help="Deals per column and bot.")
    parser.add_argument("--games", type=int, default=10, help="Games per column.")
    parser.add_argument(
        "--python", default=None, help="The interpreter (and so the installed build)."
    )
    args = parser.parse_args()
    if args.python is not None:
        command = [args.python, "-P", __file__, "--hands", str(args.hands)]
        raise SystemExit(subprocess.call([*command, "--games", str(args.games)]))
    measure(args.hands, args.games)


if __name__ == "__main__":
    sys.exit(main())
