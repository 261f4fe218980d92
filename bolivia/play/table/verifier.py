"""The hand's verify path: each action checked against the rules.

Each action type has one ``verify_<action>`` method, as PokerKit's ``State`` has
``verify_folding``. It raises :class:`~bolivia.errors.Illegal` with the reason, a code and the
rule it rests on, and returns what it found (a pickup, the melds laid) for the hand to apply.
The turn binds the player here too: the keep-cards rule, going out once committed, the
partner's answer. Every rule question goes to :mod:`bolivia.engine`, the same code the oracle
answers with.

:class:`~bolivia.play.table.hand.Hand` dispatches to these methods by the action's type, and
applies what they found. The legal actions (:mod:`bolivia.play.table.moves`) ask this path
through the questions :class:`~bolivia.play.table.state.HandState` declares. The search for a
way out is :mod:`bolivia.play.table.ways_out`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NoReturn

from bolivia.cards import Card
from bolivia.engine.discard import verify_discard_card
from bolivia.engine.going_out import verify_go_out
from bolivia.engine.initial_meld import verify_initial_meld
from bolivia.engine.melds import Meld, could_join, verify_combine, verify_extend, verify_meld
from bolivia.engine.pile import Pickup, verify_pickup, verify_take_top
from bolivia.engine.wild_steps import verify_step
from bolivia.errors import BadRequest, Illegal
from bolivia.play.table.actions import (
    Action,
    Combine,
    Discard,
    Extend,
    GoOut,
    Lay,
    TakePile,
    TakeTop,
)
from bolivia.play.table.moves import Moves
from bolivia.play.table.state import CARDS, RED_THREES, HandState
from bolivia.play.table.views import HandView
from bolivia.play.table.ways_out import ways_out

__all__ = ["Verifier"]


class Verifier(HandState):
    """A hand's state with its verify path and its legal actions."""

    moves: Moves  # the legal actions of each state, and the ways out (the hand makes them)

    # ------------------------------------------------------------------ each action

    def verify_draw(self) -> None:
        """Check a draw from the stock."""
        if not self.stock:
            raise self._illegal("stock-empty", "the stock is exhausted")
        if self.asked is True:
            raise self._illegal(
                "must-go-out",
                "the partner said yes: the player must go out, taking the pile to do so",
            )

    def verify_take_pile(self, action: TakePile) -> Pickup:
        """Check taking the pile; returns the pickup."""
        if self.lim.first_round_wait:
            self._not_in_first_round()
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

    def verify_take_top(self, action: TakeTop) -> Meld:
        """Check taking the pile's top card; returns the meld it makes."""
        if self.lim.first_round_wait:
            self._not_in_first_round()
        team = self.melds[self.team]
        meld = verify_take_top(self.ruleset, self.pile_cards(), team, action.onto)
        table = [*team[: action.onto], meld, *team[action.onto + 1 :]]
        # the top card is melded: the hand stays as it is
        self._going_out_after(self.sizes[self.current], self.hands[self.current], table)
        return meld

    def verify_stop(self) -> None:
        """Check declining the pile once the stock is exhausted."""
        if self.stock or self.rules.stock.exhausted.rule != "take_discards":
            raise self._illegal(
                "stop-not-now", "a player may decline the pile only when the stock is exhausted"
            )
        if self.asked is True:
            raise self._illegal("must-go-out", "the partner said yes: the player must go out")
        if self._stock_out_obligation():
            raise self._illegal(
                "must-take",
                "the top card goes onto one of the side's melds: the player must take the pile",
                "stock.exhausted",
            )

    def verify_lay(self, action: Lay) -> list[Meld]:
        """Check laying new melds; returns them."""
        if self.lim.first_round_wait:
            self._not_in_first_round()
        if not action.melds:
            raise self._illegal("no-meld", "lay at least one meld")
        cards = [c for m in action.melds for c in m]
        counts = self._take(cards)
        laid = self._verify_new_melds(action.melds)
        table = [*self.melds[self.team], *laid]
        remaining = self.sizes[self.current] - len(cards)  # each was held (_take)
        if remaining == 0 and not self.joining(table, 0):
            self._empties_hand(table)
        else:
            self._going_out_after(remaining, counts, table, threes=self._only_going_out(laid))
        return laid

    def verify_extend(self, action: Extend) -> Meld:
        """Check adding cards to a meld; returns the meld they make."""
        if self.lim.first_round_wait:
            self._not_in_first_round()
        team = self.melds[self.team]
        if not 0 <= action.target < len(team):
            raise self._illegal("no-such-meld", f"the side has no meld {action.target}")
        counts = self._take(action.cards)
        meld = verify_extend(self.ruleset, team[action.target], action.cards, going_out=True)
        table = [*team[: action.target], meld, *team[action.target + 1 :]]
        remaining = self.sizes[self.current] - len(action.cards)  # each was held (_take)
        if remaining == 0 and not self.joining(table, 0):
            self._empties_hand(table)
        else:
            self._going_out_after(remaining, counts, table, threes=self._only_going_out([meld]))
        return meld

    def verify_combine(self, action: Combine) -> Meld:
        """Check joining two of the side's groups; returns the joined group."""
        if self.lim.first_round_wait:
            self._not_in_first_round()
        team = self.melds[self.team]
        for i in (action.target, action.other):
            if not 0 <= i < len(team):
                raise self._illegal("no-such-meld", f"the side has no meld {i}")
        if action.target == action.other:
            raise self._illegal("combine-kind", "a meld cannot be joined to itself")
        joined = verify_combine(self.ruleset, team[action.target], team[action.other])
        table = self._combined(team, action.target, action.other, joined)
        self._going_out_after(self.sizes[self.current], self.hands[self.current], table)
        return joined

    def verify_discard(self, action: Discard) -> None:
        """Check a discard; the last card's goes out."""
        self._take([action.card])
        going_out = self.sizes[self.current] == 1
        if going_out and self.lim.reserves:
            going_out = not self._last_card_aside()
        if self.lim.bars_discard:
            self._check_bar(action.card, self.melds[self.team], going_out)
        if going_out:
            self._goes_out_now(self.melds[self.team])
        elif self.committed or self.asked is True:
            raise self._illegal(
                "must-go-out",
                f"player {self.current} must go out this turn: a discard now would keep "
                f"{self.sizes[self.current] - 1} cards",
            )

    def verify_way_out(self, action: GoOut, *, asking: bool = True) -> list[Meld]:
        """The side's melds after going out this way; :class:`Illegal` if it may not.

        ``asking=False`` leaves out the question to the partner: it finds the ways out a
        player may ask about.
        """
        if self.lim.first_round_wait:
            self._not_in_first_round()
        self._may_end_now(asking=asking)
        if self.lim.out_barrable:
            self._not_barred(self.melds[self.team])
        self._empties_the_hand(action)
        team = self._joined(action.combine)
        laid = [verify_meld(self.ruleset, cards, going_out=True) for cards in action.melds]
        self._check_duplicates(laid, team)
        if not team:
            verify_initial_meld(
                self.ruleset, self.team_scores[self.team], action.melds, going_out=True
            )
        after = self._extended([*team, *laid], action.extends, len(team))
        self._check_step(after)
        verify_go_out(self.ruleset, after, self.players)
        if action.discard is not None and self.lim.bars_discard:
            self._check_bar(action.discard, after, going_out=True)
        return after

    def verify_ask(self) -> None:
        """Check a question to the partner for leave to go out."""
        if self.rules.going_out.ask_partner == "never" or not self.partnerships:
            raise self._illegal(
                "no-asking", "there is no asking the partner here", "going_out.ask_partner"
            )
        if self.asked is not None:
            raise self._illegal("asked", "the player has asked already this turn")
        if self.committed:
            raise self._illegal(
                "asked-too-late",
                "the player has started going out: the question comes before",
            )
        if self.phase == "draw":
            if not self.moves.pickups_out():
                raise self._illegal(
                    "cannot-go-out",
                    "no way to take the pile and go out this turn, so nothing to ask before "
                    "drawing",
                )
        elif not self.moves.go_out_lines(1):
            raise self._illegal(
                "cannot-go-out", "the player has no way to go out now, so nothing to ask"
            )

    def verify_answer(self) -> None:
        """Check the partner's answer: any answer, once asked (the phase says)."""

    # ------------------------------------------------------------------ cards and melds

    def _check_step(self, table: Sequence[Meld]) -> None:
        """Refuse a step that leaves the side ``table`` against the rules of wild cards that
        read the side's melds before it (:mod:`bolivia.engine.wild_steps`: an unfinished wild
        meld's locks, limits by rank, the naturals a wild card needs after the first meld)."""
        if self.lim.step_rules:
            verify_step(self.ruleset, self.melds[self.team], table)

    def _check_bar(self, card: Card, table: Sequence[Meld], going_out: bool) -> None:
        """Refuse a discard a bar of ``pile.discard_barred`` keeps out, the side's melds
        being ``table``."""
        held = [CARDS[i] for i, n in enumerate(self.hands[self.current]) if n]
        sides = [table if i == self.team else side for i, side in enumerate(self.melds)]
        verify_discard_card(
            self.ruleset,
            card,
            held,
            sides,
            self.team,
            going_out=going_out,
            first_round=self.first_round > 0,
        )

    def _last_barred(self, counts: Sequence[int], table: Sequence[Meld]) -> Card | None:
        """The one card ``counts`` holds, where it may not be the discard that goes out."""
        check = self.discard_check()
        if check is None:
            return None
        card = CARDS[next(i for i, n in enumerate(counts) if n)]
        return None if check(card, table) else card

    def _take(self, cards: Sequence[Card]) -> list[int]:
        """The hand's counts without these cards, which the player must hold."""
        hand = list(self.hands[self.current])
        for card in cards:
            hand[card.index] = hand[card.index] - 1
            if hand[card.index] < 0:
                n = sum(1 for c in cards if c.index == card.index)
                raise self._illegal(
                    "not-in-hand", f"player {self.current} does not hold {n} x {card!r}"
                )
        return hand

    def _check_duplicates(self, new: Sequence[Meld], existing: Sequence[Meld]) -> None:
        """Refuse a second group of a rank, where the rules forbid one."""
        if self.rules.melds.group.duplicate_ranks:
            return
        ranks = [m.rank for m in existing if m.kind == "group"]
        for meld in new:
            if meld.kind != "group":
                continue
            if meld.rank in ranks:
                raise self._illegal(
                    "duplicate-rank",
                    f"the side has a group of {meld.rank}s already: add to it",
                    "melds.group.duplicate_ranks",
                )
            ranks.append(meld.rank)

    def _verify_new_melds(self, melds: Sequence[Sequence[Card]]) -> list[Meld]:
        """The new melds, checked, with a side's first meld against its minimum.

        Black threes pass: the caller holds them to going out.
        """
        laid = [verify_meld(self.ruleset, cards, going_out=True) for cards in melds]
        self._check_duplicates(laid, self.melds[self.team])
        if not self.melds[self.team]:
            verify_initial_meld(self.ruleset, self.team_scores[self.team], melds, going_out=True)
        return laid

    @staticmethod
    def _combined(team: Sequence[Meld], target: int, other: int, joined: Meld) -> list[Meld]:
        """The side's melds with ``other`` joined into ``target``."""
        table = list(team)
        table[target] = joined
        del table[other]
        return table

    def _joined(self, combine: Sequence[tuple[int, int]]) -> list[Meld]:
        """The side's melds after a way out's joins, each checked."""
        team = list(self.melds[self.team])
        for target, other in combine:
            if not (0 <= target < len(team) and 0 <= other < len(team)) or target == other:
                raise self._illegal("no-such-meld", f"the side has no melds {target} and {other}")
            joined = verify_combine(self.ruleset, team[target], team[other])
            team = self._combined(team, target, other, joined)
        return team

    def _extended(
        self, after: list[Meld], extends: Sequence[tuple[int, Sequence[Card]]], old: int
    ) -> list[Meld]:
        """The melds ``after`` with a way out's additions, each checked.

        The first ``old`` were on the table before the turn. A meld laid this turn and grown
        by the same action must hold as laid whole: a sequence grows past ``max_size`` going
        out only where it was on the table already (``melds.sequence.extend_going_out``).
        """
        for target, more in extends:
            if not 0 <= target < len(after):
                raise self._illegal("no-such-meld", f"the side has no meld {target}")
            grown = verify_extend(self.ruleset, after[target], more, going_out=True)
            if target >= old:
                verify_meld(self.ruleset, grown.cards, going_out=True)
            after[target] = grown
        return after

    def _only_going_out(self, melds: Sequence[Meld]) -> str:
        """The rule keeping one of these melds to a player going out, or ``""``.

        Such melds are black threes where only going out melds them, and a sequence past its
        size limit.
        """
        threes = self.lim.threes_when == "going_out"
        longest = self.lim.sequence_max_size
        for m in melds:
            if m.kind == "threes" and threes:
                return "melds.black_threes.when"
            if m.kind == "sequence" and longest is not None and m.size > longest:
                return "melds.sequence.extend_going_out"
        return ""

    # ------------------------------------------------------------------ the pile

    def _pickup_state(self, action: TakePile) -> tuple[Pickup, list[int], list[Meld], int, int]:
        """A pickup and the state it leaves.

        That is the pickup, the hand's counts and the side's melds after it, how many cards
        the hand then holds, and how many of those are unknown (the pile's red threes
        replaced from the stock).
        """
        team = self.melds[self.team]
        counts = self._take([*(action.with_cards or ()), *(c for m in action.also for c in m)])
        pickup = verify_pickup(
            self.ruleset,
            self.pile_cards(),
            HandView(self.hands[self.current], self.sizes[self.current]),
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
        unknown = self._pile_into(counts)
        return pickup, counts, _picked_up(team, pickup), sum(counts) + unknown, unknown

    def _pile_into(self, counts: list[int]) -> int:
        """Add the pile under its top to ``counts``; returns how many cards are unknown.

        Red threes are laid out, not held (black threes set aside where the rules say). Where
        the rules replace red threes from the stock, the replacements are cards the player
        cannot know yet.
        """
        rest = self.pile[:-1]
        out = self.lim.pile_out
        for index in rest:
            if index not in out:
                counts[index] = counts[index] + 1
        if not (self.rules.red_threes.replaced_from_pile and self.stock):
            return 0
        return min(len(self.stock), sum(1 for i in rest if i in RED_THREES))

    def after_pickup(self, action: Action) -> tuple[list[int], list[Meld]] | None:
        """The hand's counts and the side's melds after this pickup, or None.

        None where the pile's rules refuse it, whatever the turn then binds the player to, or
        where the hand would hold cards not yet known.
        """
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

    def _stock_out_obligation(self) -> bool:
        """Whether the player must take the pile, its top fitting a side's meld."""
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

    # ------------------------------------------------------------------ going out

    def _going_out_after(
        self, remaining: int, counts: Sequence[int], table: Sequence[Meld], *, threes: str = ""
    ) -> bool:
        """Check an action against what the turn binds the player to.

        The action leaves the player ``remaining`` cards (``counts``) and the side ``table``.
        True when it commits the player to going out this turn: it is allowed only because a
        way out then exists.

        The keep-cards rule binds a player who cannot go out this turn: such a player keeps
        ``keep`` cards after melding (a card to discard and one after it). A player may go
        below it, or meld black threes where only a player going out may, when a way out
        remains. A player committed to going out (or told yes by the partner) must keep one at
        every step. A player told no may not go below it.
        """
        self._check_step(table)
        if self.lim.reserves and self._reserves_bind(remaining, table, threes):
            return False
        last = self._last_barred(counts, table) if remaining == 1 else None
        below = remaining < self.keep or last is not None
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
            discard_ok=self.discard_check(),
        ):
            if last is not None:
                raise self._illegal(
                    "discard-barred",
                    f"this leaves only {last!r}, which may not be the discard that goes out, "
                    "and no other way out",
                    "pile.discard_barred",
                )
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
        """Refuse an action after which the player could not go out this turn.

        ``threes`` is the rule that lets only a player going out make one of its melds, if any.
        """
        if self.committed or self.asked is True:
            raise self._illegal(
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

    # ------------------------------------------------------------------ cards dealt aside

    def _reserves_bind(self, remaining: int, table: Sequence[Meld], threes: str) -> bool:
        """Check a step against the cards dealt aside (``deal.foot``, ``deal.bonus_piles``);
        True when they decide it: cards join the hand after it, or the player cannot go out.

        Cards joining are unseen, so the step binds the player to nothing (it is refused only
        where it would leave fewer than the keep-cards rule asks even with them, or melds what
        only a player going out melds). A player who cannot go out keeps ``keep`` cards after
        melding, unless the foot joins when the hand is played out.
        """
        joining = self.joining(table, remaining)
        barred = "" if joining else self.out_barred(table)
        if not (joining or barred):
            return False
        rule = barred or ("deal.foot" if self.feet[self.current] else "deal.bonus_piles")
        if threes:
            raise self._illegal(
                "threes-not-going-out",
                "this meld is made only by a player going out (black threes, or a sequence past "
                f"its size), and player {self.current} cannot go out this turn: "
                + self._aside_words(rule),
                threes,
            )
        short = remaining + joining < self.keep
        if short and (joining or self.lim.foot_on_canasta or rule == "deal.bonus_piles"):
            raise self._illegal(
                "keep-cards",
                f"player {self.current} cannot go out now ({self._aside_words(rule)}), so keeps "
                f"{self.keep} cards after melding; this leaves {remaining + joining}",
                rule,
            )
        return True

    def _not_in_first_round(self) -> None:
        """Refuse a meld, a pickup or a way out in the hand's first round of turns, where
        nobody melds in it (``initial_meld.after_first_round``; the caller reads the flag)."""
        if self.first_round > 0:
            raise self._illegal(
                "first-round",
                "nobody melds in the hand's first round of turns: this turn is a draw and a "
                "discard",
                "initial_meld.after_first_round",
            )

    def _aside_words(self, rule: str) -> str:
        """Why cards dealt aside (or the first round) keep the player from going out, in
        words."""
        if rule == "initial_meld.after_first_round":
            return "nobody melds in the hand's first round of turns"
        if rule == "deal.foot":
            return "the player's foot is still aside"
        if self.rules.deal.bonus_piles_taken == "first_canasta":
            return "the side's first canasta takes up a bonus pile"
        return "the side's first meld takes up a bonus pile"

    def _not_barred(self, table: Sequence[Meld]) -> None:
        """Refuse going out while cards dealt aside are still to join the hand."""
        rule = self.out_barred(table)
        if rule:
            raise self._illegal(
                "first-round" if rule == "initial_meld.after_first_round" else "cards-aside",
                f"player {self.current} cannot go out: {self._aside_words(rule)}",
                rule,
            )

    def _last_card_aside(self) -> bool:
        """Whether discarding the last card takes up the foot instead of going out (a foot
        taken when the hand is played out); :class:`Illegal` if the player, unable to go out,
        must keep it."""
        rule = self.out_barred(self.melds[self.team])
        if not rule or rule == "initial_meld.after_first_round":
            return False  # (going out then refuses it)
        if rule == "deal.foot" and not self.lim.foot_on_canasta:
            return True
        raise self._illegal(
            "keep-cards",
            f"player {self.current} cannot go out now ({self._aside_words(rule)}), so keeps a "
            "card after discarding",
            rule,
        )

    def _may_end_now(self, *, asking: bool = True) -> None:
        """Check the partner's answer, and the question where one is required.

        ``asking=False`` leaves out the question.
        """
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

    def _goes_out_now(self, table: Sequence[Meld]) -> None:
        """Check that the player may end the hand, the side's melds being ``table``."""
        self._may_end_now()
        if self.lim.out_barrable:
            self._not_barred(table)
        verify_go_out(self.ruleset, table, self.players)

    def _empties_hand(self, table: Sequence[Meld]) -> None:
        """Check melding the last card: a lay or an extension that goes out.

        It may only where no discard is required.
        """
        self._check_step(table)
        if self.rules.going_out.discard_required:
            raise self._illegal(
                "discard-required",
                "going out ends with a discard: keep a card to discard",
                "going_out.discard_required",
            )
        self._goes_out_now(table)

    def _empties_the_hand(self, action: GoOut) -> None:
        """Check that a way out moves the hand's cards, every one and only those.

        It ends with a discard where the rules require one.
        """
        moved = [0] * 53
        for c in _go_out_cards(action):
            moved[c.index] = moved[c.index] + 1
        if moved != self.hands[self.current]:
            raise self._illegal(
                "go-out-cards",
                "going out lays, adds or discards every card of the hand, and only those",
            )
        if self.rules.going_out.discard_required and action.discard is None:
            raise self._illegal(
                "discard-required", "going out ends with a discard", "going_out.discard_required"
            )


def _go_out_cards(action: GoOut) -> list[Card]:
    """The cards a way out lays, adds and discards, in that order."""
    cards = [c for m in action.melds for c in m]
    cards += [c for _, more in action.extends for c in more]
    if action.discard is not None:
        cards.append(action.discard)
    return cards


def _picked_up(team: Sequence[Meld], pickup: Pickup) -> list[Meld]:
    """The side's melds after a pickup."""
    table = list(team)
    if pickup.onto is not None:
        table[pickup.onto] = pickup.meld
    else:
        table.append(pickup.meld)
    table.extend(pickup.also)
    return table
