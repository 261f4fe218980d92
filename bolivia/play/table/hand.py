"""A hand of play under any ruleset: every action verified and applied through one path.

The path covers the turn, the keep-cards rule and going out, the question to the partner and
its binding answer, and the stock running out. The state is :mod:`bolivia.play.table.state`.
The legal actions are :mod:`bolivia.play.table.moves` (every one) and
:mod:`bolivia.play.table.candidates` (the bots' short list); both ask this verify path. The
search for a way out is :mod:`bolivia.play.table.ways_out`. Every rule question goes to
:mod:`bolivia.engine`, the same code the oracle answers with.

>>> import random
>>> from bolivia.rules.library import shipped_library
>>> hand = Hand.deal(shipped_library().load("bolivia-da"), 4, random.Random(1))
>>> hand.phase, hand.current, sum(hand.sizes)
('draw', 0, 60)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NoReturn

from bolivia.cards import Card
from bolivia.engine.going_out import verify_go_out
from bolivia.engine.initial_meld import canasta_needed, minimum, verify_initial_meld
from bolivia.engine.melds import Meld, could_join, verify_combine, verify_extend, verify_meld
from bolivia.engine.pile import Pickup, card_class, verify_pickup, verify_take_top
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
    HandState,
    HandView,
)
from bolivia.play.table.ways_out import ways_out
from bolivia.rules.ruleset import Ruleset

__all__ = ["BLACK_THREES", "Hand", "HandResult"]

_UNCHECKED = object()  # no verdict kept for an action (None is one: a draw's)


class Hand(HandState):
    """One hand: the deal, then actions until a player goes out or the stock runs dry."""

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
        """A hand dealt from ``deck`` (card indices, the stock's top last); ``deal=False``
        leaves every card in the stock, for :func:`bolivia.play.table.position.hand_at` to place."""
        super().__init__(ruleset, players, deck, first, team_scores, deal=deal)
        self._checked: dict[Action, object] = {}  # what verify found, for this state only
        self.moves = Moves(self)  # the legal actions of each state, and the ways out
        self.candidates = Candidates(self)  # the bots' short list of them
        if deal:
            self._end_if_blocked()

    def copy(self) -> Hand:
        """An independent copy of the hand as it stands (every card where it is)."""
        other = Hand(self.ruleset, self.players, self.deck, self.first, deal=False)
        self._copy_into(other)
        return other

    # ------------------------------------------------------------------ verifying

    def _illegal(self, code: str, message: str, rule: str = "") -> Illegal:
        where = f" ({self.ruleset.cite(rule)})" if rule else ""
        return Illegal(code, message + where, rule)

    def _take(self, cards: Sequence[Card]) -> list[int]:
        """That the current player holds these cards (as a multiset); the hand's counts
        without them."""
        hand = list(self.hands[self.current])
        for card in cards:
            hand[card.index] = hand[card.index] - 1
            if hand[card.index] < 0:
                n = sum(1 for c in cards if c.index == card.index)
                raise Illegal("not-in-hand", f"player {self.current} does not hold {n} x {card!r}")
        return hand

    def first_minimum_for(self, melds: Sequence[Meld]) -> int | None:
        """The first meld's minimum for a side with these melds, None once it has melded."""
        return None if melds else minimum(self.ruleset, self.team_scores[self.team])

    def first_canasta_for(self, melds: Sequence[Meld]) -> tuple[str, ...]:
        """The kinds of canasta one of which the side's first meld must hold (none: ``()``,
        and always once it has melded)."""
        return () if melds else canasta_needed(self.ruleset, self.team_scores[self.team])

    def _going_out_after(
        self, remaining: int, counts: Sequence[int], table: Sequence[Meld], *, threes: str = ""
    ) -> bool:
        """Check an action that leaves the player ``remaining`` cards and the side ``table``
        against what the turn binds the player to; True when the action commits the player to
        going out this turn (it is allowed only because a way out then exists).

        The keep-cards rule binds a player who cannot go out this turn: such a player keeps
        ``keep`` cards after melding (a card to discard and one after it). A player may go
        below it, or meld black threes where only a player going out may, when a way out
        remains; a player committed to going out (or told yes by the partner) must keep one at
        every step; a player told no may not go below it."""
        below = remaining < self.keep
        if not (below or threes or self.committed or self.asked is True):
            return False
        if self.asked is False:
            raise self._illegal(
                "partner-said-no",
                f"the partner said no: no going out this turn, so the player keeps "
                f"{self.keep} cards after melding; this leaves {remaining}",
                "going_out.ask_partner",
            )
        if not ways_out(  # a way out at least (the search stops at the first)
            self.ruleset,
            table,
            counts,
            players=self.players,
            first_minimum=self.first_minimum_for(table),
            first_canasta=self.first_canasta_for(table),
        ):
            self._no_way_out(remaining, below, threes)
        if not self.committed and self.must_ask():
            raise self._illegal(
                "ask-first",
                "this commits the player to going out, and a player asks the partner before "
                "going out",
                "going_out.ask_partner",
            )
        return True

    def _no_way_out(self, remaining: int, below: bool, threes: str) -> NoReturn:
        """The refusal of an action after which the player could not go out this turn;
        ``threes`` the rule that lets only a player going out make one of its melds, if any."""
        if self.committed or self.asked is True:
            raise Illegal(
                "must-go-out",
                f"player {self.current} must go out this turn, and after this no way out is left",
            )
        if threes and not below:
            raise self._illegal(
                "threes-not-going-out",
                "this meld is made only by a player going out (black threes, or a sequence "
                "past its size), and no way out would be left after this",
                threes,
            )
        raise self._illegal(
            "keep-cards",
            f"a player who cannot go out this turn keeps {self.keep} cards after melding; "
            f"this leaves {remaining} and no way out",
            "going_out.keep_cards",
        )

    def _goes_out_now(self, table: Sequence[Meld]) -> None:
        """Check that the player may end the hand now, the side's melds being ``table``: the
        partner's answer and the question where required, and the going-out requirement."""
        if self.asked is False:
            raise self._illegal(
                "partner-said-no",
                "the partner said no: no going out this turn",
                "going_out.ask_partner",
            )
        if self.must_ask():
            raise self._illegal(
                "ask-first", "a player asks the partner before going out", "going_out.ask_partner"
            )
        verify_go_out(self.ruleset, table, self.players)

    def _check_duplicates(self, new: Sequence[Meld], existing: Sequence[Meld]) -> None:
        if self.rules.melds.group.duplicate_ranks:
            return
        ranks = [m.rank for m in existing if m.kind == "group"]
        for meld in new:
            if meld.kind == "group":
                if meld.rank in ranks:
                    raise self._illegal(
                        "duplicate-rank",
                        f"the side has a group of {meld.rank}s already: add to it",
                        "melds.group.duplicate_ranks",
                    )
                ranks.append(meld.rank)

    def _verify_new_melds(self, melds: Sequence[Sequence[Card]]) -> list[Meld]:
        """The new melds (black threes allowed: the caller holds them to going out), checked
        against duplicate ranks and, for a side's first meld, its minimum."""
        laid = [verify_meld(self.ruleset, cards, going_out=True) for cards in melds]
        self._check_duplicates(laid, self.melds[self.team])
        if not self.melds[self.team]:
            verify_initial_meld(self.ruleset, self.team_scores[self.team], melds, going_out=True)
        return laid

    def _only_going_out(self, melds: Sequence[Meld]) -> str:
        """The rule that lets only a player going out make one of these melds (black threes
        where only going out melds them, a sequence past its size limit), or ``""``."""
        threes = self.lim.threes_when == "going_out"
        longest = self.lim.sequence_max_size
        for m in melds:
            if m.kind == "threes" and threes:
                return "melds.black_threes.when"
            if m.kind == "sequence" and longest is not None and m.size > longest:
                return "melds.sequence.extend_going_out"
        return ""

    def _stock_out_obligation(self) -> bool:
        """Whether the player must take the pile (stock exhausted, top fits a team meld)."""
        exhausted = self.rules.stock.exhausted
        if exhausted.rule != "take_discards" or not exhausted.must_take_onto_meld:
            return False
        if not self.pile:
            return False
        top = CARDS[self.pile[-1]]
        return any(
            could_join(self.ruleset, meld, top) and self.can(TakePile(onto=i))
            for i, meld in enumerate(self.melds[self.team])
        )

    def can(self, action: Action) -> bool:
        """Whether :meth:`verify` allows the action (what it found is kept for :meth:`apply`)."""
        try:
            self._checked[action] = self.verify(action)
        except Illegal:
            return False
        return True

    def verify(self, action: Action) -> object:
        """Check an action against the rules; :class:`Illegal` names the rule it breaks.

        Returns what the action will do (a pickup, the melds laid), for :meth:`apply`.
        """
        if self.ended_by is not None:
            raise Illegal("hand-over", "the hand is over")
        phase = self.phase
        # the actions that start a turn (not Ask); a literal tuple of the classes, which the
        # compiled build checks by type (a tuple held in a name goes through the generic check)
        draw_phase = isinstance(action, (Draw, TakePile, TakeTop, Stop))
        if phase == "answer":
            if not isinstance(action, Answer):
                raise Illegal(
                    "wrong-phase", f"player {self.current} must answer the partner's question first"
                )
            return None
        if isinstance(action, Answer):
            raise Illegal("wrong-phase", "nobody has asked to go out")
        if phase == "draw" and not (draw_phase or isinstance(action, Ask)):
            raise Illegal("wrong-phase", "a turn starts by drawing or taking the pile")
        if phase == "play" and draw_phase:
            raise Illegal("wrong-phase", "the player has drawn already this turn")
        try:
            return self._verify(action)
        except BadRequest as exc:
            raise Illegal("bad-action", str(exc)) from None

    def _verify(self, action: Action) -> object:
        if isinstance(action, Draw):
            if not self.stock:
                raise Illegal("stock-empty", "the stock is exhausted")
            if self.asked is True:
                raise Illegal(
                    "must-go-out",
                    "the partner said yes: the player must go out, taking the pile to do so",
                )
            return None
        if isinstance(action, TakePile):
            return self._verify_pickup(action)
        if isinstance(action, TakeTop):
            team = self.melds[self.team]
            meld = verify_take_top(self.ruleset, self.pile_cards(), team, action.onto)
            table = [*team[: action.onto], meld, *team[action.onto + 1 :]]
            # the top card is melded: the hand stays as it is
            self._going_out_after(self.sizes[self.current], self.hands[self.current], table)
            return meld
        if isinstance(action, Stop):
            exhausted = self.rules.stock.exhausted
            if self.stock or exhausted.rule != "take_discards":
                raise Illegal(
                    "stop-not-now", "a player may decline the pile only when the stock is exhausted"
                )
            if self.asked is True:
                raise Illegal("must-go-out", "the partner said yes: the player must go out")
            if self._stock_out_obligation():
                raise self._illegal(
                    "must-take",
                    "the top card goes onto one of the side's melds: the player must take the pile",
                    "stock.exhausted",
                )
            return None
        if isinstance(action, Lay):
            return self._verify_lay(action)
        if isinstance(action, Extend):
            return self._verify_extend(action)
        if isinstance(action, Combine):
            team = self.melds[self.team]
            for i in (action.target, action.other):
                if not 0 <= i < len(team):
                    raise Illegal("no-such-meld", f"the side has no meld {i}")
            if action.target == action.other:
                raise Illegal("combine-kind", "a meld cannot be joined to itself")
            joined = verify_combine(self.ruleset, team[action.target], team[action.other])
            table = self._combined(team, action.target, action.other, joined)
            self._going_out_after(self.sizes[self.current], self.hands[self.current], table)
            return joined
        if isinstance(action, Discard):
            self._take([action.card])
            if self.sizes[self.current] == 1:  # the last card: going out by discarding it
                self._goes_out_now(self.melds[self.team])
            elif self.committed or self.asked is True:
                raise Illegal(
                    "must-go-out",
                    f"player {self.current} must go out this turn: a discard now would keep "
                    f"{self.sizes[self.current] - 1} cards",
                )
            return None
        if isinstance(action, GoOut):
            return self.verify_way_out(action)
        if isinstance(action, Ask):
            self._verify_ask()
            return None
        raise Illegal("bad-action", f"{action!r} is not an action")  # pragma: no cover

    def _pickup_state(self, action: TakePile) -> tuple[Pickup, list[int], list[Meld], int, int]:
        """The pickup, the hand's counts and the side's melds after it, how many cards the
        hand then holds, and how many of them are still unknown (the pile's red threes
        replaced from the stock)."""
        team = self.melds[self.team]
        size = self.sizes[self.current]
        cards = [*(action.with_cards or ()), *(c for m in action.also for c in m)]
        counts = self._take(cards)
        pickup = verify_pickup(
            self.ruleset,
            self.pile_cards(),
            HandView(self.hands[self.current], size),
            team,
            self.team_scores[self.team],
            with_cards=action.with_cards,
            onto=action.onto,
            also=action.also,
            classes=self.pile_kinds(),
        )
        new = [*pickup.also]
        if pickup.onto is None and not self.rules.pile.pair_starts_new_meld:
            new.insert(0, pickup.meld)
        self._check_duplicates(new, team)
        table = list(team)
        if pickup.onto is not None:
            table[pickup.onto] = pickup.meld
        else:
            table.append(pickup.meld)
        table.extend(pickup.also)
        rest = self.pile[:-1]
        for index in rest:
            if index not in RED_THREES:
                counts[index] = counts[index] + 1
        unknown = 0
        if self.rules.red_threes.replaced_from_pile and self.stock:
            unknown = min(len(self.stock), sum(1 for i in rest if i in RED_THREES))
        return pickup, counts, table, sum(counts) + unknown, unknown

    def after_pickup(self, action: Action) -> tuple[list[int], list[Meld]] | None:
        """The hand's counts and the side's melds after taking the pile (or its top card) this
        way, where the pile's rules allow it (whatever the turn then binds the player to) and
        the hand is known; else None."""
        try:
            if isinstance(action, TakeTop):
                team = self.melds[self.team]
                meld = verify_take_top(self.ruleset, self.pile_cards(), team, action.onto)
                return list(self.hands[self.current]), [
                    *team[: action.onto],
                    meld,
                    *team[action.onto + 1 :],
                ]
            if isinstance(action, TakePile):
                _, counts, table, _, unknown = self._pickup_state(action)
                return None if unknown else (counts, table)
        except (Illegal, BadRequest):
            return None
        return None

    def _verify_pickup(self, action: TakePile) -> Pickup:
        pickup, counts, table, remaining, unknown = self._pickup_state(action)
        if unknown and remaining - unknown < self.keep:
            # red threes in the pile are replaced from the stock: a way out would need cards
            # the player cannot know
            raise self._illegal(
                "keep-cards",
                f"a player who cannot go out this turn keeps {self.keep} cards after melding; "
                f"this leaves {remaining - unknown} besides the replacements of the pile's red "
                "threes",
                "going_out.keep_cards",
            )
        self._going_out_after(remaining, counts, table, threes=self._only_going_out(pickup.also))
        return pickup

    def _verify_lay(self, action: Lay) -> list[Meld]:
        if not action.melds:
            raise Illegal("no-meld", "lay at least one meld")
        cards = [c for m in action.melds for c in m]
        counts = self._take(cards)
        laid = self._verify_new_melds(action.melds)
        table = [*self.melds[self.team], *laid]
        remaining = self.sizes[self.current] - len(cards)  # each was held (_take)
        if remaining == 0:
            self._empties_hand(table)
        else:
            self._going_out_after(remaining, counts, table, threes=self._only_going_out(laid))
        return laid

    def _verify_extend(self, action: Extend) -> Meld:
        team = self.melds[self.team]
        if not 0 <= action.target < len(team):
            raise Illegal("no-such-meld", f"the side has no meld {action.target}")
        counts = self._take(action.cards)
        meld = verify_extend(self.ruleset, team[action.target], action.cards, going_out=True)
        table = [*team[: action.target], meld, *team[action.target + 1 :]]
        remaining = self.sizes[self.current] - len(action.cards)  # each was held (_take)
        if remaining == 0:
            self._empties_hand(table)
        else:
            self._going_out_after(remaining, counts, table, threes=self._only_going_out([meld]))
        return meld

    def _empties_hand(self, table: Sequence[Meld]) -> None:
        """A lay or an extension that melds the last card goes out, where no discard is
        required."""
        if self.rules.going_out.discard_required:
            raise self._illegal(
                "discard-required",
                "going out ends with a discard: keep a card to discard",
                "going_out.discard_required",
            )
        self._goes_out_now(table)

    @staticmethod
    def _combined(team: Sequence[Meld], target: int, other: int, joined: Meld) -> list[Meld]:
        table = list(team)
        table[target] = joined
        del table[other]
        return table

    def _verify_ask(self) -> None:
        rule = self.rules.going_out.ask_partner
        if rule == "never" or not self.partnerships:
            raise self._illegal(
                "no-asking", "there is no asking the partner here", "going_out.ask_partner"
            )
        if self.asked is not None:
            raise Illegal("asked", "the player has asked already this turn")
        if self.committed:
            raise Illegal(
                "asked-too-late",
                "the player has started going out: the question comes before",
            )
        if self.phase == "draw":
            if not self.moves.pickups_out():
                raise Illegal(
                    "cannot-go-out",
                    "no way to take the pile and go out this turn, so nothing to ask before "
                    "drawing",
                )
        elif not self.moves.go_out_lines(1):
            raise Illegal("cannot-go-out", "the player has no way to go out now, so nothing to ask")

    def must_ask(self) -> bool:
        """Whether the player must ask the partner before going out, and has not yet."""
        return self.lim.ask_partner == "required" and self.partnerships and self.asked is None

    def verify_way_out(self, action: GoOut, *, asking: bool = True) -> list[Meld]:
        """The side's melds after going out this way. ``asking=False`` leaves out the question
        to the partner (to find the ways out a player may ask about)."""
        rules = self.rules
        if self.asked is False:
            raise self._illegal(
                "partner-said-no",
                "the partner said no: no going out this turn",
                "going_out.ask_partner",
            )
        if asking and self.must_ask():
            raise self._illegal(
                "ask-first", "a player asks the partner before going out", "going_out.ask_partner"
            )
        cards = [c for m in action.melds for c in m]
        cards += [c for _, more in action.extends for c in more]
        if action.discard is not None:
            cards.append(action.discard)
        moved = [0] * 53
        for c in cards:
            moved[c.index] = moved[c.index] + 1
        if moved != self.hands[self.current]:
            raise Illegal(
                "go-out-cards",
                "going out lays, adds or discards every card of the hand, and only those",
            )
        if rules.going_out.discard_required and action.discard is None:
            raise self._illegal(
                "discard-required", "going out ends with a discard", "going_out.discard_required"
            )
        team = list(self.melds[self.team])
        for target, other in action.combine:
            if not (0 <= target < len(team) and 0 <= other < len(team)) or target == other:
                raise Illegal("no-such-meld", f"the side has no melds {target} and {other}")
            team = self._combined(
                team, target, other, verify_combine(self.ruleset, team[target], team[other])
            )
        laid = [verify_meld(self.ruleset, cards, going_out=True) for cards in action.melds]
        self._check_duplicates(laid, team)
        if not team:
            verify_initial_meld(
                self.ruleset, self.team_scores[self.team], action.melds, going_out=True
            )
        after = [*team, *laid]
        for target, more in action.extends:
            if not 0 <= target < len(after):
                raise Illegal("no-such-meld", f"the side has no meld {target}")
            after[target] = verify_extend(self.ruleset, after[target], more, going_out=True)
        verify_go_out(self.ruleset, after, self.players)
        return after

    # ------------------------------------------------------------------ applying

    def apply(self, action: Action) -> None:
        """Perform an action, verified first (an action just found legal in this state is not
        verified twice)."""
        checked = self._checked
        outcome = checked.get(action, _UNCHECKED) if checked else _UNCHECKED
        if outcome is _UNCHECKED:
            outcome = self.verify(action)
        if checked:
            self._checked = {}
        self.candidates.memo = {}
        self.steps += 1
        self._perform(action, outcome)
        self._end_if_blocked()

    def _perform(self, action: Action, outcome: object) -> None:
        """Move the cards and the turn as the verified ``action`` does (``outcome``: what
        :meth:`verify` found)."""
        player = self.current
        team = self.team_of[player]
        taken = self.taken[player]
        if isinstance(action, Draw):
            count = self.draw_count
            if len(self.stock) < count and self.rules.stock.short_draw == "end_hand":
                self.ended_by = "stock_exhausted"
                return
            for _ in range(min(count, len(self.stock))):
                self._to_hand(player, self.stock.pop())
            self._lay_red_threes(player, replace=True)
            self.phase = "play"
        elif isinstance(action, TakePile):
            assert isinstance(outcome, Pickup)
            self._remove(player, [*(action.with_cards or ()), *(c for m in action.also for c in m)])
            rest = self.pile[:-1]
            self.pile = []
            self._pile_classes.clear()
            melds = self.melds[team]
            if outcome.onto is not None:
                melds[outcome.onto] = outcome.meld
            else:
                melds.append(outcome.meld)
            melds.extend(outcome.also)
            for index in rest:
                self._to_hand(player, index)
                if index not in RED_THREES:
                    taken[index] = taken[index] + 1
            self._lay_red_threes(player, replace=self.rules.red_threes.replaced_from_pile)
            self.picked_up = True
            self.phase = "play"
            self._melded_now(player, self._only_going_out(outcome.also))
        elif isinstance(action, TakeTop):
            assert isinstance(outcome, Meld)
            self._pile_classes[card_class(self.ruleset, CARDS[self.pile.pop()])] -= 1
            self.melds[team][action.onto] = outcome
            self.picked_up = True
            self.phase = "play"
            self._melded_now(player)
        elif isinstance(action, Stop):
            self.ended_by = "stock_exhausted"
        elif isinstance(action, Lay):
            assert isinstance(outcome, list)
            self._remove(player, [c for m in action.melds for c in m])
            self.melds[team].extend(outcome)
            self._melded_now(player, self._only_going_out(outcome))
        elif isinstance(action, Extend):
            assert isinstance(outcome, Meld)
            self._remove(player, action.cards)
            self.melds[team][action.target] = outcome
            self._melded_now(player, self._only_going_out([outcome]))
        elif isinstance(action, Combine):
            assert isinstance(outcome, Meld)
            self.melds[team] = self._combined(
                self.melds[team], action.target, action.other, outcome
            )
            self.moves.stuck_turn = -1  # a way out may now rest on the join (see Moves)
        elif isinstance(action, Discard):
            self._remove(player, [action.card])
            self._pile_push(action.card.index)
            if self.sizes[player] == 0:
                self._went_out(player)
            else:
                self._next_turn()
        elif isinstance(action, GoOut):
            assert isinstance(outcome, list)
            self._remove(
                player,
                [
                    *(c for m in action.melds for c in m),
                    *(c for _, more in action.extends for c in more),
                    *([action.discard] if action.discard is not None else []),
                ],
            )
            self.melds[team] = outcome
            if action.discard is not None:
                self._pile_push(action.discard.index)
            self._went_out(player)
        elif isinstance(action, Ask):
            self.asker = player
            self.answer_phase = self.phase
            self.current = self.partner(player)
            self.phase = "answer"
        elif isinstance(action, Answer):
            assert self.asker is not None
            self.asked = action.yes
            self.current = self.asker
            self.phase = self.answer_phase

    def _remove(self, player: int, cards: Sequence[Card]) -> None:
        """The cards leave the player's hand (melded or discarded): no longer among those
        everyone saw the player take from the pile."""
        taken = self.taken[player]
        for card in cards:
            self._from_hand(player, card.index)
            if taken[card.index]:
                taken[card.index] = taken[card.index] - 1

    def _melded_now(self, player: int, threes: str = "") -> None:
        """The player melded: a hand emptied goes out; fewer cards than the keep-cards rule
        asks (or black threes melded) commit the player to going out this turn."""
        self.melded[player] = True
        if self.phase == "play" and self.sizes[player] == 0:
            self._went_out(player)
        elif self.sizes[player] < self.keep or threes:
            self.committed = True

    def _went_out(self, player: int) -> None:
        """The player has gone out: concealed if neither the player (or side, as the ruleset
        says) had melded before this turn nor the player took the pile this turn."""
        when = self.rules.going_out.concealed_when
        before = self.side_melded_before if when == "side_not_melded" else self.melded_before
        self.concealed = not (before or self.picked_up)
        self.melded[player] = True
        self.went_out = player
        self.bonus_withheld = not self.stock and not self.rules.stock.going_out_bonus_when_exhausted
        self.ended_by = "went_out"

    def _next_turn(self) -> None:
        self.current = (self.current + 1) % self.players
        self._start_turn()
        self.turns += 1
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

    def _end_if_blocked(self) -> None:
        """End the hand where the player to act has no legal action (``docs/engine.md``, "A
        player without a legal action"). Nobody went out: the hand is scored as one the stock's
        end closes. With the stock exhausted it is that end (the Official Laws end the hand
        when, the stock used up, a player cannot go on); otherwise the hand is blocked."""
        if self.ended_by is None and self._no_action():
            self.ended_by = "blocked" if self.stock else "stock_exhausted"

    def _no_action(self) -> bool:
        """Whether the player to act has no legal action: read off the turn where one is sure
        (an answer, a draw, a stop or the pile once the stock is out, a discard that keeps a
        card, a way out), else from every legal action listed."""
        if self.phase == "answer":
            return False  # yes or no
        if self.phase == "draw":
            if self.asked is not True and (
                self.stock or self.rules.stock.exhausted.rule == "take_discards"
            ):
                return False  # a draw; with the stock out, a stop or the pile it must take
        elif not (self.committed or self.asked is True):
            if self.sizes[self.current] >= 2:
                return False  # a discard that keeps a card
            if self.go_out_lines(limit=2):  # the bots' limit here: one search serves both
                return False  # going out, or asking first where the partner is asked
        elif self.go_out_lines(limit=3) and not self.must_ask():
            return False  # the way out the player is bound to take
        return not self.moves.legal()

    def _start_turn(self) -> None:
        self.phase = "draw"
        self.asked = None
        self.asker = None
        self.answer_phase = "play"
        self.committed = False
        self.picked_up = False
        self.melded_before = self.melded[self.current]
        self.side_melded_before = bool(self.melds[self.team_of[self.current]])

    # ------------------------------------------------------------------ moves

    def legal_actions(self) -> list[Action]:
        """Every action the current player may take, in canonical form (:meth:`Moves.legal
        <bolivia.play.table.moves.Moves.legal>`). Never empty while the hand goes on."""
        return self.moves.legal()

    def choices(self) -> list[Action]:
        """The bots' short list of legal actions (:mod:`bolivia.play.table.candidates`). Never empty
        while the hand goes on."""
        return self.candidates.choices()

    def go_out_lines(self, limit: int = 1) -> list[GoOut]:
        """Up to ``limit`` ways for the current player to go out now (searched, not all)."""
        return self.moves.go_out_lines(limit)
