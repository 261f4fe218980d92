"""The expert bot's valuation of a position, in the ruleset's values.

It scores what the player can see -- its side's melds, its own hand, the pile, the hand sizes,
never another player's cards. The side's melds count the points they are worth now and on their
way to canastas: each kind's bonus, the going-out requirement's kinds weighted more while the
side lacks them. The cards in hand add what they promise: groups and runs they would grow,
natural pairs to take the pile with, wild cards for a wild canasta. They cost the penalty they
would count if the hand ended now. It also weighs the danger of a discard (feeding the pile to
the next player) and the margin of going out. It may import the engine and the table.

The compiled build works the numbers out in its native core (``_core.c``, see
:mod:`bolivia.play.bots.tables`): each method that has a core path says so, and keeps the Python
it stands for, the reference, which the pure build runs.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final, TypeAlias, cast

from bolivia.cards import Card
from bolivia.engine.melds import Meld
from bolivia.engine.pile import frozen_when
from bolivia.engine.scoring import TeamHand, score_team
from bolivia.play.bots.tables import AnyView, Summary, TableView, Weights, summary_of, tables
from bolivia.play.table.hand import Hand
from bolivia.play.table.state import BLACK_THREES, CARDS, RED_THREES

if TYPE_CHECKING:
    from bolivia.play.bots._core import Parts, Shape, View

__all__ = ["Position", "Summary", "Weights"]


class _Shape:
    """The cards in hand as the valuation reads them.

    Their penalty, the cards of each rank, the wild cards, and a bit per rank held of each
    suit (within the sequences' span).
    """

    __slots__ = ("by_rank", "masks", "penalty", "wilds")

    def __init__(self, penalty: int, by_rank: list[int], wilds: int, masks: list[int]) -> None:
        self.penalty = penalty
        self.by_rank = by_rank
        self.wilds = wilds
        self.masks = masks


class _OwnParts:
    """The parts of the hand's own value beside the side's table as it is: the terms of each
    rank's cards (empty where none), the ranks held of each suit and what each suit's run
    gains (None where nothing)."""

    __slots__ = ("gains", "masks", "terms")

    def __init__(
        self, terms: list[tuple[float, ...]], masks: list[int], gains: list[float | None]
    ) -> None:
        self.terms = terms
        self.masks = masks
        self.gains = gains


def _touched(cards: Sequence[Card], melds: Sequence[Summary]) -> tuple[int, int]:
    """The ranks and the suits (bits by index) whose part of a hand's value may change when
    these cards leave it for these melds (new or grown): the cards' ranks, the ranks of the
    groups and the suits of the runs among the melds."""
    ranks = 0
    for card in cards:
        if card.index < 52:
            ranks |= 1 << (card.index >> 2)
    suits = 0
    for kind, _size, _wilds, key, _mask in melds:
        if kind == "group":
            ranks |= 1 << key
        elif kind == "sequence":
            suits |= 1 << key
    return ranks, suits


#: how the next player may take the pile on a discard (Position._danger_ways): not at all (or
#: only by ways that weigh nothing), surely, or by a natural pair or a natural and a wild card
_NONE: Final = -1
_SURE: Final = 1
_PAIR: Final = 2
_WITH_WILD: Final = 4
# and what a position keeps of the ways by the card's class (Position._way_bits): any way at
# all, onto a meld, and the two above
_ANY: Final = 8
_ONTO: Final = 16

#: the own shape's parts, and a hand's shape, worked out by the Python or by the native core
AnyParts: TypeAlias = "_OwnParts | Parts"
AnyShape: TypeAlias = "_Shape | Shape"


class Position:
    """What the bot knows and values once per choice; what does not change within a run is
    read from the run's :class:`Tables` (``use_native``: by the native core where there is
    one, the same values)."""

    def __init__(self, hand: Hand, weights: Weights, use_native: bool = True) -> None:
        self.hand = hand
        self.w = weights
        shared = tables(hand.ruleset, hand.players, weights, use_native)
        self.tables = shared
        self.ruleset = hand.ruleset
        self.rules = shared.rules
        self.lim = shared.lim
        self.wild = shared.wild
        self.points = shared.points
        self.penalties = shared.penalties
        self.player = hand.current
        self.team = hand.team
        self.counts = hand.hands[self.player]
        stock = len(hand.stock)
        dealt = len(hand.deck)
        self.stock = stock
        self.late = 1.0 - stock / dealt if dealt else 1.0
        self.risk = weights.risk + (1.0 - weights.risk) * self.late * self.late
        self.table = shared.side_summaries(self.team, hand.melds[self.team])  # (not changed)
        # the cards the player cannot see, counted when first asked (:meth:`_know`)
        self.unseen: list[int] = []
        self.unseen_total = 1
        self.unseen_wild = 0  # of them wild
        self.mean_penalty = 0.0
        self.own = self._own_shape()
        self._own_view: AnyView | None = None  # the view of the side's table as it is
        # what every discard's danger shares: the ways to take the pile by the class of the
        # card on top, and what the pile's cards are worth
        self._ways: dict[str | None, tuple[str, ...]] = {}
        self._way_bits: dict[str | None, int] = {}  # the same as bits (see _danger_ways)
        self._parts: AnyParts | None = None  # the own shape's parts, for the discards
        self._pile_base: float | None = None
        self._standings: dict[int, float] = {}  # see _standing

    # ------------------------------------------------------------------ what is known

    def _know(self) -> None:
        """Count the cards the player cannot see, once (:meth:`_unseen`)."""
        if not self.unseen:
            self._unseen()

    def _unseen(self) -> None:
        """The cards the player cannot see: the pack less its hand, the melds, the pile."""
        hand = self.hand
        table = self.tables.table_counts(hand.melds)
        core = self.tables.core
        if core is not None:
            found = core.unseen(self.counts, table, hand.pile)
            self.unseen, self.unseen_total, self.unseen_wild, self.mean_penalty = found
            return
        unseen: list[int] = self.tables.pack[:]
        counts = self.counts
        for i in range(53):
            unseen[i] = unseen[i] - counts[i] - table[i]
        for i in hand.pile:
            unseen[i] = unseen[i] - 1
        for i in RED_THREES:
            unseen[i] = 0
        penalties = self.penalties
        total = 0
        weighted = 0
        for i in range(53):
            n = unseen[i]
            if n < 0:
                n = unseen[i] = 0
            total += n
            weighted += n * penalties[i]
        self.unseen = unseen
        self.unseen_total = max(total, 1)
        wild = 0
        for i in self.lim.wild_indices:
            wild += unseen[i]
        self.unseen_wild = wild
        self.mean_penalty = weighted / self.unseen_total

    def summary(self, meld: Meld) -> Summary:
        return summary_of(self.wild, meld)

    def cards_summary(self, cards: Sequence[int]) -> Summary:
        """A new meld of these cards (legal: the engine offered it)."""
        wilds = sum(1 for i in cards if self.wild[i])
        naturals = [i for i in cards if not self.wild[i]]
        if not naturals:
            return ("wild", len(cards), wilds, -1, 0)
        ranks = {i >> 2 for i in naturals}
        if len(ranks) == 1:
            r = naturals[0] >> 2
            return ("threes" if r == 1 else "group", len(cards), wilds, r, 0)
        mask = 0
        for i in naturals:
            mask |= 1 << (i >> 2)
        return ("sequence", len(cards), wilds, naturals[0] & 3, mask)

    # ------------------------------------------------------------------ the valuation

    def view(self, table: Sequence[Summary]) -> AnyView:
        """What the valuation reads off a table (the side's own, kept for the choice)."""
        if table is self.table:
            if self._own_view is None:
                self._own_view = self.tables.side_view(self.team, table)
            return self._own_view
        return self.tables.view(table)

    def shape(self, counts: Sequence[int]) -> AnyShape:
        """What the valuation reads off the cards in hand (by the native core where there is
        one; each of the shapes below the same)."""
        if self.tables.core is not None:
            return self.tables.core.shape(counts)
        lim = self.lim
        penalty, wilds = self._penalty_and_wilds(counts)
        by_rank = [
            counts[b] + counts[b + 1] + counts[b + 2] + counts[b + 3] for b in range(0, 52, 4)
        ]
        masks = [0, 0, 0, 0]
        if lim.sequence_allowed:
            runs = lim.run_ranks  # the ranks a run may hold
            for suit in range(4):
                mask = 0
                for r in range(13):
                    if runs >> r & 1 and counts[r * 4 + suit]:
                        mask |= 1 << r
                masks[suit] = mask
        return _Shape(penalty, by_rank, wilds, masks)

    def _penalty_and_wilds(self, counts: Sequence[int]) -> tuple[int, int]:
        """The penalty of these cards, and how many of them are wild."""
        penalties = self.penalties
        penalty = 0
        for i, n in enumerate(counts):
            if n:
                penalty += n * penalties[i]
        wilds = 0
        for i in self.lim.wild_indices:
            wilds += counts[i]
        return penalty, wilds

    def _own_shape(self) -> AnyShape:
        """:meth:`shape` of the player's own hand, from the counts the hand keeps by rank and
        the ranks it keeps by suit."""
        hand = self.hand
        if self.tables.core is not None:
            player = self.player
            return self.tables.core.own_shape(
                self.counts, hand.rank_counts[player], hand.suit_masks[player]
            )
        lim = self.lim
        penalty, wilds = self._penalty_and_wilds(self.counts)
        masks = [0, 0, 0, 0]
        if lim.sequence_allowed:
            runs = lim.run_ranks
            held = hand.suit_masks[self.player]
            masks = [held[0] & runs, held[1] & runs, held[2] & runs, held[3] & runs]
        return _Shape(penalty, list(hand.rank_counts[self.player]), wilds, masks)

    def shape_without(self, cards: Sequence[Card]) -> AnyShape:
        """The hand's shape without these cards (held), from the hand's own: what
        :meth:`shape` reads off the hand once they are melded."""
        if self.tables.core is not None:
            indices = [card.index for card in cards]
            return self.tables.core.without(cast("Shape", self.own), indices, self.counts)
        was = cast(_Shape, self.own)
        by_rank: list[int] = was.by_rank[:]
        masks: list[int] = was.masks[:]
        wilds = was.wilds
        penalty = was.penalty
        counts = self.counts
        gone: dict[int, int] = {}
        for card in cards:
            index = card.index
            penalty -= self.penalties[index]
            if self.wild[index]:
                wilds -= 1
            if index < 52:
                r = index >> 2
                by_rank[r] = by_rank[r] - 1
                left = gone.get(index, counts[index]) - 1
                gone[index] = left
                if left == 0 and self.lim.run_ranks >> r & 1:
                    masks[index & 3] = masks[index & 3] & ~(1 << r)
        return _Shape(penalty, by_rank, wilds, masks)

    def discarded(self, index: int) -> AnyShape:
        """The hand's shape without one card of ``index`` (held), from the hand's own."""
        if self.tables.core is not None:
            return self.tables.core.discarded(cast("Shape", self.own), index, self.counts[index])
        was = cast(_Shape, self.own)
        by_rank: list[int] = was.by_rank[:]
        masks: list[int] = was.masks[:]
        wilds = was.wilds - 1 if self.wild[index] else was.wilds
        if index < 52:
            r = index >> 2
            by_rank[r] = by_rank[r] - 1
            if self.counts[index] == 1 and self.lim.run_ranks >> r & 1:
                masks[index & 3] = masks[index & 3] & ~(1 << r)
        return _Shape(was.penalty - self.penalties[index], by_rank, wilds, masks)

    def shape_value(
        self,
        shape: AnyShape,
        view: AnyView,
        kept: AnyParts | None = None,
        ranks: int = 0,
        suits: int = 0,
    ) -> float:
        """What the cards in hand (``shape``) are worth beside the side's melds (``view``).

        ``kept``: the parts of the hand's own shape beside the side's table, taken as they
        are for every rank not in ``ranks`` and every suit not in ``suits`` (bits by index)
        whose ranks held are unchanged: where the cards and the view change only those (a
        discard changes one rank and one suit, a meld its own), the same numbers, added in
        the same order. Worked out by the native core where there is one.
        """
        core = self.tables.core
        if core is not None:
            return core.shape_value(
                cast("Shape", shape),
                cast("View", view),
                cast("Parts | None", kept),
                ranks,
                suits,
                self.risk,
            )
        return self._shape_value(
            cast(_Shape, shape),
            cast(TableView, view),
            cast("_OwnParts | None", kept),
            ranks,
            suits,
        )

    def _shape_value(
        self, shape: _Shape, view: TableView, kept: _OwnParts | None, ranks: int, suits: int
    ) -> float:
        w = self.w
        lim = self.lim
        value = 0.0
        value -= self.risk * shape.penalty
        # groups: the side's biggest unfinished group of each rank, grown by the hand's cards
        groups = view.groups
        by_rank = shape.by_rank
        for r in lim.group_ranks:
            if kept is not None and not ranks >> r & 1:
                for term in kept.terms[r]:
                    value += term
                continue
            c = by_rank[r]
            if c:
                for term in self._rank_part(r, c, groups):
                    value += term
        # wild cards: toward a wild canasta, or to finish another
        wilds = shape.wilds
        if wilds:
            value += w.wild * wilds
            if lim.wild_allowed:
                value += self.tables.wild_gain(view.wild_meld, wilds)
        # runs: the best window of an escalera's length in each suit
        if lim.sequence_allowed:
            value += self._runs_value(shape.masks, view, kept, suits)
        return value

    def _rank_part(self, r: int, c: int, groups: dict[int, tuple[int, int]]) -> tuple[float, ...]:
        """The terms ``c`` cards of rank ``r`` in hand add, beside the side's groups."""
        on = groups.get(r)
        # rank (4 bits), count and the group's size + 1 (10 bits each: MAX_CARDS < 1024),
        # then its wild cards
        key = r | c << 4 if on is None else r | c << 4 | (on[0] + 1) << 14 | on[1] << 24
        return self.tables.rank_terms(key, r, c, on)

    def _runs_value(
        self, masks: Sequence[int], view: TableView, kept: _OwnParts | None, suits: int
    ) -> float:
        value = 0.0
        for suit in range(4):
            mask = masks[suit]
            if kept is not None and mask == kept.masks[suit] and not suits >> suit & 1:
                gain = kept.gains[suit]
            else:
                gain = self._run_part(suit, mask, view.open_runs)
            if gain is not None:
                value += gain
        return value

    def _run_part(self, suit: int, mask: int, open_runs: dict[int, int]) -> float | None:
        """What the hand's ranks ``mask`` of ``suit`` add to the side's run of it."""
        if not mask:
            return None
        on = open_runs.get(suit, 0)
        return self.tables.run_gain(mask | on << 13, mask, on)  # (a rank mask has 13 bits)

    def _own_parts(self) -> AnyParts:
        """The parts of the hand's own shape beside the side's table as it is, once (by the
        native core where there is one)."""
        if self._parts is None:
            view = self.view(self.table)
            own = self.own
            core = self.tables.core
            if core is not None:
                self._parts = core.parts(cast("Shape", own), cast("View", view))
                return self._parts
            view = cast(TableView, view)
            own = cast(_Shape, own)
            terms: list[tuple[float, ...]] = [() for _ in range(13)]
            for r in self.lim.group_ranks:
                c = own.by_rank[r]
                if c:
                    terms[r] = self._rank_part(r, c, view.groups)
            gains = [self._run_part(suit, own.masks[suit], view.open_runs) for suit in range(4)]
            self._parts = _OwnParts(terms, list(own.masks), gains)
        return self._parts

    def value(self, counts: Sequence[int], table: Sequence[Summary]) -> float:
        view = self.view(table)
        return view.value + self.shape_value(self.shape(counts), view)

    def value_now(self) -> float:
        """The position's value as it stands (:meth:`value` of the hand and the side's melds)."""
        view = self.view(self.table)
        return view.value + self.shape_value(self.own, view, self._own_parts())

    def extended(self, target: int, cards: Sequence[Card]) -> Summary:
        """The side's meld ``target`` as it is once these cards join it."""
        kind, size, wilds, key, mask = self.table[target]
        for card in cards:
            if self.wild[card.index]:
                wilds += 1
            elif kind == "sequence":
                mask |= 1 << (card.index >> 2)
        return (kind, size + len(cards), wilds, key, mask)

    def value_melding(self, cards: Sequence[Card], target: int, grown: Summary) -> float:
        """The position's value once these cards of the hand are melded onto the side's meld
        ``target``, ``grown`` as it then is."""
        view = self.tables.replaced(self.table, target, grown)
        ranks, suits = _touched(cards, (grown,))
        shape = self.shape_without(cards)
        return view.value + self.shape_value(shape, view, self._own_parts(), ranks, suits)

    def value_laying(self, cards: Sequence[Card], melds: Sequence[Summary]) -> float:
        """The position's value once these cards of the hand are laid as new melds
        (``melds``, after the side's own)."""
        view = self.tables.grown(self.view(self.table), melds)
        ranks, suits = _touched(cards, melds)
        shape = self.shape_without(cards)
        return view.value + self.shape_value(shape, view, self._own_parts(), ranks, suits)

    def laying(self, melds: Sequence[Sequence[Card]]) -> tuple[float, float]:
        """The position's value once these new melds are laid from the hand, and their cards'
        points (by the native core where there is one, in one call)."""
        core = self.tables.core
        if core is not None:
            own_view = cast("View", self.view(self.table))
            parts = cast("Parts", self._own_parts())
            own = cast("Shape", self.own)
            return core.laying(own, own_view, parts, self.counts, melds, self.risk)
        new = [self.cards_summary([card.index for card in meld]) for meld in melds]
        cards = [card for meld in melds for card in meld]
        return self.value_laying(cards, new), self._points(cards)

    def melding(self, target: int, cards: Sequence[Card]) -> tuple[float, float]:
        """The position's value once these cards of the hand go onto the side's meld
        ``target``, and their points (by the native core where there is one, in one call)."""
        core = self.tables.core
        if core is not None:
            parts = cast("Parts", self._own_parts())
            own = cast("Shape", self.own)
            return core.melding(own, self.table, target, cards, self.counts, parts, self.risk)
        grown = self.extended(target, cards)
        return self.value_melding(cards, target, grown), self._points(cards)

    def _points(self, cards: Sequence[Card]) -> float:
        """The cards' points once on the table."""
        return float(sum(self.points[card.index] for card in cards))

    def value_discarding(self, index: int) -> float:
        """The position's value once the card of ``index`` is discarded."""
        core = self.tables.core
        if core is not None:
            own_view = cast("View", self.view(self.table))
            parts = cast("Parts", self._own_parts())
            own = cast("Shape", self.own)
            count = self.counts[index]
            return core.discarding(own, own_view, parts, index, count, self.risk)
        view = self.view(self.table)
        ranks = 1 << (index >> 2) if index < 52 else 0  # (a joker changes no rank)
        return view.value + self.shape_value(self.discarded(index), view, self._own_parts(), ranks)

    # ------------------------------------------------------------------ danger

    def discard_scores(self, indices: Sequence[int]) -> list[float]:
        """What discarding each card of these indices scores: the danger of feeding the pile
        less the position's value after it (by the native core where there is one, in one
        call, from what the pile's rules say of each card here: :meth:`_danger_ways`)."""
        core = self.tables.core
        if core is None:
            return [self.danger(index) - self.value_discarding(index) for index in indices]
        hand = self.hand
        nxt = (self.player + 1) % hand.players
        their = hand.team_of[nxt]
        ways = [self._danger_ways(index, their) for index in indices]
        if any(way > _SURE for way in ways):
            self._know()
        return core.discard_scores(
            cast("Shape", self.own),
            cast("View", self.view(self.table)),
            cast("Parts", self._own_parts()),
            self.counts,
            self.risk,
            indices,
            ways,
            self.unseen,  # (empty where no card asks for it)
            self.unseen_total,
            self.unseen_wild,
            hand.sizes[nxt],
            self.w.pile,
            hand.pile,
        )

    def _danger_ways(self, index: int, their: int) -> int:
        """How the next player (of side ``their``) may take the pile on the card: not at all
        (:data:`_NONE`), surely (:data:`_SURE`: onto one of their melds), or by the ways
        :meth:`_take_chance` weighs (:data:`_PAIR`, :data:`_WITH_WILD`, bits)."""
        kind = self.tables.card_classes[index]
        if their == self.team or self.wild[index]:
            return _NONE
        bits = self._way_bits.get(kind)
        if bits is None:  # (read once a position by the card's class)
            ways = () if kind in self.tables.blocked_by_top else self._ways_to_take(kind, their)
            bits = self._way_bits[kind] = (
                (_ONTO if "onto_meld" in ways else 0)
                | (_PAIR if "natural_pair" in ways else 0)
                | (_WITH_WILD if "natural_and_wild" in ways else 0)
                | (_ANY if ways else 0)
            )
        if not bits:
            return _NONE
        if bits & _ONTO and self._fits(index, self.hand.melds[their]):
            return _SURE
        return bits & (_PAIR | _WITH_WILD)

    def danger(self, index: int) -> float:
        """What discarding the card may give the next player.

        The chance they take the pile, times what the pile is worth.
        """
        hand = self.hand
        kind = self.tables.card_classes[index]
        if kind in self.tables.blocked_by_top:
            return 0.0
        nxt = (self.player + 1) % hand.players
        their = hand.team_of[nxt]
        if their == self.team or self.wild[index]:  # a partner; a wild card is never taken
            return 0.0
        ways = self._ways_to_take(kind, their)
        if not ways:
            return 0.0
        chance = self._take_chance(index, ways, hand.melds[their], hand.sizes[nxt])
        if chance <= 0.0:
            return 0.0
        return self.w.pile * chance * max(self._pile_worth(index), 0.0)

    def _ways_to_take(self, kind: str | None, their: int) -> tuple[str, ...]:
        """The ways side ``their`` may take the pile topped by a card of class ``kind``."""
        found = self._ways.get(kind)  # (their side is the next player's: one per position)
        if found is None:
            hand = self.hand
            classes = [*hand.pile_kinds(), kind]
            frozen = frozen_when(self.ruleset, classes, team_has_melded=bool(hand.melds[their]))
            pile = self.rules.pile
            found = self._ways[kind] = pile.take_frozen if frozen else pile.take_unfrozen
        return found

    def _take_chance(
        self, index: int, ways: tuple[str, ...], melds: Sequence[Meld], size: int
    ) -> float:
        """The chance that a player of ``size`` cards takes the pile on a natural."""
        if "onto_meld" in ways and self._fits(index, melds):
            return 1.0
        self._know()
        core = self.tables.core
        if core is not None:
            pair, with_wild = "natural_pair" in ways, "natural_and_wild" in ways
            return core.take_chance(
                self.unseen, self.unseen_total, self.unseen_wild, index, size, pair, with_wild
            )
        base = (index >> 2) * 4
        left = sum(self.unseen[base : base + 4])
        p = min(left / self.unseen_total, 1.0)
        miss = (1 - p) ** size  # they hold none of its rank
        one = size * p * (1 - p) ** max(size - 1, 0)
        chance = 0.0
        if "natural_pair" in ways:
            chance = max(chance, 1 - miss - one)
        if "natural_and_wild" in ways:
            wilds = self.unseen_wild / self.unseen_total
            has_wild = 1 - (1 - wilds) ** size
            chance = max(chance, (1 - miss) * has_wild)
        return chance

    def _fits(self, index: int, melds: Sequence[Meld]) -> bool:
        """Whether the natural card goes onto one of these melds, taking the pile."""
        card = CARDS[index]
        onto = self.tables.onto_kinds
        for meld in melds:
            if meld.kind not in onto:
                continue
            if meld.kind == "group" and meld.rank == card.rank:
                return True
            if meld.kind == "sequence" and meld.suit == card.suit and self._ends(meld, index >> 2):
                return True
        return False

    def _pile_worth(self, index: int) -> float:
        """What the pile is worth to its taker, the card discarded on top."""
        worth = self._pile_base
        if worth is None:  # the pile's cards, counted once per position
            worth = 60.0
            for i in self.hand.pile:
                worth = self._with_card(worth, i)
            self._pile_base = worth
        return self._with_card(worth, index)

    def _with_card(self, worth: float, i: int) -> float:
        """``worth`` with the card of index ``i`` on the pile."""
        if i in BLACK_THREES:
            return worth - self.penalties[i] * 0.5
        return worth + (12.0 + self.points[i])

    @staticmethod
    def _ends(meld: Meld, r: int) -> bool:
        ranks = [c.index >> 2 for c in meld.cards if c.index < 52]
        return bool(ranks) and r in (min(ranks) - 1, max(ranks) + 1)

    # ------------------------------------------------------------------ going out

    def team_score(self, team: int, melds: Sequence[Meld], *, went_out: bool) -> float:
        """The side's points on the table (melds, bonuses, red threes, going out)."""
        hand = self.hand
        score = score_team(
            self.ruleset,
            TeamHand(
                melds=tuple(melds),
                red_threes=hand.red_threes[team],
                went_out=went_out and not (not hand.stock and not self._bonus_when_dry()),
            ),
        )
        return float(score.total)

    def _bonus_when_dry(self) -> bool:
        return self.rules.stock.going_out_bonus_when_exhausted

    def held(self, player: int) -> float:
        """The penalty of a player's cards: known for the bot's own, estimated otherwise."""
        if player == self.player:
            return float(sum(n * self.penalties[i] for i, n in enumerate(self.counts)))
        self._know()
        return self.hand.sizes[player] * self.mean_penalty

    def margin_going_out(self, after: Sequence[Meld], goer: int) -> float:
        """The side's margin if ``goer`` (of the side) goes out leaving its melds ``after``."""
        hand = self.hand
        margin = 0.0
        for team in range(hand.teams):
            if team == self.team:
                points = self.team_score(team, after, went_out=True)
                for p in range(hand.players):
                    if hand.team_of[p] == team and p != goer:
                        points -= self.held(p)
                margin += points
            else:
                margin += -self._standing(team) / (hand.teams - 1)
        return margin

    def _standing(self, team: int) -> float:
        """Another side's points if the hand ended now, its players' cards counted against
        it: the same for every way out weighed in the position, so worked out once."""
        found = self._standings.get(team)
        if found is None:
            hand = self.hand
            found = self.team_score(team, hand.melds[team], went_out=False)
            for p in range(hand.players):
                if hand.team_of[p] == team:
                    found -= self.held(p)
            self._standings[team] = found
        return found

    def wants_out(self, margin: float) -> bool:
        return margin > 0 or self.stock <= 2 * self.hand.draw_count * self.hand.players
