"""The mutation check (``benchmarks/mutation_check.py``) on the slips issue 40 found alive, and
on a few rule readings dropped: ``bolivia conform`` catches each. The benchmark runs every slip
and every field; this keeps the four that once survived from surviving again."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BENCHMARK = ROOT / "benchmarks" / "mutation_check.py"
if not BENCHMARK.is_file() or not (ROOT / "bolivia" / "engine" / "limits.py").is_file():
    pytest.skip("needs the checkout: its benchmarks and source", allow_module_level=True)

# loaded from its file: the checkout is not put on the import path (the tests check the
# installed package; the slips are written into a copy of the checkout's source)
_spec = importlib.util.spec_from_file_location("mutation_check", BENCHMARK)
assert _spec is not None and _spec.loader is not None
mutation = sys.modules["mutation_check"] = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(mutation)
SLIPS, check_readings, check_slips = mutation.SLIPS, mutation.check_readings, mutation.check_slips


def test_the_four_slips_that_survived_are_caught() -> None:
    checked = check_slips(SLIPS[:4])
    assert [slip.name for slip, _, _ in checked] == [
        "going-out requirement by players ignored",
        "draw of any seating read from the usual one",
        "partner two seats on, whatever the sides",
        "concealed going out not spoiled by taking the pile",
    ]
    assert all(killed for _, killed, _ in checked), [(s.name, c) for s, k, c in checked if not k]


def test_rule_readings_dropped_are_caught() -> None:
    paths = [
        "going_out.requirement_by_players",
        "pile.blocked_by_top",
        "game.target_options",
        "melds.group.max_size",
        "melds.sequence.extend_going_out",
        "canastas.escalera.size",  # every ruleset gives Canasta's 7: a neighbouring value
    ]
    results, alike = check_readings(paths)
    assert [p for p, _ in results] == paths and alike == ["canastas.escalera.size"]
    assert all(killed for _, killed in results), results
