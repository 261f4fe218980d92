"""The state of a hand: the cards (each hand as counts per card, with rank counts, suit
masks and the cards of each rank kept alongside), the stock and the pile, the melds on the
table, the turn, and the hand's end with its scores; the deal; and the one place cards move
(:meth:`HandState._to_hand`, :meth:`HandState._from_hand`, :meth:`HandState._pile_push`).

The state is kept for speed: each hand is a list of 53 counts (one per distinct card, by
:attr:`Card.index`), with its rank counts and a bitmask of ranks per suit kept alongside (runs
and their neighbours are bit operations) and the cards of each rank and the wild cards as
tuples, built when first asked for and dropped when the hand changes there; the stock and the
pile are lists of card indices and the pile's card classes are counted as cards come and go;
the melds on the table are the :class:`~bolivia.engine.melds.Meld` values of the rule modules.
:meth:`HandState.conserved` checks the derived figures against the counts too. What may be
done with the state is :class:`bolivia.play.table.hand.Hand`: the one verify/apply path.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal, Self, overload

from bolivia.cards import Card, shuffle
from bolivia.engine.going_out import requirement_for, verify_go_out
from bolivia.engine.limits import Limits, limits
from bolivia.engine.melds import Meld
from bolivia.engine.pile import card_class
from bolivia.engine.scoring import TeamHand, TeamScore, score_hand
from bolivia.errors import BadRequest, Illegal
from bolivia.rules.ruleset import Ruleset
from bolivia.values import reduce_fields

__all__ = ["BLACK_THREES", "CARDS", "ENDINGS", "RED_THREES", "Ending", "HandResult", "HandState"]

# how a hand ends by a rule: a player went out; the stock ran out (or the player to act could
# not go on once it had); the player to act had no legal action with cards still in the stock
# (docs/engine.md, "A player without a legal action")
Ending = Literal["went_out", "stock_exhausted", "blocked"]
ENDINGS: Final[tuple[Ending, ...]] = ("went_out", "stock_exhausted", "blocked")
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


def _cards_of(counts: Sequence[int]) -> list[Card]:
    return [CARDS[i] for i, n in enumerate(counts) for _ in range(n)]


class HandView(Sequence[Card]):
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


class HandState:
    """A hand's cards and turn (see the module); :class:`~bolivia.play.table.hand.Hand` plays it."""

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
        rules = ruleset.rules
        seating = rules.players.seats.get(players)
        if seating is None:
            raise BadRequest(
                f"{ruleset.id} is played by "
                f"{', '.join(map(str, sorted(rules.players.seats)))} players, "
                f"not {players}"
            )
        lim = limits(ruleset)
        if sorted(deck) != lim.pack:
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
        self.deck = tuple(deck)
        self.first = first
        self.keep = max(rules.going_out.keep_cards, 2)
        self.requirement = requirement_for(ruleset, players)
        self.escaleras_needed: int = self.requirement.including.get("escalera", 0)
        self.stock: list[int] = list(deck)
        self.set_aside: list[int] = []  # cards a position leaves out of play
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
        self.melded = [False] * players  # has the player melded this hand
        self.current = first
        # the turn: its phase, the partner's answer (and the phase asked in), whether the player
        # is bound to go out, took the pile, had melded (or the side had) before the turn
        self.phase = "draw"
        self.asked: bool | None = None
        self.asker: int | None = None
        self.answer_phase = "play"
        self.committed = False
        self.picked_up = False
        self.melded_before = False
        self.side_melded_before = False
        self.turns = 1
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
        covered = set(self.rules.deal.upcard_covered_if)
        self._pile_push(self.stock.pop())
        while self.stock and card_class(self.ruleset, CARDS[self.pile[-1]]) in covered:
            self._pile_push(self.stock.pop())
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

    # ------------------------------------------------------------------ copies

    def _copy_into(self, other: HandState) -> None:
        """Give ``other`` (a state of the same ruleset, players and deck) this state's cards
        and turn; nothing is shared that either may change."""
        other.team_scores = list(self.team_scores)
        other.first = self.first
        other.stock = list(self.stock)
        other.set_aside = list(self.set_aside)
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

    def _counts_off_hands(self) -> list[int]:
        """How many of each card (by index) the stock, the cards set aside, the pile and the
        melds hold (the hands are read in place by :meth:`conserved`; red threes laid out are
        counted apart, by number)."""
        # plain loops over ints: this runs after every action of the checked hands, and the
        # compiled build makes these a few instructions each
        counts = [0] * 53
        for index in self.stock:
            counts[index] = counts[index] + 1
        for index in self.set_aside:
            counts[index] = counts[index] + 1
        for index in self.pile:
            counts[index] = counts[index] + 1
        for team in self.melds:
            for meld in team:
                for card in meld.cards:
                    counts[card.index] = counts[card.index] + 1
        return counts

    def conserved(self) -> bool:
        """Every card of the pack accounted for, none twice (red threes by number), and the
        figures kept alongside the hands (sizes, rank counts, suit masks, the cards of a rank
        and the wild cards where built) in step with them."""
        # the hands are read in place, each card once per player, and summed without a list
        # written: this runs after every action of the checked hands. A player's hand and
        # figures just as the last check found them in step (compared whole, in C; an action
        # changes one player's) are in step still: _in_step reads nothing else
        hands = self.hands
        seen = self._in_step_seen
        for p in range(len(hands)):
            last = seen[p]
            if (
                last is not None
                and last[0] == self.sizes[p]
                and last[1] == hands[p]
                and last[2] == self.rank_counts[p]
                and last[3] == self.suit_masks[p]
                and last[4] == self._rank_cards[p]
                and last[5] == self._wild_cards[p]
            ):
                continue
            if not self._in_step(p):
                return False
            seen[p] = (
                self.sizes[p],
                list(hands[p]),
                list(self.rank_counts[p]),
                list(self.suit_masks[p]),
                list(self._rank_cards[p]),
                self._wild_cards[p],
            )
        counts = self._counts_off_hands()
        pack = self.ruleset.pack
        decks = pack.decks
        threes = counts[5] + counts[6] + sum(self.red_threes)
        for i in range(53):
            total = counts[i]
            for hand in hands:
                total += hand[i]
            if i == 5 or i == 6:  # red threes: by number, laid out or not
                threes += total - counts[i]
            elif total != (decks if i < 52 else pack.jokers):
                return False
        return threes == 2 * decks

    def _in_step(self, p: int) -> bool:
        """Whether player ``p``'s hand holds no card a negative number of times and the
        figures kept beside it (size, rank counts, suit masks, the kept lists) agree with it."""
        hand = self.hands[p]
        ranks = self.rank_counts[p]
        size = hand[52]  # the joker, of no rank
        if size < 0:
            return False
        held0 = held1 = held2 = held3 = 0  # a bit per rank held, by suit
        for r in range(13):
            base = r << 2
            a, b, c, d = hand[base], hand[base + 1], hand[base + 2], hand[base + 3]
            if a < 0 or b < 0 or c < 0 or d < 0:
                return False
            total = a + b + c + d
            if ranks[r] != total:
                return False
            size += total
            bit = 1 << r
            if a:
                held0 |= bit
            if b:
                held1 |= bit
            if c:
                held2 |= bit
            if d:
                held3 |= bit
        masks = self.suit_masks[p]
        if (
            self.sizes[p] != size
            or masks[0] != held0
            or masks[1] != held1
            or masks[2] != held2
            or masks[3] != held3
        ):
            return False
        for r, kept in enumerate(self._rank_cards[p]):
            if kept is not None and not _lists(kept, hand, RANK_CELLS[r]):
                return False
        # the wild cards as wild_cards lists them: by wild rank, the cheaper first
        kept_wild = self._wild_cards[p]
        return kept_wild is None or _lists(kept_wild, hand, self.ruleset.wild_indices)

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

    # ------------------------------------------------------------------ what the moves read

    def group_pairs(self, team: int) -> list[tuple[int, int]]:
        """The pairs ``(i, j)``, ``i < j`` in order, of the side's groups of one rank (what a
        join may join)."""
        return self._groups_of(team)[1]

    def group_ranks(self, team: int) -> int:
        """The ranks the side has groups of, a bit by rank index."""
        return self._groups_of(team)[2]

    def _groups_of(self, team: int) -> tuple[tuple[Meld, ...], list[tuple[int, int]], int]:
        """The side's melds, the pairs of its groups of one rank and the ranks of its groups,
        kept while its melds are the same objects (a meld is never changed, only replaced):
        the candidates, the search and the greedy bot ask in every state."""
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
        pairs: list[tuple[int, int]] = []
        ranks = 0
        twice = False  # two groups of one rank (or without one): pairs to list
        unranked = 0
        rank_index = self.lim.rank_index
        for a in melds:
            if a.kind == "group":
                if a.rank is None:
                    unranked += 1
                    twice = twice or unranked > 1
                else:
                    bit = 1 << rank_index[a.rank]
                    twice = twice or bool(ranks & bit)
                    ranks |= bit
        if twice:
            for i, a in enumerate(melds):
                if a.kind != "group":
                    continue
                for j in range(i + 1, len(melds)):
                    b = melds[j]
                    if b.kind == "group" and b.rank == a.rank:
                        pairs.append((i, j))
        found = (tuple(melds), pairs, ranks)
        self._groups[team] = found
        return found

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


def _lists(kept: tuple[Card, ...], hand: list[int], indices: tuple[int, ...]) -> bool:
    """Whether ``kept`` lists every card of ``hand`` of these ``indices``, in their order,
    each as many times as it is held."""
    at = 0
    for i in indices:
        for _ in range(hand[i]):
            if at >= len(kept) or kept[at].index != i:
                return False
            at += 1
    return at == len(kept)
