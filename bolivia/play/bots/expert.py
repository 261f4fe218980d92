"""The ``expert`` bot: a heuristic player whose every weight is a value of the ruleset.

It values each action by the position it leads to (:mod:`bolivia.play.bots.valuation`):

- a meld, an extension or a join is made when it raises the value (it pays), the best first;
- otherwise the discard that loses least, less the danger of feeding the pile to the next
  player (the chance they hold what takes it, from the cards still unseen, times what the pile
  is worth; a card that blocks or freezes the pile is safe), and less what a club would not
  throw away: a wild card onto a small pile while a natural card could go instead, a card of
  a natural trio (``keep_wild`` and ``trio``: measured by ``benchmarks/blunders.py``);
- taking the pile (or its top card) when the position after it beats drawing;
- going out (and answering the partner yes) when the side is then ahead by an estimate of the
  cards still held, or when the hand is nearly over.

>>> import random
>>> from bolivia.play.table.hand import Hand
>>> from bolivia.rules.library import shipped_library
>>> hand = Hand.deal(shipped_library().load("bolivia-da"), 4, random.Random(3))
>>> ExpertBot().choose(hand, hand.choices(), random.Random(0))
Draw()
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Final

from bolivia.cards import RANKS
from bolivia.play.bots.tuned import weights_for
from bolivia.play.bots.valuation import Position, Summary, Weights
from bolivia.play.table.actions import (
    Action,
    Answer,
    Ask,
    Combine,
    Discard,
    Draw,
    Extend,
    GoOut,
    Lay,
    TakePile,
    TakeTop,
)
from bolivia.play.table.hand import Hand
from bolivia.rules.ruleset import Ruleset

__all__ = ["SMALL_PILE", "ExpertBot", "Weights"]

#: a pile of at most this many cards is not worth a wild card to freeze it
SMALL_PILE: Final = 5
#: the rank index of the threes, which make no trio to keep (red ones are laid, black ones
#: block the pile)
THREES: Final = RANKS.index("3")


class ExpertBot:
    """A heuristic player that reads the ruleset's values (see the module)."""

    name = "expert"

    def __init__(self, weights: Weights | None = None) -> None:
        # None: the ruleset's (bolivia.play.bots.tuned), read once a ruleset
        self.weights = weights
        self._tuned: tuple[Ruleset, Weights] | None = None

    def weights_for(self, hand: Hand) -> Weights:
        """The weights it plays this hand with: those it was given, else its ruleset's."""
        if self.weights is not None:
            return self.weights
        last = self._tuned
        if last is None or last[0] is not hand.ruleset:
            last = self._tuned = (hand.ruleset, weights_for(hand.ruleset))
        return last[1]

    def choose(self, hand: Hand, actions: Sequence[Action], rng: random.Random) -> Action:
        if len(actions) == 1:
            return actions[0]
        if hand.phase == "play":  # the choice alone: the discards weighed only when needed
            return self._play(Position(hand, self.weights_for(hand)), actions, first=True)[0]
        return self.consider(hand, actions)[0]

    def consider(self, hand: Hand, actions: Sequence[Action]) -> list[Action]:
        """The bot's choice among ``actions`` first, then the alternatives it weighed.

        The alternatives come the better first: the other discards, drawing or taking the
        pile, not going out, holding a meld back (the discards after it).
        """
        if len(actions) == 1:
            return [actions[0]]
        pos = Position(hand, self.weights_for(hand))
        if hand.phase == "answer":
            return self._answer(pos, actions)
        if hand.phase == "draw":
            return self._draw(pos, actions)
        return self._play(pos, actions)

    # ------------------------------------------------------------------ the phases

    def _answer(self, pos: Position, actions: Sequence[Action]) -> list[Action]:
        hand = pos.hand
        asker = hand.asker if hand.asker is not None else hand.partner(pos.player)
        # the asker's cards go onto the side's melds: their points estimated, no canasta more
        margin = pos.margin_going_out(hand.melds[pos.team], asker)
        margin += hand.sizes[asker] * 10
        yes = pos.wants_out(margin)
        return sorted(actions, key=lambda a: not (isinstance(a, Answer) and a.yes == yes))

    def _draw(self, pos: Position, actions: Sequence[Action]) -> list[Action]:
        now = pos.value_now()
        valued: list[tuple[float, int]] = []
        for i, action in enumerate(actions):
            rate = _DRAW_VALUE.get(type(action))
            value = now if rate is None else rate(pos, action, now)
            valued.append((-value, i))
        valued.sort()
        return [actions[i] for _, i in valued]

    def _play(self, pos: Position, actions: Sequence[Action], first: bool = False) -> list[Action]:
        """The play phase's actions ranked; with ``first``, the choice alone where a way out,
        the question to the partner or a meld that pays makes it (the discards not weighed:
        the choice is the same)."""
        weighing = _Weighing(pos)
        discards: list[int] = []
        for n, action in enumerate(actions):
            if type(action) is Discard:  # most of the actions: weighed after the others
                discards.append(n)
                continue
            weigh = _WEIGH.get(type(action))
            if weigh is not None:
                weigh(weighing, n, action)
        if first:
            chosen = weighing.made()
            if chosen is not None:
                return [chosen]
        weighing.discard_all(discards, actions)
        return weighing.ranked(actions)


def _kept(pos: Position, indices: Sequence[int]) -> list[float]:
    """What throwing each card away costs beyond the valuation, where a club keeps it: a wild
    card onto a pile of at most :data:`SMALL_PILE` cards while a natural card could go instead
    (it freezes a pile worth little, and a canasta loses a card), and a natural card of a trio
    (a meld in waiting)."""
    hand = pos.hand
    wild = hand.ruleset.wild
    ranks = hand.rank_counts[pos.player]
    w = pos.w
    small = len(hand.pile) <= SMALL_PILE and not all(wild[i] for i in indices)
    out = []
    for i in indices:
        if wild[i]:
            out.append(w.keep_wild if small else 0.0)
        elif i < 52 and i >> 2 != THREES and ranks[i >> 2] == 3:
            out.append(w.trio)
        else:
            out.append(0.0)
    return out


def _go_out_value(pos: Position, action: GoOut) -> float:
    """Going out this way: far above any other play, or -inf if unwanted.

    Above it by the margin it leaves the side.
    """
    after = pos.hand.verify(action)
    assert isinstance(after, list)
    margin = pos.margin_going_out(after, pos.player)
    return 1e6 + margin if pos.wants_out(margin) else float("-inf")


class _Weighing:
    """The play phase's actions as the bot weighs them, one by one.

    It keeps the meld that pays most, the discards by what they lose, the best way out
    and the question to the partner.
    """

    def __init__(self, pos: Position) -> None:
        self.pos = pos
        self.now = pos.value_now()
        self.best_meld: Action | None = None
        self.best_gain = 0.0
        self.discards: list[tuple[float, int]] = []
        self.going_out: Action | None = None
        self.going_out_value = float("-inf")
        self.ask: Action | None = None

    def discard_all(self, discards: Sequence[int], actions: Sequence[Action]) -> None:
        """The discards (``actions[n]`` for each ``n``), ranked by what they lose and the danger
        of feeding the pile (:meth:`Position.discard_scores`)."""
        indices: list[int] = []
        for n in discards:
            action = actions[n]
            assert isinstance(action, Discard)
            indices.append(action.card.index)
        scores = self.pos.discard_scores(indices)
        kept = _kept(self.pos, indices)
        for k, n in enumerate(discards):
            self.discards.append((scores[k] + kept[k], n))

    def lay(self, n: int, action: Action) -> None:
        """New melds: the value they add, and their cards' points."""
        assert isinstance(action, Lay)
        value, points = self.pos.laying(action.melds)
        self.meld(action, value - self.now + points)

    def extend(self, n: int, action: Action) -> None:
        """Cards onto a meld: the value they add, and their points."""
        assert isinstance(action, Extend)
        value, points = self.pos.melding(action.target, action.cards)
        self.meld(action, value - self.now + points)

    def combine(self, n: int, action: Action) -> None:
        """Two groups joined: the value the join adds."""
        assert isinstance(action, Combine)
        pos = self.pos
        table = pos.table
        a, b = table[action.target], table[action.other]
        new = [s for i, s in enumerate(table) if i != action.other]
        at = action.target if action.target < action.other else action.target - 1
        new[at] = (a[0], a[1] + b[1], a[2] + b[2], a[3], 0)
        self.meld(action, pos.value(pos.counts, new) - self.now)

    def meld(self, action: Action, gain: float) -> None:
        """A meld that raises the position's value by ``gain``: kept if it pays most."""
        if gain > self.best_gain:
            self.best_meld, self.best_gain = action, gain

    def go_out(self, n: int, action: Action) -> None:
        """A way out, kept if it is the best so far."""
        assert isinstance(action, GoOut)
        value = _go_out_value(self.pos, action)
        if value > self.going_out_value:
            self.going_out, self.going_out_value = action, value

    def asking(self, n: int, action: Action) -> None:
        """The question to the partner, weighed at the end (:meth:`asks`)."""
        self.ask = action

    def made(self) -> Action | None:
        """The choice where it is not a discard: the best way out, the question to the
        partner where it pays, or the meld that pays most (the order :meth:`ranked` puts
        them in); None where it is a discard."""
        if self.going_out is not None:
            return self.going_out
        if self.ask is not None and self.asks():
            return self.ask
        return self.best_meld

    def ranked(self, actions: Sequence[Action]) -> list[Action]:
        """The bot's choice first, then the alternatives it weighed."""
        self.discards.sort()
        ranked = [actions[n] for _, n in self.discards]
        if self.best_meld is not None:
            ranked.insert(0, self.best_meld)
        if self.going_out is not None:
            return [self.going_out, *ranked[:1]]
        if self.ask is not None and self.asks():
            return [self.ask, *ranked[:1]]
        if ranked:
            return ranked
        return [next((a for a in actions if not isinstance(a, Ask)), actions[0])]

    def asks(self) -> bool:
        """Whether to ask the partner: if going out the first way pays."""
        pos = self.pos
        hand = pos.hand
        if not hand.must_ask():
            return False
        lines = hand.moves.go_out_lines(1)
        if not lines:
            return False
        melds = hand.verify_way_out(lines[0], asking=False)
        return pos.wants_out(pos.margin_going_out(melds, pos.player))


#: each kind of action of the play phase but the discard -> how the bot weighs it
_WEIGH: Final[dict[type, Callable[[_Weighing, int, Action], None]]] = {
    Lay: _Weighing.lay,
    Extend: _Weighing.extend,
    Combine: _Weighing.combine,
    GoOut: _Weighing.go_out,
    Ask: _Weighing.asking,
}


def _drawn_value(pos: Position, action: Action, now: float) -> float:
    """Drawing from the stock: the position as it is, and the cards drawn."""
    return now + pos.hand.draw_count * pos.w.draw


def _asked_value(pos: Position, action: Action, now: float) -> float:
    """Asking the partner, offered only where taking the pile may go out."""
    return now + 50.0


def _pickup_value(pos: Position, action: Action, now: float) -> float:
    """Taking the pile or its top card: the position after it."""
    assert isinstance(action, TakePile | TakeTop)
    after = pos.hand.after_pickup(action)
    if after is not None:
        counts, melds = after
        return pos.value(counts, [pos.summary(m) for m in melds])
    # the pile's red threes are replaced from the stock: value the rest as if drawn
    if isinstance(action, TakeTop):
        return now
    return _redrawn_value(pos, action)


def _redrawn_value(pos: Position, action: TakePile) -> float:
    """Taking a pile that holds red threes: the rest of it, and a draw.

    The red threes are replaced from the stock, which is worth what a draw is.
    """
    hand = pos.hand
    counts = list(pos.counts)
    for card in [*(action.with_cards or ()), *(c for m in action.also for c in m)]:
        counts[card.index] = counts[card.index] - 1
    out = hand.lim.pile_out
    for i in hand.pile[:-1]:
        if i not in out:
            counts[i] = counts[i] + 1
    return pos.value(counts, _table_taking(pos, action)) + pos.w.draw


def _table_taking(pos: Position, action: TakePile) -> list[Summary]:
    """The side's melds once it takes the pile this way."""
    table = list(pos.table)
    top = pos.hand.pile[-1]
    if action.onto is not None:
        kind, size, wilds, key, mask = table[action.onto]
        table[action.onto] = (kind, size + 1, wilds, key, mask | (1 << (top >> 2)))
    else:
        cards = [top, *(c.index for c in action.with_cards or ())]
        table.append(pos.cards_summary(cards))
    for meld in action.also:
        table.append(pos.cards_summary([c.index for c in meld]))
    return table


#: each kind of action of the draw phase -> what the position is worth after it
_DRAW_VALUE: Final[dict[type, Callable[[Position, Action, float], float]]] = {
    Draw: _drawn_value,
    TakePile: _pickup_value,
    TakeTop: _pickup_value,
    Ask: _asked_value,
}
