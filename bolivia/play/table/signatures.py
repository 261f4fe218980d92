"""What the search for a way out (:mod:`bolivia.play.table.ways_out`) keeps of the side's melds in
the states it remembers: one number for each meld (what bears on what it may still take and
what it counts as), and the count of each kind of canasta among the melds the wild cards have
been spread over. Numbers, not tuples of strings: a state's key is hashed at every step.

>>> from bolivia.cards import parse_cards
>>> from bolivia.engine.limits import limits
>>> from bolivia.engine.melds import verify_meld
>>> from bolivia.rules.library import shipped_library
>>> da = shipped_library().load("bolivia-da")
>>> one, other = (verify_meld(da, parse_cards(t.split())) for t in ("5H 5S 5D", "5H 5S 5C"))
>>> ranks = limits(da).rank_index
>>> signature(one, da.wild, ranks) == signature(other, da.wild, ranks)  # a group's suits: no
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from bolivia.cards import SUIT_INDEX
from bolivia.engine.melds import Meld, canasta_of
from bolivia.rules.ruleset import Ruleset

__all__ = ["could_take", "kinds_with", "signature"]

#: a meld's kind in its :func:`signature`
KIND_CODE: Final = {"group": 0, "threes": 1, "wild": 2, "sequence": 3}

#: a canasta's kind in :func:`kinds_with` (None: not a canasta)
CANASTA_CODE: Final = {None: 0, "natural": 1, "mixed": 2, "escalera": 3, "bolivia": 4}


def signature(meld: Meld, wild: Sequence[bool], rank_index: dict[str, int]) -> int:
    """What of a meld bears on what it may still take and what it counts as, as one number
    (no two melds that differ in these share it): the kind; a group's rank, naturals and wild
    cards; a run's suit, wild cards and naturals (each rank's count in four bits: the ace
    may be in a long run twice)."""
    code = KIND_CODE[meld.kind]
    if code == 3:
        ranks = 0
        n = 0
        for c in meld.cards:
            if not wild[c.index]:
                ranks += 1 << ((c.index >> 2) * 4)
                n += 1
        if meld.naturals > n:  # its own two, read as a natural card in its place
            ranks += 1
        suit = 0 if meld.suit is None else SUIT_INDEX[meld.suit] + 1
        return code | suit << 2 | ranks << 8 | meld.wilds << 64
    rank = 0 if meld.rank is None else rank_index[meld.rank] + 1
    return code | rank << 2 | meld.naturals << 8 | meld.wilds << 24


def could_take(sig: int, index: int) -> bool:
    """:func:`~bolivia.engine.melds.could_join` for a natural card (by index) and the meld of
    this signature, read from its kind and rank or suit: a run of the card's suit, a group
    of its rank, the meld of black threes for a black three."""
    kind = sig & 3
    if kind == 3:
        return sig >> 2 & 63 == (index & 3) + 1
    if kind == 0:
        return sig >> 2 & 63 == (index >> 2) + 1
    return kind == 1 and (index == 4 or index == 7)


def kinds_with(ruleset: Ruleset, kinds: int, meld: Meld) -> int:
    """``kinds`` (how many melds are canastas of each kind, eight bits each: a table holds
    fewer than 256 melds) with ``meld`` added."""
    return kinds + (1 << (8 * CANASTA_CODE[canasta_of(ruleset, meld)]))
