"""The expert does not make the moves a club would call blunders (``benchmarks/blunders.py``):
a wild card thrown onto a small pile while a natural card could go, a natural trio broken.
The same hands played without the two rules of thumb (``keep_wild`` and ``trio`` at 0) make
them, so the rules, not the deals, keep them away."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from bolivia.play.bots.expert import ExpertBot
from bolivia.play.bots.tuned import weights_for
from bolivia.rules.library import shipped_library

ROOT = Path(__file__).resolve().parent.parent
BENCHMARK = ROOT / "benchmarks" / "blunders.py"
if not BENCHMARK.is_file():
    pytest.skip("needs the checkout: its benchmarks", allow_module_level=True)

_spec = importlib.util.spec_from_file_location("blunders", BENCHMARK)
assert _spec is not None and _spec.loader is not None
blunders = sys.modules["blunders"] = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(blunders)

HANDS = 12


def _shares(rid: str, keep: bool) -> tuple[float, float, int, int]:
    weights = weights_for(shipped_library().load(rid))
    if not keep:
        weights.keep_wild = weights.trio = 0.0
    t = blunders.count("expert", rid, HANDS, 0, lambda: ExpertBot(weights))
    return (
        t["wild on a small pile"] / max(t["wild possible"], 1),
        t["trio broken"] / max(t["trio possible"], 1),
        t["wild possible"],
        t["trio possible"],
    )


@pytest.mark.parametrize("rid", ["bolivia-da", "bolivia-zh"])
def test_the_expert_keeps_its_wild_cards_and_its_trios(rid: str) -> None:
    wild, trio, wild_chances, trio_chances = _shares(rid, keep=True)
    wild_without, trio_without, _, _ = _shares(rid, keep=False)
    assert wild_chances >= 20 and trio_chances >= 100  # enough chances to tell
    assert wild <= 0.02 and trio <= 0.05, (wild, trio)
    assert wild_without >= 0.04 and trio_without >= 0.25, (wild_without, trio_without)
