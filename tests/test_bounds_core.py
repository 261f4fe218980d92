"""The native core of the search for a way out (``bolivia/play/table/_bounds.c``, the compiled
build's) answers as the Python it stands for (``bounds.python_could_meet``,
``bounds.python_stranded``, a state's ``runs.run_capable`` and ``runs.run_cells``): on the
states of played hands under every shipped ruleset, with the melds and extensions each state
offers laid, on random hands and tables, and when more melds have been read than it keeps; it
refuses what is not a hand or a table. Skipped where the package has no native core (the pure
build, a checkout); the compiled build must have one."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bolivia.cards import Card
from bolivia.engine.limits import limits
from bolivia.engine.melds import Meld, extension, new_meld
from bolivia.play.bots.registry import make_bot
from bolivia.play.table.actions import Discard, Extend, Lay
from bolivia.play.table.bounds import (
    _run_places,
    native,
    python_could_meet,
    python_stranded,
)
from bolivia.play.table.hand import Hand
from bolivia.play.table.runs import run_capable, run_cells
from bolivia.rules.library import shipped_library
from bolivia.rules.ruleset import Ruleset
from bolivia.version import compiled

LIBRARY = shipped_library()
CARDS = Card.all()


def test_the_compiled_build_has_the_native_bounds() -> None:
    assert native() is not None or not compiled()


needs_native = pytest.mark.skipif(native() is None, reason="no native bounds (the pure build)")


def _made(ruleset: Ruleset) -> Any:
    """Native bounds of the ruleset, made afresh (none of the melds of other tests kept)."""
    found = native()
    assert found is not None
    lim = limits(ruleset)
    return found(
        lim,
        lambda meld: _run_places(ruleset, lim, meld),
        lim.rank_index,
        {"C": 0, "D": 1, "H": 2, "S": 3},
    )


def _alike(
    bounds: Any, ruleset: Ruleset, counts: list[int], table: list[Meld], players: int
) -> None:
    want = python_could_meet(ruleset, counts, table, players)
    assert bounds.could_meet(counts, table, players) is want, (counts, table)
    assert bounds.stranded(counts, table) == python_stranded(ruleset, counts, table), (
        counts,
        table,
    )
    # a search state's capable masks and cells (where runs are melded)
    wilds = sum(counts[i] for i in ruleset.wild_indices)
    capable = run_capable(limits(ruleset), counts, wilds, table)
    got = bounds.state(counts, table)
    assert got[0] == capable, (counts, table)
    if ruleset.rules.melds.sequence.allowed:
        assert got[1] == run_cells(ruleset.wild, counts, capable), (counts, table)


def _after(ruleset: Ruleset, counts: list[int], table: list[Meld], action: object) -> Any:
    """The hand and the table once a lay or an extension is made (None for other actions)."""
    if isinstance(action, Lay):
        melds = [new_meld(ruleset, cards, going_out=True) for cards in action.melds]
        cards = [c for meld in action.melds for c in meld]
        if any(m is None for m in melds):
            return None
        grown = [*table, *melds]
    elif isinstance(action, Extend):
        meld = extension(ruleset, table[action.target], action.cards, going_out=True)
        if meld is None:
            return None
        cards = list(action.cards)
        grown = [*table[: action.target], meld, *table[action.target + 1 :]]
    else:
        return None
    left = list(counts)
    for card in cards:
        left[card.index] -= 1
    return left, grown


def _played_alike(ruleset: Ruleset, bot: str, hands: int) -> int:
    """Every state of the hands: the player's hand and side, each lay or extension offered
    made, and the hand less each card it may discard."""
    bounds = _made(ruleset)
    players = ruleset.rules.players.usual
    checked = 0
    for seed in range(hands):
        rng = random.Random(seed)
        hand = Hand.deal(ruleset, players, rng)
        bots = [make_bot(bot) for _ in range(players)]
        while not hand.over and hand.steps < 2000:
            actions = hand.choices()
            counts = list(hand.hands[hand.current])
            table = list(hand.melds[hand.team])
            _alike(bounds, ruleset, counts, table, players)
            for action in actions:
                after = _after(ruleset, counts, table, action)
                if after is not None:
                    _alike(bounds, ruleset, after[0], after[1], players)
                elif isinstance(action, Discard):
                    left = list(counts)
                    left[action.card.index] -= 1
                    _alike(bounds, ruleset, left, table, players)
                checked += 1
            hand.apply(bots[hand.current].choose(hand, actions, rng))
    return checked


@needs_native
@pytest.mark.parametrize("ruleset_id", LIBRARY.ids())
def test_the_native_bounds_answer_every_state_of_play_as_the_python_does(ruleset_id: str) -> None:
    ruleset = LIBRARY.load(ruleset_id)
    assert _played_alike(ruleset, "greedy", 2) + _played_alike(ruleset, "expert", 1) > 200


def _picks(ruleset: Ruleset) -> Any:
    """Cards that may make a meld: a rank's, a suit's run, wild cards, black threes, any."""
    pack = sorted({c.index for c in ruleset.pack.cards()})
    wild = [i for i in pack if ruleset.wild[i]]
    any_cards = st.lists(st.sampled_from(pack), min_size=1, max_size=12)
    rank = st.integers(0, 12).flatmap(
        lambda r: st.lists(
            st.sampled_from([r * 4 + s for s in range(4)] + wild), min_size=3, max_size=12
        )
    )
    run = st.tuples(st.integers(0, 3), st.integers(0, 12), st.integers(3, 13)).map(
        lambda t: [((t[1] + k) % 13) * 4 + t[0] for k in range(t[2])]
    )
    wilds = st.lists(st.sampled_from(wild or pack), min_size=3, max_size=10)
    threes = st.lists(st.sampled_from([4, 7, *wild]), min_size=3, max_size=6)
    return st.one_of(rank, run, wilds, threes, any_cards)


@st.composite
def _states(draw: Any) -> tuple[Ruleset, list[int], list[Meld], int]:
    ruleset = LIBRARY.load(draw(st.sampled_from(LIBRARY.ids())))
    table: list[Meld] = []
    for cards in draw(st.lists(_picks(ruleset), max_size=10)):
        meld = new_meld(ruleset, [CARDS[i] for i in cards], going_out=True)
        if meld is not None:
            table.append(meld)
    most = ruleset.rules.pack.decks + 1
    counts = draw(st.lists(st.integers(0, most), min_size=53, max_size=53))
    if draw(st.booleans()):  # a hand of a few cards, as the search leaves
        kept = draw(st.lists(st.booleans(), min_size=53, max_size=53))
        counts = [n if keep else 0 for n, keep in zip(counts, kept, strict=True)]
    players = draw(st.sampled_from(sorted(ruleset.rules.players.seats)))
    return ruleset, counts, table, players


@needs_native
@settings(max_examples=400, deadline=None)
@given(state=_states())
def test_the_native_bounds_answer_any_hand_and_table_as_the_python_does(
    state: tuple[Ruleset, list[int], list[Meld], int],
) -> None:
    ruleset, counts, table, players = state
    _alike(_made(ruleset), ruleset, counts, table, players)


@needs_native
def test_the_native_bounds_read_melds_again_once_they_forget_them() -> None:
    """Past the melds it keeps (1,024), it forgets them all and reads them again: the answers
    stay those of the Python (runs among them, whose placements are asked again)."""
    ruleset = LIBRARY.load("bolivia-da")
    bounds = _made(ruleset)
    rng = random.Random(7)
    suits = "CDHS"
    # one meld read alone first: the melds kept are then forgotten while a table of two is
    # read, after its first meld (which is read again)
    _alike(bounds, ruleset, [1] * 53, [new_meld(ruleset, [CARDS[8], CARDS[9], CARDS[10]])], 4)
    for k in range(5000):
        s = rng.randrange(4)
        start = rng.randrange(2, 8)
        run = new_meld(ruleset, [CARDS[r * 4 + s] for r in range(start, start + 4)], going_out=True)
        group = new_meld(ruleset, [CARDS[(k % 10 + 2) * 4 + t] for t in range(3)], going_out=True)
        assert run is not None and run.suit == suits[s] and group is not None
        counts = [rng.randrange(3) for _ in range(53)]
        _alike(bounds, ruleset, counts, [group, run], 4)


@needs_native
def test_the_native_bounds_refuse_what_is_not_a_hand_or_a_table() -> None:
    ruleset = LIBRARY.load("bolivia-da")
    bounds = _made(ruleset)
    group = new_meld(ruleset, [CARDS[40], CARDS[41], CARDS[42]])
    with pytest.raises(TypeError, match="counts"):
        bounds.could_meet([0] * 52, [], 4)
    with pytest.raises(TypeError, match="counts"):
        bounds.could_meet((0,) * 53, [], 4)
    with pytest.raises(ValueError, match="counts"):
        bounds.stranded([-1] + [0] * 52, [])
    with pytest.raises(TypeError):
        bounds.stranded(["1"] + [0] * 52, [])
    with pytest.raises(ValueError, match="players"):
        bounds.could_meet([0] * 53, [group], 1000)
    with pytest.raises(AttributeError):
        bounds.could_meet([0] * 53, [object()], 4)
    with pytest.raises(TypeError):
        bounds.could_meet([0] * 53, 5, 4)
    with pytest.raises(TypeError):
        bounds.stranded([0] * 53)
    broken = type(bounds)(limits(ruleset), lambda meld: [(1, 2)], limits(ruleset).rank_index, {})
    run = new_meld(ruleset, [CARDS[r * 4 + 2] for r in range(4, 8)])
    with pytest.raises(ValueError, match="suit"):
        broken.could_meet([0] * 53, [run], 4)
    broken = type(bounds)(
        limits(ruleset), lambda meld: [(1, 2)], limits(ruleset).rank_index, {"H": 2}
    )
    with pytest.raises(TypeError, match="placement"):
        broken.could_meet([0] * 53, [run], 4)
    with pytest.raises(RuntimeError, match="before it is made"):
        type(bounds).__new__(type(bounds)).could_meet([0] * 53, [], 4)
    with pytest.raises(RuntimeError, match="made once"):
        bounds.__init__(limits(ruleset), print, {}, {})
