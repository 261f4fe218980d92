"""The acceptance check of the play engine, as the issue states it: for every shipped ruleset
and each bot, `bolivia simulate --hands N --seed 1 --json` with one and with two workers:
every hand completed, no conservation failure, the same output (timing aside) for both worker
counts, and every written replay verified by `bolivia replay`.

    python benchmarks/simulation_acceptance.py [--hands 200]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

SIX = ["canasta", "samba", "bolivia-fr", "bolivia-da", "bolivia-zh", "bolivia-ko"]
TIMING = ("seconds", "hands_per_second", "actions_per_second")


def simulate(rid: str, bots: str, hands: int, workers: int, replays: Path) -> dict[str, object]:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "bolivia",
            "simulate",
            rid,
            "--hands",
            str(hands),
            "--seed",
            "1",
            "--bots",
            bots,
            "--workers",
            str(workers),
            "--json",
            "--replays",
            str(replays),
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    summary: dict[str, object] = json.loads(done.stdout)
    return summary


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200)
    args = parser.parse_args()
    failures = 0
    print(
        f"{'ruleset':12} {'bots':7} {'done':>5} {'cons.':>5} {'same':>5} {'replays':>8} "
        f"{'hands/s 1w':>10} {'hands/s 2w':>10}"
    )
    for rid in SIX:
        for bots in ("random", "greedy"):
            with tempfile.TemporaryDirectory() as tmp:
                one = simulate(rid, bots, args.hands, 1, Path(tmp) / "one")
                two = simulate(rid, bots, args.hands, 2, Path(tmp) / "two")
                speeds = [one["hands_per_second"], two["hands_per_second"]]
                for summary in (one, two):
                    for key in TIMING:
                        summary.pop(key)
                files = sorted((Path(tmp) / "one").glob("*.jsonl"))
                same = one == two and all(
                    f.read_bytes() == (Path(tmp) / "two" / f.name).read_bytes() for f in files
                )
                check = subprocess.run(
                    [sys.executable, "-m", "bolivia", "replay", *map(str, files)],
                    capture_output=True,
                    text=True,
                    check=False,
                )
            ok = (
                one["completed"] == one["hands"] == args.hands
                and one["conservation_failures"] == 0
                and same
                and check.returncode == 0
                and len(files) == args.hands
            )
            failures += not ok
            print(
                f"{rid:12} {bots:7} {one['completed']:>5} {one['conservation_failures']:>5} "
                f"{'yes' if same else 'NO':>5} {'ok' if check.returncode == 0 else 'FAIL':>8} "
                f"{speeds[0]:>10} {speeds[1]:>10}"
            )
    print("all checks passed" if not failures else f"{failures} configurations failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
