"""An unfinished wild meld's locks: while a side has a meld of wild cards short of a canasta,
no wild card may go onto its other melds, and it may not go out. Decided by
``melds.wild.unfinished_locks`` of the ruleset (Modern American Canasta has both).

>>> from bolivia.rules.library import shipped_library
>>> from bolivia.rules.variants import with_values
>>> from bolivia.cards import parse_cards
>>> from bolivia.engine.melds import verify_meld
>>> rules = with_values(
...     shipped_library().load("canasta"),
...     {"melds.wild.allowed": True, "melds.wild.unfinished_locks": ["wild_elsewhere"]},
...     "x",
... )
>>> open_wild = verify_meld(rules, parse_cards(["2C", "2D", "JK"]))
>>> mixed = verify_meld(rules, parse_cards(["9C", "9D", "2H"]))
>>> lock_broken(rules, 0, [open_wild, mixed])
'melds.wild.unfinished_locks'
>>> lock_broken(rules, 1, [open_wild, mixed]) is None  # the wild card was there before
True

The locks hold for the table after each step: a step that leaves the side an unfinished wild
meld (one it had, or one it lays in the step) may not add a wild card to another meld, and
a way out may not leave one (the cards a player lays in one turn are laid in any order, so a
wild canasta finished in the step frees the others).

May import: :mod:`bolivia.engine.canastas` and what it may.
"""

from __future__ import annotations

from collections.abc import Sequence

from bolivia.engine.canastas import canasta_of
from bolivia.engine.meld import Meld
from bolivia.errors import Illegal
from bolivia.rules.ruleset import Ruleset

__all__ = [
    "RULE",
    "going_out_locked",
    "lock_broken",
    "unfinished_wild",
    "verify_wild_lock",
    "wild_elsewhere",
]

RULE = "melds.wild.unfinished_locks"


def unfinished_wild(ruleset: Ruleset, melds: Sequence[Meld]) -> bool:
    """Whether these melds hold a meld of wild cards that is not yet a canasta."""
    return any(m.kind == "wild" and canasta_of(ruleset, m) is None for m in melds)


def wild_elsewhere(melds: Sequence[Meld]) -> int:
    """The wild cards in melds that are not wild melds."""
    return sum(m.wilds for m in melds if m.kind != "wild")


def going_out_locked(ruleset: Ruleset, melds: Sequence[Meld]) -> bool:
    """Whether a side with these melds may not go out: an unfinished wild meld locks it."""
    locks = ruleset.rules.melds.wild.unfinished_locks
    return "going_out" in locks and unfinished_wild(ruleset, melds)


def lock_broken(ruleset: Ruleset, before: int, after: Sequence[Meld]) -> str | None:
    """The rule a step breaks that leaves the side ``after`` where its other melds held
    ``before`` wild cards (:func:`wild_elsewhere`): ``melds.wild.unfinished_locks`` where it
    adds a wild card to another meld while a wild meld is unfinished; else None."""
    locks = ruleset.rules.melds.wild.unfinished_locks
    if (
        "wild_elsewhere" in locks
        and wild_elsewhere(after) > before
        and unfinished_wild(ruleset, after)
    ):
        return RULE
    return None


def verify_wild_lock(ruleset: Ruleset, before: Sequence[Meld], after: Sequence[Meld]) -> None:
    """Nothing where a step that turns the side's melds ``before`` into ``after`` keeps the
    locks of an unfinished wild meld; else :class:`Illegal` citing the rule."""
    if lock_broken(ruleset, wild_elsewhere(before), after) is not None:
        raise Illegal(
            "wild-meld-unfinished",
            "no wild card may go onto another meld while the side's wild meld is short of a "
            f"canasta ({ruleset.cite(RULE)})",
            RULE,
        )
