"""The search for a way out: can a player empty the hand this turn, and how.

A way out puts every card of the hand somewhere -- onto the side's melds, into new melds, or
as the one discard -- so that every meld is legal (black threes may be melded, as the player
goes out), the side's melds then meet the going-out requirement, and, for a side that has not
melded, the new melds reach the first meld's minimum. The search is exact for any hand size:
it answers "no" only when no such placement exists, and it has no budget.

It places the natural cards one at a time, and tries every place for each: the discard; each
meld on the table that can take it (a run also with the naturals held between it and the card,
or wild cards in their place: ``8H 9H 10H`` onto ``JH QH KH AH``); a new group of its rank
(with the fewest other naturals that make it legal, and any number of wild cards); a new
sequence holding it (the fewest other naturals of its suit, below or above it, that make it
legal, and any number of wild cards); a new meld of black threes. Cards placed later join the
melds made earlier, so every legal final meld is reached in any order of the cards: a group
grows by naturals without breaking its limits once legal, a run at either end. The wild cards
come last: the discard, how many onto each meld, new melds of wild cards. Before the first card,
the side's groups of one rank may be joined (where the ruleset allows it) and wild cards may go
onto a group that more naturals will then make a canasta (where no wild card may go onto a
finished one).

Most hands are settled by a first try in the plain order (the lowest card first) within a few
dozen states; past those, the search starts again with an order chosen once, before the first
card (what the first try found to fail stays known): every card held is tried at each of its
places one step ahead through the quick bounds of :mod:`bolivia.play.table.bounds`; a card with
no place left open means there is no way out, and so do two cards (or two copies of one) whose
one open place is the discard. The cards that closed a probe are tried first at the next (the
search probes again after each join and early wild card, until a probe passes). The cards with
the fewest open places go first, so that a conflict (the ten of hearts both the escalera's and
the only partner of the jack of hearts) is met before choices elsewhere multiply it; the order
of the first probe that passes serves the joins and early wild cards tried after it (they move a
card or two, and a probe costs as much as dozens of states). Failed states (the cards left, the
melds on the table, whether the discard is used) are remembered, so the same state is never
searched twice.

Wild cards of one rank are interchangeable (the same points, the same rules), so where the
points of the new melds do not matter (the side has melded) the cheapest are used first.
(An example: ``tests/test_moves.py``, the first way out of a small hand.)
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Final

from bolivia.cards import Card
from bolivia.engine.going_out import meets_requirement
from bolivia.engine.initial_meld import counted_points, meets_first
from bolivia.engine.limits import limits
from bolivia.engine.melds import (
    Meld,
    canasta_of,
    combination,
    could_join,
    extension,
    new_meld,
    sequence_places,
)
from bolivia.kept import Kept
from bolivia.play.table.actions import GoOut
from bolivia.play.table.bounds import could_meet, stranded
from bolivia.play.table.multisets import mixes, sub_multisets, wild_ranks
from bolivia.play.table.runs import gap_naturals, run_capable, start_naturals
from bolivia.play.table.signatures import could_take, kinds_with, signature
from bolivia.play.table.starts import start_pairs
from bolivia.rules.ruleset import Ruleset

__all__ = ["can_go_out", "ways_out"]

CARDS: Final = Card.all()


def ways_out(
    ruleset: Ruleset,
    table: Sequence[Meld],
    counts: Sequence[int],
    *,
    players: int,
    first_minimum: int | None = None,
    first_canasta: tuple[str, ...] = (),
    limit: int = 1,
    bounded: bool = True,
) -> list[GoOut]:
    """Up to ``limit`` ways to go out with the hand ``counts`` (53 counts by card index) onto
    the side's melds ``table``. ``first_minimum``: the side has not melded, and its new melds
    must count this much (and hold a canasta of a kind in ``first_canasta``, if any).
    ``bounded=False`` searches without the quick bounds (the bounds never change the answer)."""
    held = list(counts)  # lists: what the compiled bounds index and walk fastest
    melds = list(table)
    # the requirement first: it closes nearly every hand that has no way out (4,966 of 5,008
    # in 100 greedy bolivia-da hands), and the stranded cards are then not looked for
    if bounded and not could_meet(ruleset, held, melds, players):
        return []
    lost = stranded(ruleset, held, melds) if bounded else []
    if len(lost) > 1:
        return []
    search = _Search(ruleset, table, held, players, first_minimum, limit)
    search.first_canasta = first_canasta if first_minimum is not None else ()
    search.bounded, search.root_lost = bounded, (lost if bounded else None)
    search.run()
    return search.found


def can_go_out(
    ruleset: Ruleset,
    table: Sequence[Meld],
    counts: Sequence[int],
    *,
    players: int,
    first_minimum: int | None = None,
) -> bool:
    """Whether any way out exists (:func:`ways_out` with a limit of one)."""
    return bool(ways_out(ruleset, table, counts, players=players, first_minimum=first_minimum))


QUICK_TRY = 48  # states the first try in the plain order may visit
KEPT = 100_000  # the most entries a search keeps in each of its caches (then cleared)


class _Search:
    def __init__(
        self,
        ruleset: Ruleset,
        table: Sequence[Meld],
        counts: Sequence[int],
        players: int,
        first_minimum: int | None,
        limit: int,
    ) -> None:
        self.ruleset = ruleset
        self.rules = ruleset.rules
        self.wild = ruleset.wild
        self.players = players
        self.first_minimum = first_minimum
        self.first_canasta: tuple[str, ...] = ()  # kinds the first meld's canasta may be
        self.limit = limit
        self.counts = list(counts)
        self.old = len(table)
        self.table: list[Meld] = list(table)
        self.lim = lim = limits(ruleset)
        self.sigs = [signature(m, self.wild, lim.rank_index) for m in self.table]  # with it
        self.combines: list[tuple[int, int]] = []
        self.extends: list[tuple[int, tuple[Card, ...]]] = []
        self.discard: Card | None = None
        self.found: list[GoOut] = []
        self.failed: set[tuple[object, ...]] = set()
        self.bounded = True
        self.root_lost: list[int] | None = None
        self.sequences = lim.sequence_allowed
        self.naturals = lim.natural_indices
        self.order = self.naturals  # the order the naturals are placed in (see probe)
        self.ordered = False  # a probe has passed and chosen the order
        self.placed = 0  # naturals placed (or discarded) so far
        self.budget: int | None = None  # states left to the first try (see run)
        self.spent = False  # the first try's states are spent (see run)
        self.probing = False
        self.suspects: list[int] = []  # see probe
        self._grown: Kept[tuple[int, tuple[int, ...]], Meld | None] = Kept(KEPT)
        self.one_per_rank = not lim.duplicate_ranks
        self.wilds = list(ruleset.wild_indices)  # the cheaper first
        self.wild_kinds = wild_ranks(ruleset)
        # kept with the ruleset: each new meld going out by its cards (None: no meld; else the
        # meld, and whether it is a run)
        self._made: dict[tuple[int, ...], tuple[Meld, bool] | None] = ruleset.__dict__.setdefault(
            "_new_melds_going_out", {}
        )

    # ------------------------------------------------------------------ the table

    def set_meld(self, t: int, meld: Meld) -> None:
        self.table[t] = meld
        self.sigs[t] = signature(meld, self.wild, self.lim.rank_index)

    def push(self, meld: Meld) -> None:
        self.table.append(meld)
        self.sigs.append(signature(meld, self.wild, self.lim.rank_index))

    def pop(self) -> None:
        self.table.pop()
        self.sigs.pop()

    # ------------------------------------------------------------------ the root

    def run(self) -> None:
        """A first try in the plain order (lowest card first) for a few states, which settles
        most hands at once; then, if it has not, the search with the order of :meth:`probe`.
        What the first try found to fail stays known (a failure does not depend on the order)."""
        if not self.bounded:
            self.root()
            return
        limit = self.limit
        self.budget = QUICK_TRY
        self.root()
        if not self.spent:
            return
        # spent: the search stopped as if it had found enough, and put everything back
        self.limit, self.spent, self.found = limit, False, []
        self.budget = None
        self.probing = True
        self.root()

    def root(self) -> None:
        """Joins of the side's groups, then wild cards onto its groups, before the first card."""
        self._combine(0)

    def _combine(self, start: int) -> None:
        self._pre_wild(0)
        if len(self.found) >= self.limit or not self.lim.combine:
            return
        for i in range(start, self.old):
            for j in range(i + 1, self.old):
                a, b = self.table[i], self.table[j]
                if a.kind != "group" or b.kind != "group" or a.rank != b.rank:
                    continue
                joined = combination(self.ruleset, a, b)
                if joined is None:
                    continue
                self.set_meld(i, joined)
                del self.table[j]
                del self.sigs[j]
                self.old -= 1
                self.combines.append((i, j))
                self._combine(i)
                self.combines.pop()
                self.old += 1
                self.table.insert(j, b)
                self.sigs.insert(j, signature(b, self.wild, self.lim.rank_index))
                self.set_meld(i, a)
                if len(self.found) >= self.limit:
                    return

    def _pre_wild(self, start: int) -> None:
        """Where no wild card may go onto a finished canasta, a wild card may still go onto a
        group before naturals finish it: tried for the groups the hand's naturals could
        finish, the cheapest wild card each time (and where one finishes the group, more at
        once with it, one extension onto the unfinished group, as its limits allow).

        A wild card put on early where the naturals held could not finish the group even
        without it makes no way out that the state before lacks (the wild card could go on
        last), so once that state is searched through with none found (not in the first try,
        whose states are counted), such groups are passed over: the same ways out, sooner."""
        self.place()
        if len(self.found) >= self.limit or self.lim.wild_onto_canasta:
            return
        wild = next((i for i in self.wilds if self.counts[i]), None)
        if wild is None:
            return
        size = self.lim.group_canasta
        for t in range(start, self.old):
            meld = self.table[t]
            if meld.kind != "group" or canasta_of(self.ruleset, meld) is not None:
                continue
            r = next(c.index >> 2 for c in meld.cards if not self.wild[c.index])
            held = sum(self.counts[i] for i in range(r * 4, r * 4 + 4))
            # the wild card itself counted towards the canasta while a way out found here may
            # be a second one, or the first try's states are counted
            with_wild = 0 if self.probing and not self.found else 1
            if not held or meld.size + held + with_wild < size:
                continue
            most = sum(self.counts[i] for i in self.wilds)
            if self.lim.group_max_wild is not None:
                most = min(most, self.lim.group_max_wild - meld.wilds)
            for n in range(1, most + 1):
                mix = [wild] if n == 1 else next(self._cheapest(n), None)
                grown = (
                    None if mix is None else extension(self.ruleset, meld, [CARDS[i] for i in mix])
                )
                if mix is None or grown is None:
                    break
                self.take(mix)
                self.set_meld(t, grown)
                self.extends.append((t, tuple(CARDS[i] for i in mix)))
                self._pre_wild(t)
                self.extends.pop()
                self.set_meld(t, meld)
                self.give(mix)
                if len(self.found) >= self.limit:
                    return
                if n == 1 and canasta_of(self.ruleset, grown) is None:
                    break  # more one at a time, from the state the one makes

    # ------------------------------------------------------------------ placing cards

    def capable_masks(self) -> list[int]:
        """Per suit, the ranks whose cards could be part of a sequence (see
        :func:`~bolivia.play.table.runs.run_capable`)."""
        wilds = sum(self.counts[i] for i in self.wilds)
        return run_capable(self.lim, self.counts, wilds, self.table)

    def grow(self, meld: Meld, cards: list[int]) -> Meld | None:
        """The meld grown by these cards (indexes) as a player going out grows it
        (:func:`~bolivia.engine.melds.extension`), or None; kept for the search, as the same
        meld is grown by the same cards in many states (by identity: the meld is kept too)."""
        key = (id(meld), tuple(cards))
        known = self._grown.find(key, meld)
        if known is not None:
            return known[1]
        grown = extension(self.ruleset, meld, [CARDS[i] for i in cards], going_out=True)
        return self._grown.keep(key, meld, grown)

    def key(self, capable: list[int]) -> tuple[object, ...]:
        """The state, with the naturals that cannot be in a sequence counted by rank only
        (states that differ in their suits alone are one state); ``capable``: the state's
        :meth:`capable_masks`."""
        points: object = None
        if self.first_minimum is not None:
            new = self.table[self.old :]
            points = (counted_points(self.ruleset, new), bool(new) and self.first_met(new))
        counts = self.counts
        if self.sequences:
            # a rank's four counts and its loose naturals in one int, eight bits each (a card
            # is held at most MAX_DECKS = 8 times, the loose at most 32)
            wild = self.wild
            c0, c1, c2, c3 = capable[0], capable[1], capable[2], capable[3]
            cells: list[int] = []
            for r in range(13):
                base = r << 2
                a, b, c, d = counts[base], counts[base + 1], counts[base + 2], counts[base + 3]
                loose = 0
                if a and not wild[base] and not (c0 >> r) & 1:
                    loose, a = loose + a, 0
                if b and not wild[base + 1] and not (c1 >> r) & 1:
                    loose, b = loose + b, 0
                if c and not wild[base + 2] and not (c2 >> r) & 1:
                    loose, c = loose + c, 0
                if d and not wild[base + 3] and not (c3 >> r) & 1:
                    loose, d = loose + d, 0
                cells.append(loose << 32 | a << 24 | b << 16 | c << 8 | d)
            cells.append(counts[52])
            state: tuple[int, ...] = tuple(cells)
        else:
            wild = self.wild
            cells = [
                -1 if wild[b] else counts[b] + counts[b + 1] + counts[b + 2] + counts[b + 3]
                for b in range(0, 52, 4)
            ]
            cells += [counts[i] for i in self.wilds]
            cells += (counts[4], counts[7])
            state = tuple(cells)
        return (state, self.discard is None, tuple(self.sigs), points)

    def place(self) -> None:
        if len(self.found) >= self.limit:
            return
        if self.budget is not None:
            self.budget -= 1
            if self.budget < 0:
                # the first try is spent: a limit of none found stops every loop at once
                self.spent = True
                self.limit = 0
                return
        # the ranks that could be in a sequence, read once for the state: its key, the probe
        # and the plan of the card placed all ask
        capable = self.capable_masks()
        key = self.key(capable)
        if key in self.failed:
            return
        before = len(self.found)
        if self.root_lost is not None:  # the root, whose bounds ways_out found open
            lost, self.root_lost = self.root_lost, None
        else:
            # the requirement's bound first: it closes more states than the stranded cards
            if self.bounded and not could_meet(self.ruleset, self.counts, self.table, self.players):
                self.failed.add(key)
                return
            lost = stranded(self.ruleset, self.counts, self.table) if self.bounded else []
            if len(lost) > (1 if self.discard is None else 0):
                self.failed.add(key)
                return
        if self.probing and not self.placed and not self.ordered and not self.probe(capable):
            self.failed.add(key)
            return
        if lost:  # the one card with nowhere to go can only be the discard
            self.discard_card(lost[0])
        else:
            chosen = self.choose(capable)
            if chosen is None:
                self.wild_phase()
            else:
                index, plan = chosen  # no star call: that would go through the generic call
                self.options(index, plan)
        if len(self.found) == before and not self.spent:
            self.failed.add(key)

    def discard_card(self, index: int) -> None:
        self.counts[index] = self.counts[index] - 1
        self.discard = CARDS[index]
        self.placed += 1
        self.place()
        self.placed -= 1
        self.discard = None
        self.counts[index] = self.counts[index] + 1

    def plan(self, index: int, capable: list[int]) -> list[tuple[int, list[int], Meld]]:
        """Every place for the card on the table or in a new meld, as ``(t, cards, meld)``:
        meld ``t`` of the table (-1: a new meld) becomes ``meld`` with ``cards`` of the hand
        (``capable``: the state's :meth:`capable_masks`).
        Runs come first (a sequence is what a requirement most often lacks and what a wrong
        early choice most often spoils); the discard, tried last, is not listed."""
        made = self._made
        runs: list[tuple[list[int], Meld]] = []
        rest: list[tuple[list[int], Meld]] = []
        for cards in self.new_melds(index, capable):
            key = tuple(cards)
            if key in made:
                found = made[key]
            else:
                meld = new_meld(self.ruleset, [CARDS[i] for i in cards], going_out=True)
                wild = self.wild
                several = len({i >> 2 for i in cards if not wild[i]}) > 1
                if len(made) > KEPT:  # a bound on what is kept
                    made.clear()
                found = made[key] = None if meld is None else (meld, several)
            if found is not None:
                (runs if found[1] else rest).append((cards, found[0]))
        table = self.table
        sigs = self.sigs  # the melds the card could join, read from their signatures
        out: list[tuple[int, list[int], Meld]] = []
        for onto_runs in (True, False):
            for t in range(len(table)):
                sig = sigs[t]
                if (sig & 3 == 3) != onto_runs or not could_take(sig, index):
                    continue
                meld = table[t]
                for cards in self.joins(index, meld):
                    grown = self.grow(meld, cards)
                    if grown is not None:
                        out.append((t, cards, grown))
            for cards, meld in runs if onto_runs else rest:
                if (
                    meld.kind == "group"
                    and self.one_per_rank
                    and any(m.kind == "group" and m.rank == meld.rank for m in table)
                ):
                    continue
                out.append((-1, cards, meld))
        return out

    def options(self, index: int, plan: list[tuple[int, list[int], Meld]]) -> None:
        """The card to each place of its ``plan`` in turn, then to the discard (one spent
        early is seldom the way)."""
        found = self.found
        self.placed += 1
        for t, cards, meld in plan:
            self.take(cards)
            if t < 0:
                self.push(meld)
                self.place()
                self.pop()
            else:
                before = self.table[t]
                self.set_meld(t, meld)
                self.extends.append((t, tuple(CARDS[i] for i in cards)))
                self.place()
                self.extends.pop()
                self.set_meld(t, before)
            self.give(cards)
            if len(found) >= self.limit:
                break
        self.placed -= 1
        if self.discard is None and len(found) < self.limit:
            self.discard_card(index)

    def choose(self, capable: list[int]) -> tuple[int, list[tuple[int, list[int], Meld]]] | None:
        """The next natural card to place and its plan: the first held in :attr:`order`."""
        counts = self.counts
        index = next((i for i in self.order if counts[i]), None)
        return None if index is None else (index, self.plan(index, capable))

    def viable(self) -> bool:
        """Whether the quick bounds leave the state open (see :mod:`bolivia.play.table.bounds`)."""
        return could_meet(self.ruleset, self.counts, self.table, self.players) and len(
            stranded(self.ruleset, self.counts, self.table)
        ) <= (1 if self.discard is None else 0)

    def viable_discard(self, index: int) -> bool:
        """Whether the state with the card as the discard is left open by the bounds."""
        self.counts[index] = self.counts[index] - 1
        self.discard = CARDS[index]
        open_place = self.viable()
        self.discard = None
        self.counts[index] = self.counts[index] + 1
        return open_place

    def probe(self, capable: list[int]) -> bool:
        """Before the first card is placed: each natural held tried at each of its places (and
        the discard) one step ahead through the bounds. False when some card has no place the
        bounds leave open (no way out); else :attr:`order` puts the cards with the fewest open
        places first, so a conflict is met before choices elsewhere multiply it."""
        scored: list[tuple[int, int]] = []
        forced: list[int] = []  # the cards whose one open place is the discard
        copies = 0  # and their copies held
        suspects = self.suspects  # what closed an earlier probe of this search, tried first
        for index in suspects + [i for i in self.naturals if i not in suspects]:
            if not self.counts[index]:
                continue
            open_places = 0
            for t, cards, meld in self.plan(index, capable):  # each card from this state
                self.take(cards)
                if t < 0:
                    self.push(meld)
                else:
                    before = self.table[t]
                    self.set_meld(t, meld)
                open_places += self.viable()
                if t < 0:
                    self.pop()
                else:
                    self.set_meld(t, before)
                self.give(cards)
            if self.discard is None and self.viable_discard(index):
                if not open_places:
                    # every way out discards each copy of it (every other place is closed),
                    # and there is one discard
                    forced.append(index)
                    copies += self.counts[index]
                    if copies > 1:
                        self.suspects = forced
                        return False
                open_places += 1
            if not open_places:
                self.suspects = [index]
                return False
            scored.append((open_places, index))
        self.order = [index for _, index in sorted(scored)]
        self.ordered = True
        return True

    def joins(self, index: int, meld: Meld) -> list[list[int]]:
        """The ways the natural card may join the meld: alone; and, for a sequence it does not
        touch, with what bridges the gap -- the naturals of its suit held between it and the
        sequence (any of them may be left for elsewhere with a wild card in its place) and the
        fewest wild cards that make it legal (more may join in the wild phase). Without the
        bridge a sequence could only grow by cards next to it, one at a time, and
        ``8H 9H 10H`` onto ``JH QH KH AH`` would be missed when ``8H`` is placed first.
        (The ways are listed, not yielded, here and in :meth:`new_melds`: they are all read
        before anything moves, and a compiled generator costs more a way than a list.)"""
        out = [[index]]
        if meld.kind != "sequence":
            return out
        max_wild = self.lim.sequence_max_wild
        ranks = [c.index >> 2 for c in meld.cards if not self.wild[c.index]]
        for places in sequence_places(self.ruleset, ranks, meld.wilds):
            for p in self.lim.rank_positions[index >> 2]:  # an ace low or high, by position
                between = gap_naturals(self.lim, self.counts, index & 3, places, p)
                if between is not None:  # not a duplicate, nor next to it (alone is the way)
                    self._bridges(index, meld, between, max_wild, out)
        return out

    def _bridges(
        self, index: int, meld: Meld, between: list[int], max_wild: int, out: list[list[int]]
    ) -> None:
        """:meth:`joins` across a gap: the card with some of the naturals ``between`` (added to
        ``out``)."""
        available = sum(self.counts[i] for i in self.wilds)
        slack = min(available, max_wild - meld.wilds)
        for left_out in range(min(len(between), slack) + 1):
            for kept in sub_multisets(between, len(between) - left_out):
                for w in range(slack + 1):
                    cards = [index, *kept]
                    fills = self.wild_choices(w)
                    if not fills:
                        break
                    if self.grow(meld, cards + fills[0]) is None:
                        continue
                    if w and self.first_minimum is not None:
                        for mix in fills:  # the points of the mix count
                            out.append(cards + mix)
                    else:
                        out.append(cards + fills[0])
                    break  # more wild cards may join in the wild phase

    def new_melds(self, index: int, capable: list[int]) -> list[list[int]]:
        """The new melds (card indices) that hold the natural card, by the rules above."""
        lim = self.lim
        rank, suit = index >> 2, index & 3
        out: list[list[int]] = []
        if rank == 1:  # a black three: in a meld of threes, or a run where the span holds it
            if lim.threes_when != "never":
                others = [i for i in (4, 7) for _ in range(self.counts[i] - (i == index))]
                self._with_naturals(index, others, lim.threes_max_wild, capable, out)
            if lim.sequence_allowed:
                self._sequences(index, rank, suit, out)
            return out
        same = [
            i for i in range(rank * 4, rank * 4 + 4) for _ in range(self.counts[i] - (i == index))
        ]
        self._with_naturals(index, same, lim.group_max_wild, capable, out)
        if lim.sequence_allowed:
            self._sequences(index, rank, suit, out)
        return out

    def _with_naturals(
        self,
        index: int,
        others: list[int],
        max_wild: int | None,
        capable: list[int],
        out: list[list[int]],
    ) -> None:
        """A group (or a meld of black threes) of the card, started as small as it may be: the
        fewest naturals and wild cards that make it legal (each such pair, each choice of the
        naturals), as more naturals join as they are placed and wild cards come last. Where
        no wild card may go onto a finished canasta and the rank could make one, every number
        of wild cards is offered at once. One natural with wild cards is offered too where it
        could be a legal meld of some kind (:func:`verify_meld` decides which). ``max_wild``
        is the ruleset's limit for the meld's kind (what :func:`start_pairs` reads); the melds
        are added to ``out``."""
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
        """Each choice of ``k`` of these naturals of one rank, those that cannot be in a
        sequence (by ``capable``, the state's :meth:`capable_masks`) taken as interchangeable
        (the lowest first)."""
        free = [i for i in others if (capable[i & 3] >> (i >> 2)) & 1]
        loose = [i for i in others if not (capable[i & 3] >> (i >> 2)) & 1]
        out: list[list[int]] = []
        for j in range(min(k, len(loose)) + 1):
            for chosen in sub_multisets(free, k - j):
                out.append([*chosen, *loose[:j]])
        return out

    def _sequences(self, index: int, rank: int, suit: int, out: list[list[int]]) -> None:
        """A sequence holding the card and at least one other natural of its suit: for each
        number of wild cards, the fewest naturals that make it legal, each choice of ranks
        within reach below or above it (more naturals join at either end as they are
        placed; added to ``out``)."""
        lim = self.lim
        available = sum(self.counts[i] for i in self.wilds)
        for w in range(min(available, lim.sequence_max_wild) + 1):
            k = max(1, lim.sequence_min_size - 1 - w)  # naturals beside the card
            fills: list[list[int]] | None = None  # read at the first natural choice
            for others in start_naturals(self.lim, self.counts, index, k, w):
                if fills is None:
                    fills = self.wild_choices(w)
                for wilds in fills:
                    out.append([index, *others, *wilds])

    # ------------------------------------------------------------------ wild cards

    def wild_phase(self) -> None:
        """Only wild cards are left: the discard (none, or one of each wild rank), then how
        many go onto each meld in turn, then new melds of wild cards for the rest."""
        options: list[int | None] = [None]
        if self.discard is None:
            options += [i for kind in self.wild_kinds for i in kind[:1] if self.counts[i]]
            options += [
                next(i for i in kind if self.counts[i])
                for kind in self.wild_kinds
                if not self.counts[kind[0]] and any(self.counts[i] for i in kind)
            ]
        for index in options:
            if index is not None:
                self.counts[index] = self.counts[index] - 1
                self.discard = CARDS[index]
            self._spread(0, set(), 0)
            if index is not None:
                self.discard = None
                self.counts[index] = self.counts[index] + 1
            if len(self.found) >= self.limit:
                return

    def _spread(self, t: int, seen: set[tuple[int, tuple[int, ...], int]], kinds: int) -> None:
        """Wild cards onto the melds from ``t`` on (each number of them the meld can take);
        ``kinds``: how many of the melds before ``t`` are canastas of each kind, as they now
        stand (:func:`~bolivia.play.table.signatures.kinds_with`)."""
        held = [self.counts[i] for i in self.wilds]
        if not any(held):
            self.leaf()
            return
        if t == len(self.table):
            self._wild_melds(sum(held))
            return
        key = (t, tuple(held), kinds)
        if key in seen:
            return
        before = len(self.found)
        meld = self.table[t]
        self._spread(t + 1, seen, kinds_with(self.ruleset, kinds, meld))
        if len(self.found) < self.limit and could_join(self.ruleset, meld, CARDS[self.wilds[0]]):
            points = self.first_minimum is not None and t >= self.old
            for k in range(1, sum(held) + 1):
                grew = False
                for mix in self.wild_choices(k) if points else self._cheapest(k):
                    cards = [CARDS[i] for i in mix]
                    grown = self.grow(meld, mix)
                    if grown is None:
                        continue
                    grew = True
                    self.take(mix)
                    self.set_meld(t, grown)
                    self.extends.append((t, tuple(cards)))
                    self._spread(t + 1, seen, kinds_with(self.ruleset, kinds, grown))
                    self.extends.pop()
                    self.set_meld(t, meld)
                    self.give(mix)
                    if len(self.found) >= self.limit:
                        return
                if not grew:
                    break  # a meld that cannot take k wild cards cannot take more
        if len(self.found) == before:
            seen.add(key)

    def _cheapest(self, n: int) -> Iterator[list[int]]:
        held = [[i for i in kind for _ in range(self.counts[i])] for kind in self.wild_kinds]
        if sum(map(len, held)) >= n:
            yield from mixes(held, n, cheapest=True)

    def _wild_melds(self, left: int) -> None:
        """The wild cards left as new melds of wild cards: as many canastas as they make, the
        rest in a meld of its own or added to one of them."""
        lim = self.lim
        if not lim.wild_allowed:
            return
        size = lim.bolivia_size
        cards = [i for i in self.wilds for _ in range(self.counts[i])]
        for canastas in range(left // size, -1, -1):
            rest = left - canastas * size
            sizes = [size] * canastas
            most = lim.wild_max_size
            if rest and rest >= lim.wild_min_size and (most is None or rest <= most):
                sizes.append(rest)
            elif rest and sizes and (most is None or size + rest <= most):
                sizes[-1] = sizes[-1] + rest
            elif rest:
                continue
            melds = []
            start = 0
            for n in sizes:
                made = new_meld(
                    self.ruleset, [CARDS[i] for i in cards[start : start + n]], going_out=True
                )
                if made is None:
                    break
                melds.append(made)
                start += n
            else:
                self.take(cards)
                for meld in melds:
                    self.push(meld)
                self.leaf()
                for _ in melds:
                    self.pop()
                self.give(cards)
                if len(self.found) >= self.limit:
                    return

    def wild_choices(self, n: int, *, without: int | None = None) -> list[list[int]]:
        """Ways to take ``n`` wild cards from the hand: every mix of wild ranks where the new
        melds' points count (a side's first meld), else the cheapest only."""
        if n == 0:
            return [[]]
        held = [
            [i for i in kind for _ in range(self.counts[i] - (i == without))]
            for kind in self.wild_kinds
        ]
        if sum(map(len, held)) < n:
            return []
        return list(mixes(held, n, cheapest=self.first_minimum is None))

    def take(self, cards: list[int]) -> None:
        for i in cards:
            self.counts[i] = self.counts[i] - 1

    def give(self, cards: list[int]) -> None:
        for i in cards:
            self.counts[i] = self.counts[i] + 1

    # ------------------------------------------------------------------ the end

    def first_met(self, new: Sequence[Meld]) -> bool:
        """Whether the new melds make the first meld (its minimum, its canasta)."""
        assert self.first_minimum is not None
        return meets_first(self.ruleset, new, self.first_minimum, self.first_canasta)

    def leaf(self) -> None:
        if self.rules.going_out.discard_required and self.discard is None:
            return
        if not meets_requirement(self.ruleset, self.table, self.players):
            return
        new = self.table[self.old :]
        if self.first_minimum is not None and not (new and self.first_met(new)):
            return
        self.found.append(
            GoOut(
                tuple(m.cards for m in new),
                tuple((t, cards) for t, cards in self.extends if t < self.old),
                self.discard,
                tuple(self.combines),
            )
        )
