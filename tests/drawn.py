"""House rulesets whose changes are drawn from each field's own range, not from the lists the
profile's search proposes (:func:`bolivia.rules.variants.alternatives`) nor from the values its
readings take: a bonus is any multiple of ten up to a few times the base's, a size any count
near it, a list any subset, a table any entry added, dropped or changed, a special canasta any
rank, size or wild-card count with any bonus. Every fourth house also renames a canasta (from
a stream of its own, so that the others are drawn as before).

A drawn house is kept when it validates and every change is observable (taking it back, the
others in place, changes some answer the built-in oracle gives, to the battery or to a
situation of its area): a change no answer shows cannot be recovered by anything.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

from bolivia.errors import RulesetError
from bolivia.profiles.battery import Battery, tells_apart
from bolivia.rules.ruleset import Ruleset
from bolivia.rules.variants import LEAVES, same_value, with_values
from tests.houses import House, first_observable

RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
KINDS = ["natural", "mixed", "escalera", "bolivia"]
MELD_KINDS = ["group", "sequence", "wild"]

Draw = Callable[[random.Random, Ruleset, Any], Any]


def _points(rng: random.Random, value: int) -> int:
    """Any multiple of ten from 0 to three times the value (at least 500)."""
    return 10 * rng.randint(0, max(50, 3 * value) // 10)


def _count(rng: random.Random, value: int, low: int = 0) -> int:
    return max(low, value + rng.choice([-3, -2, -1, 1, 2, 3, 4, 5]))


def _subset(rng: random.Random, options: list[Any]) -> list[Any]:
    return [x for x in options if rng.random() < 0.5]


def _optional_count(rng: random.Random, value: int | None, low: int) -> int | None:
    if value is not None and rng.random() < 0.25:
        return None
    return _count(rng, 7 if value is None else value, low)


def _requirement(rng: random.Random, ruleset: Ruleset, value: Any) -> Any:
    count = rng.randint(0, 4)
    including = {rng.choice(KINDS): 1} if count and rng.random() < 0.5 else {}
    return {"rule": "canastas", "count": count, "including": including}


def _seats(rng: random.Random, ruleset: Ruleset, value: dict[str, Any]) -> dict[str, Any]:
    out = {k: dict(v) for k, v in value.items()}
    usual = str(ruleset.rules.players.usual)
    key = rng.choice(sorted(out))
    if key != usual and rng.random() < 0.25:
        del out[key]
    else:
        seat = out[key]
        what = rng.choice(["hand_size", "draw", "both"])
        if what in ("hand_size", "both"):
            seat["hand_size"] = _count(rng, seat["hand_size"], 1)
        if what in ("draw", "both"):
            seat["draw"] = rng.choice([d for d in (1, 2, 3) if d != seat["draw"]])
    return out


def _by_players(rng: random.Random, ruleset: Ruleset, value: dict[str, Any], item: Draw) -> Any:
    out = dict(value)
    seats = sorted(ruleset.value("players.seats"), key=int)
    key = rng.choice(seats)
    if key in out and rng.random() < 0.4:
        del out[key]
    else:
        out[key] = item(rng, ruleset, out.get(key))
    return out


def _card_points(rng: random.Random, ruleset: Ruleset, value: dict[str, Any]) -> Any:
    out = dict(value)
    for key in rng.sample(sorted(out), rng.randint(1, 2)):
        out[key] = 5 * rng.randint(0, 20)
    return out


def _bands(rng: random.Random, ruleset: Ruleset, value: list[dict[str, Any]]) -> Any:
    bands = [dict(b) for b in value]
    i = rng.randrange(len(bands))
    how = rng.choice(["minimum", "start", "add"])
    if how == "minimum":
        bands[i]["minimum"] = max(
            0, bands[i]["minimum"] + 5 * rng.choice([-8, -5, -3, -1, 1, 3, 6, 12])
        )
    elif how == "start" and bands[i]["from"] is not None and bands[i]["from"] > 0:
        bands[i]["from"] = max(1, bands[i]["from"] + 50 * rng.choice([-9, -4, -1, 1, 3, 7]))
    else:
        start = 50 * rng.randint(1, 200)
        if any(b["from"] == start for b in bands):
            return None
        bands.append({"from": start, "minimum": 5 * rng.randint(3, 60), "canasta": []})
        bands.sort(key=lambda b: -(10**9) if b["from"] is None else b["from"])
    return bands


def _special(rng: random.Random, ruleset: Ruleset, value: list[dict[str, Any]]) -> Any:
    kind = rng.choice(KINDS)
    entry: dict[str, Any] = {"name": "house special", "kind": kind}
    how = rng.choice(["rank", "size", "wild"])
    if how == "rank":
        entry["rank"] = rng.choice(RANKS[1:])
    elif how == "size":
        entry["min_size"] = rng.randint(8, 12)
    else:
        n = rng.randint(0, 4)
        entry.update(min_wild=n, max_wild=n)
    entry["bonus"] = 50 * rng.randint(2, 60)
    return [entry, *value]


def _penalties(rng: random.Random, ruleset: Ruleset, value: list[dict[str, Any]]) -> Any:
    kinds = _subset(rng, MELD_KINDS) or ["group"]
    entry = {
        "kinds": kinds,
        "fewer_than": rng.choice([None, 4, 5, 6, 7]),
        "points": 50 * rng.randint(1, 20),
    }
    return [*value, entry]


def _plus_when(rng: random.Random, ruleset: Ruleset, value: Any) -> Any:
    condition = rng.choice(["side_melded", "canastas", "going_out_requirement", "always"])
    if condition == "canastas":
        return {"condition": condition, "count": rng.randint(1, 4)}
    return {"condition": condition}


def _exhausted(rng: random.Random, ruleset: Ruleset, value: Any) -> Any:
    if rng.random() < 0.4:
        return {"rule": "end_hand"}
    return {"rule": "take_discards", "must_take_onto_meld": rng.random() < 0.5}


def _red_counts(rng: random.Random, ruleset: Ruleset, value: dict[str, Any]) -> Any:
    out = dict(value)
    reds = 2 * ruleset.rules.pack.decks
    out[str(rng.randint(1, reds))] = 50 * rng.randint(1, 30)
    return out


def _target(rng: random.Random, value: int) -> int:
    return 500 * rng.randint(2, max(4, 3 * value // 500))


def _hand_cap(rng: random.Random, ruleset: Ruleset, value: Any) -> Any:
    if value is not None and rng.random() < 0.4:
        return None
    return {"hands": rng.randint(1, 12), "outcome": rng.choice(["draw", "leader_wins"])}


# fields drawn by a rule of their own; the others by their value's type
SPECIAL: dict[str, Draw] = {
    "pack.decks": lambda rng, r, v: rng.randint(2, 4),
    "pack.jokers": lambda rng, r, v: rng.randint(0, 12),
    "pack.wild_ranks": lambda rng, r, v: rng.sample(
        ["2", "3", "J", "K", "A", "7"], rng.randint(0, 2)
    ),
    "players.usual": lambda rng, r, v: int(rng.choice(sorted(r.value("players.seats")))),
    "players.seats": _seats,
    "melds.sequence.lowest": lambda rng, r, v: rng.choice(RANKS[:6]),
    "melds.sequence.highest": lambda rng, r, v: rng.choice(RANKS[8:]),
    "canastas.special": _special,
    "initial_meld.bands": _bands,
    "red_threes.plus_when": _plus_when,
    "red_threes.value_by_count": _red_counts,
    "going_out.requirement": _requirement,
    "going_out.requirement_by_players": lambda rng, r, v: _by_players(rng, r, v, _requirement),
    "stock.exhausted": _exhausted,
    "scoring.card_points": _card_points,
    "scoring.meld_penalties": _penalties,
    "game.target": lambda rng, r, v: _target(rng, v),
    "game.target_options": lambda rng, r, v: sorted(
        {_target(rng, r.rules.game.target) for _ in range(rng.randint(1, 3))}
    ),
    "game.target_by_players": lambda rng, r, v: _by_players(
        rng, r, v, lambda g, rr, x: _target(g, rr.rules.game.target)
    ),
    "game.hand_cap": _hand_cap,
}

# the lists of choices a field may hold any subset of
CHOICES: dict[str, list[str]] = {
    "deal.upcard_covered_if": ["wild", "red_three", "black_three"],
    "pile.blocked_by_top": ["wild", "red_three", "black_three"],
    "pile.frozen_when": [
        "side_not_melded",
        "contains_wild",
        "contains_black_three",
        "contains_red_three",
    ],
    "pile.take_frozen": ["natural_pair", "natural_and_wild", "onto_meld"],
    "pile.take_unfrozen": ["natural_pair", "natural_and_wild", "onto_meld"],
    "pile.onto_kinds": MELD_KINDS,
    "pile.take_top.onto_kinds": MELD_KINDS,
}


def draw_value(rng: random.Random, ruleset: Ruleset, path: str, literals: list[Any]) -> Any:
    """A value for one field, drawn from the field's range; None when none was drawn."""
    value = ruleset.value(path)
    if path in SPECIAL:
        return SPECIAL[path](rng, ruleset, value)
    if path in CHOICES:
        return _subset(rng, CHOICES[path])
    if isinstance(value, bool):
        return not value
    if literals:
        return rng.choice([x for x in literals if x != value])
    if path.endswith(("max_size", "max_wild")) and (value is None or isinstance(value, int)):
        return _optional_count(rng, value, 0)
    if isinstance(value, int) and path.endswith(("bonus", "value", "all_value", "in_hand")):
        return _points(rng, value)
    if isinstance(value, int):
        return _count(rng, value, 1)
    return None


def _literals(path: str) -> list[Any]:
    import typing

    from bolivia.rules.tree import field_at

    found = field_at(path)
    if found is None:
        return []
    record, name = found
    annotation = record.model_fields[name].annotation
    if typing.get_origin(annotation) is typing.Literal:
        return list(typing.get_args(annotation))
    return []


DRAWN = [p for p in LEAVES if not p.endswith(".name")]
NAMES = ["clean one", "dirty one", "pure", "ladder", "wild bunch", "house canasta"]


def drawn_houses(battery: Battery, count: int, seed: int = 1) -> Iterator[House]:
    """``count`` house rulesets of the battery's base, the i-th changing ``1 + i % 4`` fields
    drawn at random among every field, each value drawn from the field's range."""
    base = battery.base
    rng = random.Random(f"{seed}:{base.id}")
    names = random.Random(f"{seed}:{base.id}:names")
    for i in range(count):
        size = 1 + i % 4
        renames = names if size == 4 else None
        yield first_observable(
            battery,
            size,
            lambda size=size, renames=renames: _drawn(rng, base, size, renames),
            "drawn house ruleset",
        )


def _drawn(
    rng: random.Random, base: Ruleset, size: int, renames: random.Random | None = None
) -> dict[str, Any] | None:
    paths = rng.sample(DRAWN, size)
    changes = {p: draw_value(rng, base, p, _literals(p)) for p in paths}
    if renames is not None:
        changes[f"canastas.{renames.choice(KINDS)}.name"] = renames.choice(NAMES)
    if any(same_value(v, base.value(p)) for p, v in changes.items()):
        return None
    return changes


def shows(battery, house, path, value) -> bool:
    """Whether the house with this value of the field answers anything differently (a value
    that makes no answer differ is the house's as far as any engine can tell)."""
    try:
        instead = with_values(house.ruleset, {path: value}, "instead")
    except RulesetError:  # a value invalid beside the house's others
        return True
    return tells_apart(battery.predictor, house.ruleset, instead, path, battery.questions)


def judged(battery, house, profile) -> Counter:
    """recovered / equivalent / wrong / missed / false for one profile of one house.

    *equivalent*: the profile has another field's change in its place, and names the house's
    value among the changes that explain the answers as well (no answer tells which)."""
    base, got, out = battery.base, profile.ruleset, Counter()
    named = [(path, value) for change in profile.changes for path, value in change.equivalents]
    named += [pair for change in profile.changes for group in change.together for pair in group]
    for path in LEAVES:
        theirs, mine = house.ruleset.value(path), got.value(path)
        same = same_value(mine, theirs) or not shows(battery, house, path, mine)
        if path in house.changes:
            if same:
                out["recovered"] += 1
            elif any(p == path and same_value(v, theirs) for p, v in named):
                out["equivalent"] += 1
            elif same_value(mine, base.value(path)):
                out["missed"] += 1
            else:
                out["wrong"] += 1
        elif not same:
            out["false"] += 1
    return out
