"""A player's view of a hand, and hands sampled from it: what a search bot may know.

A player sees its own cards, the melds and red threes on the table, the pile, how many cards
each player holds and the stock's length, and the cards each player took from the pile and
has not been seen to meld or discard since (:attr:`HandState.taken
<bolivia.play.table.state.HandState.taken>`). Everything else -- the other hands beyond those cards,
and the stock -- is unseen. :func:`determinize` deals the unseen cards again, at random, into
a copy of the hand: the same view, every card of the pack accounted for, so that a bot can
play the hand out on it without looking at a card it could not see.

>>> import random
>>> from bolivia.play.table.hand import Hand
>>> from bolivia.rules.library import shipped_library
>>> hand = Hand.deal(shipped_library().load("bolivia-da"), 4, random.Random(1))
>>> world = determinize(hand, 0, random.Random(2))
>>> world.hands[0] == hand.hands[0], world.sizes == hand.sizes, world.conserved()
(True, True, True)
"""

from __future__ import annotations

import random

from bolivia.cards import shuffle
from bolivia.play.table.hand import Hand
from bolivia.play.table.state import BLACK_THREES, RED_THREES

__all__ = ["determinize", "unseen"]


def unseen(hand: Hand, player: int) -> list[int]:
    """The cards ``player`` cannot see, as counts by card index: the pack less its own hand,
    the melds, the pile, the cards set aside, the red threes laid out (by number: both kinds
    of red three count as one) and the cards others are known to hold from the pile."""
    pack = hand.ruleset.pack
    counts = [pack.decks] * 52 + [pack.jokers]
    for i, n in enumerate(hand.hands[player]):
        counts[i] = counts[i] - n
    for team in hand.melds:
        for meld in team:
            for card in meld.cards:
                counts[card.index] = counts[card.index] - 1
    for i in (*hand.pile, *hand.set_aside):
        counts[i] = counts[i] - 1
    for p in range(hand.players):
        if p != player:
            for i, n in enumerate(hand.taken[p]):
                counts[i] = counts[i] - n
    reds = sum(counts[i] for i in RED_THREES) - sum(hand.red_threes)
    for i in sorted(RED_THREES):
        counts[i] = 0
    counts[min(RED_THREES)] = reds
    aside = sum(hand.black_threes)  # set aside by number: the clubs' first, then spades'
    for i in sorted(BLACK_THREES):
        used = min(aside, counts[i])
        counts[i] = counts[i] - used
        aside -= used
    return counts


def determinize(hand: Hand, player: int, rng: random.Random) -> Hand:
    """A copy of ``hand`` with the cards ``player`` cannot see dealt again at random: the same
    view (see the module), each other hand as many cards as before, the stock as long.

    The cards dealt are the unseen ones, in an order the view alone decides (by card index),
    shuffled by ``rng``: two hands that ``player`` sees alike give the same sample for the same
    ``rng`` state. Red threes never go to a hand (they are laid out as they come); the stock's
    keep them among its cards at random. Cards dealt aside (a foot, a bonus pile) are dealt
    again too, each packet as many cards as before."""
    world = hand.copy()
    others = [p for p in range(hand.players) if p != player]
    pool: list[int] = []
    reds: list[int] = []
    for p in others:
        held = world.hands[p]
        known = world.taken[p]
        for i in range(53):
            n = held[i] - known[i]
            if n:
                pool.extend([i] * n)
        for i in range(53):
            if held[i]:
                world._from_hand(p, i, held[i])
    # cards dealt aside (deal.foot, deal.bonus_piles), the player's own foot too, are unseen
    for packet in (*world.feet, *world.bonus):
        for i in packet:
            (reds if i in RED_THREES else pool).append(i)
    for i in world.stock:
        (reds if i in RED_THREES else pool).append(i)
    pool.sort()
    reds.sort()
    shuffle(rng, pool)
    at = 0
    for p in others:
        known = world.taken[p]
        for i in range(53):
            for _ in range(known[i]):
                world._to_hand(p, i)
        for _ in range(hand.sizes[p] - sum(known)):
            world._to_hand(p, pool[at])
            at += 1
    rest = pool[at:] + reds  # red threes only where too few other cards are left
    at = 0
    for packet in (*world.feet, *world.bonus):
        packet[:] = rest[at : at + len(packet)]
        at += len(packet)
    stock = rest[at:]
    shuffle(rng, stock)
    world.stock = stock
    return world
