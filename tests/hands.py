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


def hands_end_by_a_rule(
    ruleset: Ruleset, seed: int, plan: tuple[tuple[str, int], ...], players: int | None = None
) -> list[Hand]:
    """Seeded hands played whole, one bot in every seat (``plan``: each bot and how many hands),
    the first seat turning; each is asserted to end by a rule with every card accounted for.
    Returns the hands as they ended, for a test to look at what happened."""
    from bolivia.play.batch.seeds import derive_seed
    from bolivia.play.batch.simulate import RULE_ENDINGS, play_hand
    from bolivia.play.bots.registry import make_bot

    seats = players if players is not None else ruleset.rules.players.usual
    ended = []
    for bot, count in plan:
        for n in range(count):
            bots = [make_bot(bot) for _ in range(seats)]
            stats, hand = play_hand(ruleset, seats, derive_seed(seed, n), bots, first=n % seats)
            assert stats.ended_by in RULE_ENDINGS and stats.conserved, (ruleset.id, bot, n)
            ended.append(hand)
    return ended
