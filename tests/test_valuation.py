"""The expert's valuation read on from the position as it stands gives the numbers of valuing
each position from scratch, bit for bit: a discard, a new meld and an extension valued from
the hand's own parts and the side's table as it stands (issue 43) equal the value of the
hand and table they lead to, worked out whole. So the expert chooses as it did before it was
made cheaper."""

from __future__ import annotations

import random

import pytest

from bolivia.play.bots.expert import ExpertBot
from bolivia.play.bots.tables import summary_of, tables
from bolivia.play.bots.valuation import Position, Weights
from bolivia.play.table.actions import Discard, Extend, Lay
from bolivia.play.table.hand import Hand
from bolivia.rules.library import shipped_library
from tests.strategies import SHIPPED_IDS

LIBRARY = shipped_library()


def _checked(pos: Position, hand: Hand) -> int:
    """Every play-phase action's value both ways, compared; how many were."""
    checked = 0
    counts = pos.counts
    assert pos.value_now() == pos.value(counts, pos.table)
    for action in hand.choices():
        if isinstance(action, Discard):
            after = list(counts)
            after[action.card.index] -= 1
            whole = pos.value(after, pos.table)
            assert pos.value_discarding(action.card.index) == whole, action
        elif isinstance(action, Lay):
            cards = [card for meld in action.melds for card in meld]
            after = list(counts)
            for card in cards:
                after[card.index] -= 1
            new = [pos.cards_summary([c.index for c in meld]) for meld in action.melds]
            whole = pos.value(after, [*pos.table, *new])
            assert pos.value_laying(cards, new) == whole, action
        elif isinstance(action, Extend):
            after = list(counts)
            for card in action.cards:
                after[card.index] -= 1
            grown = pos.extended(action.target, action.cards)
            table = list(pos.table)
            table[action.target] = grown
            whole = pos.value(after, table)
            assert pos.value_melding(action.cards, action.target, grown) == whole, action
        else:
            continue
        checked += 1
    return checked


@pytest.mark.parametrize("ruleset_id", [*SHIPPED_IDS, "brazilian-canastra"])
def test_each_candidate_is_valued_as_its_position_worked_out_whole(ruleset_id: str) -> None:
    ruleset = LIBRARY.load(ruleset_id)
    players = 4 if 4 in ruleset.rules.players.seats else min(ruleset.rules.players.seats)
    bot = ExpertBot()
    checked = 0
    for seed in range(2):
        hand = Hand.deal(ruleset, players, random.Random(seed))
        rng = random.Random(seed)
        while not hand.over and hand.steps < 400:
            actions = hand.choices()
            if not actions:
                break
            if hand.phase == "play":
                checked += _checked(Position(hand, Weights()), hand)
            hand.apply(bot.choose(hand, actions, rng))
    assert checked > 100  # the hands held many candidates to value


def test_the_tables_follow_the_weights_values() -> None:
    """The valuation's tables are shared by the weights' values, not by their object: weights
    changed after use get tables of their own, and changed back tables of the first values
    (the first ones, unless the process has kept so many that it started again)."""
    ruleset = LIBRARY.load("bolivia-da")
    weights = Weights()
    first = tables(ruleset, 4, weights)
    assert tables(ruleset, 4, Weights()) is first
    weights.pair = 31.0
    changed = tables(ruleset, 4, weights)
    assert changed is not first and changed.weights_key == weights.key()
    weights.pair = 30.0
    again = tables(ruleset, 4, weights)
    assert again is not changed and again.weights_key == first.weights_key == weights.key()


@pytest.mark.parametrize("ruleset_id", ["bolivia-da", "bolivia-zh", "samba", "bolivia-fr"])
def test_a_sides_summaries_and_view_kept_from_position_to_position_are_read_afresh(
    ruleset_id: str,
) -> None:
    """What the tables keep of each side's melds from one position to the next (issue 43:
    read again only where a meld was laid or grown) is what reading them afresh gives, at
    every position of expert hands, both sides, by the Python and by the native core."""
    ruleset = LIBRARY.load(ruleset_id)
    players = ruleset.rules.players.usual
    read = 0
    for use_native in (True, False):
        shared = tables(ruleset, players, Weights(), use_native)
        for seed in range(2):
            rng = random.Random(seed)
            hand = Hand.deal(ruleset, players, rng)
            bot = ExpertBot()
            while not hand.over and hand.steps < 2000:
                for team in range(hand.teams):
                    fresh = [summary_of(shared.wild, meld) for meld in hand.melds[team]]
                    kept = shared.side_summaries(team, hand.melds[team])
                    assert kept == fresh
                    view = shared.side_view(team, kept)
                    assert view.value.hex() == shared.view(fresh).value.hex()
                    read += len(fresh)
                hand.apply(bot.choose(hand, hand.choices(), rng))
    assert read > 1000
