"""Hands played a number of steps by one bot in every seat, for tests that need positions
reached in play."""

from __future__ import annotations

import random

from bolivia.play.bots.registry import Bot
from bolivia.play.table.hand import Hand
from bolivia.rules.ruleset import Ruleset


def played(
    ruleset: Ruleset, players: int, deal: random.Random, bot: Bot, steps: int, rng: random.Random
) -> Hand:
    """The hand ``deal`` shuffles, after up to ``steps`` actions of ``bot`` in every seat
    (fewer where it ends), its choices drawn from ``rng``."""
    hand = Hand.deal(ruleset, players, deal)
    for _ in range(steps):
        if hand.over:
            break
        hand.apply(bot.choose(hand, hand.choices(), rng))
    return hand
