"""The expert bot's valuation of a position, in the ruleset's values.

It scores what the player can see -- its side's melds, its own hand, the pile, the hand sizes,
never another player's cards. The side's melds count the points they are worth now and on their
way to canastas: each kind's bonus, the going-out requirement's kinds weighted more while the
side lacks them. The cards in hand add what they promise: groups and runs they would grow,
natural pairs to take the pile with, wild cards for a wild canasta. They cost the penalty they
would count if the hand ended now. It also weighs the danger of a discard (feeding the pile to
the next player) and the margin of going out. It may import the engine and the table.
"""

from __future__ import annotations

from collections.abc import Sequence

from bolivia.cards import Card
from bolivia.engine.limits import KIND_INDEX, limits
from bolivia.engine.melds import Meld, special_bonus
from bolivia.engine.pile import card_class, frozen_when
from bolivia.engine.scoring import TeamHand, score_team
from bolivia.play.table.hand import Hand
from bolivia.play.table.runs import positions
from bolivia.play.table.state import BLACK_THREES, CARDS, RED_THREES
from bolivia.rules.ruleset import Ruleset

__all__ = ["Position", "Summary", "Weights"]

# a meld as the valuation sees it: kind, size, wild cards, and the rank (group) or the suit
# with a bit per natural rank (sequence)
Summary = tuple[str, int, int, int, int]


#: the names of the weights, as :class:`Weights` has them (its slots)
WEIGHT_NAMES = ("draw", "hand", "pair", "pile", "risk", "run", "second_run", "wild")


class Weights:
    """The few weights that are not the ruleset's values.

    How much of a promise the cards in hand are worth, against the same on the table.
    """

    __slots__ = ("draw", "hand", "pair", "pile", "risk", "run", "second_run", "wild")

    def __init__(self) -> None:
        self.hand = 0.5  # a group or wild meld the hand could make or grow, of its value
        self.run = 0.45  # a run the hand holds toward an escalera, of its value
        self.second_run = 0.25  # an unfinished run beside another of the suit, of its value
        self.pair = 30.0  # a natural pair to take the pile with
        self.pile = 1.0  # the danger of feeding the pile
        self.risk = 0.35  # the chance, early on, that the cards in hand are counted
        self.draw = 14.0  # a card drawn from the stock, in points
        self.wild = 25.0  # a wild card kept for a canasta

    def key(self) -> tuple[float, ...]:
        """The weights' values, in the order of their names.

        >>> Weights.__slots__ == WEIGHT_NAMES
        True
        """
        return (
            self.draw,
            self.hand,
            self.pair,
            self.pile,
            self.risk,
            self.run,
            self.second_run,
            self.wild,
        )


def _track(size: int, target: int, bonus: float) -> float:
    """A meld's way to a canasta of ``target`` cards worth ``bonus``: its share, squared."""
    if size >= target:
        return bonus
    share = size / target
    return bonus * share * share


class _TableView:
    """A table as the valuation reads it: its value, and the melds the hand could grow.

    Those are the unfinished melds: the biggest group of each rank, the wild meld, the longest
    run of each suit.
    """

    __slots__ = (
        "done",
        "groups",
        "longest",
        "open_runs",
        "partial",
        "run_terms",
        "runs",
        "value",
        "wild_meld",
    )

    def __init__(
        self,
        value: float,
        groups: dict[int, tuple[int, int]],
        wild_meld: int,
        open_runs: dict[int, int],
    ) -> None:
        self.value = value
        self.groups = groups
        self.wild_meld = wild_meld
        self.open_runs = open_runs
        # where reading the table stopped, so that melds laid after it are read on from there
        # (:meth:`Tables.grown`): the melds' value but the unfinished runs', the canastas of
        # each kind, the unfinished runs' values by suit, the longest unfinished run
        self.partial = 0.0
        self.done: list[int] = [0, 0, 0, 0]
        self.runs: dict[int, list[float]] = {}
        self.longest = 0
        self.run_terms: list[float] = []  # each suit's unfinished runs' part, in order


#: the view of a table of no melds, that every table is read on from
_EMPTY_VIEW = _TableView(0.0, {}, 0, {})


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


#: a meld's kind in the key of its value (any other kind is worth nothing)
_KIND_KEY = {"group": 0, "sequence": 1, "wild": 2}

#: the most entries a shared table of values keeps before it starts again (the values are
#: worked out again when asked: the same numbers, so play does not depend on it)
MOST_KEPT = 1 << 16


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


class Tables:
    """What the valuation works out from the ruleset, the number of players and the weights
    alone, kept across the positions of a run: the melds' values, each table's view, what a
    rank's cards and a suit's runs in hand add. Made by :func:`tables`."""

    def __init__(self, ruleset: Ruleset, players: int, weights: Weights) -> None:
        self.ruleset = ruleset
        self.players = players
        self.w = weights
        self.rules = rules = ruleset.rules
        lim = limits(ruleset)
        self.lim = lim
        self.wild = lim.wild
        self.points = lim.points
        self.penalties = ruleset.penalties
        self.pack = [lim.decks] * 52 + [ruleset.pack.jokers]  # the cards of each index
        count, including = lim.requirement(players)
        self.req_count = count
        self.req_kinds = dict(including)
        # what the side gains by meeting the requirement: it may go out (the bonus, and the
        # opponents' cards counted against them)
        self.req_value = float(rules.going_out.bonus) + 150.0
        self._views: dict[tuple[Summary, ...], _TableView] = {}
        # keyed by one int each (no tuple built per lookup): see shape_value and _runs_value
        self._suits: dict[int, float | None] = {}
        self._ranks: dict[int, tuple[float, ...]] = {}
        self._wilds: dict[int, float] = {}
        self._melds: dict[int, float] = {}

    def bonus(self, kind: str, size: int, wilds: int, rank: int) -> float:
        """The bonus of the canasta of ``kind`` a meld would make as it stands.

        It holds ``wilds`` wild cards (which of them are jokers is not known); ``rank`` is its
        rank index, or -1.
        """
        return float(special_bonus(self.ruleset, kind, size, wilds, 0 if wilds == 0 else -1, rank))

    def meld_value(self, s: Summary) -> float:
        """What a meld is worth now and on its way to a canasta (kept by kind, size, wild
        cards and rank: a run's ranks do not change it)."""
        kind, size, wilds, rank, _ = s
        key = _KIND_KEY.get(kind, 3) | size << 2 | wilds << 12 | (rank + 1) << 22
        value = self._melds.get(key)
        if value is None:
            if len(self._melds) >= MOST_KEPT:
                self._melds.clear()
            value = self._melds[key] = self._meld_value(kind, size, wilds, rank)
        return value

    def _meld_value(self, kind: str, size: int, wilds: int, rank: int) -> float:
        lim = self.lim
        if kind == "group":
            mixed = self.bonus("mixed", lim.mixed_size, max(wilds, 1), rank)
            if wilds == 0:
                return max(
                    _track(
                        size, lim.natural_size, self.bonus("natural", lim.natural_size, 0, rank)
                    ),
                    _track(size, lim.mixed_size, mixed) * 0.8,
                )
            return _track(size, lim.mixed_size, mixed)
        if kind == "sequence":
            bonus = self.bonus("escalera", max(size, lim.escalera_size), wilds, -1)
            return _track(size, lim.escalera_size, bonus)
        if kind == "wild":
            bonus = self.bonus("bolivia", lim.bolivia_size, lim.bolivia_size, -1)
            return _track(size, lim.bolivia_size, bonus)
        return 0.0

    def canasta_kind(self, s: Summary) -> int | None:
        kind, size, wilds, _, _ = s
        lim = self.lim
        if kind == "group":
            if wilds == 0:
                return KIND_INDEX["natural"] if size >= lim.natural_size else None
            return KIND_INDEX["mixed"] if size >= lim.mixed_size else None
        if kind == "sequence":
            return KIND_INDEX["escalera"] if size >= lim.escalera_size else None
        if kind == "wild":
            return KIND_INDEX["bolivia"] if size >= lim.bolivia_size else None
        return None

    def _table_view(self, table: Sequence[Summary]) -> _TableView:
        return self.grown(None, table)

    def grown(self, base: _TableView | None, added: Sequence[Summary]) -> _TableView:
        """The view of a table: ``base``'s melds (none when None), then ``added``.

        The melds are read in their order, so a table grown by new melds is read as the
        whole table would be, the same numbers added in the same order: the side's biggest
        unfinished group of each rank, its wild meld, its longest unfinished run of each suit;
        the value of its melds (one unfinished run a suit worth its way, another beside it
        less), and the requirement's part.
        """
        if base is None:
            base = _EMPTY_VIEW
        # the base's containers are shared until a meld changes them (a view is not changed
        # once made), then copied
        value = base.partial
        done = base.done
        runs = base.runs
        groups = base.groups
        wild_meld = base.wild_meld
        open_runs = base.open_runs
        longest = base.longest
        run_terms: list[float] | None = base.run_terms
        for s in added:
            kind_done = self.canasta_kind(s)
            v = self.meld_value(s)
            if kind_done is not None:
                if done is base.done:
                    done = list(done)
                done[kind_done] += 1
                value += v
            elif s[0] == "group":
                value += v
                held = groups.get(s[3])
                if held is None or s[1] > held[0]:
                    if groups is base.groups:
                        groups = dict(groups)
                    groups[s[3]] = (s[1], s[2])
            elif s[0] == "wild":
                value += v
                wild_meld = max(wild_meld, s[1])
            elif s[0] == "sequence":
                if runs is base.runs:
                    runs = {suit: list(values) for suit, values in runs.items()}
                runs.setdefault(s[3], []).append(v)
                run_terms = None
                longest = max(longest, s[1])
                run = open_runs.get(s[3])
                if run is None or bin(s[4]).count("1") > bin(run).count("1"):
                    if open_runs is base.open_runs:
                        open_runs = dict(open_runs)
                    open_runs[s[3]] = s[4]
            else:
                value += v
        if run_terms is None:  # one unfinished run a suit worth its way, another beside it less
            run_terms = []
            for found in runs.values():
                ranked = sorted(found, reverse=True)
                run_terms.append(ranked[0] + self.w.second_run * sum(ranked[1:]))
        total = value
        for term in run_terms:
            total += term
        total = self._with_requirement(total, done, longest)
        view = _TableView(total, groups, wild_meld, open_runs)
        view.partial, view.done, view.runs, view.longest = value, done, runs, longest
        view.run_terms = run_terms
        return view

    def _with_requirement(self, value: float, done: list[int], longest: int) -> float:
        """``value`` plus the requirement's part, added term by term.

        Each canasta toward it counts, and each of the kinds it names (``done``: the canastas
        of each kind); the longest unfinished run (``longest`` cards) while an escalera it
        names is missing.
        """
        total = sum(done)
        value += self.req_value * min(total, self.req_count) / max(self.req_count, 1)
        for kind, n in self.req_kinds.items():
            value += self.req_value * min(done[kind], n) / n
            if done[kind] < n and kind == KIND_INDEX["escalera"]:
                # the runs toward the escalera still missing count more
                value += self.req_value * (longest / self.lim.escalera_size) ** 2
        return value

    def _rank_terms(self, r: int, c: int, on: tuple[int, int] | None) -> tuple[float, ...]:
        """What ``c`` cards of rank ``r`` in hand add, term by term.

        The terms are added in this order.
        """
        w = self.w
        terms: list[float] = []
        if c >= 2:
            terms.append(w.pair)
        if on is not None:
            s0: Summary = ("group", on[0], on[1], r, 0)
            s1: Summary = ("group", on[0] + c, on[1], r, 0)
            terms.append(w.hand * (self.meld_value(s1) - self.meld_value(s0)))
        elif c >= 2:
            terms.append(w.hand * self.meld_value(("group", c + (1 if c == 2 else 0), 0, r, 0)))
        terms.append(w.hand * c * self.points[r * 4])
        return tuple(terms)

    def _run_gain(self, mask: int, on: int) -> float | None:
        """What the hand's cards of a suit add to the side's run of it, weighted (the same in
        every suit: a run's value does not depend on its suit).

        ``mask``: the ranks held; ``on``: the run's. None when they add nothing.
        """
        lim = self.lim
        span = lim.escalera_size
        low, high = lim.span_low, lim.span_high  # by position: an ace low or high
        places = positions(mask) & lim.run_places
        laid = positions(on) & lim.run_places
        # the side's run with its ace low or high, where it holds one the span has at both ends
        ons = [laid & ~1, laid & ~(1 << 13)] if laid & 1 and laid >> 13 & 1 else [laid]
        best = 0
        for start in range(low, max(high - span + 2, low + 1)):
            window = ((1 << span) - 1) << start
            for at in ons:
                if not at & ~window:
                    best = max(best, bin((places | at) & window).count("1"))
        have = bin(on).count("1")
        if best <= have:
            return None
        gain = self.meld_value(("sequence", best, 0, -1, 0)) - self.meld_value(
            ("sequence", have, 0, -1, 0)
        )
        weight = self.w.run if on else self.w.run * 0.7
        needs = self.req_kinds.get(KIND_INDEX["escalera"], 0)
        if needs:
            gain += self.req_value * ((best / span) ** 2 - (have / span) ** 2)
        return weight * gain

    def view(self, table: Sequence[Summary]) -> _TableView:
        """What the valuation reads off a table, worked out once per table."""
        key = tuple(table)
        found = self._views.get(key)
        if found is None:
            if len(self._views) >= MOST_KEPT:
                self._views.clear()
            found = self._views[key] = self._table_view(table)
        return found

    def rank_terms(self, key: int, r: int, c: int, on: tuple[int, int] | None) -> tuple[float, ...]:
        """:meth:`_rank_terms`, kept under ``key`` (see :meth:`Position.shape_value`)."""
        terms = self._ranks.get(key)
        if terms is None:
            if len(self._ranks) >= MOST_KEPT:
                self._ranks.clear()
            terms = self._ranks[key] = self._rank_terms(r, c, on)
        return terms

    def run_gain(self, key: int, mask: int, on: int) -> float | None:
        """:meth:`_run_gain`, kept under ``key`` (see :meth:`Position._runs_value`)."""
        if key in self._suits:
            return self._suits[key]
        if len(self._suits) >= MOST_KEPT:
            self._suits.clear()
        gain = self._suits[key] = self._run_gain(mask, on)
        return gain

    def wild_gain(self, wild_meld: int, wilds: int) -> float:
        """What ``wilds`` wild cards in hand add toward the side's wild meld of ``wild_meld``
        cards, weighted."""
        key = wild_meld << 10 | wilds
        gain = self._wilds.get(key)
        if gain is None:
            grown = self.meld_value(("wild", wild_meld + wilds, 0, -1, 0))
            gain = self.w.hand * (grown - self.meld_value(("wild", wild_meld, 0, -1, 0)))
            if len(self._wilds) >= MOST_KEPT:
                self._wilds.clear()
            self._wilds[key] = gain
        return gain


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


_TABLES: dict[tuple[int, int, tuple[float, ...]], Tables] = {}


def tables(ruleset: Ruleset, players: int, weights: Weights) -> Tables:
    """The valuation's tables of a ruleset, a number of players and weights: made once (per
    process) and shared by every position valued under them."""
    key = (id(ruleset), players, weights.key())
    found = _TABLES.get(key)
    if found is None or found.ruleset is not ruleset:  # (an id may be used again)
        if len(_TABLES) >= 32:
            _TABLES.clear()
        found = _TABLES[key] = Tables(ruleset, players, weights)
    return found


class Position:
    """What the bot knows and values once per choice; what does not change within a run is
    read from the run's :class:`Tables`."""

    def __init__(self, hand: Hand, weights: Weights) -> None:
        self.hand = hand
        self.w = weights
        shared = tables(hand.ruleset, hand.players, weights)
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
        self.table = [self.summary(m) for m in hand.melds[self.team]]
        # the cards the player cannot see, counted when first asked (:meth:`_know`)
        self.unseen: list[int] = []
        self.unseen_total = 1
        self.mean_penalty = 0.0
        self.own = self._own_shape()
        self._own_view: _TableView | None = None  # the view of the side's table as it is
        # what every discard's danger shares: the ways to take the pile by the class of the
        # card on top, and what the pile's cards are worth
        self._ways: dict[str | None, tuple[str, ...]] = {}
        self._parts: _OwnParts | None = None  # the own shape's parts, for the discards
        self._pile_base: float | None = None

    # ------------------------------------------------------------------ what is known

    def _know(self) -> None:
        """Count the cards the player cannot see, once (:meth:`_unseen`)."""
        if not self.unseen:
            self._unseen()

    def _unseen(self) -> None:
        """The cards the player cannot see: the pack less its hand, the melds, the pile."""
        hand = self.hand
        unseen = list(self.tables.pack)
        counts = self.counts
        for i in range(53):
            unseen[i] -= counts[i]
        for team in hand.melds:
            for meld in team:
                for card in meld.cards:
                    unseen[card.index] -= 1
        for i in hand.pile:
            unseen[i] -= 1
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
        self.mean_penalty = weighted / self.unseen_total

    def summary(self, meld: Meld) -> Summary:
        if meld.kind == "group":
            rank = meld.cards[0].index >> 2
            for card in meld.cards:
                if not self.wild[card.index]:
                    rank = card.index >> 2
                    break
            return ("group", meld.size, meld.wilds, rank, 0)
        if meld.kind == "sequence":
            mask = 0
            suit = 0
            for card in meld.cards:
                if not self.wild[card.index]:
                    mask |= 1 << (card.index >> 2)
                    suit = card.index & 3
            return ("sequence", meld.size, meld.wilds, suit, mask)
        return (meld.kind, meld.size, meld.wilds, -1, 0)

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

    def view(self, table: Sequence[Summary]) -> _TableView:
        """What the valuation reads off a table (the side's own, kept for the choice)."""
        if table is self.table:
            if self._own_view is None:
                self._own_view = self.tables.view(table)
            return self._own_view
        return self.tables.view(table)

    def shape(self, counts: Sequence[int]) -> _Shape:
        """What the valuation reads off the cards in hand."""
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

    def _own_shape(self) -> _Shape:
        """:meth:`shape` of the player's own hand, from the counts the hand keeps by rank and
        the ranks it keeps by suit."""
        hand = self.hand
        lim = self.lim
        penalty, wilds = self._penalty_and_wilds(self.counts)
        masks = [0, 0, 0, 0]
        if lim.sequence_allowed:
            runs = lim.run_ranks
            held = hand.suit_masks[self.player]
            masks = [held[0] & runs, held[1] & runs, held[2] & runs, held[3] & runs]
        return _Shape(penalty, list(hand.rank_counts[self.player]), wilds, masks)

    def shape_without(self, cards: Sequence[Card]) -> _Shape:
        """The hand's shape without these cards (held), from the hand's own: what
        :meth:`shape` reads off the hand once they are melded."""
        was = self.own
        by_rank = list(was.by_rank)
        masks = list(was.masks)
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
                by_rank[r] -= 1
                left = gone.get(index, counts[index]) - 1
                gone[index] = left
                if left == 0 and self.lim.run_ranks >> r & 1:
                    masks[index & 3] &= ~(1 << r)
        return _Shape(penalty, by_rank, wilds, masks)

    def discarded(self, index: int) -> _Shape:
        """The hand's shape without one card of ``index`` (held), from the hand's own."""
        was = self.own
        by_rank = list(was.by_rank)
        masks = list(was.masks)
        wilds = was.wilds - 1 if self.wild[index] else was.wilds
        if index < 52:
            r = index >> 2
            by_rank[r] -= 1
            if self.counts[index] == 1 and self.lim.run_ranks >> r & 1:
                masks[index & 3] &= ~(1 << r)
        return _Shape(was.penalty - self.penalties[index], by_rank, wilds, masks)

    def shape_value(
        self,
        shape: _Shape,
        view: _TableView,
        kept: _OwnParts | None = None,
        ranks: int = 0,
        suits: int = 0,
    ) -> float:
        """What the cards in hand (``shape``) are worth beside the side's melds (``view``).

        ``kept``: the parts of the hand's own shape beside the side's table, taken as they
        are for every rank not in ``ranks`` and every suit not in ``suits`` (bits by index)
        whose ranks held are unchanged: where the cards and the view change only those (a
        discard changes one rank and one suit, a meld its own), the same numbers, added in
        the same order.
        """
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
        self, masks: Sequence[int], view: _TableView, kept: _OwnParts | None, suits: int
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

    def _own_parts(self) -> _OwnParts:
        """The parts of the hand's own shape beside the side's table as it is, once."""
        if self._parts is None:
            view = self.view(self.table)
            own = self.own
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
        return view.value + self.shape_value(self.own, view)

    def value_melding(
        self, cards: Sequence[Card], table: Sequence[Summary], grown: Summary
    ) -> float:
        """The position's value once these cards of the hand are melded onto one of the
        side's melds, ``grown`` as it then is, the side's melds then ``table``."""
        view = self.view(table)
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

    def value_discarding(self, index: int) -> float:
        """The position's value once the card of ``index`` is discarded."""
        view = self.view(self.table)
        ranks = 1 << (index >> 2) if index < 52 else 0  # (a joker changes no rank)
        return view.value + self.shape_value(self.discarded(index), view, self._own_parts(), ranks)

    # ------------------------------------------------------------------ danger

    def danger(self, index: int) -> float:
        """What discarding the card may give the next player.

        The chance they take the pile, times what the pile is worth.
        """
        hand = self.hand
        kind = card_class(self.ruleset, CARDS[index])
        if kind in self.rules.pile.blocked_by_top:
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
        base = (index >> 2) * 4
        left = sum(self.unseen[base : base + 4])
        p = min(left / self.unseen_total, 1.0)
        miss = (1 - p) ** size  # they hold none of its rank
        one = size * p * (1 - p) ** max(size - 1, 0)
        chance = 0.0
        if "natural_pair" in ways:
            chance = max(chance, 1 - miss - one)
        if "natural_and_wild" in ways:
            wilds = sum(self.unseen[i] for i in self.lim.wild_indices) / self.unseen_total
            has_wild = 1 - (1 - wilds) ** size
            chance = max(chance, (1 - miss) * has_wild)
        return chance

    def _fits(self, index: int, melds: Sequence[Meld]) -> bool:
        """Whether the natural card goes onto one of these melds, taking the pile."""
        card = CARDS[index]
        onto = self.rules.pile.onto_kinds
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
            else:
                points = self.team_score(team, hand.melds[team], went_out=False)
            for p in range(hand.players):
                if hand.team_of[p] == team and p != goer:
                    points -= self.held(p)
            margin += points if team == self.team else -points / (hand.teams - 1)
        return margin

    def wants_out(self, margin: float) -> bool:
        return margin > 0 or self.stock <= 2 * self.hand.draw_count * self.hand.players
