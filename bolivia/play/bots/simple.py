"""The simple bots: random, and greedy (the best-looking move of each turn).

:class:`RandomBot` draws uniformly among the legal actions. :class:`GreedyBot` takes the
actions that score most now, with a few rules of thumb for the pile and the discard.

>>> import random
>>> from bolivia.play.table.hand import Hand
>>> from bolivia.rules.library import shipped_library
>>> hand = Hand.deal(shipped_library().load("canasta"), 4, random.Random(3))
>>> GreedyBot().choose(hand, hand.choices(), random.Random(0))
Draw()
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final

from bolivia.cards import Card, below
from bolivia.engine.limits import Limits, limits
from bolivia.engine.melds import Meld
from bolivia.engine.scoring import unfinished_cost
from bolivia.play.table.actions import (
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
from bolivia.play.table.hand import Hand

__all__ = ["GreedyBot", "RandomBot"]


class RandomBot:
    """Uniform over the legal actions (the draw ``rng.randrange`` would make)."""

    name = "random"

    def choose(self, hand: Hand, actions: Sequence[Action], rng: random.Random) -> Action:
        return actions[below(rng, len(actions))]


_LOWEST: Final = float("-inf")  # below every value


class _View:
    """What the greedy bot looks at, computed once per choice."""

    __slots__ = (
        "counts",
        "feeds",
        "hand",
        "keeps",
        "limits",
        "melds",
        "points",
        "rank_counts",
        "runs",
        "sequences",
        "targets",
        "wild",
    )

    def __init__(self, hand: Hand) -> None:
        self.hand = hand
        self.counts = hand.hands[hand.current]
        self.rank_counts = hand.rank_counts[hand.current]  # the naturals held of each rank
        lim = limits(hand.ruleset)
        self.wild = lim.wild
        self.points = lim.points
        self.sequences = lim.sequence_allowed
        onto = lim.onto_unfrozen
        # a bit by rank index: the ranks the side has groups of, and those an opponent could
        # take the pile onto
        own = hand.team
        self.melds = hand.melds[own]
        # read by the discards' values alone, and discards are of the play phase
        play = hand.phase == "play"
        self.keeps = hand.group_ranks(own) if play else 0
        feeds = 0
        if onto and play:
            for team in range(hand.teams):
                if team != own:
                    feeds |= hand.group_ranks(team)
        self.feeds = feeds
        self.limits = lim
        self.targets = lim.targets
        # how much runs of one suit are worth keeping: much, when the side must still make
        # the escalera going out asks for
        needs = hand.escaleras_needed
        escalera = lim.escalera_size
        have = 0  # a loop, not a generator: this runs at every choice
        for m in self.melds:
            if m.kind == "sequence" and len(m.cards) >= escalera:
                have += 1
        self.runs = 0.0 if not self.sequences else 24.0 if have < needs else 8.0


class GreedyBot:
    """Plays sensibly under any ruleset: goes out when it can, takes the pile when it pays,
    melds and extends toward the canastas the going-out requirement asks for (escaleras
    included), keeps pairs, runs and wild cards, and discards what feeds the opponents least."""

    name = "greedy"

    def choose(self, hand: Hand, actions: Sequence[Action], rng: random.Random) -> Action:
        view = _View(hand)
        best, best_value = 0, _LOWEST
        # a list: walked natively (a Sequence goes through iterators); the hand's are lists
        options = actions if isinstance(actions, list) else list(actions)
        kept = view.limits.kept_penalized  # a discard may end a hand penalty
        for i, action in enumerate(options):
            # discards are the most: valued without the dispatch of value()
            if type(action) is Discard:
                value = self._discard_value(view, action.card)
                if kept:
                    value += _kept_relief(view, action.card)
            else:
                value = self.value(view, action)
            if value > best_value:
                best, best_value = i, value
        return options[best]

    # ---------------------------------------------------------------- valuation

    def value(self, view: _View, action: Action) -> float:
        # the actions' classes are not subclassed: the common ones first, by their class
        if type(action) is Discard:
            value = self._discard_value(view, action.card)
            if view.limits.kept_penalized:
                value += _kept_relief(view, action.card)
            return value
        if type(action) is Extend:
            return self._extend_value(view, action)
        if type(action) is Lay:
            return self._lay_value(view, action)
        if isinstance(action, GoOut):
            return 10_000.0
        if isinstance(action, Ask):
            return 9_000.0
        if isinstance(action, Answer):
            return 1.0 if action.yes else 0.0
        if isinstance(action, TakePile):
            return 40.0 + 4 * len(view.hand.pile) + (10 if action.onto is not None else 0)
        if isinstance(action, TakeTop):
            return 35.0 + view.runs
        if isinstance(action, Draw):
            return 30.0
        if isinstance(action, Stop):
            return -1.0
        return 0.0  # pragma: no cover

    def _lay_value(self, view: _View, action: Lay) -> float:
        wild = view.wild
        points = view.points
        value = 20.0
        for meld in action.melds:
            wilds = total = 0  # the meld's wild cards, and its cards' points
            for c in meld:
                i = c.index
                total += points[i]
                if wild[i]:
                    wilds += 1
            naturals = len(meld) - wilds
            if naturals and meld[0].rank != meld[1].rank and not wild[meld[1].index]:
                value += (6 + view.runs) * len(meld)  # a sequence: the way to an escalera
            elif naturals == 0:
                value += 3 * len(meld) if len(meld) >= 5 else -40  # keep wilds for later
            else:
                value += 6 * naturals - 8 * wilds
            value += 0.05 * total
            if view.limits.penalized:
                value -= _unfinished_risk(view, meld, wilds)
        return value

    def _extend_value(self, view: _View, action: Extend) -> float:
        meld = view.melds[action.target]
        wild = view.wild
        wilds = 0
        for c in action.cards:
            if wild[c.index]:
                wilds += 1
        size = meld.size + len(action.cards)
        target = view.targets.get(meld.kind, 7)
        finished = _finished(view.limits, meld)
        value = 25.0 + 5 * (len(action.cards) - wilds) - 10 * wilds
        if not finished and size >= target:
            value += 60  # completes a canasta
        elif finished:
            value -= 5 * wilds
        if meld.kind == "sequence":
            value += 15 + 2 * view.runs
        return value

    def _discard_value(self, view: _View, card: Card) -> float:
        index = card.index
        value = -float(view.points[index])
        if view.wild[index]:
            return value - 150  # wild cards are worth keeping (and block the pile)
        if index == 4 or index == 7:  # a black three
            return value + 80 + view.hand.rules.scoring.black_three_in_hand
        counts = view.counts
        r = index >> 2
        same_rank = view.rank_counts[r]  # the card is not a joker (jokers are wild)
        if same_rank >= 2:
            value -= 25 * (same_rank - 1)  # a pair or more takes the pile
        runs = view.runs
        if runs:  # the suit's cards two ranks below to two above, by distance
            at = index - 8  # the card two ranks below, of the suit
            if r >= 2 and counts[at]:
                value -= runs / 2
            if r >= 1 and counts[at + 4]:
                value -= runs
            if r <= 11 and counts[at + 12]:
                value -= runs
            if r <= 10 and counts[at + 16]:
                value -= runs / 2
        if view.keeps >> r & 1:
            value += 10
        if view.feeds >> r & 1:
            value -= 60  # do not feed the opponents
        return value


def _unfinished_risk(view: _View, meld: tuple[Card, ...], wilds: int) -> float:
    """What a new meld risks: a tenth of what it would cost left as it is
    (``scoring.meld_penalties``), by the share of a canasta it still lacks."""
    lim = view.limits
    wild = view.wild
    naturals = [c for c in meld if not wild[c.index]]
    if not naturals:
        kind, rank, target = "wild", None, lim.bolivia_size
    elif any(c.rank != naturals[0].rank for c in naturals):
        kind, rank, target = "sequence", None, lim.escalera_size
    else:
        kind, rank = "group", naturals[0].rank
        target = lim.natural_size if wilds == 0 else lim.mixed_size
    cost = unfinished_cost(view.hand.ruleset, kind, rank, wilds, len(meld))
    missing = max(target - len(meld), 0)
    return cost * missing / target / 10 if cost and target else 0.0


def _kept_relief(view: _View, card: Card) -> float:
    """What discarding the card saves of ``scoring.hand_penalties``: a tenth of each penalty
    the hand pays now and would not pay without it."""
    relief = 0.0
    counts = view.rank_counts
    index = view.limits.rank_index
    for penalty in view.hand.rules.scoring.hand_penalties:
        if card.rank in penalty.ranks:
            held = 0
            for rank in penalty.ranks:
                held += counts[index[rank]]
            if held == penalty.at_least:
                relief += penalty.points / 10
    return relief


def _finished(lim: Limits, meld: Meld) -> bool:
    """:func:`~bolivia.engine.melds.is_canasta` on the values of :mod:`bolivia.engine.limits`."""
    size = len(meld.cards)
    kind = meld.kind
    if kind == "group":
        return size >= (lim.natural_size if meld.wilds == 0 else lim.mixed_size)
    if kind == "sequence":
        return size >= lim.escalera_size
    return kind == "wild" and size >= lim.bolivia_size
