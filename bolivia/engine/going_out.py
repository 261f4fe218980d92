"""Going out: what a side's melds must include before one of its players may go out.
Decided by ``going_out`` of the ruleset, and ``melds.wild.unfinished_locks`` (no going out
while a wild meld is short of a canasta: :mod:`bolivia.engine.wild_lock`).

>>> from bolivia.rules.library import shipped_library
>>> requirement_text(shipped_library().load("bolivia-da"))
'2 canastas, at least 1 escalera among them'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from bolivia.engine.canastas import canasta_counts, canasta_of
from bolivia.engine.limits import KIND_INDEX, KINDS, limits
from bolivia.engine.meld import Meld
from bolivia.engine.wild_lock import RULE as WILD_LOCK
from bolivia.engine.wild_lock import going_out_locked
from bolivia.errors import Illegal
from bolivia.rules.model import CanastaRequirement
from bolivia.rules.ruleset import Ruleset

__all__ = [
    "canastas",
    "meets_canastas",
    "meets_requirement",
    "requirement_for",
    "requirement_text",
    "verify_go_out",
]


def requirement_for(ruleset: Ruleset, players: int | None = None) -> CanastaRequirement:
    """The requirement for a number of players (default: the ruleset's usual number)."""
    rule = ruleset.rules.going_out
    count = players if players is not None else ruleset.rules.players.usual
    return rule.requirement_by_players.get(count, rule.requirement)


def requirement_text(ruleset: Ruleset, players: int | None = None) -> str:
    req = requirement_for(ruleset, players)
    text = f"{req.count} canasta" + ("" if req.count == 1 else "s")
    named = [f"at least {n} {kind}" for kind, n in req.including.items()]
    return text + (", " + ", ".join(named) + " among them" if named else "")


def canastas(ruleset: Ruleset, melds: Sequence[Meld]) -> Counter[str]:
    """How many canastas of each kind the melds hold."""
    return Counter({KINDS[k]: n for k, n in enumerate(_kind_counts(ruleset, melds)) if n})


def _kind_counts(ruleset: Ruleset, melds: Sequence[Meld]) -> list[int]:
    """:func:`canastas` as four counts, by :data:`~bolivia.engine.limits.KIND_INDEX`."""
    have = [0, 0, 0, 0]
    for meld in melds:
        kind = canasta_of(ruleset, meld)
        if kind is not None:
            k = KIND_INDEX[kind]
            have[k] = have[k] + 1
    return have


def meets_requirement(ruleset: Ruleset, melds: Sequence[Meld], players: int | None = None) -> bool:
    """Whether :func:`verify_go_out` allows going out (without building its refusal): the
    same requirement, read from the ruleset's limits (the search for a way out asks at every
    leaf)."""
    lim = limits(ruleset)
    if lim.names_specials:  # counted by name: rare, and never on the bots' hot path alone
        req = requirement_for(ruleset, players)
        return meets_canastas(ruleset, melds, req.count, req.including)
    count, including = lim.requirement(
        players if players is not None else ruleset.rules.players.usual
    )
    have = _kind_counts(ruleset, melds)
    return sum(have) >= count and all(have[k] >= needed for k, needed in including)


def meets_canastas(
    ruleset: Ruleset, melds: Sequence[Meld], count: int, including: Mapping[str, int]
) -> bool:
    """Whether the melds hold ``count`` canastas, ``including`` these of kinds or special
    canastas by name (as :func:`~bolivia.engine.canastas.canasta_counts` counts them)."""
    have = canasta_counts(ruleset, melds, including)
    return sum(have.values()) >= count and all(have.get(k, 0) >= n for k, n in including.items())


def verify_go_out(ruleset: Ruleset, melds: Sequence[Meld], players: int | None = None) -> None:
    """Nothing when the side's melds allow going out; else :class:`Illegal` saying what is
    missing."""
    if going_out_locked(ruleset, melds):
        raise Illegal(
            "wild-meld-unfinished",
            "a side may not go out while its wild meld is short of a canasta "
            f"({ruleset.cite(WILD_LOCK)})",
            WILD_LOCK,
        )
    req = requirement_for(ruleset, players)
    have = canasta_counts(ruleset, melds, req.including)
    total = sum(have.values())
    path = "going_out.requirement"
    if players is not None and players in ruleset.rules.going_out.requirement_by_players:
        path = "going_out.requirement_by_players"
    if total < req.count:
        raise Illegal(
            "go-out-canastas",
            f"going out needs {requirement_text(ruleset, players)}; "
            f"the side has {total} ({ruleset.cite(path)})",
            path,
        )
    for kind, needed in req.including.items():
        if have.get(kind, 0) < needed:
            raise Illegal(
                "go-out-kind",
                f"going out needs {requirement_text(ruleset, players)};"
                f" the side has {have.get(kind, 0)} {kind} "
                f"({ruleset.cite(path)})",
                path,
            )
