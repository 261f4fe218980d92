"""A hand of play under any ruleset: the deal, the turn, every action verified and applied
through one path, the legal actions of any state, and the end of the hand.

The state is kept for speed: each hand is a list of 53 counts (one per distinct card, by
:attr:`Card.index`), with its rank counts and a bitmask of ranks per suit kept alongside (runs
and their neighbours are bit operations) and the cards of each rank and the wild cards as
tuples, built when first asked for and dropped when the hand changes there; the runs a suit's
ranks make are looked up in a table shared by the hands of a ruleset; the stock and the pile
are lists of card indices and
the pile's card classes are counted as cards come and go; the melds on the table are the
:class:`~bolivia.melds.Meld` values of the rule modules. :meth:`Hand.conserved` checks the
derived figures against the counts too. Every rule question goes to
the rule modules (:mod:`melds`, :mod:`pile`, :mod:`initial_meld`, :mod:`going_out`,
:mod:`scoring`), the same code the oracle answers with.

>>> import random
>>> from bolivia.ruleset import shipped_library
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
from bolivia.cards import RANKS, SUITS, Card
from bolivia.errors import BadRequest, Illegal
from bolivia.going_out import requirement_for, verify_go_out
from bolivia.initial_meld import counted_points, minimum, verify_initial_meld
from bolivia.melds import (
    Meld,
    canasta_of,
    could_join,
    group_table,
    sequence_fault,
    verify_extend,
    verify_meld,
    wild_fault,
)
from bolivia.pile import Pickup, card_class, frozen_when, verify_pickup, verify_take_top
from bolivia.ruleset import Ruleset
from bolivia.scoring import TeamHand, TeamScore, score_hand

__all__ = ["Hand", "HandResult"]

CARDS = Card.all()
DRAW, STOP, ASK = Draw(), Stop(), Ask()
YES, NO = Answer(True), Answer(False)
DISCARDS = tuple(Discard(card) for card in CARDS)
RANK_INDEX = {rank: i for i, rank in enumerate(RANKS)}
RANK_BITS = tuple(1 << r for r in range(13))  # a suit's bitmask: a bit per rank held
RED_THREES = frozenset(c.index for c in CARDS if c.is_red_three)
BLACK_THREES = frozenset(c.index for c in CARDS if c.is_black_three)
# a meld that is not yet a canasta: kind, size, wild cards, rank index (a group), suit index
# and the ranks just below and above it (a sequence)
_OpenMeld = tuple[str, int, int, int, int, int, int]
GO_OUT_BUDGET = 400  # meld checks one search for a way out may spend


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
        self._requirement = requirement_for(ruleset, players)
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
        # the runs of one suit the ranks held make, by ranks and suit: shared by the hands
        # of a ruleset (at most 4 x 2**13 entries)
        self._runs_known: dict[int, tuple[tuple[Card, ...], ...]] = ruleset.__dict__.setdefault(
            "_runs_by_suit", {}
        )
        low, high = ruleset.sequence_span
        self._run_span = ((1 << (high + 1)) - 1) & ~((1 << low) - 1)
        # for the group candidates: the ranks a group may be of (not threes, not wild), and
        # the fewest naturals of a group with at most 0, 1, 2, 3 wild cards
        self._group_ranks = tuple(r for r in range(13) if r != 1 and not ruleset.wild[r * 4])
        allowed = group_table(ruleset)
        self._group_least = tuple(
            min(
                (n for n in range(len(allowed)) if any(allowed[n][: most + 1])),
                default=None,
            )
            for most in range(4)
        )
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
        self._outs: tuple[tuple[int, int], list[GoOut]] = ((-1, 0), [])
        self._memo: dict[str, object] = {}  # candidate lists of this state
        # each side's melds, summed up for the going-out bound
        self._sides: dict[int, tuple[tuple[Meld, ...], Counter[str], list[_OpenMeld]]] = {}
        self._pile_classes: Counter[str | None] = Counter()  # classes of the pile's cards
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
            could_join(self.ruleset, meld, top) and self._can(TakePile(onto=i))
            for i, meld in enumerate(self.melds[self.team])
        )

    def _can(self, action: Action) -> bool:
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
                classes=self._pile_kinds(),
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
            return self._verify_go_out(action)
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

    def _must_ask(self) -> bool:
        return (
            self.rules.going_out.ask_partner == "required"
            and self.partnerships
            and self.asked is None
        )

    def _verify_go_out(self, action: GoOut, *, asking: bool = True) -> list[Meld]:
        """The side's melds after going out this way. ``asking=False`` leaves out the question
        to the partner (to find the ways out a player may ask about)."""
        rules = self.rules
        if self.asked is False:
            raise self._illegal(
                "partner-said-no",
                "the partner said no: no going out this turn",
                "going_out.ask_partner",
            )
        if asking and self._must_ask():
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
        self._memo = {}
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
            self.pile and any(self._can(a) for a in self._pile_candidates())
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

    # ------------------------------------------------------------------ legal actions

    def legal_actions(self) -> list[Action]:
        """The actions the current player may take. Never empty while the hand goes on.

        Candidates are built from the hand with the rule modules' own limit checks (so each
        rule is written once); the moves whose legality is more than a count -- taking the
        pile, going out -- are verified in full. :meth:`apply` verifies whatever it is given.
        """
        if self.ended_by is not None:
            return []
        if self.phase == "answer":
            return [YES, NO]
        if self.phase == "draw":
            return self._draw_actions()
        if self.asked is True:
            return list(self.go_out_lines(limit=3))
        return self._play_actions()

    def _wilds_in_hand(self) -> tuple[Card, ...]:
        """The player's wild cards, the cheaper first (twos before jokers)."""
        found = self._wild_cards[self.current]
        if found is None:
            hand = self.hands[self.current]
            found = tuple(CARDS[i] for i in self.ruleset.wild_indices for _ in range(hand[i]))
            self._wild_cards[self.current] = found
        return found

    def _rank_counts(self) -> list[int]:
        """How many natural-or-wild cards of each rank (0 for twos ... 12 for aces) the player
        holds (kept as the hand changes: read, never written)."""
        return self.rank_counts[self.current]

    def _naturals(self, rank_index: int) -> tuple[Card, ...]:
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

    def _draw_actions(self) -> list[Action]:
        out: list[Action] = []
        if self.stock:
            out.append(DRAW)
        if self.pile:
            out.extend(action for action in self._pile_candidates() if self._can(action))
            take_top = self.rules.pile.take_top
            if take_top.allowed:
                for i, meld in enumerate(self.melds[self.team]):
                    if meld.kind in take_top.onto_kinds and self._can(TakeTop(i)):
                        out.append(TakeTop(i))
        if not self.stock and self._can(STOP):
            out.append(STOP)
        return out

    def _pile_kinds(self) -> list[str | None]:
        """The card classes (wild, red_three, black_three, None) present in the pile."""
        return [kind for kind, n in self._pile_classes.items() if n > 0]

    def _pile_candidates(self) -> Iterator[TakePile]:
        ruleset = self.ruleset
        top = CARDS[self.pile[-1]]
        if card_class(ruleset, top) in self.rules.pile.blocked_by_top:
            return
        team = self.melds[self.team]
        frozen = frozen_when(ruleset, self._pile_kinds(), team_has_melded=bool(team))
        ways = self.rules.pile.take_frozen if frozen else self.rules.pile.take_unfrozen
        hand = self.hands[self.current]
        base = (top.index >> 2) * 4
        matching = hand[base] + hand[base + 1] + hand[base + 2] + hand[base + 3]
        least = 2 if "natural_and_wild" not in ways else 1
        if (
            not ruleset.wild[top.index]
            and matching >= least
            and ("natural_pair" in ways or "natural_and_wild" in ways)
        ):
            naturals = self._naturals(top.index >> 2)
            wilds = self._wilds_in_hand()
            # the group the cards make with the top card must meet the group limits: a new
            # group, or the side's group of that rank grown (where there is one per rank)
            rules = self.rules
            joins = None
            if not (rules.melds.group.duplicate_ranks or rules.pile.pair_starts_new_meld):
                joins = next((m for m in team if m.kind == "group" and m.rank == top.rank), None)
            allowed = group_table(ruleset)
            grown = group_table(ruleset, new=False)
            also_options: list[tuple[tuple[Card, ...], ...]] | None = None
            for n in range(least, len(naturals) + 1):
                for w in range(min(len(wilds), 3) + 1):
                    if n == 1 and w == 0:
                        continue
                    if joins is None:
                        if n + 1 >= len(allowed) or not allowed[n + 1][w]:
                            continue
                    elif not grown[joins.naturals + n + 1][joins.wilds + w]:
                        continue
                    if also_options is None:
                        also_options = [()]
                        if not team:
                            also_options.append(self._best_melds(exclude=top.rank))
                    for also in also_options:
                        yield TakePile(naturals[:n] + wilds[:w], None, also)
        if "onto_meld" in ways:
            kinds = self.rules.pile.onto_kinds
            for i, meld in enumerate(team):
                if meld.kind in kinds and could_join(ruleset, meld, top):
                    yield TakePile(None, i)

    def _group_candidates(self, exclude: str | None = None) -> Iterator[tuple[Card, ...]]:
        """Groups the hand can lay, by the group limits (all the naturals of a rank, with
        0 to 3 of the cheapest wild cards)."""
        for rank, cards in self._group_list():
            if rank != exclude:
                yield cards

    def _group_list(self) -> list[tuple[str, tuple[Card, ...]]]:
        """Each group the hand can lay, with its rank; kept for the current state."""
        found = self._memo.get("groups")
        if found is None:
            found = self._memo["groups"] = list(self._groups())
        return found  # type: ignore[return-value]

    def _groups(self) -> Iterator[tuple[str, tuple[Card, ...]]]:
        allowed = group_table(self.ruleset)
        counts = self._rank_counts()
        wilds = self._wilds_in_hand()
        most = min(len(wilds), 3)
        least = self._group_least[most]
        if least is None:
            return
        limit = len(allowed)
        for r in [r for r in self._group_ranks if least <= counts[r] < limit]:
            row = allowed[counts[r]]
            naturals = self._naturals(r)
            rank = RANKS[r]
            for w in range(most + 1):
                if row[w]:
                    yield rank, naturals + wilds[:w]

    def _sequence_candidates(self) -> list[tuple[Card, ...]]:
        """The runs of one suit the hand can lay (the longest, cut to the size limit)."""
        found = self._memo.get("runs")
        if found is None:
            found = self._memo["runs"] = list(self._runs())
        return found  # type: ignore[return-value]

    def _runs(self) -> Iterator[tuple[Card, ...]]:
        if not self.rules.melds.sequence.allowed:
            return
        known = self._runs_known
        span = self._run_span
        for s, mask in enumerate(self.suit_masks[self.current]):
            key = (mask & span) << 2 | s
            found = known.get(key)
            if found is None:
                found = known[key] = tuple(self._suit_runs(s, mask & span))
            yield from found

    def _suit_runs(self, s: int, mask: int) -> Iterator[tuple[Card, ...]]:
        """The runs of suit ``s`` that the ranks in ``mask`` make."""
        rule = self.rules.melds.sequence
        low, high = self.ruleset.sequence_span
        longest = rule.max_size or (high - low + 1)
        least = rule.min_size
        while mask.bit_count() >= least:
            start = (mask & -mask).bit_length() - 1  # the lowest rank held
            length = (~(mask >> start) & ((mask >> start) + 1)).bit_length() - 1
            mask &= ~(((1 << length) - 1) << start)  # the run of ranks from there
            if length < least:
                continue
            for first in range(start, start + max(1, length - longest + 1)):
                ranks = list(range(first, first + min(length, longest)))
                if sequence_fault(self.ruleset, ranks, 0, new=True) is None:
                    yield tuple(CARDS[x * 4 + s] for x in ranks)

    def _wild_candidates(self) -> Iterator[tuple[Card, ...]]:
        rule = self.rules.melds.wild
        if not rule.allowed:
            return
        wilds = self._wilds_in_hand()
        for n in sorted({rule.min_size, min(len(wilds), rule.max_size or len(wilds))}):
            if n <= len(wilds) and wild_fault(rule, n, new=True) is None:
                yield tuple(wilds[:n])

    def _best_melds(self, exclude: str | None = None) -> tuple[tuple[Card, ...], ...]:
        """A set of disjoint legal melds from the hand, richest first (for a first meld)."""
        points = self.ruleset.points
        available = list(self.hands[self.current])
        chosen: list[tuple[Card, ...]] = []
        candidates = sorted(
            [*self._group_candidates(exclude), *self._sequence_candidates()],
            key=lambda m: -sum(points[c.index] for c in m),
        )
        ranks: set[str] = set()
        wild = self.ruleset.wild
        for cards in candidates:
            group = (
                len({c.rank for c in cards if not wild[c.index]}) == 1
                and cards[0].rank == cards[1].rank
            )
            if group and cards[0].rank in ranks:
                continue
            need = Counter(c.index for c in cards)
            if any(available[i] < n for i, n in need.items()):
                continue
            for i, n in need.items():
                available[i] -= n
            if group:
                ranks.add(cards[0].rank)
            chosen.append(cards)
        return tuple(chosen)

    def _meld_of(self, kind: str, cards: tuple[Card, ...]) -> Meld:
        """A candidate's meld, built from what the generator knows (it met the limits)."""
        wild = self.ruleset.wild
        wilds = sum(1 for c in cards if wild[c.index])
        if kind == "group":
            return Meld("group", cards, len(cards) - wilds, wilds, rank=cards[0].rank)
        if kind == "sequence":
            return Meld("sequence", cards, len(cards) - wilds, wilds, suit=cards[0].suit)
        return Meld("wild", cards, 0, len(cards))

    def _counts_enough(self, kind: str, cards: tuple[Card, ...], needed: int) -> bool:
        """Whether a candidate meld alone counts the points a first meld needs."""
        return counted_points(self.ruleset, [self._meld_of(kind, cards)]) >= needed

    def _lay_candidates(self) -> Iterator[Lay]:
        """Single new melds that the keep-cards, duplicate-rank and first-meld rules allow."""
        team = self.melds[self.team]
        size = self.sizes[self.current]
        no_duplicates = not self.rules.melds.group.duplicate_ranks
        held = {m.rank for m in team if m.kind == "group"} if no_duplicates else set()
        needed = None if team else minimum(self.ruleset, self.team_scores[self.team])
        keep = self.keep
        for rank, cards in self._group_list():
            if (
                size - len(cards) >= keep
                and rank not in held
                and (needed is None or self._counts_enough("group", cards, needed))
            ):
                yield Lay((cards,))
        for kind, found in (
            ("sequence", self._sequence_candidates()),
            ("wild", self._wild_candidates()),
        ):
            for cards in found:
                if size - len(cards) >= keep and (
                    needed is None or self._counts_enough(kind, cards, needed)
                ):
                    yield Lay((cards,))
        if not team:
            best = self._best_melds()
            if (
                len(best) > 1
                and size - sum(map(len, best)) >= self.keep
                and counted_points(self.ruleset, [verify_meld(self.ruleset, m) for m in best])
                >= (needed or 0)
            ):
                yield Lay(best)

    def _extend_candidates(self) -> Iterator[Extend]:
        ruleset = self.ruleset
        rules = self.rules
        room = self.sizes[self.current] - self.keep
        if room < 1:
            return
        wilds = self._wilds_in_hand()
        choices = [wilds[0], wilds[-1]] if wilds else []
        if len(choices) == 2 and choices[0] == choices[1]:
            choices.pop()
        counts = self._rank_counts()
        grown = group_table(ruleset, new=False)
        wild_onto_canasta = rules.melds.group.wild_onto_canasta
        for i, meld in enumerate(self.melds[self.team]):
            if meld.kind == "group" and meld.rank is not None:
                r = RANK_INDEX[meld.rank]
                n = min(counts[r], room)  # the rank of a group is not wild
                if n and grown[meld.naturals + n][meld.wilds]:
                    yield Extend(i, tuple(self._naturals(r)[:n]))
                if (
                    choices
                    and grown[meld.naturals][meld.wilds + 1]
                    and (wild_onto_canasta or canasta_of(ruleset, meld) is None)
                ):
                    yield from (Extend(i, (card,)) for card in choices)
            elif meld.kind == "sequence":
                yield from (Extend(i, (card,)) for card in self._sequence_ends(meld))
            elif (
                meld.kind == "wild"
                and choices
                and wild_fault(rules.melds.wild, meld.size + 1, new=False) is None
            ):
                yield from (Extend(i, (card,)) for card in choices)

    def _play_actions(self) -> list[Action]:
        out: list[Action] = [*self._lay_candidates(), *self._extend_candidates()]
        if self.sizes[self.current] >= 2:
            out.extend(compress(DISCARDS, self.hands[self.current]))
        lines = self.go_out_lines(limit=2)
        if not self._must_ask():
            out.extend(lines)
        if (
            lines
            and self.rules.going_out.ask_partner != "never"
            and self.partnerships
            and self.asked is None
        ):
            out.append(ASK)
        return out

    def _sequence_ends(self, meld: Meld) -> list[Card]:
        hand = self.hands[self.current]
        ranks = sorted(c.index >> 2 for c in meld.cards if not self.ruleset.wild[c.index])
        s = SUITS.index(meld.suit or "C")
        out = []
        for r in (ranks[0] - 1, ranks[-1] + 1):
            if (
                0 <= r < 13
                and hand[r * 4 + s]
                and sequence_fault(self.ruleset, [*ranks, r], meld.wilds, new=False) is None
            ):
                out.append(CARDS[r * 4 + s])
        return out

    # ------------------------------------------------------------------ going out

    def _side_melds(self) -> tuple[Counter[str], list[_OpenMeld]]:
        """The side's canastas by kind, and its melds not yet canastas as (kind, size, wild
        cards, rank index, suit index, the rank below and above a sequence); kept while the
        side's melds stay the same."""
        melds = tuple(self.melds[self.team])
        cached = self._sides.get(self.team)
        if cached is not None and cached[0] == melds:
            return cached[1], cached[2]
        ruleset = self.ruleset
        made: Counter[str] = Counter()
        open_melds: list[_OpenMeld] = []
        for meld in melds:
            kind = canasta_of(ruleset, meld)
            if kind is not None:
                made[kind] += 1
                continue
            r = s = below = above = 0
            if meld.kind == "group" and meld.rank is not None:
                r = RANK_INDEX[meld.rank]
            elif meld.kind == "sequence" and meld.suit is not None:
                s = SUITS.index(meld.suit)
                ranks = [c.index >> 2 for c in meld.cards if not ruleset.wild[c.index]]
                below, above = min(ranks) - 1, max(ranks) + 1
            elif meld.kind != "wild":
                continue
            open_melds.append((meld.kind, meld.size, meld.wilds, r, s, below, above))
        self._sides[self.team] = (melds, made, open_melds)
        return made, open_melds

    def _could_go_out(self) -> bool:
        """A quick upper bound: could the side's melds, with every card of this hand put to
        use, meet the going-out requirement? (Saves searching for a way out when not.)"""
        req = self._requirement
        ruleset = self.ruleset
        made, open_melds = self._side_melds()
        potential = Counter(made)
        if sum(potential.values()) >= req.count and all(
            potential[kind] >= n for kind, n in req.including.items()
        ):
            return True
        canastas = self.rules.canastas
        hand = self.hands[self.current]
        counts = self._rank_counts()
        wilds = len(self._wilds_in_hand())
        low, high = ruleset.sequence_span
        max_wild = self.rules.melds.group.max_wild
        group_canasta = min(canastas.natural.size, canastas.mixed.size)
        for kind, size, meld_wilds, r, s, below, above in open_melds:
            if kind == "group":
                room = max_wild - meld_wilds if max_wild is not None else wilds
                if size + counts[r] + min(wilds, max(room, 0)) >= group_canasta:
                    potential["mixed"] += 1
            elif kind == "sequence":
                addable = 0
                while below >= low and hand[below * 4 + s]:
                    addable, below = addable + 1, below - 1
                while above <= high and hand[above * 4 + s]:
                    addable, above = addable + 1, above + 1
                extra = min(wilds, self.rules.melds.sequence.max_wild)
                if size + addable + extra >= canastas.escalera.size:
                    potential["escalera"] += 1
            elif kind == "wild" and size + wilds >= canastas.bolivia.size:
                potential["bolivia"] += 1
        wild = ruleset.wild
        mixed = canastas.mixed.size - wilds
        for r in range(13):
            if counts[r] >= mixed and r != 1 and not wild[r * 4]:
                potential["mixed"] += 1
        if self.rules.melds.sequence.allowed:
            span = ((1 << (high + 1)) - 1) & ~((1 << low) - 1)
            for mask in self.suit_masks[self.current]:
                mask &= span
                best = 0  # the longest run of ranks held
                while mask:
                    mask &= mask >> 1
                    best += 1
                if best + self.rules.melds.sequence.max_wild >= canastas.escalera.size:
                    potential["escalera"] += 1
        if self.rules.melds.wild.allowed and wilds >= canastas.bolivia.size:
            potential["bolivia"] += 1
        if sum(potential.values()) < req.count:
            return False
        return all(potential[kind] >= n for kind, n in req.including.items())

    def go_out_lines(self, limit: int = 1) -> list[GoOut]:
        """Up to ``limit`` ways for the current player to go out now (searched, not all)."""
        if self.phase != "play" or self.asked is False or self.sizes[self.current] > 12:
            return []
        key = (self.steps, limit)
        if self._outs[0] == key:
            return self._outs[1]
        stranded = self._stranded()
        lines = []
        if stranded is not None and self._could_go_out():
            lines = self._go_out_lines(limit, stranded)
        self._outs = (key, lines)
        return lines

    def _stranded(self) -> list[int] | None:
        """The cards of the hand (by index) that have nowhere to go -- no meld of the side to
        join, no partner card to meld with -- or None if there are more than one. Going out
        needs at most one (it is then the discard). Every test is generous: a card listed can
        surely not be melded, so a hand that can go out is never refused here."""
        wild = self.ruleset.wild
        hand = self.hands[self.current]
        counts = self._rank_counts()
        masks = self.suit_masks[self.current]
        team = self.melds[self.team]
        group_ranks = {m.rank for m in team if m.kind in ("group", "threes")}
        run_suits = {SUITS.index(m.suit) for m in team if m.kind == "sequence" and m.suit}
        min_natural = self.rules.melds.group.min_natural
        wilds = len(self._wilds_in_hand())
        sequences = self.rules.melds.sequence.allowed
        threes = self.rules.melds.black_threes
        stranded: list[int] = []
        for r in range(13):
            same = counts[r]
            if not same or wild[r * 4]:  # wild cards go anywhere
                continue
            if r == 1:  # black threes: only as a meld of their own
                black = hand[4] + hand[7]
                if threes.when == "never" or black + min(wilds, threes.max_wild) < threes.min_size:
                    stranded += [4] * hand[4] + [7] * hand[7]
            elif RANKS[r] in group_ranks or same >= min_natural or (wilds and min_natural <= 1):
                continue
            elif not sequences:
                stranded += [i for i in range(r * 4, r * 4 + 4) for _ in range(hand[i])]
            else:
                for s in range(4):
                    # a card of a run already laid, or with a card of its suit one or two
                    # ranks away (bits r-2, r-1, r+1, r+2 of the suit's mask)
                    if hand[r * 4 + s] and not (s in run_suits or ((masks[s] << 2) >> r) & 0b11011):
                        stranded += [r * 4 + s] * hand[r * 4 + s]
            if len(stranded) > 1:
                return None
        return stranded

    def _go_out_lines(self, limit: int, stranded: Sequence[int] = ()) -> list[GoOut]:
        """Ways out, searched discard by discard (a stranded card is the only discard there
        can be)."""
        hand = self.hand_cards()
        found: list[GoOut] = []
        budget = [GO_OUT_BUDGET]
        discards: list[Card | None]
        if stranded:
            discards = [CARDS[stranded[0]]]
        else:
            discards = [CARDS[i] for i, n in enumerate(self.hands[self.current]) if n]
            if not self.rules.going_out.discard_required:
                discards = [None, *discards]
        for discard in discards:
            rest = list(hand)
            if discard is not None:
                rest.remove(discard)
            self._search_out(
                rest, [], [], list(self.melds[self.team]), discard, found, limit, budget
            )
            if len(found) >= limit or budget[0] <= 0:
                break
        return found

    def _search_out(
        self,
        rest: list[Card],
        melds: list[tuple[Card, ...]],
        extends: list[tuple[int, tuple[Card, ...]]],
        table: list[Meld],
        discard: Card | None,
        found: list[GoOut],
        limit: int,
        budget: list[int],
    ) -> None:
        if len(found) >= limit or budget[0] <= 0:
            return
        if not rest:
            action = GoOut(tuple(melds), tuple(extends), discard)
            try:
                self._verify_go_out(action, asking=False)
            except (Illegal, BadRequest):
                return
            found.append(action)
            return
        card = rest[0]
        # the card onto a meld on the table (or laid in this move) that could take it
        for i, meld in enumerate(table):
            if not could_join(self.ruleset, meld, card):
                continue
            budget[0] -= 1
            try:
                grown = verify_extend(self.ruleset, meld, [card], going_out=True)
            except Illegal:
                continue
            self._search_out(
                rest[1:],
                melds,
                [*extends, (i, (card,))],
                [*table[:i], grown, *table[i + 1 :]],
                discard,
                found,
                limit,
                budget,
            )
            if len(found) >= limit:
                return
        # a new meld holding the card
        for cards in self._melds_with(card, rest):
            budget[0] -= 1
            try:
                new = verify_meld(self.ruleset, cards, going_out=True)
            except Illegal:
                continue
            left = list(rest)
            for c in cards:
                left.remove(c)
            self._search_out(
                left, [*melds, cards], extends, [*table, new], discard, found, limit, budget
            )
            if len(found) >= limit:
                return

    def _melds_with(self, card: Card, cards: list[Card]) -> Iterator[tuple[Card, ...]]:
        wild = self.ruleset.wild
        wilds = [c for c in cards if wild[c.index]]
        if wild[card.index]:
            yield tuple(wilds)
            return
        same = [c for c in cards if c.rank == card.rank and not wild[c.index]]
        for w in range(len(wilds) + 1):
            yield tuple(same + wilds[:w])
        if card.rank != "3":
            present = {
                RANKS.index(c.rank) for c in cards if c.suit == card.suit and not wild[c.index]
            }
            low = high = RANKS.index(card.rank)
            while low - 1 in present:
                low -= 1
            while high + 1 in present:
                high += 1
            if high > low:
                yield tuple(Card(RANKS[r], card.suit) for r in range(low, high + 1))
