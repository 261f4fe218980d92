"""The compiled build (the hot modules built with mypyc) behaves as pure Python does where
compiling changes the rules: values that worker processes send survive pickling, and two
workers give the figures of one. Skipped when the installed package is pure Python; CI runs
the suite in both builds and compares their output byte for byte (``.ci/run``)."""

from __future__ import annotations

import pickle
import random
from dataclasses import fields, is_dataclass, replace
from pathlib import Path
from typing import Any

import pytest

from bolivia.cards import JOKER, Card, Pack
from bolivia.engine.game_end import game_over
from bolivia.engine.melds import Meld
from bolivia.engine.pile import Pickup
from bolivia.engine.scoring import TeamHand, TeamScore
from bolivia.play.batch.simulate import HandStats, RunSpec, play_hand, run
from bolivia.play.bots.simple import RandomBot
from bolivia.play.table import actions
from bolivia.play.table.hand import Hand
from bolivia.rules.library import LibrarySpec, shipped_library
from bolivia.version import compiled

pytestmark = pytest.mark.skipif(
    not compiled(), reason="the installed package is pure Python (BOLIVIA_PURE=1 or a checkout)"
)

LIBRARY = shipped_library()
ACTIONS = (
    actions.Draw,
    actions.TakePile,
    actions.TakeTop,
    actions.Lay,
    actions.Extend,
    actions.Combine,
    actions.Discard,
    actions.GoOut,
    actions.Ask,
    actions.Answer,
    actions.Stop,
)


def test_the_hot_modules_are_compiled() -> None:
    from bolivia.play.batch import simulate
    from bolivia.play.table import hand

    for module in (hand, simulate):
        assert module.__file__ is not None and module.__file__.endswith(".so"), module.__file__


def _played(ruleset_id: str, seed: int) -> tuple[Hand, list[Any]]:
    """A hand played to its end by random bots, and every action chosen in it."""
    ruleset = LIBRARY.load(ruleset_id)
    hand = Hand.deal(ruleset, 4, random.Random(seed))
    choices = random.Random(seed + 1)
    chosen: list[Any] = []
    while not hand.over and hand.steps < 5_000:
        action = RandomBot().choose(hand, hand.choices(), choices)
        chosen.append(action)
        hand.apply(action)
    return hand, chosen


def _values() -> list[object]:
    """One or more of every value type that can cross a process boundary, taken from play."""
    values: list[object] = [Card.parse("10H"), JOKER, Pack(decks=2, jokers=4)]
    for ruleset_id, seed in (("canasta", 1), ("bolivia-da", 2), ("samba", 3)):
        hand, chosen = _played(ruleset_id, seed)
        values += chosen
        values += [meld for team in hand.melds for meld in team]
        if hand.over:
            result = hand.result()
            values += [result, *result.scores]
            ruleset = LIBRARY.load(ruleset_id)
            scores = [score.total for score in result.scores]
            values.append(game_over(ruleset, scores, 1, 4))
    meld = next(v for v in values if isinstance(v, Meld))
    values += [
        Pickup("onto_meld", meld, onto=0, with_cards=meld.cards[:1], also=(meld,)),
        TeamHand((meld,), 1, ((JOKER,),), went_out=True),
        TeamScore(1, 2, 3, 4, 5),
        actions.Ask(),
        actions.Answer(yes=True),
        actions.Stop(),
        actions.Combine(0, 1),
        actions.TakeTop(onto=0),
        actions.TakePile(with_cards=meld.cards[:2], onto=None, also=(meld.cards,)),
        actions.GoOut(melds=(meld.cards,), extends=((0, meld.cards[:1]),), combine=((0, 1),)),
        RunSpec(
            "canasta",
            LibrarySpec(("somewhere",)),
            4,
            ("random",) * 4,
            seed=5,
            hands=3,
            replays="out",
        ),
    ]
    played = LIBRARY.load("bolivia-da")
    stats, _ = play_hand(played, 4, 7, [RandomBot()] * 4, record=True)
    values += [stats, played]  # a ruleset played under keeps values for the hot path with it
    return values


def test_every_value_a_worker_sends_pickles_round_trip() -> None:
    values = _values()
    kinds = {type(value) for value in values}
    assert set(ACTIONS) <= kinds and {HandStats, RunSpec, Meld, Pickup, TeamHand} <= kinds
    for value in values:
        for protocol in range(2, pickle.HIGHEST_PROTOCOL + 1):
            back = pickle.loads(pickle.dumps(value, protocol))
            assert type(back) is type(value) and back == value, (value, protocol)
            if is_dataclass(value):
                for item in fields(value):
                    assert getattr(back, item.name) == getattr(value, item.name)
    assert pickle.loads(pickle.dumps(JOKER)) is JOKER


def test_two_workers_give_the_figures_of_one(tmp_path: Path) -> None:
    spec = RunSpec(
        "bolivia-da",
        LibrarySpec(),
        4,
        ("greedy",) * 4,
        seed=11,
        hands=8,
        replays=str(tmp_path / "one"),
    )
    timing = ("seconds", "hands_per_second", "actions_per_second")
    one = run(spec, workers=1)
    two = run(replace(spec, replays=str(tmp_path / "two")), workers=2)
    for summary in (one, two):
        for key in timing:
            summary.pop(key)
    assert one == two
    names = sorted(p.name for p in (tmp_path / "one").iterdir())
    assert names and names == sorted(p.name for p in (tmp_path / "two").iterdir())
    for name in names:
        assert (tmp_path / "one" / name).read_bytes() == (tmp_path / "two" / name).read_bytes()
