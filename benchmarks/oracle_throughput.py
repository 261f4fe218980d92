"""Oracle requests per second: meld, pickup and score, in-process and over the pipe.

    python benchmarks/oracle_throughput.py [--seconds S] [--ruleset ID]

In-process figures time ``Oracle.handle_line`` (JSON decoding, validation, the rule modules,
JSON encoding); pipe figures stream the same requests through ``bolivia oracle`` in a child
process and time the round trip of the whole batch.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time

from bolivia.verify.oracle import Oracle

REQUESTS = {
    "meld": {"op": "meld", "cards": ["8H", "8S", "8D", "JK", "2C"]},
    "pickup": {
        "op": "pickup",
        "pile": ["5H", "KD", "9S", "8D"],
        "hand": ["8H", "8S", "KC", "JK", "4D", "4S", "QH"],
        "team_melds": [["9H", "9S", "9C"], ["4H", "5H", "6H"]],
        "team_score": 1200,
    },
    "score": {
        "op": "score",
        "teams": [
            {
                "melds": [
                    ["8H", "8S", "8D", "8C", "8H", "8S", "8D"],
                    ["4H", "5H", "6H", "7H", "8H", "9H", "10H"],
                ],
                "red_threes": 2,
                "went_out": True,
            },
            {"melds": [["KH", "KS", "KD", "JK"]], "hands": [["3C", "AS", "2D"], ["QH"]]},
        ],
    },
}


def in_process(ruleset: str, seconds: float) -> dict[str, float]:
    oracle = Oracle()
    out = {}
    for name, body in REQUESTS.items():
        line = json.dumps({**body, "ruleset": ruleset})
        oracle.handle_line(line)  # warm the caches
        count, start = 0, time.perf_counter()
        while (elapsed := time.perf_counter() - start) < seconds:
            for _ in range(200):
                oracle.handle_line(line)
            count += 200
        out[name] = count / elapsed
    return out


def over_pipe(ruleset: str, per_op: int) -> dict[str, float]:
    out = {}
    for name, body in REQUESTS.items():
        line = (json.dumps({**body, "ruleset": ruleset}) + "\n").encode()
        payload = line * per_op
        start = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-m", "bolivia", "oracle"],
            input=payload,
            capture_output=True,
            check=True,
        )
        elapsed = time.perf_counter() - start
        assert done.stdout.count(b"\n") == per_op
        # subtract the start-up of an empty session, measured the same way
        start = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "bolivia", "oracle"], input=b"", capture_output=True, check=True
        )
        startup = time.perf_counter() - start
        out[name] = per_op / max(elapsed - startup, 1e-9)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--ruleset", default="bolivia-da")
    parser.add_argument("--pipe-requests", type=int, default=20_000)
    args = parser.parse_args()
    inside = in_process(args.ruleset, args.seconds)
    pipe = over_pipe(args.ruleset, args.pipe_requests)
    print(f"oracle requests per second, ruleset {args.ruleset}")
    print(f"{'op':8} {'in-process':>12} {'over the pipe':>14}")
    for name in REQUESTS:
        print(f"{name:8} {inside[name]:12,.0f} {pipe[name]:14,.0f}")


if __name__ == "__main__":
    main()
