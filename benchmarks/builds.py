"""The compiled and the pure build side by side: `bolivia simulate` run by each installed
build in turn (paired and interleaved, so that the machine's load falls on both alike).

    python benchmarks/builds.py --python VENV/bin/python [--python OTHER/bin/python ...]
        [--rulesets ID,...] [--bots greedy,random] [--hands 300] [--check sampled]
        [--repeat 5] [--workers 1]

Each interpreter runs ``python -P -m bolivia simulate R --bots B --hands N --check C
--json`` (``-P``: the installed package, never a checkout); the run's own ``hands_per_second``
and ``actions_per_second`` are collected, ``--repeat`` times, one interpreter after the other.
Printed per ruleset and bot: the median and the range for each build, the ratio of the
medians, and whether the builds' summaries (timing aside) are the same bytes. Make the two
virtual environments with ``pip install .`` and ``BOLIVIA_PURE=1 pip install .``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from typing import Any

SIX = ["canasta", "samba", "bolivia-fr", "bolivia-da", "bolivia-zh", "bolivia-ko"]
TIMING = ("seconds", "hands_per_second", "actions_per_second")


def build_of(python: str) -> str:
    code = "from bolivia.version import compiled; print('compiled' if compiled() else 'pure')"
    done = subprocess.run([python, "-P", "-c", code], capture_output=True, text=True, check=True)
    return done.stdout.strip()


def simulate(python: str, args: argparse.Namespace, rid: str, bot: str) -> dict[str, Any]:
    command = [python, "-P", "-m", "bolivia", "simulate", rid, "--bots", bot]
    command += ["--hands", str(args.hands), "--check", args.check, "--json"]
    command += ["--workers", str(args.workers)]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed:\n{done.stderr}")
    summary: dict[str, Any] = json.loads(done.stdout)
    return summary


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--python", action="append", required=True, help="An interpreter.")
    parser.add_argument("--rulesets", default=",".join(SIX))
    parser.add_argument("--bots", default="greedy,random")
    parser.add_argument("--hands", type=int, default=300)
    parser.add_argument("--check", choices=["every", "sampled", "end", "none"], default="sampled")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    builds = [build_of(python) for python in args.python]
    print(f"builds: {', '.join(f'{b} ({p})' for b, p in zip(builds, args.python, strict=True))}")
    print(
        f"{'ruleset':12} {'bots':7} {'build':9} {'hands/s':>9} {'range':>15} "
        f"{'actions/s':>10} {'range':>17} {'x first':>8} {'same':>5}"
    )
    for rid in args.rulesets.split(","):
        for bot in args.bots.split(","):
            runs: list[list[dict[str, Any]]] = [[] for _ in args.python]
            for _ in range(args.repeat):
                for index, python in enumerate(args.python):
                    runs[index].append(simulate(python, args, rid, bot))
            untimed = [
                json.dumps({k: v for k, v in r[0].items() if k not in TIMING}, sort_keys=True)
                for r in runs
            ]
            first = statistics.median(r["hands_per_second"] for r in runs[0])
            for index, build in enumerate(builds):
                hps = [r["hands_per_second"] for r in runs[index]]
                aps = [r["actions_per_second"] for r in runs[index]]
                median = statistics.median(hps)
                print(
                    f"{rid:12} {bot:7} {build:9} {median:9.1f} "
                    f"{f'{min(hps):.1f}-{max(hps):.1f}':>15} {statistics.median(aps):10,.0f} "
                    f"{f'{min(aps):,.0f}-{max(aps):,.0f}':>17} {median / first:8.2f} "
                    f"{'yes' if untimed[index] == untimed[0] else 'NO':>5}"
                )
            sys.stdout.flush()


if __name__ == "__main__":
    main()
