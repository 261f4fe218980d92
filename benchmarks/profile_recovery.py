"""Profiles of house rulesets drawn independently of the search: does ``bolivia profile``
recover every field each one changes, with its value, and no other?

    python benchmarks/profile_recovery.py [--count 4] [--seed 1] [--base ID ...] [--no-without]

For every shipped ruleset as the base (or those named), ``--count`` house rulesets are drawn
(``tests/drawn.py``: one to four fields changed, each value drawn from the field's own range,
not from the search's candidate lists). Each is served by the built-in oracle as an engine and
profiled twice:

- ``with --as``: the engine claims the base's id, and the profile is asked under it;
- ``without``: the engine plays the house rules whatever id it is asked under and claims every
  shipped id, so the profile must choose its base from the answers.

Each changed field is *recovered* (the profile's ruleset has the house's value, or one no answer
tells from it: the house with that value answers every question and situation alike), *wrong*
(it has another) or *missed* (it has the base's); *equivalent* where the profile changed another
field in its place and names the house's value among the changes that explain the answers as
well (no question tells the two rulesets apart: nothing could choose). A *false* field is one
the profile's ruleset has unlike the house where an answer would show it. Prints one line per
house and the totals; exit status 1 when anything was wrong, missed or false.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bolivia.profiles.profile import _battery, profile_engine
from bolivia.rules.library import shipped_library
from bolivia.rules.variants import with_values
from bolivia.verify.conformance import InProcessEngine, load_suite, shipped_suites
from bolivia.verify.oracle import Oracle
from tests.drawn import drawn_houses, judged


def engine_as(house, library, ids) -> InProcessEngine:
    oracle = Oracle(library)
    for rid in ids:
        oracle.register(with_values(house.ruleset, {}, rid))
    engine = InProcessEngine(oracle)
    engine.rulesets = set(ids)
    return engine


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--base", action="append")
    parser.add_argument("--no-without", action="store_true", help="only the profiles with --as")
    args = parser.parse_args()
    library = shipped_library()
    suites = [load_suite(p) for p in shipped_suites()]
    ids = list(library.ids())
    totals = {"with --as": Counter(), "without": Counter()}
    seconds = Counter()
    started = time.monotonic()
    for base_id in args.base or ids:
        base = library.load(base_id)
        battery = _battery(base, suites)
        for n, house in enumerate(drawn_houses(battery, args.count, args.seed), start=1):
            ways = [("with --as", [base_id], base_id)]
            if not args.no_without:
                ways.append(("without", ids, None))
            line = [f"{base_id} #{n} {len(house.changes)} fields ({', '.join(house.changes)})"]
            for way, claims, as_id in ways:
                begun = time.monotonic()
                profile = profile_engine(
                    engine_as(house, library, claims), library, suites, name="house", as_id=as_id
                )
                seconds[way] += time.monotonic() - begun
                counts = judged(battery, house, profile)
                totals[way] += counts
                line.append(
                    f"  {way}: base {profile.asked_as}; recovered {counts['recovered']}, "
                    f"equivalent {counts['equivalent']}, wrong {counts['wrong']}, "
                    f"missed {counts['missed']}, false {counts['false']}"
                    f"; asked {profile.asked}, {time.monotonic() - begun:.1f} s"
                )
                bad = counts["wrong"] + counts["missed"] + counts["false"]
                if bad:
                    got = {c.path: c.value for c in profile.changes}
                    line.append(f"    house {house.changes}")
                    line.append(f"    found {got}")
            print("\n".join(line), flush=True)
    for way, counts in totals.items():
        if way == "without" and args.no_without:
            continue
        changed = sum(counts[k] for k in ("recovered", "equivalent", "wrong", "missed"))
        print(
            f"{way}: {counts['recovered']}/{changed} changed fields recovered, "
            f"{counts['equivalent']} named as an equivalent, {counts['wrong']} wrong, "
            f"{counts['missed']} missed, {counts['false']} false "
            f"({seconds[way]:.0f} s profiling)"
        )
    print(f"{time.monotonic() - started:.0f} s in all")
    bad = sum(c["wrong"] + c["missed"] + c["false"] for c in totals.values())
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
