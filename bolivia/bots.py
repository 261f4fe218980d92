"""Bots: players that choose among the engine's legal actions.

A bot is anything with a ``name`` and ``choose(hand, actions, rng)``: it is shown the state and
the legal actions, and returns one of them (the engine verifies it). Randomness comes only from
the ``rng`` it is given.

>>> import random
>>> from bolivia.game import Hand
>>> from bolivia.ruleset import shipped_library
>>> hand = Hand.deal(shipped_library().load("canasta"), 4, random.Random(3))
>>> GreedyBot().choose(hand, hand.legal_actions(), random.Random(0))
Draw()
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol

from bolivia.actions import (
    Action,
    Answer,
    Ask,
    Discard,
    Draw,
    Extend,
    GoOut,
    Lay,
    Stop,
    TakePile,
    TakeTop,
)
from bolivia.cards import RANKS, Card
from bolivia.game import Hand
from bolivia.melds import is_canasta

__all__ = ["BOTS", "Bot", "GreedyBot", "RandomBot", "make_bot"]


class Bot(Protocol):
    name: str

    def choose(self, hand: Hand, actions: Sequence[Action], rng: random.Random) -> Action:
        """One of ``actions`` (never empty) for the current player of ``hand``."""


class RandomBot:
    """Uniform over the legal actions."""

    name = "random"

    def choose(self, hand: Hand, actions: Sequence[Action], rng: random.Random) -> Action:
        return actions[rng.randrange(len(actions))]


class GreedyBot:
    """Plays sensibly under any ruleset: goes out when it can, takes the pile when it pays,
    melds and extends toward the canastas the going-out requirement asks for (escaleras
    included), keeps pairs and runs, and discards what feeds the opponents least."""

    name = "greedy"

    def choose(self, hand: Hand, actions: Sequence[Action], rng: random.Random) -> Action:
        best = max(range(len(actions)), key=lambda i: (self.value(hand, actions[i]), -i))
        return actions[best]

    # ---------------------------------------------------------------- valuation

    def value(self, hand: Hand, action: Action) -> float:
        if isinstance(action, GoOut):
            return 10_000.0
        if isinstance(action, Ask):
            return 9_000.0
        if isinstance(action, Answer):
            return 1.0 if action.yes else 0.0
        if isinstance(action, TakePile):
            return 40.0 + 4 * len(hand.pile) + (10 if action.onto is not None else 0)
        if isinstance(action, TakeTop):
            return 35.0
        if isinstance(action, Draw):
            return 30.0
        if isinstance(action, Stop):
            return -1.0
        if isinstance(action, Lay):
            return self._lay_value(hand, action)
        if isinstance(action, Extend):
            return self._extend_value(hand, action)
        if isinstance(action, Discard):
            return self._discard_value(hand, action.card)
        return 0.0  # pragma: no cover

    @staticmethod
    def _points(hand: Hand, cards: Sequence[Card]) -> int:
        points = hand.ruleset.points
        return sum(points[c.index] for c in cards)

    def _lay_value(self, hand: Hand, action: Lay) -> float:
        wild = hand.ruleset.wild
        value = 20.0
        for meld in action.melds:
            wilds = sum(1 for c in meld if wild[c.index])
            naturals = len(meld) - wilds
            if (
                naturals
                and all(c.suit == meld[0].suit for c in meld if not wild[c.index])
                and len({c.rank for c in meld}) == len(meld)
            ):
                value += 12 * len(meld)  # sequences lead to escaleras
            elif naturals == 0:
                value += 3 * len(meld) if len(meld) >= 5 else -40  # keep wilds for groups
            else:
                value += 6 * naturals - 8 * wilds
            value += 0.05 * self._points(hand, meld)
        return value

    def _extend_value(self, hand: Hand, action: Extend) -> float:
        meld = hand.melds[hand.team][action.target]
        wild = hand.ruleset.wild
        wilds = sum(1 for c in action.cards if wild[c.index])
        size = meld.size + len(action.cards)
        canastas = hand.rules.canastas
        target = {
            "group": canastas.natural.size,
            "sequence": canastas.escalera.size,
            "wild": canastas.bolivia.size,
        }.get(meld.kind, 7)
        value = 25.0 + 5 * (len(action.cards) - wilds)
        if not is_canasta(hand.ruleset, meld) and size >= target:
            value += 60  # completes a canasta
        elif is_canasta(hand.ruleset, meld):
            value -= 5 * wilds
        if meld.kind == "sequence":
            value += 15
        return value - 10 * wilds

    def _discard_value(self, hand: Hand, card: Card) -> float:
        ruleset = hand.ruleset
        counts = hand.hands[hand.current]
        value = -float(ruleset.points[card.index])
        if ruleset.wild[card.index]:
            return value - 150  # wild cards are worth keeping (and block the pile)
        if card.is_black_three:
            return value + 80 + ruleset.rules.scoring.black_three_in_hand
        r = RANKS.index(card.rank)
        same_rank = sum(counts[r * 4 + s] for s in range(4))
        if same_rank >= 2:
            value -= 25 * (same_rank - 1)  # a pair or more takes the pile
        s = "CDHS".index(card.suit)
        neighbours = sum(
            1 for d in (-2, -1, 1, 2) if 0 <= r + d < len(RANKS) and counts[(r + d) * 4 + s]
        )
        if hand.rules.melds.sequence.allowed:
            value -= 8 * neighbours
        for team, melds in enumerate(hand.melds):
            for meld in melds:
                if meld.kind == "group" and meld.rank == card.rank:
                    value += 10 if team == hand.team else -60  # do not feed the opponents
        return value


BOTS: dict[str, type[RandomBot] | type[GreedyBot]] = {"random": RandomBot, "greedy": GreedyBot}


def make_bot(name: str) -> Bot:
    try:
        return BOTS[name]()
    except KeyError:
        raise ValueError(f"no bot {name!r}; bots: {', '.join(BOTS)}") from None
