"""The places a card may go in a way out: onto the side's melds, or into a new meld.

The search of :mod:`bolivia.play.table.ways_out` builds a way out on a :class:`Places`: the
cards still held, the side's melds as they grow, and what a natural card may become there. A
new meld starts as small as it may be legal; more naturals join it as they are placed, and
wild cards come last. The ways are listed, not yielded: they are all read before anything
moves, and a compiled generator costs more a way than a list.

May import: the engine, the rules and the table's helpers below the search.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Final

from bolivia.cards import SUIT_INDEX, Card
from bolivia.engine.limits import Limits
from bolivia.engine.melds import Meld, extension, natural_ranks, new_meld, sequence_places
from bolivia.kept import Kept
from bolivia.play.table.multisets import mixes, sub_multisets, wild_ranks
from bolivia.play.table.runs import gap_naturals, run_capable, start_naturals
from bolivia.play.table.signatures import could_take, signature
from bolivia.play.table.starts import start_pairs
from bolivia.rules.ruleset import Ruleset

__all__ = ["KEPT", "Place", "Places"]

CARDS: Final = Card.all()
KEPT = 100_000  # the most entries a search keeps in each of its caches (then cleared)

#: a place for a card: meld ``t`` of the table (-1: a new meld) becomes the meld with the cards
Place = tuple[int, list[int], Meld]
# new melds by their cards (indexes)
_Made = list[tuple[list[int], Meld]]


class Places:
    """The hand and the side's melds as a way out is built.

    It lists where a card may go; the search moves the cards.
    """

    def __init__(
        self,
        ruleset: Ruleset,
        lim: Limits,
        table: Sequence[Meld],
        counts: Sequence[int],
        first_minimum: int | None,
    ) -> None:
        self.ruleset = ruleset
        self.wild = ruleset.wild
        self.first_minimum = first_minimum
        self.counts = list(counts)
        self.old = len(table)
        self.table: list[Meld] = list(table)
        self.lim = lim
        self.sigs = [signature(m, self.wild, lim.rank_index) for m in self.table]  # with it
        self._grown: Kept[tuple[int, tuple[int, ...], bool], Meld | None] = Kept(KEPT)
        self.one_per_rank = not lim.duplicate_ranks
        self.wilds = list(ruleset.wild_indices)  # the cheaper first
        self.wild_kinds = wild_ranks(ruleset)
        # kept with the ruleset: each new meld going out by its cards (None: no meld; else the
        # meld, and whether it is a run)
        self._made: dict[tuple[int, ...], tuple[Meld, bool] | None] = ruleset.__dict__.setdefault(
            "_new_melds_going_out", {}
        )

    # ------------------------------------------------------------------ the table and the hand

    def set_meld(self, t: int, meld: Meld) -> None:
        self.table[t] = meld
        self.sigs[t] = signature(meld, self.wild, self.lim.rank_index)

    def push(self, meld: Meld) -> None:
        self.table.append(meld)
        self.sigs.append(signature(meld, self.wild, self.lim.rank_index))

    def pop(self) -> None:
        self.table.pop()
        self.sigs.pop()

    def take(self, cards: list[int]) -> None:
        for i in cards:
            self.counts[i] = self.counts[i] - 1

    def give(self, cards: list[int]) -> None:
        for i in cards:
            self.counts[i] = self.counts[i] + 1

    def capable_masks(self) -> list[int]:
        """Per suit, the ranks whose cards could be part of a sequence.

        See :func:`~bolivia.play.table.runs.run_capable`.
        """
        wilds = sum(self.counts[i] for i in self.wilds)
        return run_capable(self.lim, self.counts, wilds, self.table)

    def grow(self, t: int, meld: Meld, cards: list[int]) -> Meld | None:
        """Meld ``t`` grown by these cards (indexes) going out, or None.

        Only a sequence on the table before this turn grows past ``max_size`` going out (where
        ``melds.sequence.extend_going_out`` allows): one laid this turn is laid whole with its
        additions, as the verifier holds it. Kept, as the same meld grows by the same cards in
        many states (keyed by identity: the meld is kept too).
        """
        laid_now = t >= self.old
        key = (id(meld), tuple(cards), laid_now)
        known = self._grown.find(key, meld)
        if known is not None:
            return known[1]
        grown = extension(self.ruleset, meld, [CARDS[i] for i in cards], going_out=True)
        longest = self.lim.sequence_max_size
        if (
            grown is not None
            and laid_now
            and grown.kind == "sequence"
            and longest is not None
            and grown.size > longest
        ):
            grown = None
        return self._grown.keep(key, meld, grown)

    # ------------------------------------------------------------------ a natural card's places

    def plan(self, index: int, capable: list[int]) -> list[Place]:
        """Every place for the natural card on the table or in a new meld.

        Runs come first: a sequence is what a requirement most often lacks and what a wrong
        early choice most often spoils. The discard, tried last, is not listed. ``capable``:
        the state's :meth:`capable_masks`.
        """
        runs, rest = self._new_places(index, capable)
        out: list[Place] = []
        self._onto_table(index, True, out)
        self._new_ones(runs, out)
        self._onto_table(index, False, out)
        self._new_ones(rest, out)
        return out

    def _new_places(self, index: int, capable: list[int]) -> tuple[_Made, _Made]:
        """The legal new melds that hold the card: the runs, and the rest."""
        runs: _Made = []
        rest: _Made = []
        for cards in self.new_melds(index, capable):
            found = self._made_meld(cards)
            if found is not None:
                (runs if found[1] else rest).append((cards, found[0]))
        return runs, rest

    def _made_meld(self, cards: list[int]) -> tuple[Meld, bool] | None:
        """The new meld of these cards going out, and whether it is a run.

        None if they make no legal meld. Kept with the ruleset.
        """
        made = self._made
        key = tuple(cards)
        if key in made:
            return made[key]
        meld = new_meld(self.ruleset, [CARDS[i] for i in cards], going_out=True)
        wild = self.wild
        several = len({i >> 2 for i in cards if not wild[i]}) > 1
        if len(made) > KEPT:  # a bound on what is kept
            made.clear()
        found = made[key] = None if meld is None else (meld, several)
        return found

    def _onto_table(self, index: int, onto_runs: bool, out: list[Place]) -> None:
        """The card onto the side's runs (or its other melds), as their signatures allow."""
        table = self.table
        sigs = self.sigs
        for t in range(len(table)):
            sig = sigs[t]
            if (sig & 3 == 3) != onto_runs or not could_take(sig, index):
                continue
            meld = table[t]
            for cards in self.joins(index, t, meld):
                grown = self.grow(t, meld, cards)
                if grown is not None:
                    out.append((t, cards, grown))

    def _new_ones(self, made: _Made, out: list[Place]) -> None:
        """The new melds as places, less a second group of a rank where barred."""
        table = self.table
        for cards, meld in made:
            if (
                meld.kind == "group"
                and self.one_per_rank
                and any(m.kind == "group" and m.rank == meld.rank for m in table)
            ):
                continue
            out.append((-1, cards, meld))

    def joins(self, index: int, t: int, meld: Meld) -> list[list[int]]:
        """The ways the natural card may join the meld: alone, or across a gap.

        Across a gap to a sequence it does not touch: with the naturals of its suit held
        between (any of them may be left for elsewhere, a wild card in its place) and the
        fewest wild cards that make it legal. Without the bridge, ``8H 9H 10H`` onto
        ``JH QH KH AH`` would be missed when ``8H`` is placed first. ``t``: the meld's place
        on the side's table (see :meth:`grow`).
        """
        out = [[index]]
        if meld.kind != "sequence":
            return out
        max_wild = self.lim.sequence_max_wild
        ranks = natural_ranks(self.wild, meld)
        for places in sequence_places(self.ruleset, ranks, meld.wilds):
            for p in self.lim.rank_positions[index >> 2]:  # an ace low or high, by position
                between = gap_naturals(self.lim, self.counts, index & 3, places, p)
                if between is not None:  # not a duplicate, nor next to it (alone is the way)
                    self._bridges(index, t, meld, between, max_wild, out)
        return out

    def _bridges(
        self,
        index: int,
        t: int,
        meld: Meld,
        between: list[int],
        max_wild: int,
        out: list[list[int]],
    ) -> None:
        """:meth:`joins` across a gap: the card with some of the naturals ``between``.

        The ways are added to ``out``; more wild cards may join in the wild phase.
        """
        available = sum(self.counts[i] for i in self.wilds)
        slack = min(available, max_wild - meld.wilds)
        for left_out in range(min(len(between), slack) + 1):
            for kept in sub_multisets(between, len(between) - left_out):
                self._bridge(index, t, meld, kept, slack, out)

    def _bridge(
        self, index: int, t: int, meld: Meld, kept: list[int], slack: int, out: list[list[int]]
    ) -> None:
        """The card and the naturals ``kept`` onto the meld, with the fewest wild cards."""
        cards = [index, *kept]
        for w in range(slack + 1):
            fills = self.wilds_beside(cards, w, index & 3)
            if not fills:
                return
            if w and self.lim.natural_twos:  # the twos differ: each mix that grows it
                grows = [mix for mix in fills if self.grow(t, meld, cards + mix) is not None]
                out.extend(cards + mix for mix in grows)
                if grows:
                    return
                continue
            if self.grow(t, meld, cards + fills[0]) is None:
                continue
            if w and self.first_minimum is not None:
                for mix in fills:  # the points of the mix count
                    out.append(cards + mix)
            else:
                out.append(cards + fills[0])
            return

    def new_melds(self, index: int, capable: list[int]) -> list[list[int]]:
        """The new melds (card indexes) that hold the natural card."""
        lim = self.lim
        rank, suit = index >> 2, index & 3
        out: list[list[int]] = []
        if rank == 1:  # a black three: in a meld of threes, or a run where the span holds it
            if lim.threes_when != "never":
                others = [i for i in (4, 7) for _ in range(self.counts[i] - (i == index))]
                self._with_naturals(index, others, capable, out)
            if lim.sequence_allowed:
                self._sequences(index, rank, suit, out)
            return out
        same = [
            i for i in range(rank * 4, rank * 4 + 4) for _ in range(self.counts[i] - (i == index))
        ]
        self._with_naturals(index, same, capable, out)
        if lim.sequence_allowed:
            self._sequences(index, rank, suit, out)
        return out

    def _with_naturals(
        self, index: int, others: list[int], capable: list[int], out: list[list[int]]
    ) -> None:
        """The smallest groups (or melds of black threes) that hold the card.

        Each pair of the fewest naturals and wild cards that make it legal
        (:func:`~bolivia.play.table.starts.start_pairs`), each choice of the naturals; the
        melds are added to ``out``.
        """
        threes = index >> 2 == 1
        available = sum(self.counts[i] for i in self.wilds)
        for k, w in start_pairs(self.ruleset, threes, len(others), available):
            choices = self._naturals_choices(others, k, capable)
            if choices:
                fills = self.wild_choices(w)
                for naturals in choices:
                    for wilds in fills:
                        out.append([index, *naturals, *wilds])

    def _naturals_choices(self, others: list[int], k: int, capable: list[int]) -> list[list[int]]:
        """Each choice of ``k`` of these naturals of one rank.

        Those that cannot be in a sequence (by ``capable``) are interchangeable: the lowest
        first.
        """
        free = [i for i in others if (capable[i & 3] >> (i >> 2)) & 1]
        loose = [i for i in others if not (capable[i & 3] >> (i >> 2)) & 1]
        out: list[list[int]] = []
        for j in range(min(k, len(loose)) + 1):
            for chosen in sub_multisets(free, k - j):
                out.append([*chosen, *loose[:j]])
        return out

    def _sequences(self, index: int, rank: int, suit: int, out: list[list[int]]) -> None:
        """A sequence holding the card and at least one other natural of its suit.

        For each number of wild cards, the fewest naturals that make it legal, each choice
        of ranks within reach below or above it; added to ``out``.
        """
        lim = self.lim
        available = sum(self.counts[i] for i in self.wilds)
        for w in range(min(available, lim.sequence_max_wild) + 1):
            k = max(1, lim.sequence_min_size - 1 - w)  # naturals beside the card
            if w:  # as many as a sequence holding a wild card needs
                k = max(k, lim.sequence_wild_from - 1 - w)
            fills: list[list[int]] | None = None  # read at the first natural choice
            for others in start_naturals(self.lim, self.counts, index, k, w):
                if fills is None or self.lim.natural_twos:
                    fills = self.wilds_beside(others, w, suit)
                for wilds in fills:
                    out.append([index, *others, *wilds])

    # ------------------------------------------------------------------ wild cards

    def wild_choices(self, n: int, own: int = -1) -> list[list[int]]:
        """Ways to take ``n`` wild cards from the hand, for a meld whose own two is ``own``
        (the index of the two of a run's suit; -1: none, or not a run).

        Every mix of wild kinds where the new melds' points count (a side's first meld), else
        the cheapest only; where a run's own two may be a natural card, the ways
        :meth:`cheapest` gives.
        """
        if n == 0:
            return [[]]
        if self.first_minimum is None:
            return list(self.cheapest(n, own))
        held = [[i for i in kind for _ in range(self.counts[i])] for kind in self.wild_kinds]
        if sum(map(len, held)) < n:
            return []
        return list(mixes(held, n, cheapest=False))

    def wilds_beside(self, naturals: list[int], n: int, own: int = -1) -> list[list[int]]:
        """:meth:`wild_choices` of the cards left beside these naturals: a run's own two
        among them (``melds.sequence.natural_twos``) is not also one of its wild cards."""
        if not self.lim.natural_twos or min(naturals, default=4) >= 4:
            return self.wild_choices(n, own)
        self.take(naturals)
        fills = self.wild_choices(n, own)
        self.give(naturals)
        return fills

    def cheapest(self, n: int, own: int = -1) -> Iterator[list[int]]:
        """The cheapest ways to take ``n`` wild cards, if the hand holds so many.

        All wild cards do alike where existence is asked, but where a run's own two may be a
        natural card (``melds.sequence.natural_twos``) the twos differ: the meld's own two
        ``own`` (-1: none) may be read in its place, and another suit's two may be wanted in
        a run of its suit later (:meth:`two_suits`). So each number of own twos is tried; the
        rest are the other twos and the jokers (cheapest first), then, only past those, each
        mix of the twos worth keeping.
        """
        if not self.lim.natural_twos:
            held = [[i for i in kind for _ in range(self.counts[i])] for kind in self.wild_kinds]
            if sum(map(len, held)) >= n:
                yield from mixes(held, n, cheapest=True)
            return
        counts = self.counts
        kept = self.two_suits()
        if own >= 0:
            kept |= 1 << own  # its copies are the owns below, not plain
        plain = [i for i in self.wilds if not (i < 4 and kept >> i & 1) for _ in range(counts[i])]
        if own >= 0:
            kept &= ~(1 << own)
        specials = [[i] * counts[i] for i in range(4) if kept >> i & 1 and counts[i]]
        owns = [own] * counts[own] if own >= 0 else []
        for j in range(min(n, len(owns)) + 1):
            rest = n - j
            if rest <= len(plain):
                yield owns[:j] + plain[:rest]
            else:
                for mix in mixes(specials, rest - len(plain), cheapest=False):
                    yield owns[:j] + plain + mix

    def two_suits(self) -> int:
        """A bit for each suit whose two may yet stand in a run as its natural card.

        Such a run's lowest other natural stands at the ace's place or at most
        ``max_wild + 1`` places above the two's (wild cards fill the places between), and it
        is held or in one of the side's runs now: suits with no such card keep no two worth
        more than another wild card.
        """
        lim = self.lim
        top = 2 + lim.sequence_max_wild
        counts = self.counts
        suits = 0
        for s in range(4):
            cells = lim.suit_places[s]
            for p in range(min(top, 13) + 1):
                if p != 1 and cells[p] >= 0 and counts[cells[p]]:
                    suits |= 1 << s
                    break
        for m in self.table:
            if (
                m.kind == "sequence"
                and m.suit is not None
                and not (suits >> SUIT_INDEX[m.suit]) & 1
            ):
                low = min(
                    0 if r == 12 and lim.span_low == 0 else r + 1
                    for r in natural_ranks(self.wild, m)
                )
                if low <= top:
                    suits |= 1 << SUIT_INDEX[m.suit]
        return suits
