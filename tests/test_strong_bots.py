"""The expert and search bots and what the search stands on: legal play on every shipped
ruleset, the same play from the same seed, copies that share nothing, samples that keep the
player's view and every card, and a small match that runs in the suite."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bolivia.errors import BadRequest
from bolivia.play.batch.match import MatchSpec, play_match
from bolivia.play.batch.simulate import play_hand
from bolivia.play.bots.expert import ExpertBot
from bolivia.play.bots.registry import Bot, make_bot
from bolivia.play.bots.sampling import determinize, unseen
from bolivia.play.bots.search import SearchBot
from bolivia.play.table.actions import Action
from bolivia.play.table.hand import Hand
from bolivia.rules.library import LibrarySpec, shipped_library
from tests.strategies import SHIPPED_IDS

from .hands import played

LIBRARY = shipped_library()


def _players(ruleset_id: str) -> int:
    seats = LIBRARY.load(ruleset_id).rules.players.seats
    return 4 if 4 in seats else min(seats)


def _played(ruleset_id: str, seed: int, steps: int) -> Hand:
    """A hand after up to ``steps`` actions of the expert in every seat."""
    ruleset = LIBRARY.load(ruleset_id)
    players = _players(ruleset_id)
    return played(ruleset, players, random.Random(seed), ExpertBot(), steps, random.Random(seed))


def _snapshot(hand: Hand) -> tuple[object, ...]:
    return (
        [list(h) for h in hand.hands],
        list(hand.stock),
        list(hand.pile),
        [list(t) for t in hand.melds],
        list(hand.sizes),
        hand.current,
        hand.phase,
        hand.turns,
        [list(t) for t in hand.taken],
    )


@settings(max_examples=12, deadline=None)
@given(st.sampled_from(SHIPPED_IDS), st.integers(0, 2**32))
def test_expert_plays_only_legal_actions(ruleset_id: str, seed: int) -> None:
    ruleset = LIBRARY.load(ruleset_id)
    hand = Hand.deal(ruleset, _players(ruleset_id), random.Random(seed))
    bot = ExpertBot()
    rng = random.Random(seed)
    while not hand.over and hand.steps < 400:
        actions = hand.choices()
        action = bot.choose(hand, actions, rng)
        assert action in actions
        assert hand.can(action), action
        hand.apply(action)
    assert hand.conserved()


def _actions(bots: list[Bot], seed: int, steps: int) -> list[Action]:
    hand = Hand.deal(LIBRARY.load("bolivia-da"), 4, random.Random(seed))
    rng = random.Random(seed)
    played: list[Action] = []
    while not hand.over and len(played) < steps:
        action = bots[hand.current].choose(hand, hand.choices(), rng)
        hand.apply(action)
        played.append(action)
    return played


def test_the_bots_play_the_same_from_the_same_seed() -> None:
    ruleset = LIBRARY.load("bolivia-da")
    runs = [play_hand(ruleset, 4, 7, [make_bot("expert")] * 4, record=True)[0] for _ in range(2)]
    assert runs[0].replay == runs[1].replay and runs[0].completed
    searches = [
        _actions([SearchBot(playouts=2, width=2, depth=4), ExpertBot()] * 2, 5, 60)
        for _ in range(2)
    ]
    assert searches[0] == searches[1] and len(searches[0]) == 60


def test_a_copy_shares_nothing() -> None:
    hand = _played("bolivia-da", 3, 40)
    before = _snapshot(hand)
    copy = hand.copy()
    assert _snapshot(copy) == before
    bot = ExpertBot()
    rng = random.Random(0)
    for _ in range(30):
        if copy.over:
            break
        copy.apply(bot.choose(copy, copy.choices(), rng))
    assert copy.conserved()
    assert _snapshot(hand) == before
    assert hand.conserved()


def test_a_copy_is_dealt_from_its_hands_deck_and_any_other_deck_is_still_checked() -> None:
    """A copy takes its hand's deck (the same tuple, not checked again, issue 43); a deck that
    is not the pack is refused after any number of hands and copies, an empty one too."""
    ruleset = LIBRARY.load("bolivia-da")
    hand = Hand.deal(ruleset, 4, random.Random(1))
    assert hand.copy().deck is hand.deck
    for bad in [(), hand.deck[:-1], list(hand.deck[1:]), (*hand.deck[:-1], hand.deck[0])]:
        with pytest.raises(BadRequest, match="not the ruleset's pack"):
            Hand(ruleset, 4, bad)
        assert hand.copy().deck is hand.deck


def _unseen_cards(hand: Hand, player: int) -> Counter[int]:
    """The other hands' cards (less those known taken from the pile) and the stock's."""
    found: Counter[int] = Counter(hand.stock)
    for p in range(hand.players):
        if p != player:
            for i, n in enumerate(hand.hands[p]):
                if n - hand.taken[p][i]:
                    found[i] += n - hand.taken[p][i]
    return found


@settings(max_examples=15, deadline=None)
@given(
    st.sampled_from(["bolivia-da", "bolivia-fr", "bolivia-zh", "canasta"]),
    st.integers(0, 2**32),
    st.integers(0, 150),
    st.integers(0, 2**32),
)
def test_a_sample_keeps_the_view_and_every_card(
    ruleset_id: str, seed: int, steps: int, draw: int
) -> None:
    hand = _played(ruleset_id, seed, steps)
    player = hand.current
    view = unseen(hand, player)
    world = determinize(hand, player, random.Random(draw))
    assert world.conserved()
    # what the player sees is unchanged: its hand, the table, the pile, the sizes, the turn
    assert world.hands[player] == hand.hands[player]
    assert world.melds == hand.melds and world.pile == hand.pile
    assert world.sizes == hand.sizes and len(world.stock) == len(hand.stock)
    assert (world.current, world.phase, world.turns) == (
        hand.current,
        hand.phase,
        hand.turns,
    )
    assert unseen(world, player) == view
    # the cards known taken from the pile stay where they are, the rest is the same multiset
    for p in range(hand.players):
        assert all(w >= t for w, t in zip(world.hands[p], hand.taken[p], strict=True))
    assert _unseen_cards(world, player) == _unseen_cards(hand, player)
    # the sample reads the view alone: a hand the player sees alike gives the same sample
    twin = determinize(hand, player, random.Random(draw + 1))
    again = determinize(twin, player, random.Random(draw))
    assert _snapshot(again) == _snapshot(world)
    # and the hand it was drawn from is untouched
    assert hand.conserved()


def test_search_returns_one_of_the_actions_and_keeps_the_hand() -> None:
    hand = _played("bolivia-da", 11, 30)
    before = _snapshot(hand)
    actions: list[Action] = hand.choices()
    action = SearchBot(playouts=2, width=2, depth=4).choose(hand, actions, random.Random(1))
    assert action in actions
    assert _snapshot(hand) == before


def test_a_small_match_of_the_expert() -> None:
    spec = MatchSpec("bolivia-da", LibrarySpec(), 4, "expert", "greedy", 0, deals=6, check="end")
    summary = play_match(spec)
    assert summary["hands_played"] == 12 and summary["not_ended_by_a_rule"] == 0
    assert summary["conservation_failures"] == 0
    assert summary["hands"]["won"] > summary["hands"]["lost"]


def test_every_search_option_plays_legally_and_the_same_with_any_workers() -> None:
    """The search's options all on (its playouts by the greedy bot), a small budget: legal
    actions only, the hand conserved, and a match of it the same figures from one worker or
    two."""
    spec = (
        "search:playouts=2,width=3,depth=2,discards=1,confidence=0.5,win=100,melds=1,extra=2,"
        "greedy=1"
    )
    bot = make_bot(spec)
    ruleset = LIBRARY.load("bolivia-da")
    hand = Hand.deal(ruleset, 4, random.Random(8))
    rng = random.Random(8)
    searched = 0
    while not hand.over and hand.steps < 50:
        actions = hand.choices()
        action = bot.choose(hand, actions, rng)
        assert action in actions and hand.can(action)
        searched += action != ExpertBot().choose(hand, actions, rng)
        hand.apply(action)
    assert hand.conserved() and searched  # the search did choose otherwise than the expert
    cheap = "search:playouts=2,depth=2,extra=2,win=50"  # searched at the pile only
    match = MatchSpec("bolivia-da", LibrarySpec(), 4, cheap, "expert", 2, deals=1, check="end")
    assert play_match(match, 1) == play_match(match, 2)
