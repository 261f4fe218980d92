"""Quick necessary conditions for going out, for the search of :mod:`bolivia.play.ways_out`
to stop early: too many cards with nowhere to go, or too few canastas within reach. Both are
generous -- a hand that can go out is never refused here (tests hold them to the search without
them) -- and cheap: counts and bit masks, no meld is built.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from bolivia.cards import RANKS, SUITS
from bolivia.engine.going_out import requirement_for
from bolivia.engine.melds import Meld, canasta_of
from bolivia.rules.ruleset import Ruleset

__all__ = ["could_meet", "stranded"]


def stranded(ruleset: Ruleset, counts: Sequence[int], table: Sequence[Meld]) -> list[int]:
    """The cards of the hand (by index; two at most, two meaning more) that surely have
    nowhere to go -- no meld of the side to join, no card to meld with. Going out allows one
    (the discard). Every test is generous: a hand that can go out is never refused here."""
    rules = ruleset.rules
    wild = ruleset.wild
    wilds = sum(counts[i] for i in ruleset.wild_indices)
    group_ranks = {m.rank for m in table if m.kind in ("group", "threes")}
    sequence = rules.melds.sequence
    runs = [m for m in table if m.kind == "sequence" and m.suit]
    min_natural = rules.melds.group.min_natural
    threes = rules.melds.black_threes
    low, high = ruleset.sequence_span
    budget = min(wilds, sequence.max_wild)  # the wild cards one run may take from the hand
    alone = sequence.allowed and budget >= sequence.min_size - 1
    stranded: list[int] = []
    for r in range(13):
        base = r * 4
        same = counts[base] + counts[base + 1] + counts[base + 2] + counts[base + 3]
        if not same or wild[base]:  # wild cards go anywhere
            continue
        if r == 1:  # black threes: only as a meld of their own
            black = counts[4] + counts[7]
            if (
                black
                and "3" not in group_ranks
                and (
                    threes.when == "never" or black + min(wilds, threes.max_wild) < threes.min_size
                )
            ):
                stranded += [4] * counts[4] + [7] * counts[7]
        elif RANKS[r] in group_ranks or same >= min_natural or (wilds and min_natural <= 1):
            continue
        elif not sequence.allowed or r < low or r > high:
            stranded += [i for i in range(base, base + 4) for _ in range(counts[i])]
        elif not alone:
            for s in range(4):
                n = counts[base + s]
                if n and not _could_run(ruleset, counts, runs, r, s, budget):
                    stranded += [base + s] * n
        if len(stranded) > 1:
            return stranded[:2]
    return stranded


def _could_run(
    ruleset: Ruleset, counts: Sequence[int], runs: Sequence[Meld], r: int, s: int, budget: int
) -> bool:
    """Whether the natural of rank ``r`` and suit ``s`` might be in a run: a new one (some
    window of the smallest size, within the span, whose other ranks the hand holds in the
    suit or ``budget`` wild cards fill), or one of the side's runs of the suit that has not
    the rank and has room (the ranks between held or filled, its own wild cards counted as
    if they could move)."""
    sequence = ruleset.rules.melds.sequence
    wild = ruleset.wild
    low, high = ruleset.sequence_span
    size = sequence.min_size
    for start in range(max(low, r - size + 1), min(r, high - size + 1) + 1):
        missing = sum(1 for q in range(start, start + size) if q != r and not counts[q * 4 + s])
        if missing <= budget:
            return True
    suit = SUITS[s]
    for m in runs:
        if m.suit != suit:
            continue
        ranks = [c.index >> 2 for c in m.cards if not wild[c.index]]
        if r in ranks:
            continue
        lo, hi = min(ranks), max(ranks)
        gap = range(r + 1, lo) if r < lo else range(hi + 1, r)
        if sequence.max_size is not None and m.size + 1 + len(gap) > sequence.max_size:
            continue
        missing = sum(1 for q in gap if not counts[q * 4 + s])
        if missing <= min(budget, sequence.max_wild - m.wilds) + m.wilds:
            return True
    return False


def could_meet(
    ruleset: Ruleset, counts: Sequence[int], table: Sequence[Meld], players: int
) -> bool:
    """A quick upper bound: could the side's melds, with every card of the hand put to use,
    meet the going-out requirement? Generous like :func:`stranded`: each canasta the cards
    might make counts once toward the number needed and toward every kind it might be."""
    req = requirement_for(ruleset, players)
    rules = ruleset.rules
    canastas = rules.canastas
    wild = ruleset.wild
    made: Counter[str] = Counter()  # canastas on the table
    might: Counter[str] = Counter()  # canastas the hand might still make, by kind
    total = 0
    open_groups: Counter[int] = Counter()  # cards in the groups not yet canastas, by rank
    open_wild: list[int] = []
    wilds = sum(counts[i] for i in ruleset.wild_indices)
    low, high = ruleset.sequence_span
    group_canasta = min(canastas.natural.size, canastas.mixed.size)
    max_wild = rules.melds.group.max_wild
    room = wilds if max_wild is None else min(wilds, max_wild)
    for meld in table:
        kind = canasta_of(ruleset, meld)
        if kind is not None:
            made[kind] += 1
        elif meld.kind == "group" and meld.rank is not None:
            open_groups[RANKS.index(meld.rank)] += meld.size
        elif meld.kind == "sequence" and meld.suit is not None:
            s = SUITS.index(meld.suit)
            ranks = [c.index >> 2 for c in meld.cards if not wild[c.index]]
            below, above, addable = min(ranks) - 1, max(ranks) + 1, 0
            while below >= low and counts[below * 4 + s]:
                addable, below = addable + 1, below - 1
            while above <= high and counts[above * 4 + s]:
                addable, above = addable + 1, above + 1
            extra = min(wilds, rules.melds.sequence.max_wild)
            if meld.size + addable + extra >= canastas.escalera.size:
                total += 1
                might["escalera"] += 1
        elif meld.kind == "wild":
            open_wild.append(meld.size)
    if _enough(sum(made.values()), made, req.count, req.including):
        return True
    for r in range(13):
        base = r * 4
        if r == 1 or wild[base]:
            continue
        same = counts[base] + counts[base + 1] + counts[base + 2] + counts[base + 3]
        n = (open_groups[r] + same + room) // group_canasta
        if n:
            total += n
            might["natural"] += n
            might["mixed"] += n
    for size in open_wild:
        if size + wilds >= canastas.bolivia.size:
            total += 1
            might["bolivia"] += 1
    if rules.melds.sequence.allowed:
        span = ((1 << (high + 1)) - 1) & ~((1 << low) - 1)
        for s in range(4):
            mask = 0
            for r in range(low, high + 1):
                if counts[r * 4 + s]:
                    mask |= 1 << r
            mask &= span
            best = 0  # the longest run of ranks held
            while mask:
                mask &= mask >> 1
                best += 1
            if best + rules.melds.sequence.max_wild >= canastas.escalera.size:
                total += 1 + ruleset.rules.pack.decks  # generous: a run per copy of the suit
                might["escalera"] += 1 + ruleset.rules.pack.decks
    if rules.melds.wild.allowed and wilds >= canastas.bolivia.size:
        n = wilds // canastas.bolivia.size
        total += n
        might["bolivia"] += n
    return _enough(sum(made.values()) + total, made + might, req.count, req.including)


def _enough(total: int, have: Counter[str], count: int, including: Mapping[Any, int]) -> bool:
    return total >= count and all(have[k] >= n for k, n in including.items())
