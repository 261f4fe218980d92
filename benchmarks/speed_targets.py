"""The figures of issue 43 (strong bots at greedy's price; commands that start at once), each
beside the figure before the issue's work and the target.

    python benchmarks/speed_targets.py [--python VENV/bin/python] [--hands N]
        [--search-hands N] [--compare-repeat R] [--skip search,compare]

- ``bolivia --version``: the instructions of the whole process (valgrind's callgrind);
- a greedy, an expert and a ``search:playouts=16,width=3`` hand of ``bolivia-da``: the
  instructions of N seeded hands less those of the same process playing none (start-up
  subtracted), divided by N (:mod:`play_instructions`' way);
- the default comparison's fixed cost: the CPU seconds (user and system, the worker processes
  included) of ``bolivia compare --games 0`` with 10 and with 30 deals a column, run in turn
  ``--compare-repeat`` times; the fixed cost is the line through the two medians at no deal
  (its range from the runs' extremes). CPU seconds move with the machine's load: the range
  says how much.

``--python`` measures the build installed in another environment (``-P``: never a checkout);
the default compiled build is the one the targets are for. Needs valgrind on the PATH.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from play_instructions import instructions

#: each figure: what it is, the figure before (measured at 149ce0f, the commit before the
#: issue's work, compiled build, on the project's machine), the target, the unit
FIGURES = {
    "version": ("bolivia --version", 1_449e6, 300e6, "instructions"),
    "greedy": ("greedy bolivia-da hand", 8.97e6, 4.0e6, "instructions"),
    "expert": ("expert bolivia-da hand", 76.8e6, 12e6, "instructions"),
    "search": ("search:playouts=16,width=3 hand", 8.5e9, 1e9, "instructions"),
    "compare": ("default comparison, fixed cost", 4.0, 2.0, "CPU seconds"),
}


def version_instructions(python: str) -> float:
    """Instructions of ``bolivia --version``, the whole process."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "callgrind.out")
        command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", python, "-P"]
        done = subprocess.run(
            [*command, "-m", "bolivia", "--version"],
            capture_output=True,
            text=True,
            check=True,
            cwd=tmp,
        )
    found = re.search(r"Collected : (\d+)", done.stderr)
    if found is None:
        raise SystemExit(f"no instruction count in valgrind's output:\n{done.stderr}")
    return float(found.group(1))


def hand_instructions(python: str, bot: str, hands: int) -> float:
    """Instructions a hand of ``bolivia-da`` under ``bot``, start-up subtracted."""
    start, _, _ = instructions(python, "bolivia-da", bot, 0, "none")
    total, _, _ = instructions(python, "bolivia-da", bot, hands, "none")
    return (total - start) / hands


def compare_seconds(python: str, deals: int) -> float:
    """CPU seconds of ``bolivia compare --games 0 --hands deals``, its workers included."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with tempfile.TemporaryDirectory() as tmp:
        command = [python, "-P", "-m", "bolivia", "compare", "--hands", str(deals)]
        subprocess.run(
            [*command, "--games", "0", "--out", os.path.join(tmp, "report")],
            capture_output=True,
            check=True,
            cwd=tmp,
        )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def compare_fixed(python: str, repeat: int) -> tuple[float, float, float]:
    """The fixed cost of a comparison (CPU seconds at no deal): the median, and the lowest
    and highest the runs allow."""
    low, high = 10, 30
    runs: dict[int, list[float]] = {low: [], high: []}
    for _ in range(repeat):
        for deals in (low, high):  # interleaved: the load falls on both alike
            runs[deals].append(compare_seconds(python, deals))

    def at_zero(a: float, b: float) -> float:
        return a - low * (b - a) / (high - low)

    median = at_zero(statistics.median(runs[low]), statistics.median(runs[high]))
    ends = [at_zero(a, b) for a in (min(runs[low]), max(runs[low])) for b in runs[high]]
    return median, min(ends), max(ends)


def shown(value: float, unit: str) -> str:
    if unit == "CPU seconds":
        return f"{value:.2f} s"
    if value >= 1e9:
        return f"{value / 1e9:.2f} G"
    return f"{value / 1e6:.2f} M"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--python", default=sys.executable, help="The interpreter (its build).")
    parser.add_argument("--hands", type=int, default=5, help="Greedy and expert hands.")
    parser.add_argument("--search-hands", type=int, default=1)
    parser.add_argument("--compare-repeat", type=int, default=3)
    parser.add_argument("--skip", default="", help="Figures left out: search, compare, ...")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not on the PATH (apt install valgrind)")
    skip = set(filter(None, args.skip.split(",")))
    print(f"{'figure':34} {'before':>10} {'target':>10} {'now':>10}  {'':>22}")
    for key, (what, before, target, unit) in FIGURES.items():
        if key in skip:
            continue
        extra = ""
        if key == "version":
            now = version_instructions(args.python)
        elif key in ("greedy", "expert"):
            now = hand_instructions(args.python, key, args.hands)
        elif key == "search":
            now = hand_instructions(args.python, "search:playouts=16,width=3", args.search_hands)
        else:
            now, low, high = compare_fixed(args.python, args.compare_repeat)
            extra = f"range {low:.2f}-{high:.2f} s"
        met = "met" if now <= target else "not met"
        print(
            f"{what:34} {shown(before, unit):>10} {shown(target, unit):>10} "
            f"{shown(now, unit):>10}  {met:8} {extra}"
        )


if __name__ == "__main__":
    main()
