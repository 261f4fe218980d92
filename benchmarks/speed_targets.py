"""The figures of issue 43 (strong bots at greedy's price; commands that start at once), each
beside the figure before the issue's work and the target.

    python benchmarks/speed_targets.py [--python VENV/bin/python] [--hands N]
        [--search-hands N] [--compare-repeat R] [--skip search,compare] [--base-python PY]

- ``bolivia --version``: the instructions of the whole process (valgrind's callgrind);
- a greedy, an expert and a ``search:playouts=16,width=3`` hand of ``bolivia-da``: the
  instructions of N seeded hands less those of the same process playing none (start-up
  subtracted), divided by N (:mod:`play_instructions`' way);
- the default comparison's fixed cost: the CPU seconds (user and system, the worker processes
  included) of ``bolivia compare --games 0`` with 10 and with 30 deals a column, run in turn
  ``--compare-repeat`` times; the fixed cost is the line through the two medians at no deal
  (its range from the runs' extremes). CPU seconds move with the machine's load: the range
  says how much;
- the same fixed cost in instructions (``compare-instructions``, slow: four minutes a run under
  valgrind, the two runs at once): every process of the two comparisons counted by callgrind,
  a forked worker from its fork (``--zero-before=PyOS_AfterFork_Child``: callgrind's child
  starts with its parent's counts), a spawned one whole; the line through the two at no deal.
  Its target is the CPU target scaled by the figure before (2.0 / 3.36 of the instructions
  before).

``--python`` measures the build installed in another environment (``-P``: never a checkout);
the default compiled build is the one the targets are for. ``--base-python`` measures the
comparison's fixed cost of the build before too, its runs interleaved with the others (the
"before" column is then that measurement). Needs valgrind on the PATH.
"""

from __future__ import annotations

import argparse
import functools
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from play_instructions import instructions

#: each figure: what it is, the figure before (measured at 149ce0f, the commit before the
#: issue's work, compiled build, on the project's machine), the target, the unit
FIGURES = {
    "version": ("bolivia --version", 1_449e6, 300e6, "instructions"),
    "greedy": ("greedy bolivia-da hand", 8.97e6, 4.0e6, "instructions"),
    "expert": ("expert bolivia-da hand", 76.8e6, 12e6, "instructions"),
    # (the first hand of the seed, as --search-hands 1 plays; the 8.5 G was a mean)
    "search": ("search:playouts=16,width=3 hand", 12.06e9, 1e9, "instructions"),
    # (CPU seconds move with the load: 4.0 on a busy day, 3.36 measured beside a8b2d2f)
    "compare": ("default comparison, fixed cost", 3.36, 2.0, "CPU seconds"),
    # (the same, counted: 20.87 G at 149ce0f; the target scaled as the CPU seconds')
    "compare-instructions": (
        "comparison fixed cost, counted",
        20.87e9,
        20.87e9 * 2.0 / 3.36,
        "instructions",
    ),
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


def compare_instructions(python: str, deals: int) -> float:
    """Instructions of ``bolivia compare --games 0 --hands deals``, every process of it (a
    forked worker's from its fork on)."""
    with tempfile.TemporaryDirectory() as tmp:
        command = [
            "valgrind",
            "--tool=callgrind",
            "--trace-children=yes",
            "--zero-before=PyOS_AfterFork_Child",
            f"--callgrind-out-file={os.path.join(tmp, 'cg.%p')}",
            python,
            "-P",
            "-m",
            "bolivia",
            "compare",
            "--hands",
            str(deals),
            "--games",
            "0",
            "--out",
            os.path.join(tmp, "report"),
        ]
        subprocess.run(command, capture_output=True, check=True, cwd=tmp)
        total = 0
        for name in os.listdir(tmp):
            if name.startswith("cg."):
                with open(os.path.join(tmp, name), errors="replace") as counts:
                    found = re.search(r"^summary: (\d+)", counts.read(), re.MULTILINE)
                if found is None:
                    raise SystemExit(f"no instruction count in {name}")
                total += int(found.group(1))
    return float(total)


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


def compare_fixed(pythons: list[str], repeat: int) -> list[tuple[float, float, float]]:
    """The fixed cost of a comparison (CPU seconds at no deal) under each interpreter: the
    median, and the lowest and highest the runs allow. The runs are interleaved, every
    interpreter and size in turn, so that the machine's load falls on all alike."""
    low, high = 10, 30
    runs: dict[tuple[str, int], list[float]] = {}
    for _ in range(repeat):
        for python in pythons:
            for deals in (low, high):
                runs.setdefault((python, deals), []).append(compare_seconds(python, deals))

    def at_zero(a: float, b: float) -> float:
        return a - low * (b - a) / (high - low)

    out = []
    for python in pythons:
        few, many = runs[python, low], runs[python, high]
        median = at_zero(statistics.median(few), statistics.median(many))
        ends = [at_zero(a, b) for a in (min(few), max(few)) for b in many]
        out.append((median, min(ends), max(ends)))
    return out


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
    parser.add_argument(
        "--base-python",
        help="An interpreter with the build before installed: its comparison's fixed cost is "
        "measured beside (CPU seconds move with the load; instructions do not).",
    )
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
        elif key == "compare-instructions":
            # the two runs at once: instructions do not depend on what runs beside them
            with ThreadPoolExecutor(2) as both:
                few, many = both.map(functools.partial(compare_instructions, args.python), (10, 30))
            now = few - 10 * (many - few) / 20
            extra = f"10 deals {few / 1e9:.2f} G, 30 deals {many / 1e9:.2f} G"
        else:
            pythons = [args.python, *([args.base_python] if args.base_python else [])]
            measured = compare_fixed(pythons, args.compare_repeat)
            now, low, high = measured[0]
            extra = f"range {low:.2f}-{high:.2f} s"
            if args.base_python:  # the build before, measured beside it
                before, low, high = measured[1]
                extra += f"; before measured beside it: {before:.2f} s ({low:.2f}-{high:.2f})"
        met = "met" if now <= target else "not met"
        print(
            f"{what:34} {shown(before, unit):>10} {shown(target, unit):>10} "
            f"{shown(now, unit):>10}  {met:8} {extra}"
        )


if __name__ == "__main__":
    main()
