"""Mutation check: does ``bolivia conform`` catch an engine that slips on one rule?

    python benchmarks/mutation_check.py [--slips-only | --readings-only] [--only NAME ...]

Two kinds of mutant, each checked by the shipped suites:

- **slips**: small mistakes written into a copy of the source of ``bolivia/engine/`` and the
  hand (``bolivia/play/table/``), one at a time -- a comparison off by one, a rule read from the
  wrong seating, a flag not cleared -- on the path the protocol's answers are decided by (the
  deal and a played hand's score are not asked by any op, and the bots' own shortcuts decide
  no answer: a slip there is no engine's). Each copy answers ``bolivia conform -q`` in a
  process of its own (the copy first on the import path); the mutant is *killed* when a case
  fails.
- **readings dropped**: an engine that does not read one rule field and plays Classic Canasta's
  value of it whatever the ruleset says. It is the built-in oracle serving every shipped
  ruleset with that field set to Canasta's value, under the ruleset's own id, in-process. Where
  every shipped ruleset gives Canasta's value, the engine plays a neighbouring value instead
  (the first one-field alternative of Canasta's some ruleset can hold): a constant in place of
  the reading.

Prints each survivor and the kill rates; exit status 1 when a mutant survived.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Slip:
    name: str
    file: str  # under bolivia/
    old: str  # the text replaced: it occurs once in the file
    new: str


SLIPS: tuple[Slip, ...] = (
    # the four the first mutation run left alive (issue 40)
    Slip(
        "going-out requirement by players ignored",
        "engine/going_out.py",
        "return rule.requirement_by_players.get(count, rule.requirement)",
        "return rule.requirement",
    ),
    Slip(
        "draw of any seating read from the usual one",
        "play/table/state.py",
        "self.draw_count = seating.draw",
        "self.draw_count = ruleset.rules.players.seats[ruleset.rules.players.usual].draw",
    ),
    Slip(
        "partner two seats on, whatever the sides",
        "play/table/state.py",
        "return (player + self.teams) % self.players",
        "return (player + 2) % self.players",
    ),
    Slip(
        "concealed going out not spoiled by taking the pile",
        "play/table/hand.py",
        "self.concealed = not (before or self.picked_up)",
        "self.concealed = not before",
    ),
    # more slips, on the path every action and rule question is decided by
    Slip(
        "sides always two",
        "play/table/state.py",
        "self.team_of = [p % self.teams for p in range(players)]",
        "self.team_of = [p % 2 for p in range(players)]",
    ),
    Slip(
        "asking the partner needed without partnerships",
        "play/table/state.py",
        'return self.lim.ask_partner == "required" and self.partnerships and self.asked is None',
        'return self.lim.ask_partner == "required" and self.asked is None',
    ),
    Slip(
        "concealed read by the player, never the side",
        "play/table/hand.py",
        'before = self.side_melded_before if when == "side_not_melded" else self.melded_before',
        "before = self.melded_before",
    ),
    Slip(
        "frozen and unfrozen ways swapped",
        "engine/pile.py",
        "return rule.take_frozen if frozen else rule.take_unfrozen",
        "return rule.take_unfrozen if frozen else rule.take_frozen",
    ),
    Slip(
        "pile for the first meld always allowed",
        "engine/pile.py",
        "if not rule.for_first_meld and not team_melds:",
        "if False:",
    ),
    Slip(
        "one-card rule at two cards",
        "engine/pile.py",
        "if rule.one_card_rule and len(hand) == 1 and len(pile) == 1:",
        "if rule.one_card_rule and len(hand) <= 2 and len(pile) == 1:",
    ),
    Slip(
        "top card never blocks",
        "engine/pile.py",
        "if kind is not None and kind in ruleset.rules.pile.blocked_by_top:",
        "if False:",
    ),
    Slip(
        "pile onto a canasta read the other way",
        "engine/pile.py",
        "if not rule.onto_canasta and is_canasta(ruleset, target):",
        "if rule.onto_canasta and is_canasta(ruleset, target):",
    ),
    Slip(
        "meld penalty at the bound too",
        "engine/scoring.py",
        "meld.size < penalty.fewer_than",
        "meld.size <= penalty.fewer_than",
    ),
    Slip(
        "red threes count plus one canasta early",
        "engine/scoring.py",
        "return sum(canastas(ruleset, melds).values()) >= when.count",
        "return sum(canastas(ruleset, melds).values()) + 1 >= when.count",
    ),
    Slip(
        "group's naturals counted one short",
        "engine/groups.py",
        "if naturals < rule.min_natural:",
        "if naturals + 1 < rule.min_natural:",
    ),
    Slip(
        "black-three melds allowed a wild card more",
        "engine/groups.py",
        "if wilds > rule.max_wild:",
        "if wilds > rule.max_wild + 1:",
    ),
    Slip(
        "natural canasta one card short",
        "engine/canastas.py",
        'return "natural" if size >= lim.natural_size else None',
        'return "natural" if size + 1 >= lim.natural_size else None',
    ),
    Slip(
        "special canasta's size read one short",
        "engine/canastas.py",
        "if size < min_size or not min_wild <= wilds <= max_wild:",
        "if size + 1 < min_size or not min_wild <= wilds <= max_wild:",
    ),
    Slip(
        "sequences counted toward the first meld the other way",
        "engine/limits.py",
        "self.counts_sequences: bool = first.counts_sequences",
        "self.counts_sequences: bool = not first.counts_sequences",
    ),
    Slip(
        "first meld at the minimum refused",
        "engine/initial_meld.py",
        "if points < needed:",
        "if points <= needed:",
    ),
    Slip(
        "band reached one point late",
        "engine/limits.py",
        "if start is not None and team_score >= start:",
        "if start is not None and team_score > start:",
    ),
    Slip(
        "game over one point early",
        "engine/game_end.py",
        "if best >= target_for(ruleset, players, target):",
        "if best + 1 >= target_for(ruleset, players, target):",
    ),
    Slip(
        "going-out requirement met one canasta short",
        "engine/going_out.py",
        "return sum(have) >= count and",
        "return sum(have) + 1 >= count and",
    ),
    Slip(
        "a sequence's wild cards one too many",
        "engine/sequences.py",
        "if not any(places[-1] - places[0] + 1 - len(places) <= wilds for places in found):",
        "if not any(places[-1] - places[0] - len(places) <= wilds for places in found):",
    ),
    # issue 42 (Cuban Canasta): the first round and black threes set aside
    Slip(
        "first round never over",
        "engine/discard.py",
        "return not first_round",
        "return False",
    ),
    Slip(
        "first round of a position ignored",
        "play/table/position.py",
        'hand.first_round = _int(data, "first_round", 0)',
        "hand.first_round = 0",
    ),
    Slip(
        "black threes taken with the pile kept in the hand",
        "play/table/hand.py",
        "if aside and index in BLACK_THREES:",
        "if False:",
    ),
    Slip(
        "all the black threes set aside scored each",
        "engine/scoring.py",
        "if aside.all_value is not None and count == 2 * ruleset.rules.pack.decks:",
        "if False:",
    ),
    # issue 42 (Modern American Canasta): rules by rank
    Slip(
        "a rank's own limit of wild cards ignored by the meld check",
        "engine/melds.py",
        "        if fault is None and w > limits(ruleset).rank_caps.get(rank, w):",
        "        if False:",
    ),
    Slip(
        "no first-meld freedom for aces",
        "engine/wild_steps.py",
        "        if before and n > had[rank]:",
        "        if n > had[rank]:",
    ),
    Slip(
        "the late minimum of naturals read two higher",
        "engine/wild_steps.py",
        "    thin = _thin(after, least)",
        "    thin = _thin(after, least + 2)",
    ),
    Slip(
        "cards kept in hand cost nothing more",
        "engine/scoring.py",
        "        if held >= penalty.at_least:",
        "        if held > penalty.at_least:",
    ),
    Slip(
        "unfinished melds with wild cards pay the natural melds' penalty",
        "engine/scoring.py",
        "        if penalty.natural_only and meld.wilds:",
        "        if False:",
    ),
)


def _conform(copy: Path) -> tuple[bool, str]:
    """(killed, the counts line) of ``bolivia conform -q`` run from the copy of the source."""
    env = {**os.environ, "PYTHONPATH": str(copy), "BOLIVIA_PURE": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "bolivia", "conform", "-q"],
        cwd=copy,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    counts = (done.stdout.strip().splitlines() or [done.stderr.strip()[-200:]])[-1]
    failed = re.search(r"(\d+) failed", counts)
    return done.returncode != 0 or (failed is not None and int(failed.group(1)) > 0), counts


def check_slips(slips: Sequence[Slip]) -> list[tuple[Slip, bool, str]]:
    """Each slip written into a fresh copy of the source, and whether conform kills it."""
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp)
        shutil.copytree(
            ROOT / "bolivia",
            copy / "bolivia",
            ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyd"),
        )
        for data in ("rulesets", "seeds", "docs"):  # where a source checkout finds its data
            (copy / data).symlink_to(ROOT / data)
        killed, counts = _conform(copy)
        if killed:
            raise SystemExit(f"the unchanged source fails conform: {counts}")
        for slip in slips:
            path = copy / "bolivia" / slip.file
            text = path.read_text(encoding="utf-8")
            if text.count(slip.old) != 1:
                raise SystemExit(f"slip {slip.name!r}: its text is not once in {slip.file}")
            path.write_text(text.replace(slip.old, slip.new), encoding="utf-8")
            try:
                killed, counts = _conform(copy)
            finally:
                path.write_text(text, encoding="utf-8")
            out.append((slip, killed, counts))
    return out


def check_readings(paths: Sequence[str] = ()) -> tuple[list[tuple[str, bool]], list[str]]:
    """For each rule field, whether conform catches an engine that plays Canasta's value of it
    under every shipped ruleset; and the fields every shipped ruleset gives that value."""
    from bolivia.errors import RulesetError
    from bolivia.rules.library import shipped_library
    from bolivia.rules.variants import LEAVES, alternatives, same_value, with_values
    from bolivia.verify import runner
    from bolivia.verify.conformance import InProcessEngine, run_plan
    from bolivia.verify.oracle import Oracle

    library = shipped_library()
    canasta = library.load("canasta")
    suites = runner.load_suites(())
    planned = runner.pick(suites, (), (), library)
    results, alike = [], []

    def served(path: str, value: object) -> tuple[int, Oracle] | None:
        """The oracle playing this value of the field under every shipped ruleset that gives
        another and can hold it, with how many those are (None: there is none)."""
        oracle, count = Oracle(library), 0
        for rid in library.ids():
            ruleset = library.load(rid)
            if same_value(ruleset.value(path), value):
                continue
            try:
                oracle.register(with_values(ruleset, {path: value}, rid))
                count += 1
            except RulesetError:  # not a value this ruleset can hold: not served so
                continue
        return (count, oracle) if count else None

    for path in paths or LEAVES:
        found = served(path, canasta.value(path))
        if found is None:  # every ruleset agrees: the engine plays a neighbouring value,
            alike.append(path)  # the one the most rulesets can hold (the first of those)
            held = [x for x in (served(path, v) for v in alternatives(canasta, path)) if x]
            found = max(held, key=lambda x: x[0]) if held else None
        if found is not None:
            outcomes = run_plan(planned, InProcessEngine(found[1]))
            results.append((path, any(o.status == "failed" for o in outcomes)))
    return results, alike


def main() -> int:
    sys.path.insert(0, str(ROOT))  # run from a checkout: its source, installed or not
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--slips-only", action="store_true")
    parser.add_argument("--readings-only", action="store_true")
    parser.add_argument("--only", action="append", help="a slip's name (repeatable)")
    args = parser.parse_args()
    survived = 0
    if not args.readings_only:
        slips = [s for s in SLIPS if not args.only or s.name in args.only]
        checked = check_slips(slips)
        for slip, killed, counts in checked:
            print(f"{'killed  ' if killed else 'SURVIVED'} {slip.name}: {counts}")
        kills = sum(killed for _, killed, _ in checked)
        survived += len(checked) - kills
        print(f"slips: {kills} of {len(checked)} killed by bolivia conform")
    if not args.slips_only and not args.only:
        results, alike = check_readings()
        for path, killed in results:
            if not killed:
                print(f"SURVIVED reading of {path} dropped")
        kills = sum(killed for _, killed in results)
        survived += len(results) - kills
        print(
            f"readings dropped: {kills} of {len(results)} killed by bolivia conform "
            f"({len(alike)} of them fields every shipped ruleset gives Canasta's value, played "
            "as a neighbouring value)"
        )
    return 1 if survived else 0


if __name__ == "__main__":
    sys.exit(main())
