"""A hand of play under any ruleset: one path verifies and applies every action.

The path covers the turn, the keep-cards rule and going out, the question to the partner and
its binding answer, and the stock running out. Each action type has a pair, as PokerKit's
``State`` has ``verify_folding`` and ``fold``: its ``verify_<action>`` method
(:mod:`bolivia.play.table.verifier`) and its apply method here. A table from the action's type
to its pair dispatches both.

The state is :mod:`bolivia.play.table.state`. The legal actions are
:mod:`bolivia.play.table.moves` (every one) and :mod:`bolivia.play.table.candidates` (the bots'
short list); both ask this verify path.

>>> import random
>>> from bolivia.rules.library import shipped_library
>>> hand = Hand.deal(shipped_library().load("bolivia-da"), 4, random.Random(1))
>>> hand.phase, hand.current, sum(hand.sizes)
('draw', 0, 60)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, NoReturn

from bolivia.cards import Card
from bolivia.engine.melds import Meld
from bolivia.engine.pile import Pickup, card_class
from bolivia.errors import BadRequest, Illegal
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
    Stop,
    TakePile,
    TakeTop,
)
from bolivia.play.table.candidates import Candidates
from bolivia.play.table.moves import Moves
from bolivia.play.table.state import (
    BLACK_THREES,
    CARDS,
    RED_THREES,
    HandResult,
    Phase,
)
from bolivia.play.table.verifier import Verifier
from bolivia.rules.ruleset import Ruleset

__all__ = ["BLACK_THREES", "Hand", "HandResult"]

_UNCHECKED = object()  # no verdict kept for an action (None is one: a draw's)


class Hand(Verifier):
    """One hand: the deal, then actions until it ends by a rule."""

    def __init__(
        self,
        ruleset: Ruleset,
        players: int,
        deck: Sequence[int],
        first: int = 0,
        team_scores: Sequence[int] | None = None,
        *,
        deal: bool = True,
    ) -> None:
        """A hand dealt from ``deck``: card indices, the stock's top last.

        ``deal=False`` leaves every card in the stock, for
        :func:`bolivia.play.table.position.hand_at` to place.
        """
        super().__init__(ruleset, players, deck, first, team_scores, deal=deal)
        self._checked: dict[Action, object] = {}  # what verify found, for this state only
        self.moves = Moves(self)  # the legal actions of each state, and the ways out
        self.candidates = Candidates(self)  # the bots' short list of them
        if deal:
            self._end_if_blocked()

    def copy(self) -> Hand:
        """An independent copy of the hand, every card where it is."""
        other = Hand(self.ruleset, self.players, self.deck, self.first, deal=False)
        self._copy_into(other)
        return other

    # ------------------------------------------------------------------ verifying

    def can(self, action: Action) -> bool:
        """Whether :meth:`verify` allows the action.

        What it found is kept for :meth:`apply`.
        """
        try:
            self._checked[action] = self.verify(action)
        except Illegal:
            return False
        return True

    def verify(self, action: Action) -> object:
        """Check an action against the rules; :class:`Illegal` names the rule it breaks.

        Returns what the action will do (a pickup, the melds laid), for :meth:`apply`.
        """
        return self._verify(action, _PAIRS.get(type(action), _NOT_AN_ACTION))

    def _verify(self, action: Action, pair: _Pair) -> object:
        """Check an action: the hand's end and the phase, then its own rules."""
        if self.ended_by is not None:
            raise self._illegal("hand-over", "the hand is over")
        if self.phase not in pair.phases:
            self._wrong_phase(pair)
        try:
            return pair.verify(self, action)
        except BadRequest as exc:
            raise self._illegal("bad-action", str(exc)) from None

    def _wrong_phase(self, pair: _Pair) -> NoReturn:
        """Refuse an action out of its phase, saying what the turn wants."""
        if self.phase == "answer":
            message = f"player {self.current} must answer the partner's question first"
        elif "answer" in pair.phases:
            message = "nobody has asked to go out"
        elif self.phase == "draw":
            message = "a turn starts by drawing or taking the pile"
        else:
            message = "the player has drawn already this turn"
        raise self._illegal("wrong-phase", message)

    # ------------------------------------------------------------------ applying

    def apply(self, action: Action) -> None:
        """Perform an action, verified first.

        An action just found legal in this state (:meth:`can`) is not verified twice.
        """
        pair = _PAIRS.get(type(action), _NOT_AN_ACTION)
        checked = self._checked
        found = checked.get(action, _UNCHECKED) if checked else _UNCHECKED
        if found is _UNCHECKED:
            found = self._verify(action, pair)
        if checked:
            self._checked = {}
        self.candidates.memo = {}
        self.steps += 1
        pair.apply(self, action, found)
        self._end_if_blocked()

    def _draw(self) -> None:
        """Draw from the stock; one too short may end the hand."""
        player = self.current
        count = self.draw_count
        if len(self.stock) < count and self.rules.stock.short_draw == "end_hand":
            self.ended_by = "stock_exhausted"
            return
        for _ in range(min(count, len(self.stock))):
            self._to_hand(player, self.stock.pop())
        self._lay_red_threes(player, replace=True)
        self.phase = "play"

    def _take_pile(self, action: TakePile, pickup: Pickup) -> None:
        """Take the pile: its top card melded, the rest into the hand."""
        player = self.current
        mark = self._reserve_mark() if self.lim.reserves else None
        self._remove(player, [*(action.with_cards or ()), *(c for m in action.also for c in m)])
        rest = self.pile[:-1]
        self.pile = []
        self._pile_classes.clear()
        melds = self.melds[self.team_of[player]]
        if pickup.onto is not None:
            melds[pickup.onto] = pickup.meld
        else:
            melds.append(pickup.meld)
        melds.extend(pickup.also)
        taken = self.taken[player]
        aside = self.lim.threes_aside
        for index in rest:
            if aside and index in BLACK_THREES:  # pile.black_threes_aside: out of play
                self.black_threes[self.team_of[player]] += 1
                continue
            self._to_hand(player, index)
            if index not in RED_THREES:
                taken[index] = taken[index] + 1
        self._lay_red_threes(player, replace=self.rules.red_threes.replaced_from_pile)
        self.picked_up = True
        self.phase = "play"
        self._melded_now(player, self._only_going_out(pickup.also), mark)

    def _take_top(self, action: TakeTop, meld: Meld) -> None:
        """Take the pile's top card onto a meld of the side."""
        player = self.current
        mark = self._reserve_mark() if self.lim.reserves else None
        self._pile_classes[card_class(self.ruleset, CARDS[self.pile.pop()])] -= 1
        self.melds[self.team_of[player]][action.onto] = meld
        self.picked_up = True
        self.phase = "play"
        self._melded_now(player, "", mark)

    def _stop(self) -> None:
        """Decline the pile with the stock exhausted: the hand ends."""
        self.ended_by = "stock_exhausted"

    def _lay(self, action: Lay, laid: list[Meld]) -> None:
        """Lay new melds from the hand."""
        player = self.current
        mark = self._reserve_mark() if self.lim.reserves else None
        self._remove(player, [c for m in action.melds for c in m])
        self.melds[self.team_of[player]].extend(laid)
        self._melded_now(player, self._only_going_out(laid), mark)

    def _extend(self, action: Extend, meld: Meld) -> None:
        """Add cards from the hand to a meld of the side."""
        player = self.current
        mark = self._reserve_mark() if self.lim.reserves else None
        self._remove(player, action.cards)
        self.melds[self.team_of[player]][action.target] = meld
        self._melded_now(player, self._only_going_out([meld]), mark)

    def _combine(self, action: Combine, joined: Meld) -> None:
        """Join two of the side's groups."""
        team = self.team_of[self.current]
        mark = self._reserve_mark() if self.lim.reserves else None
        self.melds[team] = self._combined(self.melds[team], action.target, action.other, joined)
        if mark is not None:
            self._take_up(self.current, mark)
        self.moves.stuck_turn = -1  # a way out may now rest on the join (see Moves)

    def _discard(self, action: Discard) -> None:
        """Discard a card: the turn passes, or the last card goes out."""
        player = self.current
        self._remove(player, [action.card])
        self._pile_push(action.card.index)
        if self.sizes[player] == 0 and self.feet[player]:  # deal.foot: it joins the hand
            self._take_up(player, self._reserve_mark())
            self._next_turn()
        elif self.sizes[player] == 0:
            self._went_out(player)
        else:
            self._next_turn()

    def _go_out(self, action: GoOut, after: list[Meld]) -> None:
        """Go out in one move: the side's melds become ``after``."""
        player = self.current
        self._remove(
            player,
            [
                *(c for m in action.melds for c in m),
                *(c for _, more in action.extends for c in more),
                *([action.discard] if action.discard is not None else []),
            ],
        )
        self.melds[self.team_of[player]] = after
        if action.discard is not None:
            self._pile_push(action.discard.index)
        self._went_out(player)

    def _ask(self) -> None:
        """Ask the partner: the partner answers next."""
        player = self.current
        self.asker = player
        self.answer_phase = self.phase
        self.current = self.partner(player)
        self.phase = "answer"

    def _answer(self, action: Answer) -> None:
        """Answer the partner: the answer binds the player who asked."""
        assert self.asker is not None
        self.asked = action.yes
        self.current = self.asker
        self.phase = self.answer_phase

    # ------------------------------------------------------------------ after an action

    def _remove(self, player: int, cards: Sequence[Card]) -> None:
        """The cards leave the player's hand, melded or discarded.

        They are no longer among those everyone saw the player take from the pile.
        """
        taken = self.taken[player]
        for card in cards:
            self._from_hand(player, card.index)
            if taken[card.index]:
                taken[card.index] = taken[card.index] - 1

    def _melded_now(
        self, player: int, threes: str = "", mark: tuple[int, bool] | None = None
    ) -> None:
        """The player melded: cards dealt aside join the hand where the step makes them
        (``mark``: see :meth:`_take_up`), then an empty hand goes out, a short one must.

        Fewer cards than the keep-cards rule asks, or black threes melded, commit the player
        to going out this turn.
        """
        if mark is not None:
            self._take_up(player, mark)
        self.melded[player] = True
        if self.phase == "play" and self.sizes[player] == 0:
            self._went_out(player)
        elif (self.sizes[player] < self.keep or threes) and not self.out_barred(
            self.melds[self.team_of[player]]
        ):
            self.committed = True

    def _went_out(self, player: int) -> None:
        """The player has gone out: the hand ends.

        It is concealed if neither the player (or side, as the ruleset says) had melded before
        this turn nor the player took the pile this turn.
        """
        when = self.rules.going_out.concealed_when
        before = self.side_melded_before if when == "side_not_melded" else self.melded_before
        self.concealed = not (before or self.picked_up)
        self.melded[player] = True
        self.went_out = player
        self.bonus_withheld = not self.stock and not self.rules.stock.going_out_bonus_when_exhausted
        self.ended_by = "went_out"

    def _next_turn(self) -> None:
        """The next player's turn; with the stock exhausted, the hand may end."""
        self.current = (self.current + 1) % self.players
        self._start_turn()
        self.turns += 1
        if self.first_round:
            self.first_round -= 1
        if self.stock:
            return
        # the stock is exhausted: the hand ends, or goes on while players take the pile
        if self.rules.stock.exhausted.rule == "end_hand" or not (
            self.pile
            and any(
                self.candidates.can_take(a) if isinstance(a, TakePile) else self.can(a)
                for a in self.moves.pickups()
            )
        ):
            self.ended_by = "stock_exhausted"

    def _start_turn(self) -> None:
        """A turn's start: the draw phase, nothing asked, bound or taken yet."""
        self.phase = "draw"
        self.asked = None
        self.asker = None
        self.answer_phase = "play"
        self.committed = False
        self.picked_up = False
        self.melded_before = self.melded[self.current]
        self.side_melded_before = bool(self.melds[self.team_of[self.current]])

    def _end_if_blocked(self) -> None:
        """End the hand where the player to act has no legal action.

        See ``docs/engine.md``, "A player without a legal action". Nobody went out: the hand is
        scored as one the stock's end closes. With the stock exhausted it is that end (the
        Official Laws end the hand when, the stock used up, a player cannot go on); otherwise
        the hand is blocked.
        """
        if self.ended_by is None and self._no_action():
            self.ended_by = "blocked" if self.stock else "stock_exhausted"

    def _no_action(self) -> bool:
        """Whether the player to act has no legal action.

        It is read off the turn where one is sure, else from every legal action listed.
        """
        return not (self._surely_an_action() or self.moves.legal())

    def _surely_an_action(self) -> bool:
        """Whether the turn alone shows the player has a legal action.

        Sure ones: an answer, a draw, a stop or the pile once the stock is out, a discard that
        keeps a card, a way out.
        """
        if self.phase == "answer":
            return True  # yes or no
        if self.phase == "draw":
            # a draw; with the stock out, a stop or the pile it must take
            return self.asked is not True and (
                bool(self.stock) or self.rules.stock.exhausted.rule == "take_discards"
            )
        if not (self.committed or self.asked is True):
            # a discard that keeps a card; or going out, or asking first where the partner is
            # asked (the bots' limit here: one search serves both)
            return self.sizes[self.current] >= 2 or bool(self.go_out_lines(limit=2))
        return bool(self.go_out_lines(limit=3)) and not self.must_ask()  # the way out it must take

    # ------------------------------------------------------------------ moves

    def legal_actions(self) -> list[Action]:
        """Every action the current player may take, in canonical form.

        See :meth:`Moves.legal <bolivia.play.table.moves.Moves.legal>`. Never empty while the
        hand goes on.
        """
        return self.moves.legal()

    def choices(self) -> list[Action]:
        """The bots' short list of legal actions.

        See :mod:`bolivia.play.table.candidates`. Never empty while the hand goes on.
        """
        return self.candidates.choices()

    def go_out_lines(self, limit: int = 1) -> list[GoOut]:
        """Up to ``limit`` ways for the player to go out now (searched, not all)."""
        return self.moves.go_out_lines(limit)


# ---------------------------------------------------------------------- the pairs


class _Pair:
    """An action type's phases, and its verify and apply methods.

    Each is an object of its own class: the compiled build calls its methods directly, where
    a table of the hand's bound methods would cost a generic call per action.
    """

    def __init__(self, *phases: Phase) -> None:
        self.phases = phases

    def verify(self, hand: Hand, action: Action) -> object:
        """What the action's ``verify_<action>`` method finds."""
        raise hand._illegal("bad-action", f"{action!r} is not an action")

    def apply(self, hand: Hand, action: Action, found: object) -> None:
        """Perform the action, ``found`` being what its verify method found."""


class _Draw(_Pair):
    def verify(self, hand: Hand, action: Action) -> object:
        hand.verify_draw()
        return None

    def apply(self, hand: Hand, action: Action, found: object) -> None:
        hand._draw()


class _TakePile(_Pair):
    def verify(self, hand: Hand, action: Action) -> object:
        assert isinstance(action, TakePile)
        return hand.verify_take_pile(action)

    def apply(self, hand: Hand, action: Action, found: object) -> None:
        assert isinstance(action, TakePile) and isinstance(found, Pickup)
        hand._take_pile(action, found)


class _TakeTop(_Pair):
    def verify(self, hand: Hand, action: Action) -> object:
        assert isinstance(action, TakeTop)
        return hand.verify_take_top(action)

    def apply(self, hand: Hand, action: Action, found: object) -> None:
        assert isinstance(action, TakeTop) and isinstance(found, Meld)
        hand._take_top(action, found)


class _Stop(_Pair):
    def verify(self, hand: Hand, action: Action) -> object:
        hand.verify_stop()
        return None

    def apply(self, hand: Hand, action: Action, found: object) -> None:
        hand._stop()


class _Lay(_Pair):
    def verify(self, hand: Hand, action: Action) -> object:
        assert isinstance(action, Lay)
        return hand.verify_lay(action)

    def apply(self, hand: Hand, action: Action, found: object) -> None:
        assert isinstance(action, Lay) and isinstance(found, list)
        hand._lay(action, found)


class _Extend(_Pair):
    def verify(self, hand: Hand, action: Action) -> object:
        assert isinstance(action, Extend)
        return hand.verify_extend(action)

    def apply(self, hand: Hand, action: Action, found: object) -> None:
        assert isinstance(action, Extend) and isinstance(found, Meld)
        hand._extend(action, found)


class _Combine(_Pair):
    def verify(self, hand: Hand, action: Action) -> object:
        assert isinstance(action, Combine)
        return hand.verify_combine(action)

    def apply(self, hand: Hand, action: Action, found: object) -> None:
        assert isinstance(action, Combine) and isinstance(found, Meld)
        hand._combine(action, found)


class _Discard(_Pair):
    def verify(self, hand: Hand, action: Action) -> object:
        assert isinstance(action, Discard)
        hand.verify_discard(action)
        return None

    def apply(self, hand: Hand, action: Action, found: object) -> None:
        assert isinstance(action, Discard)
        hand._discard(action)


class _GoOut(_Pair):
    def verify(self, hand: Hand, action: Action) -> object:
        assert isinstance(action, GoOut)
        return hand.verify_way_out(action)

    def apply(self, hand: Hand, action: Action, found: object) -> None:
        assert isinstance(action, GoOut) and isinstance(found, list)
        hand._go_out(action, found)


class _Ask(_Pair):
    def verify(self, hand: Hand, action: Action) -> object:
        hand.verify_ask()
        return None

    def apply(self, hand: Hand, action: Action, found: object) -> None:
        hand._ask()


class _Answer(_Pair):
    def verify(self, hand: Hand, action: Action) -> object:
        hand.verify_answer()
        return None

    def apply(self, hand: Hand, action: Action, found: object) -> None:
        assert isinstance(action, Answer)
        hand._answer(action)


# each action type's pair, with the phases it is played in; anything else is not an action
_PAIRS: Final[dict[type, _Pair]] = {
    Draw: _Draw("draw"),
    TakePile: _TakePile("draw"),
    TakeTop: _TakeTop("draw"),
    Stop: _Stop("draw"),
    Lay: _Lay("play"),
    Extend: _Extend("play"),
    Combine: _Combine("play"),
    Discard: _Discard("play"),
    GoOut: _GoOut("play"),
    Ask: _Ask("draw", "play"),
    Answer: _Answer("answer"),
}
_NOT_AN_ACTION: Final = _Pair("play")  # refused by its phase, or as not an action
