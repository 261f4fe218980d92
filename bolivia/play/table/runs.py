"""Runs by position: where the naturals of a sequence may stand, for the move generators and
the search for ways out. A position is a place in a sequence (:data:`~bolivia.cards.POSITION_RANK`):
0 for an ace below the two, ``r + 1`` for rank index ``r``, 13 for an ace above the king; the
ruleset's span is a range of them (:attr:`~bolivia.engine.limits.Limits.rank_positions`).
Nothing here decides a rule: :func:`~bolivia.engine.melds.sequence_fault` does.

>>> bin(positions(0b1000000000001))  # a two and an ace: the ace at both ends
'0b10000000000011'
>>> bin(ranks(0b10000000000011))
'0b1000000000001'
"""

from __future__ import annotations

from collections.abc import Sequence

from bolivia.cards import POSITION_RANK, SUIT_INDEX
from bolivia.engine.limits import Limits
from bolivia.engine.melds import Meld
from bolivia.play.table.multisets import sub_multisets

__all__ = ["gap_naturals", "held_ranks", "positions", "ranks", "run_capable", "start_naturals"]


def positions(mask: int) -> int:
    """A mask of ranks (bit ``r``: rank index ``r``) as a mask of positions, the ace at both
    ends (mask it with the span's positions)."""
    return (mask << 1) | (mask >> 12 & 1)


def ranks(places: int) -> int:
    """A mask of positions as a mask of ranks (an ace at either end is the ace)."""
    return (places >> 1) | (places & 1) << 12


def start_naturals(lim: Limits, counts: list[int], index: int, k: int, w: int) -> list[list[int]]:
    """Each choice of ``k`` other naturals of the card's suit held within reach of it (``k +
    w`` positions on either side, ``w`` wild cards filling the rest), for a new sequence
    holding the card: at each position its rank may take (an ace low and high), the same
    cards once."""
    rank, suit = index >> 2, index & 3
    low, high = lim.span_low, lim.span_high
    cells = lim.suit_places[suit]  # -1 where only a wild card stands
    out: list[list[int]] = []
    seen: set[tuple[int, ...]] = set()
    for p in lim.rank_positions[rank]:
        reach = [
            cells[q]
            for q in range(max(low, p - k - w), min(high, p + k + w) + 1)
            if q != p and cells[q] >= 0 and counts[cells[q]] > (POSITION_RANK[q] == rank)
        ]
        for others in sub_multisets(reach, k):
            key = tuple(sorted(others))
            if key not in seen:
                seen.add(key)
                out.append(others)
    return out


def gap_naturals(
    lim: Limits, counts: list[int], suit: int, places: Sequence[int], p: int
) -> list[int] | None:
    """The naturals of the suit held between position ``p`` and a run whose naturals stand at
    ``places`` (in order); None when ``p`` is one of them or next to them."""
    lo, hi = places[0], places[-1]
    if p in places or lo - 1 <= p <= hi + 1:
        return None
    gap = range(p + 1, lo) if p < lo else range(hi + 1, p)
    cells = lim.suit_places[suit]  # -1 where only a wild card stands
    return [cells[q] for q in gap if cells[q] >= 0 and counts[cells[q]] > 0]


def held_ranks(counts: list[int]) -> list[int]:
    """Per suit, a bit for each rank index of which a card is held (the joker has no suit).

    >>> counts = [0] * 53
    >>> counts[0] = counts[51] = 1  # the two of clubs, the ace of spades
    >>> [bin(mask) for mask in held_ranks(counts)]
    ['0b1', '0b0', '0b0', '0b1000000000000']
    """
    # four ints, not a list written: the search asks in every state
    clubs = diamonds = hearts = spades = 0
    for r in range(13):
        base = r << 2
        bit = 1 << r
        if counts[base]:
            clubs |= bit
        if counts[base + 1]:
            diamonds |= bit
        if counts[base + 2]:
            hearts |= bit
        if counts[base + 3]:
            spades |= bit
    return [clubs, diamonds, hearts, spades]


def run_cells(wild: tuple[bool, ...], counts: list[int], capable: list[int]) -> tuple[int, ...]:
    """The cards held as the search for a way out keys a state where runs are melded: each
    rank's counts, and its naturals that no run could take (``capable``: :func:`run_capable`)
    counted as loose, by rank alone.

    Eight bits each in one int a rank (a card is held at most MAX_DECKS = 8 times, the loose at
    most 32), then the jokers.

    >>> counts = [0] * 53
    >>> counts[8] = counts[11] = 1  # the four of clubs, the four of spades
    >>> run_cells((False,) * 53, counts, [1 << 2, 0, 0, 0])[2] == 1 << 32 | 1 << 24
    True
    """
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
    return tuple(cells)


def run_capable(
    lim: Limits,
    counts: list[int],
    wilds: int,
    table: list[Meld],
) -> list[int]:
    """Per suit, a bit for each rank whose cards held could be part of a sequence (generous: a
    card said not to be can only go into a group of its rank or be the discard, so its suit is
    moot): of a rank a sequence may hold, and a sequence of the suit on the ``table`` or
    another rank of the suit held within reach. ``wilds``: the wild cards held."""
    if not lim.sequence_allowed:
        return [0, 0, 0, 0]
    # a run's own two (melds.sequence.natural_twos) fills a place as a wild card would
    reach = (
        1 + max(1, lim.sequence_min_size - 1) + min(wilds, lim.sequence_max_wild) + lim.natural_twos
    )
    span = lim.run_places | (2 if lim.natural_twos else 0)  # the two's place, where it stands
    laid = 0  # a bit per suit the side has a sequence of
    for m in table:
        if m.kind == "sequence" and m.suit:
            laid |= 1 << SUIT_INDEX[m.suit]
    run_ranks = lim.run_ranks
    out = held_ranks(counts)
    for s in range(4):
        mask = out[s] & run_ranks
        if laid >> s & 1:
            out[s] = mask
            continue
        places = positions(out[s]) & span
        near = 0
        for d in range(1, reach + 1):
            near |= (places << d) | (places >> d)
        out[s] = ranks(places & near)
    return out
