"""Quick necessary conditions for going out, to stop a search early.

The search of :mod:`bolivia.play.table.ways_out` stops where a hand holds too many cards with
nowhere to go, or has too few canastas within reach. Both tests are generous: a hand that can
go out is never refused here (tests hold them to the search without them). Both are cheap:
counts and bit masks, no meld is built.

Where the compiled build has its native core (``_bounds.c``, :func:`native`), it answers, and
reads a search state's run masks and cells with them (:func:`state_reader`); the Python stays
the reference (``python_could_meet``, ``python_stranded``, and
:mod:`~bolivia.play.table.runs`' ``run_capable`` and ``run_cells``), and
tests/test_bounds_core.py holds the two to the same answers. The pure build runs the Python.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, TypeAlias, cast

from bolivia.cards import SUIT_INDEX, SUITS
from bolivia.engine.limits import Limits, limits
from bolivia.engine.melds import Meld, natural_ranks, sequence_places
from bolivia.rules.ruleset import Ruleset

if TYPE_CHECKING:
    from bolivia.play.table._bounds import Bounds

__all__ = [
    "Checks",
    "StateReader",
    "checks",
    "could_meet",
    "native",
    "python_could_meet",
    "python_stranded",
    "state_reader",
    "stranded",
]

#: the native core's reading of a search's state, the hand's counts and the side's melds: the
#: ranks of each suit that could be in a run (:func:`~bolivia.play.table.runs.run_capable`)
#: and the state's cells (:func:`~bolivia.play.table.runs.run_cells`)
StateReader: TypeAlias = Callable[[list[int], list[Meld]], tuple[list[int], tuple[int, ...]]]

#: a ruleset's :func:`could_meet` and :func:`stranded`, as functions of the hand's counts, the
#: side's melds (and the players, for the first); and the native core's state reader (None in
#: the pure build)
Checks: TypeAlias = tuple[
    Callable[[list[int], list[Meld], int], bool],
    Callable[[list[int], list[Meld]], list[int]],
    StateReader | None,
]


def native() -> type[Bounds] | None:
    """The native core (the compiled build's), or None (the pure build's)."""
    try:
        from bolivia.play.table._bounds import Bounds as found
    except ImportError:
        return None
    return found


def checks(ruleset: Ruleset) -> Checks:
    """The ruleset's two bounds, the native core's where the build has one (with its state
    reader), else the Python's (and no reader). Made on first use and kept with the ruleset's
    limits (a search asks once)."""
    lim = limits(ruleset)
    found = lim.bound_checks
    if found is None:
        found = lim.bound_checks = _made_checks(ruleset, lim)
    return cast(Checks, found)


def _made_checks(ruleset: Ruleset, lim: Limits) -> Checks:
    made = native()
    if made is None:
        return partial(python_could_meet, ruleset), partial(python_stranded, ruleset), None
    core = made(lim, partial(_run_places, ruleset, lim), lim.rank_index, SUIT_INDEX)
    return core.could_meet, core.stranded, core.state


def state_reader(ruleset: Ruleset) -> StateReader | None:
    """The native core's reader of a search's state (where runs may be melded), or None."""
    return checks(ruleset)[2]


def stranded(ruleset: Ruleset, counts: list[int], table: list[Meld]) -> list[int]:
    """The cards of the hand that surely have nowhere to go, by index.

    Two at most, two meaning more. Such a card has no meld of the side to join and no card to
    meld with; going out allows one (the discard). Every test is generous.
    """
    return checks(ruleset)[1](counts, table)


def python_stranded(ruleset: Ruleset, counts: list[int], table: list[Meld]) -> list[int]:
    """:func:`stranded`, in Python (the reference)."""
    lim = limits(ruleset)
    wilds = _wilds_held(lim, counts)
    grouped = _grouped(lim, table)
    # a natural of a rank held meets the naturals a group needs where one is enough
    anywhere = lim.group_min_natural <= 1
    out: list[int] = []
    for r in range(13):
        if lim.wild[r * 4]:  # wild cards go anywhere
            continue
        if r == 1:  # black threes: as a meld of their own (or in a run, where one may be)
            if _threes_stranded(lim, counts, grouped[1], wilds):
                out += [4] * counts[4] + [7] * counts[7]
        elif not anywhere and _lone_natural(lim, counts, grouped, r):
            _rank_stranded(ruleset, lim, counts, table, r, wilds, out)
        if len(out) > 1:
            return out[:2]
    return out


def _wilds_held(lim: Limits, counts: list[int]) -> int:
    """How many wild cards the hand holds."""
    wilds = 0
    for i in lim.wild_indices:
        wilds += counts[i]
    return wilds


def _grouped(lim: Limits, table: list[Meld]) -> list[bool]:
    """The ranks the side has a group of, by rank index.

    Black threes count where the side has a meld of them.
    """
    grouped = [False] * 13
    rank_index = lim.rank_index
    for m in table:
        if (m.kind == "group" or m.kind == "threes") and m.rank is not None:
            grouped[rank_index[m.rank]] = True
    return grouped


def _threes_stranded(lim: Limits, counts: list[int], grouped: bool, wilds: int) -> bool:
    """Whether the black threes held have no run or meld of threes to go to."""
    black = counts[4] + counts[7]
    return (
        black > 0
        and not (lim.sequence_allowed and lim.rank_positions[1])
        and not grouped
        and (
            lim.threes_when == "never"
            or black + min(wilds, lim.threes_max_wild) < lim.threes_min_size
        )
    )


def _lone_natural(lim: Limits, counts: list[int], grouped: list[bool], r: int) -> bool:
    """Whether the hand holds too few naturals of rank ``r`` for a group.

    Where the side has a group of the rank, they may join it.
    """
    base = r * 4
    same = counts[base] + counts[base + 1] + counts[base + 2] + counts[base + 3]
    return 0 < same < lim.group_min_natural and not grouped[r]


def _rank_stranded(
    ruleset: Ruleset,
    lim: Limits,
    counts: list[int],
    table: list[Meld],
    r: int,
    wilds: int,
    out: list[int],
) -> None:
    """Add the lone naturals of rank ``r`` that no run could take."""
    base = r * 4
    if not lim.sequence_allowed or not lim.rank_positions[r]:
        out += [i for i in range(base, base + 4) for _ in range(counts[i])]
        return
    budget = min(wilds, lim.sequence_max_wild)  # the wild cards one run may take from the hand
    if budget >= lim.sequence_min_size - 1:  # a run of the wild cards and the natural alone
        return
    for s in range(4):
        n = counts[base + s]
        if n and not _could_run(ruleset, counts, table, r, s, budget):
            out += [base + s] * n


def _could_run(
    ruleset: Ruleset, counts: list[int], table: list[Meld], r: int, s: int, budget: int
) -> bool:
    """Whether the natural of rank ``r`` and suit ``s`` might be in a run.

    A new run, or one of the side's. ``budget``: the wild cards a run may take from the hand.
    """
    lim = limits(ruleset)
    return _could_start_run(lim, counts, r, s, budget) or _could_join_run(
        ruleset, lim, counts, table, r, s, budget
    )


def _could_start_run(lim: Limits, counts: list[int], r: int, s: int, budget: int) -> bool:
    """Whether the natural might start a new run.

    Some window of the smallest size, within the span, has its other ranks held in the suit
    or filled by ``budget`` wild cards.
    """
    low, high = lim.span_low, lim.span_high
    size = lim.sequence_min_size
    cells = lim.suit_places[s]  # the suit's card at each position (-1: a wild rank's place)
    for p in lim.rank_positions[r]:  # by position: an ace low or high
        for start in range(max(low, p - size + 1), min(p, high - size + 1) + 1):
            if _missing(counts, cells, start, start + size, p) <= budget:
                return True
    return False


def _missing(counts: list[int], cells: tuple[int, ...], start: int, stop: int, p: int) -> int:
    """How many positions of a window the hand does not hold in the suit.

    From ``start`` to ``stop`` (not reached), leaving out ``p``. ``cells``: the suit's card at
    each position, -1 at a wild rank's place (never held).
    """
    missing = 0
    for q in range(start, stop):
        if q != p and (cells[q] < 0 or not counts[cells[q]]):
            missing += 1
    return missing


def _could_join_run(
    ruleset: Ruleset,
    lim: Limits,
    counts: list[int],
    table: list[Meld],
    r: int,
    s: int,
    budget: int,
) -> bool:
    """Whether the natural might join one of the side's runs of its suit."""
    suit = SUITS[s]
    for m in table:
        if (
            m.kind == "sequence"
            and m.suit == suit
            and _run_takes(ruleset, lim, counts, m, r, s, budget)
        ):
            return True
    return False


def _run_takes(
    ruleset: Ruleset, lim: Limits, counts: list[int], m: Meld, r: int, s: int, budget: int
) -> bool:
    """Whether one of the side's runs has the rank's place free and room.

    The ranks between are held or filled; its own wild cards count as if they could move.
    """
    cells = lim.suit_places[s]
    max_size = lim.sequence_max_going_out  # cards join runs of the table in going out
    fill = min(budget, lim.sequence_max_wild - m.wilds) + m.wilds + _own_two(lim, m)
    for lo, hi, taken in _run_places(ruleset, lim, m):
        for p in lim.rank_positions[r]:
            if taken >> p & 1:
                continue
            gap = range(p + 1, lo) if p < lo else range(hi + 1, p)
            if max_size is not None and m.size + 1 + len(gap) > max_size:
                continue
            missing = sum(1 for q in gap if cells[q] < 0 or not counts[cells[q]])
            if missing <= fill:
                return True
    return False


def _own_two(lim: Limits, meld: Meld) -> int:
    """1 where a run holds its own two as a natural card (``melds.sequence.natural_twos``),
    which may yet stand elsewhere as its wild card, filling a gap; else 0."""
    if not lim.natural_twos or meld.kind != "sequence":
        return 0
    wild = lim.wild
    return int(meld.naturals > sum(1 for c in meld.cards if not wild[c.index]))


def could_meet(ruleset: Ruleset, counts: list[int], table: list[Meld], players: int) -> bool:
    """A quick upper bound: could the side meet the going-out requirement?

    The side's melds are counted with every card of the hand put to use. Generous like
    :func:`stranded`: each canasta the cards might make counts once toward the number needed
    and toward every kind it might be.
    """
    return checks(ruleset)[0](counts, table, players)


def python_could_meet(ruleset: Ruleset, counts: list[int], table: list[Meld], players: int) -> bool:
    """:func:`could_meet`, in Python (the reference)."""
    lim = limits(ruleset)
    count, including = lim.requirement(players)
    # canastas on the table, and those the hand might still make, by kind (see KINDS)
    made = [0, 0, 0, 0]
    might = [0, 0, 0, 0]
    wilds = _wilds_held(lim, counts)
    # where the requirement asks for escaleras, those within reach are counted first: short of
    # them, the groups and wild melds need not be read (the same answer, sooner)
    runs_first = lim.asks_escaleras(players)
    total = 0
    if runs_first:
        total = _escaleras(ruleset, lim, counts, table, wilds, made, might)
        if not _escaleras_enough(made, might, including):
            return False
    open_groups = [0] * 13  # cards in the groups not yet canastas, by rank
    open_wild: list[int] = []  # the sizes of the wild melds not yet canastas
    for meld in table:
        if meld.kind == "sequence":
            if not runs_first:
                total += _table_run(ruleset, lim, counts, meld, wilds, made, might)
        else:
            _table_meld(lim, meld, made, open_groups, open_wild)
    on_table = made[0] + made[1] + made[2] + made[3]
    if _enough(on_table, made, count, including):
        return True
    if not runs_first:
        total += _streaks(lim, counts, might)
    total += _hand_canastas(lim, counts, wilds, open_groups, open_wild, might)
    for k in range(4):
        might[k] = might[k] + made[k]
    return _enough(on_table + total, might, count, including)


def _escaleras(
    ruleset: Ruleset,
    lim: Limits,
    counts: list[int],
    table: list[Meld],
    wilds: int,
    made: list[int],
    might: list[int],
) -> int:
    """:func:`could_meet` for the escaleras: the table's runs, then the suits' streaks."""
    total = 0
    for meld in table:
        if meld.kind == "sequence":
            total += _table_run(ruleset, lim, counts, meld, wilds, made, might)
    return total + _streaks(lim, counts, might)


def _escaleras_enough(
    made: list[int], might: list[int], including: tuple[tuple[int, int], ...]
) -> bool:
    """Whether the escaleras within reach are as many as the requirement asks."""
    return all(made[2] + might[2] >= least for wanted, least in including if wanted == 2)


def _table_meld(
    lim: Limits, meld: Meld, made: list[int], open_groups: list[int], open_wild: list[int]
) -> None:
    """:func:`could_meet` for a group or wild meld of the table.

    A canasta counts in ``made``. An open group adds its cards to ``open_groups`` by rank; an
    open wild meld its size to ``open_wild``.
    """
    kind = meld.kind
    size = len(meld.cards)
    if kind == "group":
        if meld.wilds == 0:
            if size >= lim.natural_size:
                made[0] = made[0] + 1
                return
        elif size >= lim.mixed_size:
            made[1] = made[1] + 1
            return
        if meld.rank is not None:
            g = lim.rank_index[meld.rank]
            open_groups[g] = open_groups[g] + size
    elif kind == "wild":
        if size >= lim.bolivia_size:
            made[3] = made[3] + 1
            return
        open_wild.append(size)


def _hand_canastas(
    lim: Limits,
    counts: list[int],
    wilds: int,
    open_groups: list[int],
    open_wild: list[int],
    might: list[int],
) -> int:
    """:func:`could_meet` for the groups and wild melds the hand might make.

    New ones, or the table's completed. They count in ``might``; the canastas they add to the
    total are returned.
    """
    max_wild = lim.group_max_wild
    room = wilds if max_wild is None else min(wilds, max_wild)
    group_canasta = lim.group_canasta
    natural, mixed = lim.natural_reachable, lim.mixed_reachable
    total = 0
    for r in lim.group_ranks if natural or mixed else ():
        base = r * 4
        same = counts[base] + counts[base + 1] + counts[base + 2] + counts[base + 3]
        n = (open_groups[r] + same + room) // group_canasta
        if n:
            total += n
            if natural:
                might[0] = might[0] + n
            if mixed:
                might[1] = might[1] + n
    for size in open_wild:
        if size + wilds >= lim.bolivia_size:
            total += 1
            might[3] = might[3] + 1
    if lim.wild_allowed and wilds >= lim.bolivia_size:
        n = wilds // lim.bolivia_size
        total += n
        might[3] = might[3] + n
    return total


def _table_run(
    ruleset: Ruleset,
    lim: Limits,
    counts: list[int],
    meld: Meld,
    wilds: int,
    made: list[int],
    might: list[int],
) -> int:
    """:func:`could_meet` for one run of the table; the canastas it adds returned.

    An escalera counts in ``made``. A run the naturals held beyond its ends could make one,
    past gaps the wild cards may fill, counts in ``might`` and adds 1.
    """
    size = len(meld.cards)
    escalera = lim.escalera_size
    if size >= escalera:
        made[2] = made[2] + 1
        return 0
    if meld.suit is None:
        return 0
    cells = lim.suit_places[SUIT_INDEX[meld.suit]]
    extra = min(wilds, lim.sequence_max_wild) + _own_two(lim, meld)
    low, high = lim.span_low, lim.span_high
    addable = 0
    for first, last, _ in _run_places(ruleset, lim, meld):
        more = _beyond(counts, cells, first - 1, low - 1, -1, extra) + _beyond(
            counts, cells, last + 1, high + 1, 1, extra
        )
        if more > addable:
            addable = more
    if size + addable + extra >= escalera:
        might[2] = might[2] + 1
        return 1
    return 0


def _streaks(lim: Limits, counts: list[int], might: list[int]) -> int:
    """:func:`could_meet` for the suits; the canastas they add returned.

    A suit's longest run of ranks held, with the wild cards a run may take, could make an
    escalera. Generous: it counts one a copy of the suit, in ``might``.
    """
    if not lim.sequence_allowed:
        return 0
    need = lim.escalera_size - lim.sequence_max_wild
    added = 0
    for s in range(4):
        if need > 0:  # the ranks held in the suit, in a row, until ``need`` are met
            streak = 0
            for i in lim.suit_span[s]:  # a wild rank's place is left out: it breaks no streak
                if not counts[i]:
                    streak = 0
                    continue
                streak += 1
                if streak == need:
                    break
            if streak < need:
                continue
        added += 1 + lim.decks
        might[2] = might[2] + 1 + lim.decks
    return added


def _beyond(
    counts: list[int], cells: tuple[int, ...], start: int, stop: int, step: int, gaps: int
) -> int:
    """The naturals of a suit held from position ``start`` towards ``stop``.

    ``stop`` is not reached. It goes past up to ``gaps`` positions not held. ``cells``: the
    suit's card at each position, -1 at a wild rank's place (passed over).
    """
    more = 0
    q = start
    while q != stop:
        i = cells[q]
        if i >= 0:
            if counts[i]:
                more += 1
            else:
                gaps -= 1
                if gaps < 0:
                    break
        q += step
    return more


def _run_places(ruleset: Ruleset, lim: Limits, meld: Meld) -> tuple[tuple[int, int, int], ...]:
    """Each placement of a table run's naturals: its ends and the places taken.

    As :func:`~bolivia.engine.melds.sequence_places` places them: the lowest and highest
    position, and a bit per position a natural holds. They depend on the run alone, and the
    same runs are read in every state of a search: they are kept with the limits, by the run
    (by identity).
    """
    known = lim.run_places_kept.find(id(meld), meld)
    if known is not None:
        return known[1]
    return lim.run_places_kept.keep(id(meld), meld, tuple(_placements(ruleset, lim, meld)))


def _placements(ruleset: Ruleset, lim: Limits, meld: Meld) -> list[tuple[int, int, int]]:
    """:func:`_run_places`, worked out.

    Where no ace stands low (and no two may be a run's own natural two), the one placement is
    read from the cards: a rank ``r`` at position ``r + 1``.
    """
    wild = lim.wild
    if lim.span_low > 0 and not lim.natural_twos:
        lo, hi, taken = 14, -1, 0
        for card in meld.cards:
            i = card.index
            if not wild[i]:
                p = (i >> 2) + 1
                taken |= 1 << p
                if p < lo:
                    lo = p
                if p > hi:
                    hi = p
        return [(lo, hi, taken)]
    ranks = natural_ranks(wild, meld)
    out = []
    for places in sequence_places(ruleset, ranks, meld.wilds):
        taken = 0
        for p in places:
            taken |= 1 << p
        out.append((places[0], places[-1], taken))
    return out


def _enough(
    total: int, have: list[int], count: int, including: tuple[tuple[int, int], ...]
) -> bool:
    """Whether these canastas, by kind in ``have``, meet the requirement."""
    return total >= count and all(have[kind] >= n for kind, n in including)
