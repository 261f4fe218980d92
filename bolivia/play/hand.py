"""A hand of play under any ruleset: the deal, the turn, every action verified and applied
through one path, and the end of the hand. The legal actions of a state and the search for a
way out are :mod:`bolivia.play.moves`, which reads this state and asks this verify path.

The state is kept for speed: each hand is a list of 53 counts (one per distinct card, by
:attr:`Card.index`), with its rank counts and a bitmask of ranks per suit kept alongside (runs
and their neighbours are bit operations) and the cards of each rank and the wild cards as
tuples, built when first asked for and dropped when the hand changes there; the stock and the
pile are lists of card indices and the pile's card classes are counted as cards come and go;
the melds on the table are the :class:`~bolivia.engine.melds.Meld` values of the rule modules.
:meth:`Hand.conserved` checks the derived figures against the counts too. Every rule question
goes to the rule modules (:mod:`bolivia.engine`: melds, pile, initial meld, going out,
scoring), the same code the oracle answers with.

>>> import random
>>> from bolivia.rules.library import shipped_library
>>> hand = Hand.deal(shipped_library().load("bolivia-da"), 4, random.Random(1))
>>> hand.phase, hand.current, sum(hand.sizes)
('draw', 0, 60)
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import compress
from typing import overload

from bolivia.cards import Card
from bolivia.engine.going_out import requirement_for, verify_go_out
from bolivia.engine.initial_meld import verify_initial_meld
from bolivia.engine.melds import Meld, could_join, verify_extend, verify_meld
from bolivia.engine.pile import Pickup, card_class, verify_pickup, verify_take_top
from bolivia.engine.scoring import TeamHand, TeamScore, score_hand
from bolivia.errors import BadRequest, Illegal
from bolivia.play.actions import (
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
from bolivia.play.moves import Moves
from bolivia.rules.ruleset import Ruleset

__all__ = ["Hand", "HandResult"]

CARDS = Card.all()
RANK_BITS = tuple(1 << r for r in range(13))  # a suit's bitmask: a bit per rank held
RED_THREES = frozenset(c.index for c in CARDS if c.is_red_three)
BLACK_THREES = frozenset(c.index for c in CARDS if c.is_black_three)


@dataclass(frozen=True)
class HandResult:
    """How a hand ended and what each side scored."""

    ended_by: str  # went_out | stock_exhausted
    went_out: int | None  # the player who went out
    concealed: bool
    scores: tuple[TeamScore, ...]


def _cards_of(counts: Sequence[int]) -> list[Card]:
    return [CARDS[i] for i, n in enumerate(counts) for _ in range(n)]


class _HandView(Sequence[Card]):
    """A hand kept as counts, seen as the sequence of its cards: its length and how many of a
    card it holds are read off the counts; the list itself is built only if it is read."""

    __slots__ = ("_cards", "_counts", "_size")

    def __init__(self, counts: Sequence[int], size: int) -> None:
        self._counts = counts
        self._size = size
        self._cards: list[Card] | None = None

    def _list(self) -> list[Card]:
        if self._cards is None:
            self._cards = _cards_of(self._counts)
        return self._cards

    def __len__(self) -> int:
        return self._size

    @overload
    def __getitem__(self, i: int) -> Card: ...

    @overload
    def __getitem__(self, i: slice) -> list[Card]: ...

    def __getitem__(self, i: int | slice) -> Card | list[Card]:
        return self._list()[i]

    def __iter__(self) -> Iterator[Card]:
        return iter(self._list())

    def count(self, value: object) -> int:
        return self._counts[value.index] if isinstance(value, Card) else 0


class Hand:
    """One hand: the deal, then actions until a player goes out or the stock runs dry."""

    def __init__(
        self,
        ruleset: Ruleset,
        players: int,
        deck: Sequence[int],
        first: int = 0,
        team_scores: Sequence[int] | None = None,
    ) -> None:
        rules = ruleset.rules
        seating = rules.players.seats.get(players)
        if seating is None:
            raise BadRequest(
                f"{ruleset.id} is played by "
                f"{', '.join(map(str, sorted(rules.players.seats)))} players, "
                f"not {players}"
            )
        if sorted(deck) != sorted(c.index for c in ruleset.pack.cards()):
            raise BadRequest("the deck is not the ruleset's pack")
        self.ruleset = ruleset
        self.rules = rules
        self.players = players
        self.teams = seating.teams
        self.draw_count = seating.draw
        self.team_of = [p % self.teams for p in range(players)]
        self.partnerships = self.teams < players
        self.team_scores = list(team_scores) if team_scores is not None else [0] * self.teams
        self.deck = tuple(deck)
        self.first = first
        self.keep = max(rules.going_out.keep_cards, 2)
        self.requirement = requirement_for(ruleset, players)
        self.stock: list[int] = list(deck)
        self.pile: list[int] = []
        self.hands: list[list[int]] = [[0] * 53 for _ in range(players)]
        self.sizes = [0] * players
        # kept with the counts, for the candidate searches: per player, how many cards of
        # each rank (twos ... aces) and, per suit, a bit per rank held
        self.rank_counts: list[list[int]] = [[0] * 13 for _ in range(players)]
        self.suit_masks: list[list[int]] = [[0] * 4 for _ in range(players)]
        # the cards of each rank (the joker as rank 13) and the wild cards, per player, as
        # tuples built when first asked for and dropped when the hand changes there
        self._rank_cards: list[list[tuple[Card, ...] | None]] = [
            [None] * 14 for _ in range(players)
        ]
        self._wild_cards: list[tuple[Card, ...] | None] = [None] * players
        self._wild = ruleset.wild
        self.melds: list[list[Meld]] = [[] for _ in range(self.teams)]
        self.red_threes = [0] * self.teams
        self.melded = [False] * players  # has the player melded this hand
        self.current = first
        self.phase = "draw"
        self.asked: bool | None = None  # the partner's answer this turn
        self.asker: int | None = None
        self.turns = 1
        self.steps = 0
        self.ended_by: str | None = None
        self.went_out: int | None = None
        self.concealed = False
        self.bonus_withheld = False
        self._checked: dict[Action, object] = {}  # what verify found, for this state only
        self._pile_classes: Counter[str | None] = Counter()  # classes of the pile's cards
        self.moves = Moves(self)  # the legal actions of each state, and the ways out
        self._deal(seating.hand_size)

    # ------------------------------------------------------------------ the deal

    @classmethod
    def deal(
        cls,
        ruleset: Ruleset,
        players: int,
        rng: random.Random,
        first: int = 0,
        team_scores: Sequence[int] | None = None,
    ) -> Hand:
        """A new hand from a shuffled pack."""
        deck = [card.index for card in ruleset.pack.cards()]
        rng.shuffle(deck)
        return cls(ruleset, players, deck, first, team_scores)

    def _deal(self, hand_size: int) -> None:
        for _ in range(hand_size):
            for offset in range(self.players):
                player = (self.first + offset) % self.players
                self._to_hand(player, self.stock.pop())
        covered = set(self.rules.deal.upcard_covered_if)
        self._pile_push(self.stock.pop())
        while self.stock and card_class(self.ruleset, CARDS[self.pile[-1]]) in covered:
            self._pile_push(self.stock.pop())
        for offset in range(self.players):
            self._lay_red_threes((self.first + offset) % self.players, replace=True)

    def _pile_push(self, index: int) -> None:
        self.pile.append(index)
        self._pile_classes[card_class(self.ruleset, CARDS[index])] += 1

    def _to_hand(self, player: int, index: int) -> None:
        self.hands[player][index] += 1
        self.sizes[player] += 1
        self._rank_cards[player][index >> 2] = None
        if self._wild[index]:
            self._wild_cards[player] = None
        if index < 52:
            self.rank_counts[player][index >> 2] += 1
            self.suit_masks[player][index & 3] |= 1 << (index >> 2)

    def _from_hand(self, player: int, index: int, n: int = 1) -> None:
        hand = self.hands[player]
        hand[index] -= n
        self.sizes[player] -= n
        self._rank_cards[player][index >> 2] = None
        if self._wild[index]:
            self._wild_cards[player] = None
        if index < 52:
            self.rank_counts[player][index >> 2] -= n
            if not hand[index]:
                self.suit_masks[player][index & 3] &= ~(1 << (index >> 2))

    def _lay_red_threes(self, player: int, *, replace: bool) -> None:
        """Lay out the player's red threes; replace them from the stock where the rules say."""
        hand = self.hands[player]
        while True:
            found = sum(hand[i] for i in RED_THREES)
            if not found:
                return
            for i in RED_THREES:
                if hand[i]:
                    self._from_hand(player, i, hand[i])
            self.red_threes[self.team_of[player]] += found
            if not (replace and self.rules.red_threes.replaced):
                return
            for _ in range(found):
                if self.stock:
                    self._to_hand(player, self.stock.pop())

    # ------------------------------------------------------------------ views

    @property
    def over(self) -> bool:
        return self.ended_by is not None

    @property
    def team(self) -> int:
        return self.team_of[self.current]

    def hand_cards(self, player: int | None = None) -> list[Card]:
        return _cards_of(self.hands[self.current if player is None else player])

    def pile_cards(self) -> list[Card]:
        return [CARDS[i] for i in self.pile]

    def partner(self, player: int) -> int:
        return (player + self.teams) % self.players

    def may_go_out_now(self) -> bool:
        """Whether the side's melds already meet the going-out requirement."""
        try:
            verify_go_out(self.ruleset, self.melds[self.team], self.players)
        except Illegal:
            return False
        return True

    def card_counts(self) -> list[int]:
        """How many of each card (by index) the hands, stock, pile and melds hold; red threes
        laid out are counted apart, by number, in :meth:`conserved`."""
        counts = list(map(sum, zip(*self.hands, strict=True)))
        elsewhere = Counter(self.stock)
        elsewhere.update(self.pile)
        elsewhere.update(card.index for team in self.melds for meld in team for card in meld.cards)
        for index, n in elsewhere.items():
            counts[index] += n
        return counts

    def conserved(self) -> bool:
        """Every card of the pack accounted for, none twice (red threes by number), and the
        figures kept alongside the hands (sizes, rank counts, suit masks, the cards of a rank
        and the wild cards where built) in step with them."""
        counts = self.card_counts()
        pack = self.ruleset.pack
        if counts[5] + counts[6] + sum(self.red_threes) != 2 * pack.decks:
            return False
        counts[5] = counts[6] = pack.decks  # red threes: checked by number above
        if counts != [pack.decks] * 52 + [pack.jokers]:
            return False
        if min(map(min, self.hands)) < 0:
            return False
        if self.sizes != [sum(hand) for hand in self.hands]:
            return False
        for p, hand in enumerate(self.hands):
            suits = [hand[s:52:4] for s in range(4)]  # each suit's counts, by rank
            if self.rank_counts[p] != list(map(sum, zip(*suits, strict=True))):
                return False
            if self.suit_masks[p] != [sum(compress(RANK_BITS, suit)) for suit in suits]:
                return False
            for r, kept in enumerate(self._rank_cards[p]):
                if kept is not None and [c.index for c in kept] != [
                    i for i in range(r * 4, min(r * 4 + 4, 53)) for _ in range(hand[i])
                ]:
                    return False
            kept = self._wild_cards[p]
            if kept is not None and sorted(c.index for c in kept) != [
                i for i in range(53) if self._wild[i] for _ in range(hand[i])
            ]:
                return False
        return True

    # ------------------------------------------------------------------ verifying

    def _illegal(self, code: str, message: str, rule: str = "") -> Illegal:
        where = f" ({self.ruleset.cite(rule)})" if rule else ""
        return Illegal(code, message + where, rule)

    def _take(self, cards: Sequence[Card]) -> None:
        """That the current player holds these cards (as a multiset)."""
        hand = self.hands[self.current]
        need: dict[int, int] = {}
        for card in cards:
            need[card.index] = need.get(card.index, 0) + 1
        for index, n in need.items():
            if hand[index] < n:
                raise Illegal(
                    "not-in-hand", f"player {self.current} does not hold {n} x {CARDS[index]!r}"
                )

    def _keep_after(self, remaining: int) -> None:
        if remaining < self.keep:
            raise self._illegal(
                "keep-cards",
                f"a player whose side may not go out keeps "
                f"{self.keep} cards after melding; this leaves "
                f"{remaining} (going out is its own action)",
                "going_out.keep_cards",
            )

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

    def _verify_new_melds(self, melds: Sequence[Sequence[Card]], *, going_out: bool) -> list[Meld]:
        laid = []
        for cards in melds:
            laid.append(verify_meld(self.ruleset, cards, going_out=going_out))
        self._check_duplicates(laid, self.melds[self.team])
        if not self.melds[self.team]:
            verify_initial_meld(self.ruleset, self.team_scores[self.team], melds)
        return laid

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
        draw_phase = isinstance(action, Draw | TakePile | TakeTop | Stop)
        if phase == "answer":
            if not isinstance(action, Answer):
                raise Illegal(
                    "wrong-phase", f"player {self.current} must answer the partner's question first"
                )
            return None
        if isinstance(action, Answer):
            raise Illegal("wrong-phase", "nobody has asked to go out")
        if phase == "draw" and not draw_phase:
            raise Illegal("wrong-phase", "a turn starts by drawing or taking the pile")
        if phase == "play" and draw_phase:
            raise Illegal("wrong-phase", "the player has drawn already this turn")
        try:
            return self._verify(action)
        except BadRequest as exc:
            raise Illegal("bad-action", str(exc)) from None

    def _verify(self, action: Action) -> object:
        ruleset = self.ruleset
        team = self.melds[self.team]
        size = self.sizes[self.current]
        if isinstance(action, Draw):
            if not self.stock:
                raise Illegal("stock-empty", "the stock is exhausted")
            return None
        if isinstance(action, TakePile):
            cards = [*(action.with_cards or ()), *(c for m in action.also for c in m)]
            self._take(cards)
            pickup = verify_pickup(
                ruleset,
                self.pile_cards(),
                _HandView(self.hands[self.current], size),
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
            rest = sum(1 for i in self.pile[:-1] if i not in RED_THREES)
            self._keep_after(size - len(cards) + rest)
            return pickup
        if isinstance(action, TakeTop):
            meld = verify_take_top(ruleset, self.pile_cards(), team, action.onto)
            self._keep_after(size)  # the top card is melded: the hand must still hold enough
            return meld
        if isinstance(action, Stop):
            exhausted = self.rules.stock.exhausted
            if self.stock or exhausted.rule != "take_discards":
                raise Illegal(
                    "stop-not-now", "a player may decline the pile only when the stock is exhausted"
                )
            if self._stock_out_obligation():
                raise self._illegal(
                    "must-take",
                    "the top card goes onto one of the side's melds: the player must take the pile",
                    "stock.exhausted",
                )
            return None
        if self.asked is True and not isinstance(action, GoOut):
            raise Illegal("must-go-out", "the partner said yes: the player must go out")
        if isinstance(action, Lay):
            if not action.melds:
                raise Illegal("no-meld", "lay at least one meld")
            cards = [c for m in action.melds for c in m]
            self._take(cards)
            laid = self._verify_new_melds(action.melds, going_out=False)
            self._keep_after(size - len(cards))
            return laid
        if isinstance(action, Extend):
            if not 0 <= action.target < len(team):
                raise Illegal("no-such-meld", f"the side has no meld {action.target}")
            self._take(action.cards)
            meld = verify_extend(ruleset, team[action.target], action.cards)
            self._keep_after(size - len(action.cards))
            return meld
        if isinstance(action, Discard):
            self._take([action.card])
            if size < 2:
                raise Illegal("discard-last", "discarding the last card is going out: use go_out")
            return None
        if isinstance(action, GoOut):
            return self.verify_way_out(action)
        if isinstance(action, Ask):
            rule = self.rules.going_out.ask_partner
            if rule == "never" or not self.partnerships:
                raise self._illegal(
                    "no-asking", "there is no asking the partner here", "going_out.ask_partner"
                )
            if self.asked is not None:
                raise Illegal("asked", "the player has asked already this turn")
            if not self.go_out_lines(limit=1):
                raise Illegal(
                    "cannot-go-out", "the player has no way to go out now, so nothing to ask"
                )
            return None
        raise Illegal("bad-action", f"{action!r} is not an action")  # pragma: no cover

    def must_ask(self) -> bool:
        """Whether the player must ask the partner before going out, and has not yet."""
        return (
            self.rules.going_out.ask_partner == "required"
            and self.partnerships
            and self.asked is None
        )

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
        if Counter(c.index for c in cards) != Counter(
            {i: n for i, n in enumerate(self.hands[self.current]) if n}
        ):
            raise Illegal(
                "go-out-cards",
                "going out lays, adds or discards every card of the hand, and only those",
            )
        if rules.going_out.discard_required and action.discard is None:
            raise self._illegal(
                "discard-required", "going out ends with a discard", "going_out.discard_required"
            )
        laid = self._verify_new_melds(action.melds, going_out=True)
        after = [*self.melds[self.team], *laid]
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
        outcome = self._checked[action] if action in self._checked else self.verify(action)
        self._checked = {}
        self.moves.memo = {}
        self.steps += 1
        player = self.current
        team = self.team_of[player]

        def remove(cards: Sequence[Card]) -> None:
            for card in cards:
                self._from_hand(player, card.index)

        if isinstance(action, Draw):
            count = self.draw_count
            if len(self.stock) < count and self.rules.stock.short_draw == "end_hand":
                self.ended_by = "stock_exhausted"
                return
            for _ in range(min(count, len(self.stock))):
                self._to_hand(player, self.stock.pop())
            self._lay_red_threes(player, replace=True)
            self.phase = "play"
            if self.sizes[player] < 2 and not self.stock and not self.go_out_lines(limit=1):
                # the last cards of the stock were red threes: the player can neither keep a
                # card and discard nor go out, and the stock is exhausted
                self.ended_by = "stock_exhausted"
        elif isinstance(action, TakePile):
            assert isinstance(outcome, Pickup)
            remove([*(action.with_cards or ()), *(c for m in action.also for c in m)])
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
            self._lay_red_threes(player, replace=self.rules.red_threes.replaced_from_pile)
            self.melded[player] = True
            self.phase = "play"
        elif isinstance(action, TakeTop):
            assert isinstance(outcome, Meld)
            self._pile_classes[card_class(self.ruleset, CARDS[self.pile.pop()])] -= 1
            self.melds[team][action.onto] = outcome
            self.melded[player] = True
            self.phase = "play"
        elif isinstance(action, Stop):
            self.ended_by = "stock_exhausted"
        elif isinstance(action, Lay):
            assert isinstance(outcome, list)
            remove([c for m in action.melds for c in m])
            self.melds[team].extend(outcome)
            self.melded[player] = True
        elif isinstance(action, Extend):
            assert isinstance(outcome, Meld)
            remove(action.cards)
            self.melds[team][action.target] = outcome
            self.melded[player] = True
        elif isinstance(action, Discard):
            remove([action.card])
            self._pile_push(action.card.index)
            self._next_turn()
        elif isinstance(action, GoOut):
            assert isinstance(outcome, list)
            when = self.rules.going_out.concealed_when
            side_melded = bool(self.melds[team])
            self.concealed = not (side_melded if when == "side_not_melded" else self.melded[player])
            remove(
                [
                    *(c for m in action.melds for c in m),
                    *(c for _, more in action.extends for c in more),
                    *([action.discard] if action.discard is not None else []),
                ]
            )
            self.melds[team] = outcome
            if action.discard is not None:
                self._pile_push(action.discard.index)
            self.melded[player] = True
            self.went_out = player
            self.bonus_withheld = (
                not self.stock and not self.rules.stock.going_out_bonus_when_exhausted
            )
            self.ended_by = "went_out"
        elif isinstance(action, Ask):
            self.asker = player
            self.current = self.partner(player)
            self.phase = "answer"
        elif isinstance(action, Answer):
            assert self.asker is not None
            self.asked = action.yes
            self.current = self.asker
            self.phase = "play"

    def _next_turn(self) -> None:
        self.current = (self.current + 1) % self.players
        self.phase = "draw"
        self.asked = None
        self.asker = None
        self.turns += 1
        if self.stock:
            return
        # the stock is exhausted: the hand ends, or goes on while players take the pile
        if self.rules.stock.exhausted.rule == "end_hand" or not (
            self.pile and any(self.can(a) for a in self.moves.pile_candidates())
        ):
            self.ended_by = "stock_exhausted"

    # ------------------------------------------------------------------ results

    def positions(self) -> list[TeamHand]:
        """Each side's position now: melds, red threes, the cards in its players' hands, and
        whether it went out (and earns the bonus: not after the stock ran dry, where the rules
        withhold it)."""
        teams = []
        for t in range(self.teams):
            went_out = self.went_out is not None and self.team_of[self.went_out] == t
            bonus = went_out and not self.bonus_withheld
            teams.append(
                TeamHand(
                    melds=tuple(self.melds[t]),
                    red_threes=self.red_threes[t],
                    hands=tuple(
                        tuple(_cards_of(self.hands[p]))
                        for p in range(self.players)
                        if self.team_of[p] == t
                    ),
                    went_out=bonus,
                    concealed=bonus and self.concealed,
                )
            )
        return teams

    def score_request(self) -> dict[str, object]:
        """The sides' positions as the oracle's ``score`` request (without ``ruleset``)."""
        return {
            "teams": [
                {
                    "melds": [[repr(c) for c in meld.cards] for meld in team.melds],
                    "red_threes": team.red_threes,
                    "hands": [[repr(c) for c in hand] for hand in team.hands],
                    "went_out": team.went_out,
                    "concealed": team.concealed,
                }
                for team in self.positions()
            ]
        }

    def result(self) -> HandResult:
        """The hand's scores, through the same scoring code as the oracle's ``score``."""
        if self.ended_by is None:
            raise Illegal("hand-not-over", "the hand is not over")
        return HandResult(
            self.ended_by,
            self.went_out,
            self.concealed,
            tuple(score_hand(self.ruleset, self.positions())),
        )

    # ------------------------------------------------------------------ moves

    def legal_actions(self) -> list[Action]:
        """The actions the current player may take (:meth:`Moves.legal
        <bolivia.play.moves.Moves.legal>`). Never empty while the hand goes on."""
        return self.moves.legal()

    def go_out_lines(self, limit: int = 1) -> list[GoOut]:
        """Up to ``limit`` ways for the current player to go out now (searched, not all)."""
        return self.moves.go_out_lines(limit)

    def wild_cards(self) -> tuple[Card, ...]:
        """The player's wild cards, the cheaper first (twos before jokers)."""
        found = self._wild_cards[self.current]
        if found is None:
            hand = self.hands[self.current]
            found = tuple(CARDS[i] for i in self.ruleset.wild_indices for _ in range(hand[i]))
            self._wild_cards[self.current] = found
        return found

    def naturals(self, rank_index: int) -> tuple[Card, ...]:
        """The player's cards of a rank (0 for twos ... 12 for aces)."""
        row = self._rank_cards[self.current]
        found = row[rank_index]
        if found is None:
            hand = self.hands[self.current]
            r = rank_index * 4
            found = row[rank_index] = tuple(
                CARDS[i] for i in range(r, r + 4) for _ in range(hand[i])
            )
        return found

    def pile_kinds(self) -> list[str | None]:
        """The card classes (wild, red_three, black_three, None) present in the pile."""
        return [kind for kind, n in self._pile_classes.items() if n > 0]
