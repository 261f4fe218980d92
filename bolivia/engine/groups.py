"""The limits of melds of one rank: groups, black threes, and wild cards alone. Decided by
``melds.group``, ``melds.black_threes`` and ``melds.wild`` of the ruleset.

>>> from bolivia.rules.library import shipped_library
>>> zh = shipped_library().load("bolivia-zh")
>>> group_fault(zh.rules.melds.group, 2, 2, new=True)
'group-ratio'

Each check takes counts and returns the code of the first limit broken, or None.
:func:`~bolivia.engine.melds.verify_meld` raises on it with the sentence of
:data:`GROUP_REFUSALS`; the move generators ask the same checks, so each rule is written once.

May import: :mod:`bolivia.engine.meld`, :mod:`bolivia.engine.limits`, :mod:`bolivia.rules`
and the ground floor.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from bolivia.engine.limits import limits
from bolivia.engine.meld import plural
from bolivia.rules.model import BlackThreeMelds, GroupMelds, SequenceMelds, WildMelds
from bolivia.rules.ruleset import Ruleset

__all__ = [
    "GROUP_REFUSALS",
    "Refusals",
    "group_code",
    "group_codes",
    "group_fault",
    "group_table",
    "rank_limits",
    "size_fault",
    "size_refusals",
    "threes_fault",
    "wild_fault",
]


def size_fault(kind: str, size: int, low: int, high: int | None) -> str | None:
    """``KIND-too-small`` or ``KIND-too-large`` where the size is out of bounds, else None."""
    if size < low:
        return f"{kind}-too-small"
    if high is not None and size > high:
        return f"{kind}-too-large"
    return None


#: whether a group of so many naturals and wild cards breaks ``melds.group.ratio``, by its value
RATIO_BROKEN: Final[dict[str, Callable[[int, int], bool]]] = {
    "any": lambda naturals, wilds: False,
    "naturals_exceed_wilds": lambda naturals, wilds: naturals <= wilds,
    "naturals_twice_wilds": lambda naturals, wilds: naturals < 2 * wilds,
}


def group_fault(rule: GroupMelds, naturals: int, wilds: int, *, new: bool) -> str | None:
    """The first limit of ``melds.group`` a group of these counts breaks, or None."""
    return _GroupLimits(rule).fault(naturals, wilds, new)


class _GroupLimits:
    """``melds.group``'s limits read once, for :func:`group_fault` and the table of every
    count (:func:`_tabulate`: a rule record's fields cost a lookup each)."""

    def __init__(self, rule: GroupMelds) -> None:
        self.min_size = rule.min_size
        self.min_natural = rule.min_natural
        self.max_wild = rule.max_wild
        self.ratio_broken = RATIO_BROKEN[rule.ratio]
        self.max_size = rule.max_size

    def fault(self, naturals: int, wilds: int, new: bool) -> str | None:
        size = naturals + wilds
        if new and size < self.min_size:
            return "group-too-small"
        if naturals < self.min_natural:
            return "group-too-few-naturals"
        if self.max_wild is not None and wilds > self.max_wild:
            return "group-too-many-wilds"
        if self.ratio_broken(naturals, wilds):
            return "group-ratio"
        if self.max_size is not None and size > self.max_size:
            return "group-too-large"
        return None


def group_codes(ruleset: Ruleset, *, new: bool = True) -> list[list[str | None]]:
    """:func:`group_fault` of every count of naturals and wild cards, as a table.

    ``codes[n][w]`` is the fault of a group of ``n`` naturals and ``w`` wild cards: a new
    group, or one grown on the table with ``new=False``. ``n`` runs to every natural of a rank
    in the pack, ``w`` to every wild card. Tabulated once per ruleset, kept with its
    :class:`~bolivia.engine.limits.Limits`.
    """
    lim = limits(ruleset)
    if not lim.group_codes:
        codes = [_tabulate(ruleset, new=fresh) for fresh in (False, True)]
        lim.group_tables = [[[c is None for c in row] for row in table] for table in codes]
        lim.group_codes = codes
    return lim.group_codes[1 if new else 0]


def _tabulate(ruleset: Ruleset, *, new: bool) -> list[list[str | None]]:
    """:func:`group_codes` worked out for a new group or one grown on the table."""
    rule = _GroupLimits(ruleset.rules.melds.group)
    pack = ruleset.rules.pack
    naturals = 4 * pack.decks
    wilds = pack.jokers + 4 * pack.decks * len(pack.wild_ranks)
    return [[rule.fault(n, w, new) for w in range(wilds + 1)] for n in range(naturals + 1)]


def group_table(ruleset: Ruleset, *, new: bool = True) -> list[list[bool]]:
    """Whether each group of ``n`` naturals and ``w`` wild cards meets the group limits.

    ``table[n][w]`` is :func:`group_codes` is None, for the move generator.
    """
    lim = limits(ruleset)
    if not lim.group_tables:
        group_codes(ruleset)
    return lim.group_tables[1 if new else 0]


def group_code(ruleset: Ruleset, naturals: int, wilds: int, new: bool) -> str | None:
    """:func:`group_fault`, read from the table where the counts are within the pack's."""
    codes = group_codes(ruleset, new=new)
    if naturals < len(codes):
        row = codes[naturals]
        if wilds < len(row):
            return row[wilds]
    return group_fault(ruleset.rules.melds.group, naturals, wilds, new=new)


def wild_fault(rule: WildMelds, size: int, *, new: bool) -> str | None:
    """The first limit of ``melds.wild`` a meld of ``size`` wild cards breaks, or None."""
    if not rule.allowed:
        return "wild-not-allowed"
    return size_fault("wild", size, rule.min_size if new else 1, rule.max_size)


def threes_fault(
    rule: BlackThreeMelds, size: int, wilds: int, *, going_out: bool, new: bool
) -> str | None:
    """The first limit of ``melds.black_threes`` broken, or None."""
    if rule.when == "never":
        return "threes-never"
    if rule.when == "going_out" and not going_out:
        return "threes-not-going-out"
    if wilds > rule.max_wild:
        return "threes-too-many-wilds"
    return size_fault("threes", size, rule.min_size if new else 1, rule.max_size)


#: the rule and the sentence behind each code a meld is refused with, by the code: the sentence
#: is built from the ruleset and the meld's naturals and wild cards when a refusal is raised
Refusals = dict[str, tuple[str, Callable[[Ruleset, int, int], str]]]


def size_refusals(
    kind: str,
    noun: str,
    path: str,
    rule: Callable[[Ruleset], GroupMelds | SequenceMelds | WildMelds | BlackThreeMelds],
) -> Refusals:
    """The refusals of :func:`size_fault` for a kind of meld, ``noun`` in words.

    ``path`` is the rule's key (``melds.wild``); ``rule`` reads it from a ruleset.
    """
    return {
        f"{kind}-too-small": (
            f"{path}.min_size",
            lambda r, n, w: f"{noun} needs at least {rule(r).min_size} cards, not {n + w}",
        ),
        f"{kind}-too-large": (
            f"{path}.max_size",
            lambda r, n, w: f"{noun} holds at most {rule(r).max_size} cards, not {n + w}",
        ),
    }


def rank_limits(ruleset: Ruleset) -> str:
    """``melds.group.wild_by_rank`` in a refusal's words: ``groups of rank 7 hold at most 0
    wild cards; of rank A, at most 0 except as laid in the side's first meld``."""
    parts = []
    for rank, limit in ruleset.rules.melds.group.wild_by_rank.items():
        said = f"of rank {rank}, at most {plural(limit.max_wild, 'wild card')}"
        if limit.first_meld:
            said += " except as laid in the side's first meld of the hand"
        parts.append(said)
    return "groups " + "; ".join(parts)


#: the refusals of this module's checks
GROUP_REFUSALS: Final[Refusals] = {
    **size_refusals("group", "a group", "melds.group", lambda r: r.rules.melds.group),
    "group-too-few-naturals": (
        "melds.group.min_natural",
        lambda r, n, w: (
            f"a group needs at least {r.rules.melds.group.min_natural} natural cards, not {n}"
        ),
    ),
    "group-too-many-wilds": (
        "melds.group.max_wild",
        lambda r, n, w: (
            f"a group may hold at most "
            f"{plural(r.rules.melds.group.max_wild or 0, 'wild card')}, "
            f"not {w}"
        ),
    ),
    "rank-too-many-wilds": (
        "melds.group.wild_by_rank",
        lambda r, n, w: f"{rank_limits(r)}; this group holds {plural(w, 'wild card')}",
    ),
    "group-ratio": (
        "melds.group.ratio",
        lambda r, n, w: (
            (
                "natural cards must outnumber wild cards in a group"
                if r.rules.melds.group.ratio == "naturals_exceed_wilds"
                else "a group needs at least twice as many natural cards as wild cards"
            )
            + f" ({n} natural, {w} wild)"
        ),
    ),
    "wild-not-allowed": (
        "melds.wild.allowed",
        lambda r, n, w: "wild cards may not be melded on their own",
    ),
    **size_refusals("wild", "a meld of wild cards", "melds.wild", lambda r: r.rules.melds.wild),
    "threes-never": ("melds.black_threes.when", lambda r, n, w: "black threes are never melded"),
    "threes-not-going-out": (
        "melds.black_threes.when",
        lambda r, n, w: "black threes may be melded only by a player going out",
    ),
    "threes-too-many-wilds": (
        "melds.black_threes.max_wild",
        lambda r, n, w: (
            f"a meld of black threes holds at most {r.rules.melds.black_threes.max_wild} wild cards"
        ),
    ),
    **size_refusals(
        "threes",
        "a meld of black threes",
        "melds.black_threes",
        lambda r: r.rules.melds.black_threes,
    ),
}
