"""The valuation's native core (``bolivia/play/bots/_core.c``, the compiled build's) gives the
values of the Python it stands for bit for bit: on the positions the expert meets in play under
every shipped ruleset, on tables of melds drawn at random, and it refuses what is not a table.
Skipped where the installed package has no core (the pure build, a checkout); the compiled
build must have one. CI also compares the two builds' comparison reports byte for byte."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from bolivia.play.bots.expert import ExpertBot
from bolivia.play.bots.tables import Summary, Tables, native
from bolivia.play.bots.valuation import Position, Weights
from bolivia.play.table.actions import Action, Discard, Extend, Lay, TakePile, TakeTop
from bolivia.play.table.hand import Hand
from bolivia.play.table.state import CARDS
from bolivia.rules.library import Library, shipped_library
from bolivia.rules.ruleset import Ruleset
from bolivia.version import compiled

LIBRARY = shipped_library()


def test_the_compiled_build_has_the_core() -> None:
    assert native() is not None or not compiled()


needs_core = pytest.mark.skipif(native() is None, reason="no native core (the pure build)")


def _values(pos: Position, hand: Hand, actions: list[Action]) -> list[float]:
    """What the expert's valuation says of each of the actions (those it values by position)."""
    out = [pos.value_now()]
    out += pos.discard_scores([a.card.index for a in actions if isinstance(a, Discard)])
    for action in actions:
        if isinstance(action, Discard):
            out.append(pos.value_discarding(action.card.index))
            out.append(pos.danger(action.card.index))
        elif isinstance(action, Lay):
            new = [pos.cards_summary([c.index for c in meld]) for meld in action.melds]
            cards = [c for meld in action.melds for c in meld]
            out.append(pos.value_laying(cards, new))
            out.extend(pos.laying(action.melds))
        elif isinstance(action, Extend):
            grown = pos.extended(action.target, action.cards)
            out.append(pos.value_melding(action.cards, action.target, grown))
            out.extend(pos.melding(action.target, action.cards))
        elif isinstance(action, TakePile | TakeTop):
            after = hand.after_pickup(action)
            if after is not None:
                counts, melds = after
                out.append(pos.value(counts, [pos.summary(m) for m in melds]))
    return out


def _unseen(pos: Position) -> tuple[list[int], int, int, str]:
    return pos.unseen, pos.unseen_total, pos.unseen_wild, pos.mean_penalty.hex()


def _played_alike(ruleset: Ruleset, hands: int = 3) -> None:
    """Every position of ``hands`` expert hands valued alike by the core and the Python."""
    players = ruleset.rules.players.usual
    weights = Weights()
    checked = 0
    for seed in range(hands):
        rng = random.Random(seed)
        hand = Hand.deal(ruleset, players, rng)
        bot = ExpertBot()
        while not hand.over and hand.steps < 2000:
            actions = hand.choices()
            core, python = (Position(hand, weights, use_native=use) for use in (True, False))
            by_core, by_python = _values(core, hand, actions), _values(python, hand, actions)
            assert [v.hex() for v in by_core] == [v.hex() for v in by_python]
            core._know()
            python._know()
            assert _unseen(core) == _unseen(python)
            fresh = [0] * 53  # the table's cards kept from position to position: as counted now
            for side in hand.melds:
                for meld in side:
                    for card in meld.cards:
                        fresh[card.index] += 1
            assert core.tables.table_counts(hand.melds) == fresh
            checked += len(by_core)
            hand.apply(bot.choose(hand, actions, rng))
    assert checked > 100


@needs_core
@pytest.mark.parametrize("ruleset_id", LIBRARY.ids())
def test_the_core_values_every_position_of_play_as_the_python_does(ruleset_id: str) -> None:
    _played_alike(LIBRARY.load(ruleset_id))


#: house rules at the bounds of their values (a million a card, a bonus)
LARGEST = (
    "going_out: {bonus: 1000000, concealed_bonus: 1000000}\n"
    "red_threes: {value: 1000000, all_value: 1000000}\n"
    "canastas:\n  mixed: {bonus: 1000000}\n  natural: {bonus: 1000000}\n"
    "  escalera: {bonus: 1000000}\nscoring: {black_three_in_hand: 1000000}\n"
    "game: {target: 10000000}\n"
)


@needs_core
@pytest.mark.parametrize(
    ("base", "body"),
    [
        ("bolivia-da", LARGEST),
        ("bolivia-zh", LARGEST),
        ("canasta", LARGEST.replace("  escalera: {bonus: 1000000}\n", "")),
    ],
)
def test_the_core_values_house_rules_at_their_bounds_as_the_python_does(
    tmp_path: Path, base: str, body: str
) -> None:
    path = tmp_path / "house.yaml"
    path.write_text(
        f"id: house\nextends: {base}\n{body}provenance:\n  extends: {{house: test}}\n",
        encoding="utf-8",
    )
    ruleset = Library([tmp_path]).load(path)
    assert max(ruleset.penalties) == 1_000_000
    _played_alike(ruleset, hands=2)


_KINDS = st.sampled_from(["group", "sequence", "wild", "threes", "natural"])


@st.composite
def _summaries(draw: Any) -> Summary:
    kind = draw(_KINDS)
    size = draw(st.integers(1, 40))
    wilds = draw(st.integers(0, size))
    if kind == "group":
        return (kind, size, wilds, draw(st.integers(0, 12)), 0)
    if kind == "sequence":
        return (kind, size, wilds, draw(st.integers(0, 3)), draw(st.integers(1, (1 << 13) - 1)))
    return (kind, size, wilds, -1, 0)


_COUNTS = st.lists(st.integers(0, 3), min_size=53, max_size=53)


def _same_shape(core_shape: Any, python_shape: Any) -> None:
    for name in ("penalty", "by_rank", "wilds", "masks"):
        assert getattr(core_shape, name) == getattr(python_shape, name), name


@needs_core
@settings(max_examples=300, deadline=None)
@given(
    ruleset_id=st.sampled_from(LIBRARY.ids()),
    table=st.lists(_summaries(), max_size=14),
    added=st.lists(_summaries(), max_size=4),
    counts=_COUNTS,
    own=_COUNTS,
    gone=st.lists(st.integers(0, 52), max_size=6),
    changed=st.tuples(st.integers(0, (1 << 13) - 1), st.integers(0, 15)),
    risk=st.floats(0, 1),
)
def test_the_core_reads_any_table_and_hand_as_the_python_does(
    ruleset_id: str,
    table: list[Summary],
    added: list[Summary],
    counts: list[int],
    own: list[int],
    gone: list[int],
    changed: tuple[int, int],
    risk: float,
) -> None:
    ruleset = LIBRARY.load(ruleset_id)
    players = ruleset.rules.players.usual
    weights = Weights()
    pos = Position(Hand.deal(ruleset, players, random.Random(0)), weights, use_native=False)
    python = pos.tables  # the Python's tables: the reference
    core = Tables(ruleset, players, weights).core
    assert python.core is None and core is not None
    # the table, grown, and each of its melds replaced
    here = python.grown_here(None, table)
    base = core.grown(None, table)
    assert base.value.hex() == here.value.hex()
    grown_here = python.grown_here(here, added)
    grown = core.grown(base, added)
    assert grown.value.hex() == grown_here.value.hex()
    for k in range(len(table)):
        meld = added[0] if added else table[k]
        want = python.grown_here(python.grown_here(None, table[:k]), [meld, *table[k + 1 :]])
        got = core.grown(core.grown(None, table[:k]), [meld, *table[k + 1 :]])
        assert got.value.hex() == want.value.hex()
        assert core.replaced(table, k, meld).value.hex() == want.value.hex()
    # the player's own cards beside the table, and without some of them
    pos.risk = risk
    pos.counts, pos.own = own, pos.shape(own)
    pos.table, pos._own_view, pos._parts = table, here, None
    own_shape = core.shape(own)
    _same_shape(own_shape, pos.own)
    kept_here = pos._own_parts()
    kept = core.parts(own_shape, base)
    held = [i for i in gone if own[i]]
    cards = [CARDS[i] for i in held if own[i] >= held.count(i)]
    _same_shape(core.without(own_shape, [c.index for c in cards], own), pos.shape_without(cards))
    for i in held[:1]:
        _same_shape(core.discarded(own_shape, i, own[i]), pos.discarded(i))
    # any cards in hand beside the table, alone and with the parts of the own cards kept
    ranks, suits = changed
    shape_here = pos.shape(counts)
    shape = core.shape(counts)
    _same_shape(shape, shape_here)
    for view_here, view, parts_here, parts in (
        (here, base, None, None),
        (grown_here, grown, kept_here, kept),
    ):
        want_value = pos._shape_value(shape_here, view_here, parts_here, ranks, suits)  # type: ignore[arg-type]
        got_value = core.shape_value(shape, view, parts, ranks, suits, risk)
        assert got_value.hex() == want_value.hex()


@needs_core
@pytest.mark.parametrize(
    ("added", "error"),
    [
        ([("group", 3, 0)], TypeError),
        ([["group", 3, 0, 4, 0]], TypeError),
        ([("group", 3, 0, -1, 0)], ValueError),
        ([("sequence", 3, 0, 7, 7)], ValueError),
        ([("group", 5000, 0, 4, 0)], ValueError),
        ([("group", "3", 0, 4, 0)], TypeError),
        ([(None, 3, 0, 4, 0)], TypeError),
        (5, TypeError),
    ],
)
def test_the_core_refuses_what_is_not_a_table(added: Any, error: type[Exception]) -> None:
    core = Tables(LIBRARY.load("bolivia-da"), 4, Weights()).core
    assert core is not None
    with pytest.raises(error):
        core.grown(None, added)


@needs_core
def test_the_core_refuses_hands_out_of_bounds() -> None:
    core = Tables(LIBRARY.load("bolivia-da"), 4, Weights()).core
    assert core is not None
    view = core.grown(None, [])
    with pytest.raises(ValueError, match="counts"):
        core.shape([1] * 52)
    with pytest.raises(ValueError, match="counts"):
        core.shape([-1] + [0] * 52)
    shape = core.shape([0] * 53)
    with pytest.raises(ValueError, match="held"):
        core.own_shape([0] * 53, [0] * 13, [0, 0, 0, 1 << 14])
    with pytest.raises(ValueError, match="card index"):
        core.without(shape, [53], [0] * 53)
    with pytest.raises(ValueError, match="card index"):
        core.discarded(shape, -1, 1)
    with pytest.raises(TypeError, match="counts"):
        core.without(shape, [4], (1,) * 53)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="view"):
        core.shape_value(shape, "view", None, 0, 0, 0.5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="parts"):
        core.shape_value(shape, view, view, 0, 0, 0.5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="shape"):
        core.parts(view, view)  # type: ignore[arg-type]


@needs_core
@settings(max_examples=200, deadline=None)
@given(
    unseen=_COUNTS,
    wild=st.integers(0, 12),
    index=st.integers(0, 52),
    size=st.integers(0, 40),
    ways=st.sets(st.sampled_from(["natural_pair", "natural_and_wild"])),
)
def test_the_core_weighs_the_chance_of_a_take_as_the_python_does(
    unseen: list[int], wild: int, index: int, size: int, ways: set[str]
) -> None:
    ruleset = LIBRARY.load("bolivia-da")
    pos = Position(Hand.deal(ruleset, 4, random.Random(0)), Weights(), use_native=False)
    core = Tables(ruleset, 4, Weights()).core
    assert core is not None
    total = max(sum(unseen), 1)
    pos.unseen, pos.unseen_total, pos.unseen_wild = unseen, total, wild
    want = pos._take_chance(index, tuple(sorted(ways)), [], size)
    pair, with_wild = "natural_pair" in ways, "natural_and_wild" in ways
    got = core.take_chance(unseen, total, wild, index, size, pair, with_wild)
    assert got.hex() == want.hex()


@needs_core
@settings(max_examples=200, deadline=None)
@given(
    ruleset_id=st.sampled_from(LIBRARY.ids()),
    table=st.lists(_summaries(), min_size=1, max_size=12),
    own=_COUNTS,
    picks=st.lists(st.lists(st.integers(0, 52), min_size=1, max_size=5), max_size=3),
    target=st.integers(0, 11),
    discard=st.integers(0, 52),
)
@example(  # black threes laid (a meld of its own kind, worth nothing by itself)
    ruleset_id="bolivia-da",
    table=[("group", 3, 0, 5, 0)],
    own=[1] * 53,
    picks=[[4, 6]],
    target=0,
    discard=4,
)
def test_the_core_values_any_meld_or_discard_as_the_python_does(
    ruleset_id: str,
    table: list[Summary],
    own: list[int],
    picks: list[list[int]],
    target: int,
    discard: int,
) -> None:
    """New melds of any held cards (black or red threes among them), cards onto any of the
    side's melds, any discard: the value the expert reads, by the core and by the Python."""
    ruleset = LIBRARY.load(ruleset_id)
    hand = Hand.deal(ruleset, ruleset.rules.players.usual, random.Random(0))
    found = []
    for use in (True, False):
        pos = Position(hand, Weights(), use_native=use)
        pos.counts, pos.own, pos.table = own, pos.shape(own), table
        pos._own_view, pos._parts = None, None
        left = list(own)
        melds = []
        for pick in picks:  # each card at most as often as it is held
            meld = [CARDS[i] for i in pick if left[i] > 0 and not left.__setitem__(i, left[i] - 1)]
            if meld:
                melds.append(meld)
        values = [*pos.laying(melds)] if melds else []
        cards = [card for meld in melds for card in meld]
        if cards:
            values += pos.melding(target % len(table), cards)
        if own[discard]:
            values.append(pos.value_discarding(discard))
        found.append([v.hex() for v in values])
    assert found[0] == found[1]


@needs_core
def test_a_core_not_made_refuses_to_work() -> None:
    core_type = native()
    assert core_type is not None
    unmade = core_type.__new__(core_type)
    with pytest.raises(RuntimeError, match="before it is made"):
        unmade.grown(None, [])
    half = core_type.__new__(core_type)
    with pytest.raises(AttributeError):
        half.__init__(object(), 2)  # type: ignore[misc]  # not the valuation's tables
    with pytest.raises(RuntimeError, match="before it is made"):
        half.shape([0] * 53)
    made = Tables(LIBRARY.load("bolivia-da"), 4, Weights()).core
    assert made is not None
    with pytest.raises(RuntimeError, match="made once"):
        made.__init__(object(), 2)  # type: ignore[misc]
