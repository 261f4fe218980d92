"""Choosing cards, for the move generator and the search for a way out: the wild cards by rank
(the copies of one rank interchangeable), each distinct sub-multiset of some cards, each mix of
interchangeable kinds.

May import: :mod:`bolivia.engine.limits`, the ground floor and the rules.
"""

from __future__ import annotations

from collections.abc import Iterator

from bolivia.engine.limits import limits
from bolivia.rules.ruleset import Ruleset

__all__ = ["mixes", "sub_multisets", "wild_ranks"]


def wild_ranks(ruleset: Ruleset) -> list[list[int]]:
    """The wild cards (by index) grouped by rank, the cheaper rank first: twos, jokers. The
    copies of one rank are interchangeable (the same points, the same rules), but where a
    run's own two may stand in its place as a natural card (``melds.sequence.natural_twos``),
    each two is a kind of its own: the two of hearts may do in a run of hearts what the two
    of clubs may not."""
    apart = limits(ruleset).natural_twos
    out: list[list[int]] = []
    for i in ruleset.wild_indices:
        if out and out[-1][0] >> 2 == i >> 2 and not (apart and i < 4):
            out[-1].append(i)
        else:
            out.append([i])
    return out


def sub_multisets(items: list[int], k: int) -> Iterator[list[int]]:
    """Each distinct sub-multiset of ``k`` of the sorted ``items``."""
    if k == 0:
        yield []
        return
    last = None
    for i, item in enumerate(items):
        if item == last:
            continue
        last = item
        for rest in sub_multisets(items[i + 1 :], k - 1):
            yield [item, *rest]


def mixes(held: list[list[int]], n: int, cheapest: bool) -> Iterator[list[int]]:
    """``n`` cards from the kinds ``held`` (each a list of interchangeable cards): every mix of
    counts per kind, or only the one taking the cheapest kinds first."""
    if cheapest:
        out: list[int] = []
        for cards in held:
            take = min(len(cards), n - len(out))
            out.extend(cards[:take])
        if len(out) == n:
            yield out
        return

    def mix(k: int, left: int) -> Iterator[list[int]]:
        if k == len(held):
            if left == 0:
                yield []
            return
        for take in range(min(left, len(held[k])) + 1):
            for rest in mix(k + 1, left - take):
                yield held[k][:take] + rest

    yield from mix(0, n)
