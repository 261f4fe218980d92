"""Profiles of generated house rulesets: does ``bolivia profile`` recover exactly the fields
each one changes?

    python benchmarks/profile_recovery.py [--count 24] [--seed 1] [--base bolivia-da]

Each house ruleset (one to eight fields of the base changed, across every rule area: see
``tests/houses.py``) is served by the built-in oracle under the base's id, profiled in-process,
and the fields the profile changes are compared with the fields the house changed. Prints,
per ruleset and in all: fields recovered, fields missed, false fields, values that differ,
questions asked and seconds. Exit status 1 when a field was missed or false.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bolivia.profiles.profile import _battery, profile_engine
from bolivia.rules.library import shipped_library
from bolivia.rules.variants import same_value
from bolivia.verify.conformance import InProcessEngine, load_suite, shipped_suites
from bolivia.verify.oracle import Oracle
from tests.houses import houses


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=24)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--base", default="bolivia-da")
    args = parser.parse_args()
    library = shipped_library()
    suites = [load_suite(p) for p in shipped_suites()]
    base = library.load(args.base)
    started = time.monotonic()
    battery = _battery(base, suites)
    print(
        f"battery for {base.id}: {len(battery.questions)} questions, "
        f"{time.monotonic() - started:.1f} s"
    )
    totals = {"changed": 0, "recovered": 0, "missed": 0, "false": 0, "values": 0, "asked": 0}
    totals["ambiguous"] = 0
    seconds = cpu = 0.0
    for n, house in enumerate(houses(battery, args.count, args.seed), start=1):
        oracle = Oracle(library)
        oracle.register(house.ruleset)
        begun, cpu_begun = time.monotonic(), time.process_time()
        profile = profile_engine(
            InProcessEngine(oracle), library, suites, name="house", as_id=base.id
        )
        took = time.monotonic() - begun
        seconds += took
        cpu += time.process_time() - cpu_begun
        got = {c.path: c.value for c in profile.changes}
        missed = sorted(set(house.changes) - set(got))
        false = sorted(set(got) - set(house.changes))
        # a false field the profile says another explains as well, that other the missed one
        ambiguous = sorted(
            c.path
            for c in profile.changes
            if c.path in false and any(p in missed for p, _ in c.equivalents)
        )
        values = sorted(
            p for p in got if p in house.changes and not same_value(got[p], house.changes[p])
        )
        totals["changed"] += len(house.changes)
        totals["recovered"] += len(house.changes) - len(missed)
        totals["missed"] += len(missed)
        totals["false"] += len(false)
        totals["values"] += len(values)
        totals["ambiguous"] += len(ambiguous)
        totals["asked"] += profile.asked
        print(
            f"{n:3} {len(house.changes)} fields: recovered {len(house.changes) - len(missed)}, "
            f"missed {missed or 0}, false {false or 0} (said ambiguous {ambiguous or 0}), "
            f"other values {values or 0}, "
            f"behaviours {len(profile.behaviours)}, asked {profile.asked}, {took:.1f} s"
        )
    print(
        f"in all: {totals['recovered']}/{totals['changed']} fields recovered, "
        f"{totals['missed']} missed, {totals['false']} false ({totals['ambiguous']} of them said "
        f"ambiguous with the missed one), {totals['values']} with another "
        f"value; {totals['asked']} questions asked; {seconds:.1f} s profiling ({cpu:.1f} s CPU) "
        f"({time.monotonic() - started:.1f} s with the battery and the generation)"
    )
    return 1 if totals["missed"] or totals["false"] else 0


if __name__ == "__main__":
    sys.exit(main())
