"""How a new group or meld of black threes starts in the search for a way out
(:mod:`bolivia.play.table.ways_out`): the smallest counts of naturals and wild cards that make one
legal, by the ruleset and the counts alone, kept with the ruleset. Nothing here decides a rule:
:func:`~bolivia.engine.melds.group_fault` and :func:`~bolivia.engine.melds.threes_fault` do.

>>> from bolivia.rules.library import shipped_library
>>> start_pairs(shipped_library().load("bolivia-da"), False, 3, 1)  # (naturals besides, wilds)
[(2, 0), (1, 1)]
"""

from __future__ import annotations

from bolivia.engine.melds import group_fault, threes_fault
from bolivia.rules.ruleset import Ruleset

__all__ = ["start_pairs"]


def start_pairs(
    ruleset: Ruleset, threes: bool, others: int, available: int
) -> list[tuple[int, int]]:
    """The (naturals besides the card, wild cards) a new group (or, ``threes``, a meld of black
    threes) of a card starts with, where ``others`` naturals of its rank and ``available``
    wild cards are held: for each number of wild cards the fewest naturals that make it legal,
    unless fewer of both already do -- every number at once where no wild card may go onto a
    finished canasta and the rank could make one; and one natural with wild cards where that
    could be a legal meld of some kind. Kept with the ruleset."""
    kept: dict[tuple[bool, int, int], list[tuple[int, int]]] = ruleset.__dict__.setdefault(
        "_start_pairs", {}
    )
    key = (threes, others, available)
    found = kept.get(key)
    if found is None:
        found = kept[key] = _start_pairs(ruleset, threes, others, available)
    return found


def _start_pairs(
    ruleset: Ruleset, threes: bool, others: int, available: int
) -> list[tuple[int, int]]:
    melds = ruleset.rules.melds
    max_wild = melds.black_threes.max_wild if threes else melds.group.max_wild
    most = available if max_wild is None else min(available, max_wild)

    def legal(k: int, w: int) -> bool:
        if threes:
            return threes_fault(melds.black_threes, 1 + k + w, w, going_out=True, new=True) is None
        return group_fault(melds.group, 1 + k, w, new=True) is None

    canastas = ruleset.rules.canastas
    every = (
        not threes
        and not melds.group.wild_onto_canasta
        and 1 + others + available >= min(canastas.natural.size, canastas.mixed.size)
    )
    pairs: list[tuple[int, int]] = []
    for w in range(most + 1):
        k = next((k for k in range(others + 1) if legal(k, w)), None)
        if k is None:
            continue
        if every or not any(pk <= k and pw <= w for pk, pw in pairs):
            pairs.append((k, w))
    if (
        available
        and not threes
        and (melds.group.min_natural <= 1 or melds.sequence.max_wild >= melds.sequence.min_size - 1)
    ):
        for w in range(1, available + 1):
            if (0, w) not in pairs:
                pairs.append((0, w))
    return pairs
