"""The expert's valuation's shared tables: what it works out from the ruleset, the number of
players and the weights alone (each meld's value, each table's view, what a rank's cards and a
suit's ranks in hand add), kept across the positions of a run. The positions themselves are
:mod:`bolivia.play.bots.valuation`'s. It may import the engine and the table.

Where the compiled build has its native core (``_core.c``, :func:`native`), a table's view is
read by it; the Python here is the reference, which the core follows operation for operation
(tests/test_valuation_core.py compares them bit for bit) and the pure build runs.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final, TypeAlias, cast

from bolivia.cards import Card
from bolivia.engine.limits import KIND_INDEX, limits
from bolivia.engine.meld import Meld
from bolivia.engine.melds import special_bonus
from bolivia.engine.pile import card_class
from bolivia.play.table.runs import positions
from bolivia.play.table.state import BLACK_THREES, RED_THREES
from bolivia.rules.ruleset import Ruleset

if TYPE_CHECKING:
    from bolivia.play.bots._core import Core, View

__all__ = [
    "MOST_KEPT",
    "AnyView",
    "Summary",
    "TableView",
    "Tables",
    "Weights",
    "native",
    "summary_of",
    "tables",
]

# a meld as the valuation sees it: kind, size, wild cards, and the rank (group) or the suit
# with a bit per natural rank (sequence)
Summary = tuple[str, int, int, int, int]


class Weights:
    """The few weights that are not the ruleset's values.

    How much of a promise the cards in hand are worth, against the same on the table.
    """

    __slots__ = (
        "draw",
        "hand",
        "keep_wild",
        "pair",
        "pile",
        "risk",
        "run",
        "second_run",
        "trio",
        "wild",
    )

    def __init__(self) -> None:
        self.hand = 0.5  # a group or wild meld the hand could make or grow, of its value
        self.run = 0.45  # a run the hand holds toward an escalera, of its value
        self.second_run = 0.25  # an unfinished run beside another of the suit, of its value
        self.pair = 30.0  # a natural pair to take the pile with
        self.pile = 1.0  # the danger of feeding the pile
        self.risk = 0.35  # the chance, early on, that the cards in hand are counted
        self.draw = 14.0  # a card drawn from the stock, in points
        self.wild = 25.0  # a wild card kept for a canasta
        # what a club would not throw away (the expert's discards): a wild card onto a pile of
        # at most expert.SMALL_PILE cards while a natural card could go instead, and a natural
        # card of a trio (three of a rank held: a meld in waiting), in points
        self.keep_wild = 100.0
        self.trio = 100.0

    def key(self) -> tuple[float, ...]:
        """The weights' values, in the order of their names.

        >>> w = Weights()
        >>> w.key() == tuple(getattr(w, name) for name in Weights.__slots__)
        True
        """
        return (
            self.draw,
            self.hand,
            self.keep_wild,
            self.pair,
            self.pile,
            self.risk,
            self.run,
            self.second_run,
            self.trio,
            self.wild,
        )

    def copy(self) -> Weights:
        """Weights of the same values."""
        other = Weights()
        other.draw, other.hand, other.pair, other.pile = self.draw, self.hand, self.pair, self.pile
        other.risk, other.run, other.second_run = self.risk, self.run, self.second_run
        other.wild, other.keep_wild, other.trio = self.wild, self.keep_wild, self.trio
        return other

    def same(self, other: Weights) -> bool:
        """Whether the two have the same values (:meth:`key`), compared one by one.

        >>> w = Weights()
        >>> first = w.copy()
        >>> w.same(first), first.key() == w.key()
        (True, True)
        >>> w.pile = 2.0
        >>> w.same(first), w.same(w.copy())
        (False, True)
        """
        return (
            self.draw == other.draw
            and self.hand == other.hand
            and self.pair == other.pair
            and self.pile == other.pile
            and self.risk == other.risk
            and self.run == other.run
            and self.second_run == other.second_run
            and self.wild == other.wild
            and self.keep_wild == other.keep_wild
            and self.trio == other.trio
        )


def _track(size: int, target: int, bonus: float) -> float:
    """A meld's way to a canasta of ``target`` cards worth ``bonus``: its share, squared."""
    if size >= target:
        return bonus
    share = size / target
    return bonus * share * share


class TableView:
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
EMPTY_VIEW: Final = TableView(0.0, {}, 0, {})

#: a table's view, read by the Python above or by the native core (its ``value`` alone is read
#: outside the two)
AnyView: TypeAlias = "TableView | View"


def summary_of(wild: tuple[bool, ...], meld: Meld) -> Summary:
    """What the valuation reads of a meld: its kind, size and wild cards, and a group's rank
    (its natural's) or a run's suit and ranks (a bit each)."""
    if meld.kind == "group":
        rank = meld.cards[0].index >> 2
        for card in meld.cards:
            if not wild[card.index]:
                rank = card.index >> 2
                break
        return ("group", meld.size, meld.wilds, rank, 0)
    if meld.kind == "sequence":
        mask = 0
        suit = 0
        for card in meld.cards:
            if not wild[card.index]:
                mask |= 1 << (card.index >> 2)
                suit = card.index & 3
        return ("sequence", meld.size, meld.wilds, suit, mask)
    return (meld.kind, meld.size, meld.wilds, -1, 0)


def native() -> type[Core] | None:
    """The native core of the valuation (the compiled build's), or None (the pure build's).

    Both give the same values bit for bit; the Python is the reference.
    """
    try:
        from bolivia.play.bots._core import Core as found
    except ImportError:
        return None
    return found


#: the canasta kinds' indices (:data:`~bolivia.engine.limits.KINDS`)
NATURAL: Final = KIND_INDEX["natural"]
MIXED: Final = KIND_INDEX["mixed"]
ESCALERA: Final = KIND_INDEX["escalera"]
BOLIVIA: Final = KIND_INDEX["bolivia"]

#: a meld's kind in the key of its value (any other kind is worth nothing)
_KIND_KEY: Final = {"group": 0, "sequence": 1, "wild": 2}

#: the most entries a shared table of values keeps before it starts again (the values are
#: worked out again when asked: the same numbers, so play does not depend on it)
MOST_KEPT: Final = 1 << 16


class Tables:
    """What the valuation works out from the ruleset, the number of players and the weights
    alone, kept across the positions of a run: the melds' values, each table's view, what a
    rank's cards and a suit's runs in hand add. Made by :func:`tables`."""

    def __init__(
        self, ruleset: Ruleset, players: int, weights: Weights, use_native: bool = True
    ) -> None:
        self.ruleset = ruleset
        self.players = players
        self.w = weights
        self.rules = rules = ruleset.rules
        lim = limits(ruleset)
        self.lim = lim
        self.wild = lim.wild
        self.points = lim.points
        self.penalties = ruleset.penalties
        self.pack: list[int] = [lim.decks] * 52 + [ruleset.pack.jokers]  # the cards by index
        self.red_threes: tuple[int, ...] = tuple(sorted(RED_THREES))  # never unseen: laid
        self.black_threes: tuple[int, ...] = tuple(sorted(BLACK_THREES))
        # what a discard's danger reads of the pile's rules: each card's class, the classes
        # that block the pile, the kinds of melds a card from it may go onto
        self.card_classes: list[str | None] = [card_class(ruleset, card) for card in Card.all()]
        self.blocked_by_top: frozenset[str] = frozenset(rules.pile.blocked_by_top)
        self.onto_kinds: frozenset[str] = frozenset(rules.pile.onto_kinds)
        count, including = lim.requirement(players)
        self.req_count = count
        self.req_kinds = dict(including)
        # what the side gains by meeting the requirement: it may go out (the bonus, and the
        # opponents' cards counted against them)
        self.req_value = float(rules.going_out.bonus) + 150.0
        self._views: dict[tuple[Summary, ...], AnyView] = {}
        # by side: its melds as last read (the same objects) and their summaries, and the view
        # of those summaries (see side_summaries, side_view): a side's melds stay the same from
        # one position to the next until the side melds
        self._sides: dict[int, tuple[list[Meld], list[Summary]]] = {}
        self._side_views: dict[int, tuple[list[Summary], AnyView]] = {}
        # keyed by one int each (no tuple built per lookup): see shape_value and _runs_value
        self._suits: dict[int, float | None] = {}
        self._ranks: dict[int, tuple[float, ...]] = {}
        self._wilds: dict[int, float] = {}
        self._melds: dict[int, float] = {}
        # the cards on the table by index, and each side's melds they were counted from (see
        # table_counts)
        self._table_melds: list[list[Meld]] = []
        self._table_counts: list[int] = [0] * 53
        self.use_native = use_native
        self.weights_key = weights.key()  # (the weights' values when the tables were made)
        self.weights_made = weights.copy()  # (the same, compared by tables(): no tuple built)
        core = native() if use_native else None
        # the native core, where there is one: it asks these tables what it has not kept
        self.core: Core | None = None if core is None else core(self, ESCALERA)

    def table_counts(self, melds: list[list[Meld]]) -> list[int]:
        """The cards of every side's melds, by card index (not to be changed).

        Counted again only where a meld changed since the last call (a meld is immutable: the
        same object, the same cards): a side's melds stay the same objects from one position
        to the next, until the side lays one (appended) or adds to one (replaced in place).
        """
        last = self._table_melds
        counts = self._table_counts
        fresh = False
        for t in range(len(melds)):
            side = melds[t]
            before = last[t] if t < len(last) else []
            if side == before:  # (the same objects are equal at once)
                continue
            if not fresh:
                counts, fresh = counts[:], True
            for k in range(max(len(side), len(before))):
                old = before[k] if k < len(before) else None
                new = side[k] if k < len(side) else None
                if old is new:
                    continue
                if old is not None:
                    for card in old.cards:
                        counts[card.index] = counts[card.index] - 1
                if new is not None:
                    for card in new.cards:
                        counts[card.index] = counts[card.index] + 1
        for t in range(len(melds), len(last)):  # (sides gone: never, a hand keeps its sides)
            if not fresh:
                counts, fresh = counts[:], True
            for meld in last[t]:
                for card in meld.cards:
                    counts[card.index] = counts[card.index] - 1
        if fresh:
            self._table_melds = [list(side) for side in melds]
            self._table_counts = counts
        return counts

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
                return NATURAL if size >= lim.natural_size else None
            return MIXED if size >= lim.mixed_size else None
        if kind == "sequence":
            return ESCALERA if size >= lim.escalera_size else None
        if kind == "wild":
            return BOLIVIA if size >= lim.bolivia_size else None
        return None

    def _table_view(self, table: Sequence[Summary]) -> AnyView:
        return self.grown(None, table)

    def grown(self, base: AnyView | None, added: Sequence[Summary]) -> AnyView:
        """:meth:`grown_here`, by the native core where there is one."""
        if self.core is not None:
            return self.core.grown(cast("View | None", base), added)
        return self.grown_here(cast("TableView | None", base), added)

    def grown_here(self, base: TableView | None, added: Sequence[Summary]) -> TableView:
        """The view of a table: ``base``'s melds (none when None), then ``added``.

        The melds are read in their order, so a table grown by new melds is read as the
        whole table would be, the same numbers added in the same order: the side's biggest
        unfinished group of each rank, its wild meld, its longest unfinished run of each suit;
        the value of its melds (one unfinished run a suit worth its way, another beside it
        less), and the requirement's part.
        """
        if base is None:
            base = EMPTY_VIEW
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
                    done = done[:]
                done[kind_done] = done[kind_done] + 1
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
                if run is None or _ones(s[4]) > _ones(run):
                    if open_runs is base.open_runs:
                        open_runs = dict(open_runs)
                    open_runs[s[3]] = s[4]
            else:
                value += v
        if run_terms is None:  # one unfinished run a suit worth its way, another beside it less
            run_terms = []
            for found in runs.values():
                ranked = sorted(found, reverse=True)
                rest = 0.0  # (added in order, as the native core adds them)
                for other in ranked[1:]:
                    rest += other
                run_terms.append(ranked[0] + self.w.second_run * rest)
        total = value
        for term in run_terms:
            total += term
        total = self._with_requirement(total, done, longest)
        view = TableView(total, groups, wild_meld, open_runs)
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
            if done[kind] < n and kind == ESCALERA:
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
                    best = max(best, _ones((places | at) & window))
        have = _ones(on)
        if best <= have:
            return None
        gain = self.meld_value(("sequence", best, 0, -1, 0)) - self.meld_value(
            ("sequence", have, 0, -1, 0)
        )
        weight = self.w.run if on else self.w.run * 0.7
        needs = self.req_kinds.get(ESCALERA, 0)
        if needs:
            gain += self.req_value * ((best / span) ** 2 - (have / span) ** 2)
        return weight * gain

    def side_summaries(self, team: int, melds: list[Meld]) -> list[Summary]:
        """The summaries of a side's melds (:func:`summary_of`; not to be changed): kept while
        its melds are the same objects, and each meld's read again only where it changed (a
        meld is immutable; a side's melds change by one laid or grown)."""
        before: list[Meld] = []
        summaries: list[Summary] = []
        last = self._sides.get(team)
        if last is not None:
            before, summaries = last
            if len(before) == len(melds) and all(before[k] is melds[k] for k in range(len(melds))):
                return summaries
        # (the kept summaries copied as a list, never read one by one: the compiled build
        # would unpack each tuple and pack it again)
        found = summaries[: min(len(before), len(melds))]
        for k in range(len(melds)):
            meld = melds[k]
            if k >= len(found):
                found.append(summary_of(self.wild, meld))
            elif before[k] is not meld:
                found[k] = summary_of(self.wild, meld)
        self._sides[team] = (list(melds), found)
        return found

    def side_view(self, team: int, table: list[Summary]) -> AnyView:
        """:meth:`view` of a side's summaries, kept while they are the same list (those of
        :meth:`side_summaries`)."""
        last = self._side_views.get(team)
        if last is not None and last[0] is table:
            return last[1]
        found = self.view(table)
        self._side_views[team] = (table, found)
        return found

    def view(self, table: Sequence[Summary]) -> AnyView:
        """What the valuation reads off a table, worked out once per table (by the native core,
        every time: reading it costs less than looking it up)."""
        if self.core is not None:
            return self.core.grown(None, table)
        key = tuple(table)
        found = self._views.get(key)
        if found is None:
            if len(self._views) >= MOST_KEPT:
                self._views.clear()
            found = self._views[key] = self._table_view(table)
        return found

    def replaced(self, table: Sequence[Summary], k: int, meld: Summary) -> AnyView:
        """The view of ``table`` with its meld ``k`` now ``meld``: read on from the view of
        the melds before it (kept: those change least), the same numbers in the same order
        as reading the whole table (the native core reads the whole table)."""
        if self.core is not None:
            return self.core.replaced(table, k, meld)
        return self.grown(self.view(table[:k]), [meld, *table[k + 1 :]])

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


def _ones(mask: int) -> int:
    """How many bits ``mask`` (not negative) has set.

    >>> _ones(0b1011)
    3
    """
    n = 0
    while mask:
        mask &= mask - 1
        n += 1
    return n


_TABLES: Final[dict[tuple[int, int, tuple[float, ...], bool], Tables]] = {}
#: the tables last asked for
_LAST: Final[list[Tables | None]] = [None]


def tables(ruleset: Ruleset, players: int, weights: Weights, use_native: bool = True) -> Tables:
    """The valuation's tables of a ruleset, a number of players and weights: made once (per
    process) and shared by every position valued under them. ``use_native``: by the native
    core where there is one."""
    last = _LAST[0]
    if (
        last is not None
        and last.ruleset is ruleset
        and last.players == players
        and last.use_native == use_native
        and weights.same(last.weights_made)
    ):  # (most positions are the last one's: no key hashed)
        return last
    key = (id(ruleset), players, weights.key(), use_native)
    found = _TABLES.get(key)
    if found is None or found.ruleset is not ruleset:  # (an id may be used again)
        if len(_TABLES) >= 32:
            _TABLES.clear()
        found = _TABLES[key] = Tables(ruleset, players, weights, use_native)
    _LAST[0] = found
    return found
