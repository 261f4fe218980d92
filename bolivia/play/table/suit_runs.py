"""The runs of the bots' candidates: the runs a hand's suits make, and the cards a run takes.

Both depend on the cards alone, so both are kept: a suit's runs by the ranks held, in a table
shared by the hands of a ruleset; a table run's ends with the run. Nothing here decides a
rule: :func:`~bolivia.engine.melds.sequence_fault` does.
"""

from __future__ import annotations

from typing import Final

from bolivia.cards import POSITION_RANK, SUIT_INDEX, Card
from bolivia.engine.limits import limits
from bolivia.engine.melds import Meld, natural_ranks, sequence_fault, sequence_places
from bolivia.kept import Kept
from bolivia.play.table.runs import positions
from bolivia.rules.ruleset import Ruleset

__all__ = ["SuitRuns"]

CARDS: Final = Card.all()
KEPT_RUNS: Final = 10_000  # the most runs whose ends a hand keeps (then cleared)
KEPT_ENDS: Final = 1 << 16  # the most runs' shapes whose ends a ruleset keeps (then cleared)


class SuitRuns:
    """The runs a hand's suits make, and the cards that may join a run, kept."""

    def __init__(self, ruleset: Ruleset, players: int) -> None:
        self.ruleset = ruleset
        self.lim = limits(ruleset)
        # the runs of one suit the ranks held make, by ranks and suit: shared by the hands
        # of a ruleset (at most 4 x 2**13 entries)
        self._known: dict[int, tuple[tuple[Card, ...], ...]] = ruleset.__dict__.setdefault(
            "_runs_by_suit", {}
        )
        # each run of a suit from a position, of a size, or None where it is not legal: by
        # position, size and suit, shared by the hands of a ruleset (at most 4 x 14 x 14)
        self._windows: dict[int, tuple[Card, ...] | None] = ruleset.__dict__.setdefault(
            "_run_windows", {}
        )
        # the fewest and the most cards of a run laid (at most 13, see _suit_runs)
        self._least = self.lim.sequence_min_size
        self._longest = min(self.lim.sequence_max_size or 13, self.lim.sequence_longest, 13)
        # the positions (see cards.POSITION_RANK) a sequence's naturals may take, a bit each
        self._span = self.lim.run_places
        # by player and suit, the positions last read and their runs (see runs; -1: none)
        self._last_places = [-1] * (4 * players)
        self._last_runs: list[tuple[tuple[Card, ...], ...]] = [()] * (4 * players)
        # each table run's ends, by the run (see ends; kept with the run, which the side's
        # melds keep until it grows)
        self._ends: Kept[int, tuple[int, ...]] = Kept(KEPT_RUNS)
        # and by what they depend on, the naturals' ranks, the wild cards and the suit: shared
        # by the hands of a ruleset (a run made again, in another hand, is read once)
        self._ends_by_run: dict[tuple[tuple[int, ...], int, int], tuple[int, ...]] = (
            ruleset.__dict__.setdefault("_ends_by_run", {})
        )

    def runs(self, masks: list[int], player: int) -> list[tuple[Card, ...]]:
        """The runs of one suit the player can lay: the longest, cut to the size limit.

        ``masks``: by suit, a bit per rank held.
        """
        out: list[tuple[Card, ...]] = []
        known = self._known
        span = self._span
        # each suit's last positions and runs, by player (a suit's ranks held seldom change
        # from one choice to the next): read without the shared table's lookup
        last_places, last_runs = self._last_places, self._last_runs
        at = player * 4
        for s in range(4):
            places = positions(masks[s]) & span
            if last_places[at + s] == places:
                out.extend(last_runs[at + s])
                continue
            key = places << 2 | s
            found = known.get(key)
            if found is None:
                found = known[key] = tuple(self._suit_runs(s, places))
            last_places[at + s] = places
            last_runs[at + s] = found
            out.extend(found)
        return out

    def _suit_runs(self, s: int, mask: int) -> list[tuple[Card, ...]]:
        """The runs of suit ``s`` that the positions in ``mask`` make.

        At most 13 cards: a run from ace to ace would need both aces, which the mask does not
        tell.
        """
        longest, least = self._longest, self._least
        out: list[tuple[Card, ...]] = []
        while mask:
            start = (mask & -mask).bit_length() - 1  # the lowest rank held
            length = (~(mask >> start) & ((mask >> start) + 1)).bit_length() - 1
            mask &= ~(((1 << length) - 1) << start)  # the run of ranks from there
            if length < least:
                continue
            size = min(length, longest)
            for first in range(start, start + max(1, length - longest + 1)):
                key = (first << 4 | size) << 2 | s
                found = self._windows.get(key)
                if found is None and key not in self._windows:
                    found = self._windows[key] = self._window(s, first, size)
                if found is not None:
                    out.append(found)
        return out

    def _window(self, s: int, first: int, size: int) -> tuple[Card, ...] | None:
        """The run of suit ``s`` from position ``first``, ``size`` cards, if it is legal."""
        ranks = [POSITION_RANK[p] for p in range(first, first + size)]
        if sequence_fault(self.ruleset, ranks, 0, new=True) is not None:
            return None
        return tuple(sorted(CARDS[x * 4 + s] for x in ranks))

    def ends(self, meld: Meld) -> tuple[int, ...]:
        """The cards that may join the run at one end, by index, each once.

        In the order of the run's placements: what :func:`sequence_fault` allows beside its
        naturals. They depend on the run alone, so they are kept with it, by identity (the run
        is kept too).
        """
        known = self._ends.find(id(meld), meld)
        if known is not None:
            return known[1]
        ranks = sorted(natural_ranks(self.lim.wild, meld))
        s = SUIT_INDEX[meld.suit or "C"]
        key = (tuple(ranks), meld.wilds, s)
        found = self._ends_by_run.get(key)
        if found is None:
            found = self._ends_of(ranks, meld.wilds, s)
            if len(self._ends_by_run) >= KEPT_ENDS:
                self._ends_by_run.clear()
            self._ends_by_run[key] = found
        return self._ends.keep(id(meld), meld, found)

    def _ends_of(self, ranks: list[int], wilds: int, s: int) -> tuple[int, ...]:
        """:meth:`ends` of a run of these naturals' ranks (sorted), wild cards and suit."""
        out: list[int] = []
        for places in sequence_places(self.ruleset, ranks, wilds):
            for p in (places[0] - 1, places[-1] + 1):  # the positions beside its naturals
                r = POSITION_RANK[p] if 0 <= p < 14 else -1
                if (
                    r >= 0
                    and r * 4 + s not in out
                    and sequence_fault(self.ruleset, [*ranks, r], wilds, new=False) is None
                ):
                    out.append(r * 4 + s)
        return tuple(out)
