"""The state of a hand: its cards, its turn, its end and its scores.

The state covers the cards (each hand as counts per card), the stock and the pile, the melds on
the table, the turn, and the hand's end with its scores; the deal; and the one place cards move
(:meth:`HandState._to_hand`, :meth:`HandState._from_hand`, :meth:`HandState._pile_push`).

It is kept for speed. Each hand is a list of 53 counts (one per distinct card, by
:attr:`Card.index`). Its rank counts and a bitmask of ranks per suit are kept alongside: runs
and their neighbours are bit operations. The cards of each rank and the wild cards are tuples,
built when first asked for and dropped when the hand changes there. The stock and the pile are
lists of card indices, and the pile's card classes are counted as cards come and go. The melds
on the table are the :class:`~bolivia.engine.melds.Meld` values of the rule modules.
:meth:`HandState.conserved` checks the derived figures against the counts.

What may be done with the state is the one verify/apply path of
:class:`bolivia.play.table.hand.Hand`. The questions the move lists ask of that path are
declared here (:meth:`HandState.can`, ...), so that the move lists need not import the hand.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal, Self

from bolivia.cards import Card, cards_of, shuffle
from bolivia.engine.aside import barred, canasta_total, taken_up
from bolivia.engine.discard import barred as bar_of
from bolivia.engine.going_out import requirement_for, verify_go_out
from bolivia.engine.initial_meld import canasta_needed, minimum
from bolivia.engine.limits import Limits, limits
from bolivia.engine.melds import Meld
from bolivia.engine.pile import card_class, turn_up
from bolivia.engine.scoring import TeamHand, TeamScore, score_hand
from bolivia.errors import BadRequest, Illegal
from bolivia.play.table.actions import Action, GoOut
from bolivia.play.table.views import seating_of
from bolivia.play.table.ways_out import DiscardCheck
from bolivia.rules.ruleset import Ruleset
from bolivia.values import reduce_fields

__all__ = [
    "BLACK_THREES",
    "CARDS",
    "ENDINGS",
    "RED_THREES",
    "Ending",
    "HandResult",
    "HandState",
    "Phase",
    "Refusal",
]

# how a hand ends by a rule: a player went out; the stock ran out (or the player to act could
# not go on once it had); the player to act had no legal action with cards still in the stock
# (docs/engine.md, "A player without a legal action")
Ending = Literal["went_out", "stock_exhausted", "blocked"]
ENDINGS: Final[tuple[Ending, ...]] = ("went_out", "stock_exhausted", "blocked")
# the phases of a turn: drawing (or taking the pile), then melding and discarding; the partner
# answering the question to go out comes between, in either
Phase = Literal["draw", "play", "answer"]
# the codes of the hand's refusals (Illegal.code), beside those of the rule modules
Refusal = Literal[
    "hand-over",
    "hand-not-over",
    "wrong-phase",
    "bad-action",
    "not-in-hand",
    "stock-empty",
    "stop-not-now",
    "must-take",
    "must-go-out",
    "partner-said-no",
    "ask-first",
    "threes-not-going-out",
    "keep-cards",
    "duplicate-rank",
    "no-meld",
    "no-such-meld",
    "combine-kind",
    "discard-required",
    "go-out-cards",
    "no-asking",
    "asked",
    "asked-too-late",
    "cannot-go-out",
    "discard-barred",
    "cards-aside",
    "first-round",
]
CARDS: Final = Card.all()
# the card indexes of each rank (the joker's, 13, is its own)
RANK_CELLS: Final = tuple(tuple(range(r * 4, min(r * 4 + 4, 53))) for r in range(14))
RED_THREES: Final = frozenset(c.index for c in CARDS if c.is_red_three)
BLACK_THREES: Final = frozenset(c.index for c in CARDS if c.is_black_three)
# what the conservation check last found in step for a player (see HandState.conserved): its
# hand's size, the hand, its rank counts and suit masks, its kept cards by rank, its wild cards
_Seen = tuple[
    int, list[int], list[int], list[int], list[tuple[Card, ...] | None], tuple[Card, ...] | None
]


@dataclass(frozen=True)
class HandResult:
    """How a hand ended and what each side scored."""

    ended_by: Ending
    went_out: int | None  # the player who went out
    concealed: bool
    scores: tuple[TeamScore, ...]

    def __reduce__(self) -> tuple[type[Any], tuple[Any, ...]]:
        return reduce_fields(self)


class HandState:
    """A hand's cards and turn (see the module).

    :class:`~bolivia.play.table.hand.Hand` plays it.
    """

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
        rules = ruleset.rules
        seating = seating_of(ruleset, players)
        lim = limits(ruleset)
        if deck is not lim.deck_checked and sorted(deck) != lim.pack:
            raise BadRequest("the deck is not the ruleset's pack")
        self.ruleset = ruleset
        self.rules = rules
        self.lim: Limits = lim  # the rule values of the inner loops, as plain attributes
        self.players = players
        self.teams = seating.teams
        self.draw_count = seating.draw
        self.team_of = [p % self.teams for p in range(players)]
        self.partnerships = self.teams < players
        self.team_scores = list(team_scores) if team_scores is not None else [0] * self.teams
        self.deck = lim.deck_checked = tuple(deck)  # (a copy passes this very tuple: kept)
        self.first = first
        self.keep = max(rules.going_out.keep_cards, 2)
        self.requirement = requirement_for(ruleset, players)
        self.escaleras_needed: int = self.requirement.including.get("escalera", 0)
        self.stock: list[int] = list(deck)
        self.set_aside: list[int] = []  # cards a position leaves out of play
        # cards dealt aside that join a hand later: each player's foot (deal.foot; empty once
        # taken up) and the bonus piles not yet taken (deal.bonus_piles), each a list of card
        # indices
        self.feet: list[list[int]] = [[] for _ in range(players)]
        self.bonus: list[list[int]] = []
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
        # per player, what the conservation check last found in step (see conserved)
        self._in_step_seen: list[_Seen | None] = [None] * players
        # by side: its melds when last read by _groups_of (the same objects), and what it read
        self._groups: list[tuple[tuple[Meld, ...], list[tuple[int, int]], int] | None] = [
            None
        ] * self.teams
        self._wild = ruleset.wild
        self.melds: list[list[Meld]] = [[] for _ in range(self.teams)]
        self.red_threes = [0] * self.teams
        # black threes each side set aside from piles it took (pile.black_threes_aside)
        self.black_threes = [0] * self.teams
        self.melded = [False] * players  # has the player melded this hand
        self.current = first
        # the turn: its phase, the partner's answer (and the phase asked in), whether the player
        # is bound to go out, took the pile, had melded (or the side had) before the turn
        self.phase: Phase = "draw"
        self.asked: bool | None = None
        self.asker: int | None = None
        self.answer_phase: Phase = "play"  # draw or play
        self.committed = False
        self.picked_up = False
        self.melded_before = False
        self.side_melded_before = False
        self.turns = 1
        # turns of the hand's first round still to play, this one included (0: it is over)
        self.first_round = players
        self.steps = 0
        self.ended_by: Ending | None = None
        self.went_out: int | None = None
        self.concealed = False
        self.bonus_withheld = False
        self._pile_classes: Counter[str | None] = Counter()  # classes of the pile's cards
        # per player, the cards everyone saw it take from the pile and has not seen it meld
        # or discard since (counts by card index): what a player's view knows of other hands
        self.taken: list[list[int]] = [[0] * 53 for _ in range(players)]
        if deal:
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
    ) -> Self:
        """A new hand from a shuffled pack."""
        deck = list(limits(ruleset).pack)  # the pack in index order
        shuffle(rng, deck)
        return cls(ruleset, players, deck, first, team_scores)

    def _deal(self, hand_size: int) -> None:
        for _ in range(hand_size):
            for offset in range(self.players):
                player = (self.first + offset) % self.players
                self._to_hand(player, self.stock.pop())
        stock = self.stock
        for offset in range(self.players if self.lim.foot_cards else 0):
            player = (self.first + offset) % self.players
            self.feet[player] = [stock.pop() for _ in range(self.lim.foot_cards)]
        self.bonus = [[stock.pop() for _ in range(n)] for n in self.lim.bonus_piles]
        for index in turn_up(self.ruleset, self.stock):
            self._pile_push(index)
        for offset in range(self.players):
            self._lay_red_threes((self.first + offset) % self.players, replace=True)

    def _pile_push(self, index: int) -> None:
        self.pile.append(index)
        self._pile_classes[card_class(self.ruleset, CARDS[index])] += 1

    # (counts are updated as ``a[i] = a[i] + n``, not ``a[i] += n``: the compiled build does
    # the first on machine integers, the second through the generic number protocol)

    def _to_hand(self, player: int, index: int) -> None:
        hand = self.hands[player]
        hand[index] = hand[index] + 1
        sizes = self.sizes
        sizes[player] = sizes[player] + 1
        self._rank_cards[player][index >> 2] = None
        if self._wild[index]:
            self._wild_cards[player] = None
        if index < 52:
            ranks = self.rank_counts[player]
            ranks[index >> 2] = ranks[index >> 2] + 1
            masks = self.suit_masks[player]
            masks[index & 3] = masks[index & 3] | (1 << (index >> 2))

    def _from_hand(self, player: int, index: int, n: int = 1) -> None:
        hand = self.hands[player]
        hand[index] = hand[index] - n
        sizes = self.sizes
        sizes[player] = sizes[player] - n
        self._rank_cards[player][index >> 2] = None
        if self._wild[index]:
            self._wild_cards[player] = None
        if index < 52:
            ranks = self.rank_counts[player]
            ranks[index >> 2] = ranks[index >> 2] - n
            if not hand[index]:
                masks = self.suit_masks[player]
                masks[index & 3] = masks[index & 3] & ~(1 << (index >> 2))

    def _lay_red_threes(self, player: int, *, replace: bool) -> None:
        """Lay out the player's red threes, replaced from the stock where the rules say."""
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

    # ------------------------------------------------------------------ copies

    def _copy_into(self, other: HandState) -> None:
        """Give ``other`` this state's cards and turn.

        ``other`` is a state of the same ruleset, players and deck. Nothing is shared that
        either may change.
        """
        other.team_scores = list(self.team_scores)
        other.first = self.first
        other.stock = list(self.stock)
        other.set_aside = list(self.set_aside)
        other.feet = [list(f) for f in self.feet]
        other.bonus = [list(b) for b in self.bonus]
        other.pile = list(self.pile)
        other.hands = [list(h) for h in self.hands]
        other.sizes = list(self.sizes)
        other.rank_counts = [list(r) for r in self.rank_counts]
        other.suit_masks = [list(m) for m in self.suit_masks]
        other._rank_cards = [[None] * 14 for _ in range(self.players)]
        other._wild_cards = [None] * self.players
        other._in_step_seen = [None] * self.players
        other.melds = [list(team) for team in self.melds]
        other.red_threes = list(self.red_threes)
        other.black_threes = list(self.black_threes)
        other.melded = list(self.melded)
        other.current = self.current
        other.phase = self.phase
        other.asked = self.asked
        other.asker = self.asker
        other.answer_phase = self.answer_phase
        other.committed = self.committed
        other.picked_up = self.picked_up
        other.melded_before = self.melded_before
        other.side_melded_before = self.side_melded_before
        other.turns = self.turns
        other.first_round = self.first_round
        other.steps = self.steps
        other.ended_by = self.ended_by
        other.went_out = self.went_out
        other.concealed = self.concealed
        other.bonus_withheld = self.bonus_withheld
        other._pile_classes = Counter(self._pile_classes)
        other.taken = [list(t) for t in self.taken]

    # ------------------------------------------------------------------ views

    @property
    def over(self) -> bool:
        return self.ended_by is not None

    @property
    def team(self) -> int:
        return self.team_of[self.current]

    def hand_cards(self, player: int | None = None) -> list[Card]:
        return cards_of(self.hands[self.current if player is None else player])

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

    def must_ask(self) -> bool:
        """Whether the player must ask the partner before going out, not yet asked."""
        return self.lim.ask_partner == "required" and self.partnerships and self.asked is None

    def first_minimum_for(self, melds: Sequence[Meld]) -> int | None:
        """The first meld's minimum for a side with these melds.

        None once the side has melded.
        """
        return None if melds else minimum(self.ruleset, self.team_scores[self.team])

    def first_canasta_for(self, melds: Sequence[Meld]) -> tuple[str, ...]:
        """The kinds of canasta a side's first meld must hold one of.

        None (``()``) once the side has melded.
        """
        return () if melds else canasta_needed(self.ruleset, self.team_scores[self.team])

    # ------------------------------------------------------------------ cards dealt aside

    def joining(self, table: Sequence[Meld], remaining: int) -> int:
        """How many cards dealt aside join the current player's hand after a step that leaves
        the player ``remaining`` cards and the side ``table`` (:mod:`bolivia.engine.aside`)."""
        if not self.lim.reserves:
            return 0
        mark = self._reserve_mark()
        assert mark is not None
        foot, pile = self._joins(mark, table, remaining)
        return (len(self.feet[self.current]) if foot else 0) + (len(self.bonus[0]) if pile else 0)

    def out_barred(self, table: Sequence[Meld]) -> str:
        """The rule keeping the current player from going out, the side's melds being
        ``table``, or ``""``: the hand's first round of turns where nobody melds in it
        (``initial_meld.after_first_round``), or cards dealt aside
        (:func:`bolivia.engine.aside.barred`)."""
        if self.lim.first_round_wait and self.first_round > 0:
            return "initial_meld.after_first_round"
        if not self.lim.reserves:
            return ""
        return barred(
            self.ruleset,
            foot_aside=bool(self.feet[self.current]),
            piles_left=bool(self.bonus),
            table=table,
        )

    def _reserve_mark(self) -> tuple[int, bool] | None:
        """The side's canastas and whether it had melded, before a step, for :meth:`_take_up`
        (None where no cards are dealt aside)."""
        if not self.lim.reserves:
            return None
        team = self.melds[self.team]
        return canasta_total(self.ruleset, team), bool(team)

    def _joins(
        self, mark: tuple[int, bool], table: Sequence[Meld], remaining: int
    ) -> tuple[bool, bool]:
        """Whether the step from ``mark`` to ``table`` takes up the foot, and a bonus pile."""
        return taken_up(
            self.ruleset,
            foot_aside=bool(self.feet[self.current]),
            piles_left=bool(self.bonus),
            canastas_before=mark[0],
            canastas_after=canasta_total(self.ruleset, table),
            melded_before=mark[1],
            melded_after=bool(table),
            remaining=remaining,
        )

    def _take_up(self, player: int, mark: tuple[int, bool] | None) -> None:
        """Give the player the cards dealt aside that the step just made join the hand, red
        threes among them laid out and replaced."""
        if mark is None:
            return
        foot, pile = self._joins(mark, self.melds[self.team_of[player]], self.sizes[player])
        joined = [*(self.feet[player] if foot else ()), *(self.bonus.pop(0) if pile else ())]
        if foot:
            self.feet[player] = []
        if joined:
            for index in joined:
                self._to_hand(player, index)
            self._lay_red_threes(player, replace=True)

    def discard_check(self) -> DiscardCheck | None:
        """Whether a card may be the discard that goes out for the player to move, the side's
        melds then being these (``pile.discard_barred``; None: the ruleset bars no card)."""
        if not self.lim.bars_discard:
            return None
        ruleset, melds, team = self.ruleset, self.melds, self.team
        first = self.first_round > 0

        def check(card: Card, table: Sequence[Meld]) -> bool:
            sides = [table if i == team else side for i, side in enumerate(melds)]
            return bar_of(ruleset, card, sides, team, going_out=True, first_round=first) < 0

        return check

    def _illegal(self, code: Refusal, message: str, rule: str = "") -> Illegal:
        """A refusal, citing the rule it rests on (if any)."""
        where = f" ({self.ruleset.cite(rule)})" if rule else ""
        return Illegal(code, message + where, rule)

    def _counts_off_hands(self) -> list[int]:
        """How many of each card the stock, set-aside cards, pile and melds hold.

        The hands are read in place by :meth:`conserved`. Red threes laid out are counted
        apart, by number.
        """
        # plain loops over ints: this runs after every action of the checked hands, and the
        # compiled build makes these a few instructions each
        counts = [0] * 53
        for index in self.stock:
            counts[index] = counts[index] + 1
        for index in self.set_aside:
            counts[index] = counts[index] + 1
        for packet in (*self.feet, *self.bonus):
            for index in packet:
                counts[index] = counts[index] + 1
        for index in self.pile:
            counts[index] = counts[index] + 1
        for team in self.melds:
            for meld in team:
                for card in meld.cards:
                    counts[card.index] = counts[card.index] + 1
        return counts

    def conserved(self) -> bool:
        """Every card of the pack held once, and the kept figures in step.

        Red threes are counted by number. The figures are those kept beside each hand: its
        size, rank counts, suit masks, and the cards of a rank and the wild cards where built.
        """
        return self._figures_in_step() and self._pack_accounted()

    def _figures_in_step(self) -> bool:
        """Whether every player's kept figures agree with the hand's counts.

        This runs after every action of the checked hands. A player's hand and figures just as
        the last check found them in step are in step still (compared whole, in C; an action
        changes one player's).
        """
        seen = self._in_step_seen
        for p in range(len(self.hands)):
            if self._as_last_seen(p):
                continue
            if not self._in_step(p):
                return False
            seen[p] = (
                self.sizes[p],
                list(self.hands[p]),
                list(self.rank_counts[p]),
                list(self.suit_masks[p]),
                list(self._rank_cards[p]),
                self._wild_cards[p],
            )
        return True

    def _as_last_seen(self, p: int) -> bool:
        """Whether player ``p``'s hand and figures are as the last check found them."""
        last = self._in_step_seen[p]
        return (
            last is not None
            and last[0] == self.sizes[p]
            and last[1] == self.hands[p]
            and last[2] == self.rank_counts[p]
            and last[3] == self.suit_masks[p]
            and last[4] == self._rank_cards[p]
            and last[5] == self._wild_cards[p]
        )

    def _pack_accounted(self) -> bool:
        """Whether each card of the pack is held once, red threes by number."""
        # the hands are read in place, each card once per player, and summed without a list
        # written: this runs after every action of the checked hands
        counts = self._counts_off_hands()
        hands = self.hands
        pack = self.ruleset.pack
        decks = pack.decks
        threes = counts[5] + counts[6] + sum(self.red_threes)
        # black threes set aside (pile.black_threes_aside) are counted by number; else each
        # black three is held once per deck, as any card
        aside = self.lim.threes_aside
        black = counts[4] + counts[7] + sum(self.black_threes) if aside else 2 * decks
        for i in range(53):
            total = counts[i]
            for hand in hands:
                total += hand[i]
            if i == 5 or i == 6:  # red threes: by number, laid out or not
                threes += total - counts[i]
            elif aside and (i == 4 or i == 7):  # black threes: by number, set aside or not
                black += total - counts[i]
            elif total != (decks if i < 52 else pack.jokers):
                return False
        return threes == 2 * decks and black == 2 * decks

    def _in_step(self, p: int) -> bool:
        """Whether player ``p``'s figures agree with the hand's counts (none negative)."""
        return self._counts_in_step(p) and self._kept_in_step(p)

    def _counts_in_step(self, p: int) -> bool:
        """Whether the counts are whole and the size, rank counts and masks agree."""
        hand = self.hands[p]
        ranks = self.rank_counts[p]
        size = hand[52]  # the joker, of no rank
        if size < 0:
            return False
        held = [0, 0, 0, 0]  # a bit per rank held, by suit
        for r in range(13):
            total = 0
            for suit in range(4):
                n = hand[(r << 2) + suit]
                if n < 0:
                    return False
                if n:
                    held[suit] = held[suit] | (1 << r)
                total += n
            if ranks[r] != total:
                return False
            size += total
        return self.sizes[p] == size and self.suit_masks[p] == held

    def _kept_in_step(self, p: int) -> bool:
        """Whether the kept cards of each rank, and the wild cards, list the hand's.

        The wild cards are listed as :meth:`wild_cards` lists them: by wild rank, the cheaper
        first.
        """
        hand = self.hands[p]
        for r, kept in enumerate(self._rank_cards[p]):
            if kept is not None and not _lists(kept, hand, RANK_CELLS[r]):
                return False
        kept_wild = self._wild_cards[p]
        return kept_wild is None or _lists(kept_wild, hand, self.ruleset.wild_indices)

    # ------------------------------------------------------------------ results

    def _held_at_end(self, player: int) -> tuple[Card, ...]:
        """A player's cards as scoring reads them: the hand, and a foot still aside (turned
        up: its red threes laid out, its other cards held)."""
        held = cards_of(self.hands[player])
        for i in self.feet[player]:
            if i not in RED_THREES:
                held.append(CARDS[i])
        return tuple(held)

    def positions(self) -> list[TeamHand]:
        """Each side's position now, as scoring reads it.

        A position is the side's melds, red threes, the cards in its players' hands, whether it
        went out and earns the bonus (none after the stock ran dry where the rules withhold it).
        """
        teams = []
        for t in range(self.teams):
            went_out = self.went_out is not None and self.team_of[self.went_out] == t
            bonus = went_out and not self.bonus_withheld
            teams.append(
                TeamHand(
                    melds=tuple(self.melds[t]),
                    red_threes=self.red_threes[t] + self._aside_reds(t),
                    black_threes=self.black_threes[t],
                    hands=tuple(
                        self._held_at_end(p) for p in range(self.players) if self.team_of[p] == t
                    ),
                    went_out=bonus,
                    concealed=bonus and self.concealed,
                )
            )
        return teams

    def _aside_reds(self, team: int) -> int:
        """The red threes in the feet still aside of the side's players (laid out when the
        hand is scored)."""
        return sum(
            1
            for p in range(self.players)
            if self.team_of[p] == team
            for i in self.feet[p]
            if i in RED_THREES
        )

    def score_request(self) -> dict[str, object]:
        """The sides' positions as the oracle's ``score`` request (without ``ruleset``)."""
        return {
            "teams": [
                {
                    "melds": [[repr(c) for c in meld.cards] for meld in team.melds],
                    "red_threes": team.red_threes,
                    **({"black_threes": team.black_threes} if team.black_threes else {}),
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
            raise self._illegal("hand-not-over", "the hand is not over")
        return HandResult(
            self.ended_by,
            self.went_out,
            self.concealed,
            tuple(score_hand(self.ruleset, self.positions())),
        )

    # ------------------------------------------------------------------ the verify path

    # The questions the move lists (moves, candidates) ask of the hand's one verify path. They
    # are declared here, below both, and answered by the hand (bolivia.play.table.hand): the
    # compiled build calls them through the class's method table, as fast as a direct call.

    def can(self, action: Action) -> bool:
        """Whether the verify path allows the action."""
        raise NotImplementedError

    def after_pickup(self, action: Action) -> tuple[list[int], list[Meld]] | None:
        """The hand's counts and the side's melds after this pickup, or None."""
        raise NotImplementedError

    def verify_way_out(self, action: GoOut, *, asking: bool = True) -> list[Meld]:
        """The side's melds after going out this way; :class:`Illegal` if it may not."""
        raise NotImplementedError

    # ------------------------------------------------------------------ what the moves read

    def group_pairs(self, team: int) -> list[tuple[int, int]]:
        """The pairs ``(i, j)``, ``i < j``, of the side's groups of one rank."""
        return self._groups_of(team)[1]

    def group_ranks(self, team: int) -> int:
        """The ranks the side has groups of, a bit by rank index."""
        return self._groups_of(team)[2]

    def _groups_of(self, team: int) -> tuple[tuple[Meld, ...], list[tuple[int, int]], int]:
        """The side's melds, its pairs of groups of one rank, and their ranks.

        They are kept while the side's melds are the same objects (a meld is never changed,
        only replaced): the candidates, the search and the greedy bot ask in every state.
        """
        melds = self.melds[team]
        kept = self._groups[team]
        if kept is not None and len(kept[0]) == len(melds):
            old = kept[0]
            same = True
            for k in range(len(melds)):
                if old[k] is not melds[k]:
                    same = False
                    break
            if same:
                return kept
        ranks, twice = self._group_ranks_of(melds)
        found = (tuple(melds), _group_pairs(melds) if twice else [], ranks)
        self._groups[team] = found
        return found

    def _group_ranks_of(self, melds: list[Meld]) -> tuple[int, bool]:
        """The ranks of these groups (a bit each), and whether two share one.

        Two groups without a rank share one too.
        """
        ranks = 0
        twice = False
        unranked = 0
        rank_index = self.lim.rank_index
        for a in melds:
            if a.kind != "group":
                continue
            if a.rank is None:
                unranked += 1
                twice = twice or unranked > 1
            else:
                bit = 1 << rank_index[a.rank]
                twice = twice or bool(ranks & bit)
                ranks |= bit
        return ranks, twice

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


def _group_pairs(melds: list[Meld]) -> list[tuple[int, int]]:
    """The pairs ``(i, j)``, ``i < j``, of these melds' groups of one rank."""
    pairs: list[tuple[int, int]] = []
    for i, a in enumerate(melds):
        if a.kind != "group":
            continue
        for j in range(i + 1, len(melds)):
            b = melds[j]
            if b.kind == "group" and b.rank == a.rank:
                pairs.append((i, j))
    return pairs


def _lists(kept: tuple[Card, ...], hand: list[int], indices: tuple[int, ...]) -> bool:
    """Whether ``kept`` lists the hand's cards of these ``indices``, in order.

    Each is listed as many times as it is held.
    """
    at = 0
    for i in indices:
        for _ in range(hand[i]):
            if at >= len(kept) or kept[at].index != i:
                return False
            at += 1
    return at == len(kept)
