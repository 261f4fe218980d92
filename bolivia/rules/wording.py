"""Rule values in words, as a person at the table reads them (``3 canastas (1 escalera among
them)``, ``4 players: 2 sides, 15 cards, draw 2``): shared by the comparison report and the
rulebook. The JSON outputs keep the exact data.

>>> requirement = {"rule": "canastas", "count": 2, "including": {"escalera": 1}}
>>> humanize("going_out.requirement", requirement)
'2 canastas (1 escalera among them)'
>>> humanize("pile.onto_canasta", False)
'no'
"""

from __future__ import annotations

from typing import Any

__all__ = ["humanize"]


_POINT_ORDER = ("JK", "2", "A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3")


def _choice(value: dict[str, Any]) -> str:
    if "condition" in value:
        if value["condition"] == "canastas":
            return f"{value['count']} canastas"
        return str(value["condition"]).replace("_", " ")
    if value.get("rule") == "canastas":
        named = ", ".join(f"{n} {kind}" for kind, n in value.get("including", {}).items())
        return f"{value['count']} canastas" + (f" ({named} among them)" if named else "")
    if value.get("rule") == "take_discards":
        must = " (must take onto a meld)" if value.get("must_take_onto_meld") else ""
        return "take discards" + must
    if value.get("rule") == "end_hand":
        return "the hand ends"
    if set(value) == {"hands", "outcome"}:
        return f"{value['hands']} hands, then {value['outcome'].replace('_', ' ')}"
    return "; ".join(f"{k}: {humanize('', v)}" for k, v in value.items())


def humanize(path: str, value: Any) -> str:
    """A rule value as a person reads it (the JSON report keeps the exact data)."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, str):
        return value.replace("_", " ")
    if isinstance(value, int | float):
        return str(value)
    if path == "players.seats":
        return "; ".join(
            f"{n} players: {s['teams']} sides, {s['hand_size']} cards, draw {s['draw']}"
            for n, s in value.items()
        )
    if path == "initial_meld.bands":
        return "; ".join(
            ("below: " if b["from"] is None else f"from {b['from']}: ") + str(b["minimum"])
            for b in value
        )
    if path == "scoring.card_points":
        groups: list[tuple[list[str], int]] = []
        for rank in _POINT_ORDER:
            if rank not in value:
                continue
            if groups and groups[-1][1] == value[rank]:
                groups[-1][0].append(rank)
            else:
                groups.append(([rank], value[rank]))
        return "; ".join(f"{' '.join(ranks)}: {points}" for ranks, points in groups)
    if isinstance(value, list):
        return ", ".join(humanize("", v) for v in value) if value else "none"
    if isinstance(value, dict):
        if path.endswith("_by_players"):
            return "; ".join(f"{n} players: {humanize('', v)}" for n, v in value.items()) or "none"
        return _choice(value) if value else "none"
    return str(value)  # pragma: no cover
