"""What a step may do with wild cards, given the side's melds before it: the locks of an
unfinished wild meld (:mod:`bolivia.engine.wild_lock`), ranks whose groups take wild cards by
a limit of their own, and the natural cards a group must hold to take a wild card once the
side has made its first meld. Decided by ``melds.wild.unfinished_locks``,
``melds.group.wild_by_rank`` and ``melds.group.late_wild_min_natural`` of the ruleset
(Modern American Canasta has all three).

>>> from bolivia.rules.library import shipped_library
>>> from bolivia.rules.variants import with_values
>>> from bolivia.cards import parse_cards
>>> from bolivia.engine.melds import verify_meld
>>> rules = with_values(
...     shipped_library().load("canasta"),
...     {
...         "melds.group.wild_by_rank": {"A": {"max_wild": 0, "first_meld": True}},
...         "melds.group.late_wild_min_natural": 5,
...     },
...     "x",
... )
>>> aces = verify_meld(rules, parse_cards(["AC", "AD", "2H"]))
>>> kings = verify_meld(rules, parse_cards(["KC", "KD", "KH"]))
>>> step_fault(rules, [], [aces]) is None  # in the side's first meld
True
>>> step_fault(rules, [kings], [kings, aces])  # after it
'melds.group.wild_by_rank'
>>> dirty_kings = verify_meld(rules, parse_cards(["KC", "KD", "KH", "2S"]))
>>> step_fault(rules, [kings], [dirty_kings])  # three natural kings are not five
'melds.group.late_wild_min_natural'

A rank with no first-meld freedom (sevens) is refused by the meld's own check
(:func:`~bolivia.engine.melds.verify_meld`), whatever the table; this module decides the rest.
A step is checked on the table it leaves the side: the cards a player lays in one turn are
laid in any order, so the naturals laid with a wild card count for it, and a way out is checked
from the table it started from. Melds are matched by rank and wild cards, not by position: a
group over its rank's limit, or with wild cards and fewer naturals than the late minimum, must
have been on the table before the step with as many wild cards.

May import: :mod:`bolivia.engine.wild_lock`, :mod:`bolivia.engine.groups` and what they may.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Final

from bolivia.engine.groups import rank_limits
from bolivia.engine.meld import Meld
from bolivia.engine.wild_lock import RULE as LOCK_RULE
from bolivia.engine.wild_lock import lock_broken, wild_elsewhere
from bolivia.errors import Illegal
from bolivia.rules.ruleset import Ruleset

__all__ = ["BY_RANK", "LATE", "step_fault", "verify_step"]

BY_RANK: Final = "melds.group.wild_by_rank"
LATE: Final = "melds.group.late_wild_min_natural"


def _over_rank(ruleset: Ruleset, melds: Sequence[Meld]) -> Counter[str]:
    """The groups over their rank's own limit of wild cards, counted by rank."""
    by_rank = ruleset.rules.melds.group.wild_by_rank
    over: Counter[str] = Counter()
    for m in melds:
        if m.kind == "group" and m.rank is not None:
            limit = by_rank.get(m.rank)  # type: ignore[call-overload]
            if limit is not None and m.wilds > limit.max_wild:
                over[m.rank] += 1
    return over


def _rank_broken(ruleset: Ruleset, before: Sequence[Meld], after: Sequence[Meld]) -> bool:
    """Whether the step leaves a group over its rank's limit that it may not be over: a rank
    with no first-meld freedom never, one with it only as laid in the side's first meld."""
    over = _over_rank(ruleset, after)
    if not over:
        return False
    by_rank = ruleset.rules.melds.group.wild_by_rank
    had = _over_rank(ruleset, before)
    for rank, n in over.items():
        if not by_rank[rank].first_meld:  # type: ignore[index]
            return True
        if before and n > had[rank]:
            return True
    return False


def _thin(melds: Sequence[Meld], least: int) -> Counter[tuple[str | None, int]]:
    """The groups holding wild cards and fewer than ``least`` naturals, by rank and wilds."""
    return Counter(
        (m.rank, m.wilds) for m in melds if m.kind == "group" and m.wilds and m.naturals < least
    )


def _late_broken(ruleset: Ruleset, before: Sequence[Meld], after: Sequence[Meld]) -> bool:
    """Whether a step after the side's first meld gives a group a wild card while it holds
    fewer naturals than the late minimum."""
    least = ruleset.rules.melds.group.late_wild_min_natural
    if least is None or not before:
        return False
    thin = _thin(after, least)
    if not thin:
        return False
    return bool(thin - _thin(before, least))


def step_fault(ruleset: Ruleset, before: Sequence[Meld], after: Sequence[Meld]) -> str | None:
    """The rule a step breaks that turns the side's melds ``before`` into ``after``, or
    None: :data:`~bolivia.engine.wild_lock.RULE`, :data:`BY_RANK` or :data:`LATE`."""
    if lock_broken(ruleset, wild_elsewhere(before), after) is not None:
        return LOCK_RULE
    if _rank_broken(ruleset, before, after):
        return BY_RANK
    if _late_broken(ruleset, before, after):
        return LATE
    return None


def verify_step(ruleset: Ruleset, before: Sequence[Meld], after: Sequence[Meld]) -> None:
    """Nothing where the step keeps the rules of :func:`step_fault`; else :class:`Illegal`
    citing the rule it breaks."""
    rule = step_fault(ruleset, before, after)
    if rule is None:
        return
    group = ruleset.rules.melds.group
    if rule == LOCK_RULE:
        code = "wild-meld-unfinished"
        text = (
            "no wild card may go onto another meld while the side's wild meld is short of a canasta"
        )
    elif rule == BY_RANK:
        code = "rank-too-many-wilds"
        text = rank_limits(ruleset)
    else:
        code = "late-wild-too-few-naturals"
        text = (
            f"once the side has made its first meld, a group takes a wild card only holding "
            f"at least {group.late_wild_min_natural} natural cards"
        )
    raise Illegal(code, f"{text} ({ruleset.cite(rule)})", rule)
