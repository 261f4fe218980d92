"""Sequences: where a run of one suit may stand, where its aces go, and what it may hold.
Decided by ``melds.sequence`` of the ruleset.

>>> from bolivia.rules.library import shipped_library
>>> da = shipped_library().load("bolivia-da")
>>> sequence_fault(da, [4, 5, 7], 0, new=True)
'sequence-gap'
>>> sequence_places(da, [4, 5, 7], 1)
[[5, 6, 8]]

A natural ace stands where the span lets it, below the two or above the king. A sequence is
legal if one placement of its aces is. :data:`SEQUENCE_REFUSALS` gives the sentence behind
each code.

May import: :mod:`bolivia.engine.groups` (the size check), :mod:`bolivia.engine.meld`,
:mod:`bolivia.engine.limits`, :mod:`bolivia.rules` and the ground floor.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from bolivia.cards import POSITION_RANK, RANKS
from bolivia.engine.groups import Refusals, size_fault, size_refusals
from bolivia.engine.limits import Limits, limits
from bolivia.engine.meld import Meld, plural
from bolivia.rules.model import SequenceMelds
from bolivia.rules.ruleset import Ruleset

__all__ = ["SEQUENCE_REFUSALS", "natural_ranks", "sequence_fault", "sequence_places", "span_text"]


def sequence_fault(
    ruleset: Ruleset, ranks: Sequence[int], wilds: int, *, new: bool, going_out: bool = False
) -> str | None:
    """The first limit of ``melds.sequence`` a sequence breaks, or None.

    The sequence holds naturals of these rank indexes (0 for a two ... 12 for an ace; a two
    only as the run's own natural two, see :func:`natural_ranks`) and ``wilds`` wild cards.
    ``going_out``: a sequence extended (not ``new``) by a player going out, who may take it
    past ``max_size`` where ``melds.sequence.extend_going_out`` says so.
    """
    lim = limits(ruleset)
    if not lim.sequence_allowed:
        return "sequence-not-allowed"
    found = _placements(lim, ranks)
    if isinstance(found, str):
        return found
    if wilds > lim.sequence_max_wild:
        return "sequence-too-many-wilds"
    # the wild cards fill the gaps of one placement: its span less the naturals in it
    if not any(places[-1] - places[0] + 1 - len(places) <= wilds for places in found):
        return _gap_fault(found, wilds)
    fault = _length_fault(lim, len(ranks) + wilds, new, going_out)
    if fault is None and wilds and len(ranks) + wilds < lim.sequence_wild_from:
        return "sequence-wild-too-short"
    return fault


def natural_ranks(wild: Sequence[bool], meld: Meld) -> list[int]:
    """The rank indexes of a meld's naturals as read: its cards that are not wild, and for a
    sequence that holds its own two as a natural card (``melds.sequence.natural_twos``:
    :func:`~bolivia.engine.melds.verify_meld` counts it among the naturals), a two (0).

    >>> from bolivia.cards import parse_cards
    >>> from bolivia.engine.meld import Meld
    >>> run = Meld("sequence", tuple(parse_cards(["2H", "3H", "4H"])), 3, 0, suit="H")
    >>> natural_ranks([i < 4 or i == 52 for i in range(53)], run)
    [1, 2, 0]
    """
    ranks = [c.index >> 2 for c in meld.cards if not wild[c.index]]
    if meld.kind == "sequence" and meld.naturals > len(ranks):
        ranks.append(0)
    return ranks


def _gap_fault(found: list[list[int]], wilds: int) -> str:
    """The code of a sequence whose gaps its wild cards cannot fill."""
    if len(found) == 2 and _round_the_corner(found[0], wilds):
        return "sequence-rank"  # a run through the ace, from a king on to a two
    return "sequence-gap"


def _length_fault(lim: Limits, size: int, new: bool, going_out: bool) -> str | None:
    """The code of a sequence of ``size`` cards too long or too short, or None."""
    if size > lim.sequence_longest:
        return "sequence-rank"
    # past max_size where a player going out extends it and extend_going_out allows
    most = lim.sequence_max_going_out if going_out and not new else lim.sequence_max_size
    return size_fault("sequence", size, lim.sequence_min_size if new else 1, most)


def sequence_places(ruleset: Ruleset, ranks: Sequence[int], wilds: int) -> list[list[int]]:
    """Where the naturals of a sequence stand, for each placement ``wilds`` wild cards fill.

    Positions are in order (:data:`~bolivia.cards.POSITION_RANK`), one list for each placement
    of the aces without a gap left (an ace low or high, where the span allows both). Empty
    when no placement is filled, or the ranks cannot make a sequence.
    """
    found = _placements(limits(ruleset), ranks)
    if isinstance(found, str):
        return []
    return [places for places in found if places[-1] - places[0] + 1 - len(places) <= wilds]


def _placements(lim: Limits, ranks: Sequence[int]) -> str | list[list[int]]:
    """The positions of these naturals in order, for each place their aces may take.

    The ace high comes first. A rank out of the span or a duplicate gives its code instead.
    """
    places: list[int] = []
    if not _others_in_span(lim, ranks, places):
        return "sequence-rank"
    aces = len(ranks) - len(places)
    if aces and lim.span_high < 13 and lim.span_low > 0:
        return "sequence-rank"  # no end of the span reaches an ace
    places.sort()
    for i in range(1, len(places)):
        if places[i] == places[i - 1]:
            return "sequence-duplicate"
    return _place_aces(lim, places, aces)


def _others_in_span(lim: Limits, ranks: Sequence[int], places: list[int]) -> bool:
    """Whether every natural stands in the span, its position put into ``places``.

    A wild rank stands nowhere, but a two read as the run's own natural two
    (``melds.sequence.natural_twos``) stands in its place. An ace is left out, to be placed
    once the others are.
    """
    low, high = lim.span_low, lim.span_high
    wild = lim.wild
    for r in ranks:
        if wild[r * 4] and (r or not lim.natural_twos):
            return False
        if r != 12:
            p = r + 1
            if p < low or p > high:
                return False
            places.append(p)
    return True


def _place_aces(lim: Limits, places: list[int], aces: int) -> str | list[list[int]]:
    """The placements of ``aces`` aces around the other naturals' positions, ace high first."""
    if not aces:
        return [places]
    low, high = lim.span_low, lim.span_high
    if aces == 1:
        out: list[list[int]] = []
        if high == 13:
            out.append([*places, 13])
        if low == 0:
            out.append([0, *places])
        return out
    if aces == 2 and low == 0 and high == 13 and lim.two_aces:
        return [[0, *places, 13]]
    return "sequence-duplicate"


def _round_the_corner(places: list[int], wilds: int) -> bool:
    """Whether these positions would make a run through the ace, round the corner.

    One ace stands among them, at 13. The run would be whole with ``wilds`` wild cards if the
    ace could stand between a king and a two.
    """
    widest = places[0] + 12 - places[-1]  # round from the last to the first
    for i in range(1, len(places)):
        widest = max(widest, places[i] - places[i - 1] - 1)
    return 13 - widest - len(places) <= wilds


def span_text(ruleset: Ruleset) -> str:
    """Where a sequence runs, for a refusal: ``from 4 to A, without threes or wild ranks``."""
    rule = ruleset.rules.melds.sequence
    low, high = ruleset.sequence_positions
    inside = [POSITION_RANK[p] for p in range(low, high + 1)]
    wild_inside = sorted({RANKS[r] for r in inside if ruleset.wild[r * 4]}, key=RANKS.index)
    if low > 0 and 1 not in inside and not wild_inside:
        return f"a sequence runs from {rule.lowest} to {rule.highest}, without threes or wild ranks"
    return _span_ends(rule, low, high) + _span_gaps(inside, wild_inside)


def _span_ends(rule: SequenceMelds, low: int, high: int) -> str:
    """The lowest and the highest card of a sequence, and where its aces may go."""
    lowest = "A (low, below the 2)" if low == 0 else rule.lowest
    highest = "A (high, above the K)" if high == 13 and low == 0 else rule.highest
    text = f"a sequence runs from {lowest} to {highest}"
    if low == 0 and high == 13:
        aces = (
            ", an ace at either end or one at each" if rule.two_aces else ", an ace at one end only"
        )
        text += aces + ", never between a K and a 2"
    return text


def _span_gaps(inside: list[int], wild_inside: list[str]) -> str:
    """The places of the span only a wild card fills, and whether threes are left out."""
    text = ""
    if wild_inside:
        text += f"; the place of the {', '.join(wild_inside)} is filled by a wild card"
    if 1 not in inside:
        text += "; without threes"
    return text


#: the refusals of this module's checks
SEQUENCE_REFUSALS: Final[Refusals] = {
    "sequence-not-allowed": (
        "melds.sequence.allowed",
        lambda r, n, w: "sequences may not be melded",
    ),
    "sequence-rank": (
        "melds.sequence.lowest",
        lambda r, n, w: span_text(r),
    ),
    "sequence-duplicate": (
        "melds.sequence.allowed",
        lambda r, n, w: (
            "a sequence holds each rank once"
            + (", the ace once at each end" if r.rules.melds.sequence.two_aces else "")
        ),
    ),
    "sequence-too-many-wilds": (
        "melds.sequence.max_wild",
        lambda r, n, w: (
            f"a sequence may hold at most "
            f"{plural(r.rules.melds.sequence.max_wild, 'wild card')}, "
            f"not {w}"
            + (
                " (the two of its own suit in the two's place is a natural card, not one of them)"
                if limits(r).natural_twos
                else ""
            )
        ),
    ),
    "sequence-wild-too-short": (
        "melds.sequence.wild_from_size",
        lambda r, n, w: (
            f"a sequence may hold a wild card only once it has "
            f"{plural(r.rules.melds.sequence.wild_from_size or 0, 'card')}, not {n + w}"
        ),
    ),
    "sequence-gap": (
        "melds.sequence.max_wild",
        lambda r, n, w: "the cards of a sequence must follow each other without a gap",
    ),
    **size_refusals("sequence", "a sequence", "melds.sequence", lambda r: r.rules.melds.sequence),
}
