"""One-field variants of a ruleset: a few other values for each rule field, and the ruleset
with some values changed (validated like a file, coherence included).

What a conformance case depends on (:mod:`bolivia.verify.dependencies`) and what an engine's
answers reveal (:mod:`bolivia.profiles`) are both read off these variants, so both use the one
generator here. For each leaf it proposes, in JSON:

- a true/false: its negation; a choice: the other choices;
- a count of cards: one less and one more (and no limit, where the field may have none);
  no limit: 4 and 8; points, bonuses and scores: half and double (100 for 0);
- a list of choices: each choice added or taken away; ranks: each rank taken away; numbers:
  each taken away;
- a table by number of players: each entry taken away, or one added (for the fewest players
  missing) with the base value changed; the seatings: everyone dealt or drawing one card
  more or one less, each seating taken away, partnerships split or made;
- the card points: each rank worth the next lower or higher value of the table;
- the initial-meld bands: each band taken away, each minimum 10 lower or higher, each start
  500 lower or higher;
- a named choice: its numbers one less and one more, each other choice;
- and every alternative the ruleset's provenance records (what other sources give).

Text (a canasta's name) has no alternative. A value that is invalid, alone or with the rest of
the ruleset, is left out.

>>> from bolivia.rules.library import shipped_library
>>> da = shipped_library().load("bolivia-da")
>>> alternatives(da, "melds.group.max_wild")
(1, 3, None)
>>> variant(da, "going_out.bonus", 100).rules.going_out.bonus
100
"""

from __future__ import annotations

import copy
import dataclasses
import json
import types
import typing
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from pydantic import BaseModel, ValidationError
from pydantic.fields import FieldInfo

from bolivia.errors import Problem, RulesetError
from bolivia.rules import coherence
from bolivia.rules.model import (
    CANASTA_KINDS,
    MAX_CARDS,
    MAX_POINTS,
    Band,
    Choice,
    MeldPenalty,
    Rules,
    Seating,
    SpecialCanasta,
    field_at,
    leaf_paths,
)
from bolivia.rules.ruleset import Ruleset

__all__ = [
    "LEAVES",
    "alternatives",
    "one_field_variants",
    "same_value",
    "set_part",
    "variant",
    "with_values",
]

LEAVES: tuple[str, ...] = tuple(leaf_paths())
_NONE_LIMITS = (4, 8)  # what "no limit" is changed to


def same_value(a: Any, b: Any) -> bool:
    """Whether two JSON values are the same value (tables compared key by key)."""
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def _unique(values: Iterable[Any], current: Any) -> tuple[Any, ...]:
    out: list[Any] = []
    for value in values:
        if not same_value(value, current) and not any(same_value(value, v) for v in out):
            out.append(value)
    return tuple(out)


# --------------------------------------------------------------------------- field types


def _unwrap(annotation: Any, known: Iterable[Any] = ()) -> tuple[Any, list[Any], bool]:
    """(the type, its constraints, whether null is allowed) of an annotation; ``known``: the
    constraints a record's field holds apart from its annotation."""
    metadata: list[Any] = list(known)
    nullable = False
    while True:
        origin = typing.get_origin(annotation)
        args = typing.get_args(annotation)
        if origin is typing.Annotated:
            annotation = args[0]
            for item in args[1:]:
                metadata.extend(getattr(item, "metadata", None) or [item])
        elif origin in (typing.Union, types.UnionType) and type(None) in args:
            present = [a for a in args if a is not type(None)]
            nullable = True
            annotation = present[0] if len(present) == 1 else typing.Union[tuple(present)]  # noqa: UP007
        else:
            return annotation, metadata, nullable


def _bounds(metadata: Sequence[Any]) -> tuple[int, int]:
    low, high = -(10**9), 10**9
    for item in metadata:
        low = getattr(item, "ge", low)
        high = getattr(item, "le", high)
    return low, high


def _numbers(value: int | None, low: int, high: int, nullable: bool) -> list[Any]:
    if value is None:
        return [n for n in _NONE_LIMITS if low <= n <= high]
    if high <= MAX_CARDS:  # a count: its neighbours
        out: list[Any] = [value - 1, value + 1]
    elif value == 0:
        out = [100]
    else:  # points or a score: half and double, as round as the value
        half = value // 2 - (value // 2) % 5 if value % 5 == 0 else value // 2
        out = [half, value * 2]
    out = [n for n in out if low <= n <= high]
    return [*out, None] if nullable else out


def _literals(annotation: Any) -> tuple[Any, ...] | None:
    inner, _, _ = _unwrap(annotation)
    return typing.get_args(inner) if typing.get_origin(inner) is typing.Literal else None


def _of_field(info: FieldInfo, value: Any, depth: int = 0) -> list[Any]:
    return _of_type(info.annotation, value, info.metadata, depth)


def _of_type(annotation: Any, value: Any, known: Iterable[Any] = (), depth: int = 0) -> list[Any]:
    """Other values of a type, for a value of it (JSON)."""
    inner, metadata, nullable = _unwrap(annotation, known)
    origin = typing.get_origin(inner)
    if inner is bool:
        return [not value]
    if inner is int:
        low, high = _bounds(metadata)
        return _numbers(value, low, high, nullable)
    if inner is str:
        return []
    if origin is typing.Literal:
        return [choice for choice in typing.get_args(inner) if choice != value]
    if origin is tuple:
        item = typing.get_args(inner)[0]
        if item is SpecialCanasta:
            return _special_edits(value)
        return _band_edits(value) if item is Band else _list_edits(item, value)
    if origin is dict:
        key_type, item_type = typing.get_args(inner)
        return _table_edits(key_type, item_type, value, depth)
    if isinstance(inner, type) and issubclass(inner, BaseModel):
        if value is None:  # a record that may be absent: a plain one
            return [_plain(inner)]
        return [*_record_edits(inner, value, depth), *([None] if nullable else [])]
    if origin in (typing.Union, types.UnionType):  # named choices
        return _choice_edits(typing.get_args(inner), value, depth)
    return []


def _plain(record: type[BaseModel]) -> dict[str, Any]:
    """A record with its fields at plain values (the first choice, numbers at 60 or 1)."""
    out: dict[str, Any] = {}
    for name, info in record.model_fields.items():
        inner, metadata, _ = _unwrap(info.annotation, info.metadata)
        literal = _literals(info.annotation)
        if literal is not None:
            out[info.alias or name] = literal[0]
        elif inner is bool:
            out[info.alias or name] = False
        elif inner is int:
            low, high = _bounds(metadata)
            out[info.alias or name] = min(max(60, low), high) if high > MAX_CARDS else low
        elif typing.get_origin(inner) is dict:
            out[info.alias or name] = {}
    return out


def _record_edits(record: type[BaseModel], value: Mapping[str, Any], depth: int) -> list[Any]:
    """The record with one of its fields changed (a named choice's parameters)."""
    out: list[Any] = []
    for name, info in record.model_fields.items():
        key = info.alias or name
        literal = _literals(info.annotation)
        if literal is not None and len(literal) == 1:
            continue  # the choice's name
        for other in _of_field(info, value.get(key), depth + 1):
            out.append({**value, key: other})
    return out


def _choice_edits(options: Sequence[Any], value: Mapping[str, Any], depth: int) -> list[Any]:
    """Its own parameters changed, and each other choice with plain parameters."""
    out: list[Any] = []
    for option in options:
        if not (isinstance(option, type) and issubclass(option, Choice)):
            continue
        fields = list(option.model_fields.values())
        name_key = fields[0].alias or next(iter(option.model_fields))
        (name,) = typing.get_args(fields[0].annotation)
        if value.get(name_key) == name:
            out.extend(_record_edits(option, value, depth))
            continue
        plain = _plain(option)
        counts = [k for k, v in plain.items() if isinstance(v, int) and not isinstance(v, bool)]
        flags = [k for k, v in plain.items() if isinstance(v, bool)]
        out.append(plain)
        out.extend({**plain, key: 2} for key in counts)
        out.extend({**plain, key: True} for key in flags)
    return out


def _list_edits(item: Any, value: Sequence[Any]) -> list[Any]:
    present = list(value)
    removed = [present[:i] + present[i + 1 :] for i in range(len(present))]
    if item is MeldPenalty:  # one more entry: a meld short of a canasta costs 100
        return [*removed, [*present, {"kinds": ["group"], "fewer_than": None, "points": 100}]]
    choices = _literals(item)
    if choices is None or len(choices) > 5:  # numbers, ranks: taken away only
        return removed
    return removed + [[*present, c] for c in choices if c not in present]


def _table_edits(key_type: Any, item_type: Any, value: Mapping[str, Any], depth: int) -> list[Any]:
    table = dict(value)
    inner, _, _ = _unwrap(item_type)
    if inner is Seating:
        return _seating_edits(table)
    keys = _literals(key_type)
    if keys is not None and _bounds(_unwrap(item_type)[1])[1] <= MAX_CARDS:  # counts by kind
        out = []
        for key, n in table.items():
            fewer = {k: v for k, v in table.items() if k != key}
            out += [{**fewer, key: n - 1} if n > 1 else fewer, {**table, key: n + 1}]
        return out + [{**table, key: 1} for key in keys if key not in table]
    if keys is not None:  # card points by rank
        worths = sorted(set(table.values()))
        out = []
        for key, worth in table.items():
            lower = [w for w in worths if w < worth]
            higher = [w for w in worths if w > worth]
            for other in ([lower[-1]] if lower else []) + ([higher[0]] if higher else []):
                out.append({**table, key: other})
        return out
    out = [{k: v for k, v in table.items() if k != key} for key in table]
    if depth == 0:
        missing = next((n for n in range(2, 9) if str(n) not in table), None)
        if missing is not None:
            out.extend({**table, str(missing): other} for other in _default_edits(item_type))
    return out


def _default_edits(item_type: Any) -> list[Any]:
    """Values for a new entry of a table (its own alternatives of a plain value)."""
    inner, metadata, _ = _unwrap(item_type)
    if inner is int:
        low, high = _bounds(metadata)
        return _numbers(min(max(10_000, low), high), low, high, False)[:1]
    if isinstance(inner, type) and issubclass(inner, BaseModel):
        return [_plain(inner)]
    return []


def _seating_edits(table: dict[str, Any]) -> list[Any]:
    out: list[Any] = []
    for key in ("hand_size", "draw"):
        for step in (-1, 1):
            out.append({n: {**s, key: s[key] + step} for n, s in table.items()})
    out.extend({k: v for k, v in table.items() if k != n} for n in table)
    for n, seating in table.items():
        players = int(n)
        if seating["teams"] < players:
            out.append({**table, n: {**seating, "teams": players}})
        elif players >= 4 and players % 2 == 0:
            out.append({**table, n: {**seating, "teams": players // 2}})
    return out


def _special(name: str, kind: str, bonus: int, **conditions: Any) -> dict[str, Any]:
    """A special canasta as JSON, every field written (as a resolved ruleset gives it)."""
    entry = SpecialCanasta.model_validate({"name": name, "kind": kind, "bonus": bonus})
    return {**entry.model_dump(mode="json", by_alias=True), **conditions}


def _special_edits(value: Sequence[Mapping[str, Any]]) -> list[Any]:
    """Each special canasta taken away or paid 500 more, and a special canasta added: one of
    each kind at a bonus of 5,000, and the compositions the published variants pay (a canasta
    of aces, seven wild cards without a joker, a sequence with one wild card)."""
    present = [dict(entry) for entry in value]
    out: list[Any] = [present[:i] + present[i + 1 :] for i in range(len(present))]
    out.extend(
        [*present[:i], {**entry, "bonus": entry["bonus"] + 500}, *present[i + 1 :]]
        for i, entry in enumerate(present)
        if entry["bonus"] + 500 <= MAX_POINTS
    )
    added = [_special(f"special {kind}", kind, 5000) for kind in CANASTA_KINDS]
    added += [
        _special("canasta of aces", "natural", 5000, rank="A"),
        _special("canasta of twos", "bolivia", 5000, max_jokers=0),
        _special("sequence with a wild card", "escalera", 5000, min_wild=1),
    ]
    out.extend([*present, entry] for entry in added if entry not in present)
    return out


def _band_edits(bands: Sequence[Mapping[str, Any]]) -> list[Any]:
    out: list[Any] = []
    for i in range(len(bands)):
        if len(bands) > 1:
            rest = [dict(b) for j, b in enumerate(bands) if j != i]
            rest[0]["from"] = None
            out.append(rest)
        for step in (-10, 10):
            if bands[i]["minimum"] + step >= 0:
                out.append(
                    [
                        {**b, "minimum": b["minimum"] + step} if j == i else b
                        for j, b in enumerate(bands)
                    ]
                )
        asked = [] if bands[i].get("canasta") else ["natural"]  # a canasta asked, or not
        out.append([{**b, "canasta": asked} if j == i else b for j, b in enumerate(bands)])
        if bands[i]["from"] is not None:
            for step in (-500, 500):
                out.append(
                    [{**b, "from": b["from"] + step} if j == i else b for j, b in enumerate(bands)]
                )
    return out


# --------------------------------------------------------------------------- alternatives


def set_part(value: Any, inner: Sequence[str], part: Any) -> Any:
    """``value`` (a leaf's JSON) with the part at the keys ``inner`` replaced."""
    if not inner:
        return part
    out = copy.deepcopy(value)
    node = out
    for key in inner[:-1]:
        node = node[int(key)] if isinstance(node, list) else node[key]
    if isinstance(node, list):
        node[int(inner[-1])] = part
    else:
        node[inner[-1]] = part
    return out


def _recorded(ruleset: Ruleset, path: str, current: Any) -> list[Any]:
    """The alternatives the ruleset's provenance gives for the field or a part of it."""
    prov = ruleset.provenance.get(path)
    out = []
    for alt in prov.alternatives if prov is not None else ():
        if alt.path == path:
            out.append(alt.value)
        elif alt.path.startswith(path + "."):
            try:
                out.append(set_part(current, alt.path[len(path) + 1 :].split("."), alt.value))
            except (KeyError, IndexError, ValueError, TypeError):
                continue  # a part the value does not have
    return out


def alternatives(ruleset: Ruleset, path: str) -> tuple[Any, ...]:
    """Other values for one leaf, as JSON, each different from the ruleset's (not validated:
    :func:`variant` leaves out the invalid ones)."""
    found = field_at(path)
    if found is None or path not in LEAVES:
        raise KeyError(path)
    record, name = found
    current = ruleset.value(path)
    proposed = _of_field(record.model_fields[name], current)
    return _unique([*proposed, *_recorded(ruleset, path, current)], current)


# --------------------------------------------------------------------------- variants


def with_values(
    ruleset: Ruleset, changes: Mapping[str, Any], ruleset_id: str | None = None
) -> Ruleset:
    """The ruleset with the leaves at these paths set to these JSON values, validated like a
    ruleset file (each field, then the rules together); a :class:`RulesetError` otherwise.
    An in-memory ruleset: its id is ``ruleset_id`` (default: the ruleset's own)."""
    data = dict(ruleset.json)
    for path, value in changes.items():
        if path not in LEAVES:
            raise RulesetError([Problem("variant", None, path, f"{path!r} is not a rule field")])
        *parents, last = path.split(".")
        node = data
        for part in parents:  # the sections on the way copied, the rest shared
            node[part] = dict(node[part])
            node = node[part]
        node[last] = value
    where = ruleset_id or ruleset.id
    try:
        rules = Rules.model_validate_json(json.dumps(data))
    except ValidationError as exc:
        first = exc.errors()[0]
        at = ".".join(str(p) for p in first["loc"])
        raise RulesetError([Problem(where, None, at, first["msg"])]) from None
    unseated = [found for found in coherence.unseated_entries(rules) if found[0][0] in changes]
    problems = [*coherence.check(rules), *unseated]
    if problems:
        raise RulesetError([Problem(where, None, paths[0], why) for paths, why in problems])
    return dataclasses.replace(ruleset, id=where, rules=rules)


def variant(
    ruleset: Ruleset, path: str, value: Any, ruleset_id: str | None = None
) -> Ruleset | None:
    """The ruleset with one leaf changed, or None when that value is not valid there."""
    try:
        return with_values(ruleset, {path: value}, ruleset_id or f"{ruleset.id}~{path}")
    except RulesetError:
        return None


def one_field_variants(
    ruleset: Ruleset, paths: Iterable[str] = LEAVES
) -> Iterator[tuple[str, Any, Ruleset]]:
    """(path, value, variant) for every valid alternative of every leaf, in the rule tree's
    order; each variant's id is unique (``<id>~<path>#<n>``)."""
    for path in paths:
        for n, value in enumerate(alternatives(ruleset, path)):
            changed = variant(ruleset, path, value, f"{ruleset.id}~{path}#{n}")
            if changed is not None:
                yield path, value, changed
