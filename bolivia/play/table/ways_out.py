"""The search for a way out: can a player empty the hand this turn, and how.

A way out puts every card of the hand somewhere: onto the side's melds, into new melds, or as
the one discard. Every meld must be legal (black threes may be melded, as the player goes out),
the side's melds must then meet the going-out requirement, and the new melds of a side that has
not melded must reach the first meld's minimum. The search is exact within its bound
(below): it answers "no" only when no such placement exists.

It places the natural cards one at a time and tries every place for each
(:mod:`bolivia.play.table.places`): each meld on the table that can take it (a run also across
a gap: ``8H 9H 10H`` onto ``JH QH KH AH``); a new group of its rank; a new sequence holding it; a
new meld of black threes; the discard. A new meld starts with the fewest cards that make it
legal, and cards placed later join it, so every legal final meld is reached in any order of the
cards. The wild cards come last: the discard, how many onto each meld, new melds of wild cards.
Before the first card, the side's groups of one rank may be joined (where the ruleset allows
it), and wild cards may go onto a group that more naturals will then make a canasta (where no
wild card may go onto a finished one).

Most hands are settled by a first try in the plain order (the lowest card first) within a few
dozen states. Past those, the search starts again with an order chosen by a probe before the
first card; what the first try found to fail stays known. The probe tries every card held at
each of its places one step ahead, through the quick bounds of
:mod:`bolivia.play.table.bounds`. A card with no place left open means there is no way out; so
do two cards (or two copies of one) whose one open place is the discard. The cards with the
fewest open places go first, so that a conflict (the ten of hearts both the escalera's and the
only partner of the jack of hearts) is met before choices elsewhere multiply it. The cards that
closed a probe are tried first at the next, and the order of the first probe that passes serves
the joins and early wild cards tried after it. Failed states (the cards left, the melds on the
table, whether the discard is used) are remembered, so no state is searched twice.

The search has one bound, on its size: past :data:`MAX_STATES` states it stops, with the ways
out found so far (none, at worst), and counts the cut in :data:`CUTS`; a caller may bound the
searches it starts tighter (:func:`search_bound`: the oracle's ``max_states``). Greedy and
expert play of the shipped rulesets stays far below it (a few hundred states at most in a
sample of their hands); the random bot, whose players gather thirty or forty cards, reached
545,000 in thirty brazilian-canastra hands, and past the bound in a variant of it (38 cards
onto six melds); a hand of fifty cards may need many millions, and gigabytes to remember their
failures (a samba hand with groups of four at most took 20 GB before the bounds knew such
groups make no canasta).
For play, a search cut short finds no way out, in the bots' choices and in the verifier alike,
so the game goes on by its rules; the oracle answers a request whose search was cut with the
code ``too-costly``, never with a ruling that may be wrong.

Wild cards of one rank are interchangeable (the same points, the same rules), so where the
points of the new melds do not matter (the side has melded) the cheapest are used first.
(An example: ``tests/test_moves.py``, the first way out of a small hand.)
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Final

from bolivia.cards import SUIT_INDEX, Card
from bolivia.engine.going_out import meets_requirement
from bolivia.engine.initial_meld import counted_points, meets_first
from bolivia.engine.limits import limits
from bolivia.engine.melds import Meld, canasta_of, combination, could_join, extension, new_meld
from bolivia.engine.wild_lock import going_out_locked
from bolivia.engine.wild_steps import step_fault
from bolivia.play.table.actions import GoOut
from bolivia.play.table.bounds import checks, state_reader
from bolivia.play.table.places import Place, Places
from bolivia.play.table.runs import run_cells
from bolivia.play.table.signatures import kinds_with, signature
from bolivia.rules.ruleset import Ruleset

__all__ = ["CUTS", "MAX_STATES", "DiscardCheck", "can_go_out", "search_bound", "ways_out"]

#: whether a card may be the discard that goes out, the side's melds being these
DiscardCheck = Callable[[Card, Sequence[Meld]], bool]

CARDS: Final = Card.all()
MAX_STATES: Final = 1_000_000  # states one search may visit (see the module)
# searches cut short by MAX_STATES in this process, so far (read by the oracle, see the module)
CUTS: Final[list[int]] = [0]
# the states a search started now may visit: MAX_STATES, or less inside search_bound
_BOUND: Final[list[int]] = [MAX_STATES]


@contextmanager
def search_bound(states: int) -> Iterator[None]:
    """Searches started inside the block stop past ``states`` states (at most
    :data:`MAX_STATES`) and count a cut as any cut. The bound before is restored after."""
    before = _BOUND[0]
    _BOUND[0] = max(1, min(states, MAX_STATES))
    try:
        yield
    finally:
        _BOUND[0] = before


class _Cut(Exception):
    """The search has visited as many states as its bound allows."""


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
    discard_ok: DiscardCheck | None = None,
) -> list[GoOut]:
    """Up to ``limit`` ways out of the hand ``counts`` onto the side's melds ``table``.

    ``counts``: 53 counts by card index. ``first_minimum``: the side has not melded, and its
    new melds must count this much (and hold a canasta of a kind in ``first_canasta``, if
    any). ``bounded=False`` searches without the quick bounds, which never change the answer.
    ``discard_ok``: whether a card may be the discard that goes out, the side's melds then
    being these (``pile.discard_barred``; None: any card may).
    """
    held = list(counts)  # lists: what the compiled bounds index and walk fastest
    melds = list(table)
    meet, strand, _ = checks(ruleset)
    # the requirement first: it closes nearly every hand that has no way out (4,966 of 5,008
    # in 100 greedy bolivia-da hands), and the stranded cards are then not looked for
    if bounded and not meet(held, melds, players):
        return []
    lost = strand(held, melds) if bounded else []
    if len(lost) > 1:
        return []
    search = _Search(ruleset, table, held, players, first_minimum, limit)
    search.first_canasta = first_canasta if first_minimum is not None else ()
    search.bounded, search.root_lost = bounded, (lost if bounded else None)
    search.discard_ok = discard_ok
    search.start = tuple(table)
    try:
        search.run()
    except _Cut:
        CUTS[0] += 1
    return search.found


def can_go_out(
    ruleset: Ruleset,
    table: Sequence[Meld],
    counts: Sequence[int],
    *,
    players: int,
    first_minimum: int | None = None,
    discard_ok: DiscardCheck | None = None,
) -> bool:
    """Whether any way out exists (:func:`ways_out` with a limit of one)."""
    found = ways_out(
        ruleset, table, counts, players=players, first_minimum=first_minimum, discard_ok=discard_ok
    )
    return bool(found)


QUICK_TRY = 48  # states the first try in the plain order may visit


class _Search(Places):
    """The search for ways out of one hand (see the module)."""

    def __init__(
        self,
        ruleset: Ruleset,
        table: Sequence[Meld],
        counts: Sequence[int],
        players: int,
        first_minimum: int | None,
        limit: int,
    ) -> None:
        super().__init__(ruleset, limits(ruleset), table, counts, first_minimum)
        self.rules = ruleset.rules
        self.players = players
        # the quick bounds (bolivia.play.table.bounds): could the side meet the requirement,
        # the cards with nowhere to go
        self.meet, self.strand, _ = checks(ruleset)
        # a state's capable masks and run cells read at once by the native core, where runs
        # are melded and the build has one (else None: the Python reads them)
        self.read_state = state_reader(ruleset) if self.lim.sequence_allowed else None
        self.first_canasta: tuple[str, ...] = ()  # kinds the first meld's canasta may be
        self.limit = limit
        self.combines: list[tuple[int, int]] = []
        self.extends: list[tuple[int, tuple[Card, ...]]] = []
        self.discard: Card | None = None
        self.discard_ok: DiscardCheck | None = None  # see ways_out
        self.start: tuple[Meld, ...] = ()  # the side's melds before the way out
        self.found: list[GoOut] = []
        self.failed: set[tuple[object, ...]] = set()
        self.bounded = True
        self.root_lost: list[int] | None = None
        self.sequences = self.lim.sequence_allowed
        self.naturals = self.lim.natural_indices
        self.order = self.naturals  # the order the naturals are placed in (see probe)
        self.ordered = False  # a probe has passed and chosen the order
        self.placed = 0  # naturals placed (or discarded) so far
        self.budget: int | None = None  # states left to the first try (see run)
        self.spent = False  # the first try's states are spent (see run)
        self.probing = False
        self.suspects: list[int] = []  # see probe
        self.states = 0  # states visited, up to max_states
        self.max_states = _BOUND[0]

    # ------------------------------------------------------------------ the root

    def run(self) -> None:
        """A quick first try in the plain order, then the probed search.

        The first try (lowest card first) settles most hands at once. If it has not, the
        search starts again with the order of :meth:`probe`. What the first try found to fail
        stays known: a failure does not depend on the order.
        """
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
        """Each join of two of the side's groups of one rank, from group ``start`` on."""
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
                self._joined(i, j, joined)
                if len(self.found) >= self.limit:
                    return

    def _joined(self, i: int, j: int, joined: Meld) -> None:
        """The search on, with group ``j`` joined to group ``i`` as ``joined``."""
        a, b = self.table[i], self.table[j]
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

    def _pre_wild(self, start: int) -> None:
        """Wild cards onto the side's groups before naturals finish them, from ``start`` on.

        Only where no wild card may go onto a finished canasta. The groups tried are those the
        hand's naturals could finish; the cheapest wild card goes on first, and where one
        finishes the group, more at once with it, as its limits allow.
        """
        self.place()
        if len(self.found) >= self.limit or self.lim.wild_onto_canasta:
            return
        wild = next((i for i in self.wilds if self.counts[i]), None)
        if wild is None:
            return
        for t in range(start, self.old):
            meld = self.table[t]
            if self._finishable(meld) and self._wilds_early(t, meld, wild):
                return

    def _finishable(self, meld: Meld) -> bool:
        """Whether the naturals held could finish this unfinished group.

        A wild card put on early where they could not, even with it, makes no way out the
        state before lacks (it could go on last). So once that state is searched through with
        none found, such groups are passed over: the same ways out, sooner. Not in the first
        try, whose states are counted, nor where a way out found here may be a second one.
        """
        if meld.kind != "group" or canasta_of(self.ruleset, meld) is not None:
            return False
        r = next(c.index >> 2 for c in meld.cards if not self.wild[c.index])
        held = sum(self.counts[i] for i in range(r * 4, r * 4 + 4))
        with_wild = 0 if self.probing and not self.found else 1
        return bool(held) and meld.size + held + with_wild >= self.lim.group_canasta

    def _wilds_early(self, t: int, meld: Meld, wild: int) -> bool:
        """Each number of wild cards onto group ``t`` early; whether enough ways are found.

        One wild card (``wild``) first. More at once only where the one finishes the group:
        otherwise more go on one at a time, from the state the one makes.
        """
        most = sum(self.counts[i] for i in self.wilds)
        if self.lim.group_max_wild is not None:
            most = min(most, self.lim.group_max_wild - meld.wilds)
        for n in range(1, most + 1):
            mix = [wild] if n == 1 else next(self.cheapest(n), None)
            if mix is None:
                return False
            grown = extension(self.ruleset, meld, [CARDS[i] for i in mix])
            if grown is None:
                return False
            self._extended_early(t, meld, grown, mix)
            if len(self.found) >= self.limit:
                return True
            if n == 1 and canasta_of(self.ruleset, grown) is None:
                return False
        return False

    def _extended_early(self, t: int, meld: Meld, grown: Meld, mix: list[int]) -> None:
        """The search on, with the wild cards ``mix`` onto group ``t``, grown to ``grown``."""
        self.take(mix)
        self.set_meld(t, grown)
        self.extends.append((t, tuple(CARDS[i] for i in mix)))
        self._pre_wild(t)
        self.extends.pop()
        self.set_meld(t, meld)
        self.give(mix)

    # ------------------------------------------------------------------ placing cards

    def key(self, capable: list[int], cells: tuple[int, ...] | None) -> tuple[object, ...]:
        """The state, the naturals that cannot be in a sequence counted by rank only.

        States that differ in their suits alone are one state. ``capable``: the state's
        :meth:`capable_masks`; ``cells``: its :func:`~bolivia.play.table.runs.run_cells`, where
        the native core read them with the masks.
        """
        points: object = None
        if self.first_minimum is not None:
            new = self.table[self.old :]
            points = (counted_points(self.ruleset, new), bool(new) and self.first_met(new))
        if cells is not None:
            state = cells
        elif self.sequences:
            state = run_cells(self.wild, self.counts, capable)
        else:
            state = self._rank_cells()
        return (state, self.discard is None, tuple(self.sigs), points)

    def _rank_cells(self) -> tuple[int, ...]:
        """The cards held, where no run is melded: by rank, wild cards by card."""
        counts = self.counts
        wild = self.wild
        cells = [
            -1 if wild[b] else counts[b] + counts[b + 1] + counts[b + 2] + counts[b + 3]
            for b in range(0, 52, 4)
        ]
        cells += [counts[i] for i in self.wilds]
        cells += (counts[4], counts[7])
        return tuple(cells)

    def place(self) -> None:
        """The search on from this state: the next natural card, or the wild cards."""
        if len(self.found) >= self.limit or self._spend():
            return
        self.states += 1
        if self.states > self.max_states:
            raise _Cut
        # the ranks that could be in a sequence, read once for the state: its key, the probe
        # and the plan of the card placed all ask
        if self.read_state is not None:
            capable, cells = self.read_state(self.counts, self.table)
            key = self.key(capable, cells)
        else:
            capable = self.capable_masks()
            key = self.key(capable, None)
        if key in self.failed:
            return
        before = len(self.found)
        lost = self._lost()
        if lost is None or (
            self.probing and not self.placed and not self.ordered and not self.probe(capable)
        ):
            self.failed.add(key)
            return
        self._place_next(lost, capable)
        if len(self.found) == before and not self.spent:
            self.failed.add(key)

    def _spend(self) -> bool:
        """Spends a state of the first try's budget, if any; whether it is spent.

        A spent first try sets a limit of none found, which stops every loop at once.
        """
        if self.budget is None:
            return False
        self.budget -= 1
        if self.budget < 0:
            self.spent = True
            self.limit = 0
            return True
        return False

    def _lost(self) -> list[int] | None:
        """The cards with only the discard left; None when the bounds close the state.

        The requirement's bound comes first: it closes more states than the stranded cards.
        At the root, the bounds :func:`ways_out` read are used.
        """
        if self.root_lost is not None:
            lost, self.root_lost = self.root_lost, None
            return lost
        if self.bounded and not self.meet(self.counts, self.table, self.players):
            return None
        lost = self.strand(self.counts, self.table) if self.bounded else []
        if len(lost) > (1 if self.discard is None else 0):
            return None
        return lost

    def _place_next(self, lost: list[int], capable: list[int]) -> None:
        """The lost card as the discard; else the next natural, or the wild cards."""
        if lost:
            self.discard_card(lost[0])
            return
        chosen = self.choose(capable)
        if chosen is None:
            self.wild_phase()
        else:
            index, plan = chosen  # no star call: that would go through the generic call
            self.options(index, plan)

    def discard_card(self, index: int) -> None:
        self.counts[index] = self.counts[index] - 1
        self.discard = CARDS[index]
        self.placed += 1
        self.place()
        self.placed -= 1
        self.discard = None
        self.counts[index] = self.counts[index] + 1

    def options(self, index: int, plan: list[Place]) -> None:
        """The card to each place of its ``plan`` in turn, then to the discard.

        The discard comes last: one spent early is seldom the way.
        """
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

    def choose(self, capable: list[int]) -> tuple[int, list[Place]] | None:
        """The next natural card to place and its plan: the first held in :attr:`order`."""
        counts = self.counts
        index = next((i for i in self.order if counts[i]), None)
        return None if index is None else (index, self.plan(index, capable))

    def viable(self) -> bool:
        """Whether the quick bounds leave the state open (see :mod:`bolivia.play.table.bounds`)."""
        return self.meet(self.counts, self.table, self.players) and len(
            self.strand(self.counts, self.table)
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
        """Each natural held tried at each of its places, one step ahead.

        Before the first card is placed; the discard counts as a place. False when some card
        has no place the bounds leave open (no way out). Else :attr:`order` puts the cards
        with the fewest open places first, so a conflict is met before choices elsewhere
        multiply it.
        """
        scored: list[tuple[int, int]] = []
        forced: list[int] = []  # the cards whose one open place is the discard
        copies = 0  # and their copies held
        suspects = self.suspects  # what closed an earlier probe of this search, tried first
        for index in suspects + [i for i in self.naturals if i not in suspects]:
            if not self.counts[index]:
                continue
            open_places = self._open_places(index, capable)
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

    def _open_places(self, index: int, capable: list[int]) -> int:
        """How many of the card's places (not the discard) the bounds leave open."""
        open_places = 0
        for t, cards, meld in self.plan(index, capable):  # each card from this state
            self.take(cards)
            if t < 0:
                self.push(meld)
                open_places += self.viable()
                self.pop()
            else:
                before = self.table[t]
                self.set_meld(t, meld)
                open_places += self.viable()
                self.set_meld(t, before)
            self.give(cards)
        return open_places

    # ------------------------------------------------------------------ wild cards

    def wild_phase(self) -> None:
        """Only wild cards are left: the discard, then onto each meld, then new melds.

        The discard is none, or one of each wild rank held.
        """
        options: list[int | None] = [None]
        if self.discard is None:
            options += self._wild_discards()
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

    def _wild_discards(self) -> list[int | None]:
        """The wild cards that may be the discard: one of each wild rank held."""
        counts = self.counts
        options: list[int | None] = [i for kind in self.wild_kinds for i in kind[:1] if counts[i]]
        options += [
            next(i for i in kind if counts[i])
            for kind in self.wild_kinds
            if not counts[kind[0]] and any(counts[i] for i in kind)
        ]
        return options

    def _spread(self, t: int, seen: set[tuple[int, tuple[int, ...], int]], kinds: int) -> None:
        """Wild cards onto the melds from ``t`` on, as many as each can take.

        ``kinds``: how many of the melds before ``t`` are canastas of each kind, as they now
        stand (:func:`~bolivia.play.table.signatures.kinds_with`).
        """
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
        if len(self.found) < self.limit and self._wild_joins(meld):
            self._spread_onto(t, meld, sum(held), seen, kinds)
        if len(self.found) == before:
            seen.add(key)

    def _wild_joins(self, meld: Meld) -> bool:
        """Whether a wild card might join the meld: any, or where a run's own two may be a
        natural card (``melds.sequence.natural_twos``), one of those held."""
        if not self.lim.natural_twos:
            return could_join(self.ruleset, meld, CARDS[self.wilds[0]])
        return any(self.counts[i] and could_join(self.ruleset, meld, CARDS[i]) for i in self.wilds)

    def _spread_onto(
        self,
        t: int,
        meld: Meld,
        most: int,
        seen: set[tuple[int, tuple[int, ...], int]],
        kinds: int,
    ) -> None:
        """One to ``most`` wild cards onto meld ``t``, then the melds after it.

        Every mix of wild ranks where the new melds' points count; the cheapest otherwise.
        """
        points = self.first_minimum is not None and t >= self.old
        own = SUIT_INDEX[meld.suit] if meld.kind == "sequence" and meld.suit else -1
        for k in range(1, most + 1):
            grew = False
            for mix in self.wild_choices(k) if points else self.cheapest(k, own):
                grown = self.grow(t, meld, mix)
                if grown is None:
                    continue
                grew = True
                self._spread_with(t, meld, grown, mix, seen, kinds)
                if len(self.found) >= self.limit:
                    return
            if not grew:
                break  # a meld that cannot take k wild cards cannot take more

    def _spread_with(
        self,
        t: int,
        meld: Meld,
        grown: Meld,
        mix: list[int],
        seen: set[tuple[int, tuple[int, ...], int]],
        kinds: int,
    ) -> None:
        """The wild phase on, with the wild cards ``mix`` onto meld ``t``."""
        self.take(mix)
        self.set_meld(t, grown)
        self.extends.append((t, tuple(CARDS[i] for i in mix)))
        self._spread(t + 1, seen, kinds_with(self.ruleset, kinds, grown))
        self.extends.pop()
        self.set_meld(t, meld)
        self.give(mix)

    def _wild_melds(self, left: int) -> None:
        """The ``left`` wild cards as new melds of wild cards.

        As many canastas as they make, then fewer; the rest in a meld of its own, or added
        to one of them.
        """
        if not self.lim.wild_allowed:
            return
        cards = [i for i in self.wilds for _ in range(self.counts[i])]
        for canastas in range(left // self.lim.bolivia_size, -1, -1):
            sizes = self._wild_sizes(left, canastas)
            melds = None if sizes is None else self._wild_meld_list(cards, sizes)
            if melds is None:
                continue
            self._laid_wild(cards, melds)
            if len(self.found) >= self.limit:
                return

    def _wild_sizes(self, left: int, canastas: int) -> list[int] | None:
        """The wild melds' sizes for ``left`` cards and this many canastas, or None."""
        lim = self.lim
        size = lim.bolivia_size
        rest = left - canastas * size
        sizes = [size] * canastas
        most = lim.wild_max_size
        if rest and rest >= lim.wild_min_size and (most is None or rest <= most):
            sizes.append(rest)
        elif rest and sizes and (most is None or size + rest <= most):
            sizes[-1] = sizes[-1] + rest
        elif rest:
            return None
        return sizes

    def _wild_meld_list(self, cards: list[int], sizes: list[int]) -> list[Meld] | None:
        """The wild cards as new melds of these sizes; None if one is illegal."""
        melds = []
        start = 0
        for n in sizes:
            made = new_meld(
                self.ruleset, [CARDS[i] for i in cards[start : start + n]], going_out=True
            )
            if made is None:
                return None
            melds.append(made)
            start += n
        return melds

    def _laid_wild(self, cards: list[int], melds: list[Meld]) -> None:
        """The way out ends with the wild cards ``cards`` laid as ``melds``."""
        self.take(cards)
        for meld in melds:
            self.push(meld)
        self.leaf()
        for _ in melds:
            self.pop()
        self.give(cards)

    # ------------------------------------------------------------------ the end

    def first_met(self, new: Sequence[Meld]) -> bool:
        """Whether the new melds make the first meld (its minimum, its canasta)."""
        assert self.first_minimum is not None
        return meets_first(self.ruleset, new, self.first_minimum, self.first_canasta)

    def leaf(self) -> None:
        """The way as it stands, found if it goes out by the rules."""
        if self.rules.going_out.discard_required and self.discard is None:
            return
        if not meets_requirement(self.ruleset, self.table, self.players):
            return
        check = self.discard_ok
        if check is not None and self.discard is not None and not check(self.discard, self.table):
            return
        if self.lim.step_rules and (
            going_out_locked(self.ruleset, self.table)
            or step_fault(self.ruleset, self.start, self.table) is not None
        ):
            return  # the rules of wild cards read from the side's melds (engine.wild_steps)
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
