"""One-field variants of a ruleset: a few other values for each field.

Also the ruleset with some values changed. It is validated like a file, coherence included.

Two parts read their results off these variants, so both use the one generator here. One is
what a conformance case depends on (:mod:`bolivia.verify.dependencies`). The other is what an
engine's answers reveal (:mod:`bolivia.profiles`).

For each leaf it proposes these values, in JSON:

- True or false: its negation.
- A choice: the other choices.
- A count of cards: one less and one more, and no limit where the field may have none.
- No limit: 4 and 8.
- Points, bonuses and scores: half and double (100 for 0).
- A list of choices: each choice added or taken away.
- Ranks: each rank taken away. Numbers: each number taken away.
- A table by number of players: each entry taken away. Or one entry added, for the fewest
  players missing, with the base value changed.
- The seatings: everyone dealt or drawing one card more or one less. Each seating taken
  away. Partnerships split or made.
- The card points: each rank worth the next lower or higher value of the table.
- The initial-meld bands: each band taken away. Each minimum 10 lower or higher, each start
  500 lower or higher.
- A named choice: its numbers one less and one more, and each other choice.
- Any field: every alternative the ruleset's provenance records (what other sources give).

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
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any

from pydantic import BaseModel, ValidationError
from pydantic.fields import FieldInfo

from bolivia.errors import Problem, RulesetError
from bolivia.rules import coherence
from bolivia.rules.fields import PositiveCardCount
from bolivia.rules.model import (
    CANASTA_KINDS,
    MAX_CARDS,
    MAX_POINTS,
    Band,
    Choice,
    DiscardBar,
    HandPenalty,
    MeldPenalty,
    RankWild,
    Rules,
    Seating,
    SpecialCanasta,
    Suggested,
)
from bolivia.rules.ruleset import Ruleset
from bolivia.rules.tree import field_at, leaf_paths

__all__ = [
    "LEAVES",
    "alternatives",
    "bounds",
    "one_field_variants",
    "same_value",
    "set_part",
    "unwrap",
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


def unwrap(annotation: Any, known: Iterable[Any] = ()) -> tuple[Any, list[Any], bool]:
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


def bounds(metadata: Sequence[Any]) -> tuple[int, int]:
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
    """The choices of a literal (or the values suggested for free text), else None."""
    inner, metadata, _ = unwrap(annotation)
    suggested = [item.values for item in metadata if isinstance(item, Suggested)]
    if suggested:
        return suggested[0]
    return typing.get_args(inner) if typing.get_origin(inner) is typing.Literal else None


def _of_field(info: FieldInfo, value: Any, depth: int = 0) -> list[Any]:
    return _of_type(info.annotation, value, info.metadata, depth)


def _is_record(annotation: Any) -> bool:
    return isinstance(annotation, type) and issubclass(annotation, BaseModel)


def _of_type(annotation: Any, value: Any, known: Iterable[Any] = (), depth: int = 0) -> list[Any]:
    """Other values of a type, for a value of it (JSON)."""
    inner, metadata, nullable = unwrap(annotation, known)
    if inner is bool:
        return [not value]
    if inner is str:  # a name: another one, so that a case comparing names decides it
        return [_renamed(value)]
    if inner is int:
        low, high = bounds(metadata)
        return _numbers(value, low, high, nullable)
    if _is_record(inner):
        if value is None:  # a record that may be absent: a plain one
            return [_plain(inner)]
        return [*_record_edits(inner, value, depth), *([None] if nullable else [])]
    edits = _BY_ORIGIN.get(typing.get_origin(inner))
    return edits(inner, value, depth) if edits is not None else []


def _renamed(name: str) -> str:
    """Another name for what a ruleset names (within the 40 characters a name may take)."""
    return f"{name[:30]} (renamed)"


def _other_literals(literal: Any, value: Any, depth: int) -> list[Any]:
    return [choice for choice in typing.get_args(literal) if choice != value]


def _sequence_edits(sequence: Any, value: Any, depth: int) -> list[Any]:
    item = typing.get_args(sequence)[0]
    if item in _LISTS:
        return _LISTS[item](value)
    return _list_edits(item, value)


def _mapping_edits(mapping: Any, value: Any, depth: int) -> list[Any]:
    key_type, item_type = typing.get_args(mapping)
    return _table_edits(key_type, item_type, value, depth)


def _union_edits(union: Any, value: Any, depth: int) -> list[Any]:
    return _choice_edits(typing.get_args(union), value, depth)  # named choices


# Other values of a type by its kind: a choice among literals, a list, a table, named choices.
_BY_ORIGIN: dict[Any, Callable[[Any, Any, int], list[Any]]] = {
    typing.Literal: _other_literals,
    tuple: _sequence_edits,
    dict: _mapping_edits,
    typing.Union: _union_edits,
    types.UnionType: _union_edits,
}


_NO_VALUE: Any = object()  # a field a plain record leaves out


def _plain(record: type[BaseModel]) -> dict[str, Any]:
    """A record with its fields at plain values (the first choice, numbers at 60 or 1)."""
    out: dict[str, Any] = {}
    for name, info in record.model_fields.items():
        value = _plain_value(info)
        if value is not _NO_VALUE:
            out[info.alias or name] = value
    return out


def _plain_value(info: FieldInfo) -> Any:
    """A field's plain value: its first choice, false, 60 points or the least count, no entries."""
    inner, metadata, _ = unwrap(info.annotation, info.metadata)
    literal = _literals(info.annotation)
    if literal is not None:
        return literal[0]
    if inner is bool:
        return False
    if inner is int:
        low, high = bounds(metadata)
        return min(max(60, low), high) if high > MAX_CARDS else low
    if typing.get_origin(inner) is dict:
        return {}
    return _NO_VALUE


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
        name_key, name = _choice_name(option)
        if value.get(name_key) == name:
            out.extend(_record_edits(option, value, depth))
        else:
            out.extend(_other_choice(option))
    return out


def _choice_name(option: type[Choice]) -> tuple[str, Any]:
    """The key that names a named choice, and its name."""
    fields = list(option.model_fields.values())
    name_key = fields[0].alias or next(iter(option.model_fields))
    (name,) = typing.get_args(fields[0].annotation)
    return name_key, name


def _other_choice(option: type[Choice]) -> list[Any]:
    """Another named choice: with plain parameters, then each count at 2, each flag true."""
    plain = _plain(option)
    counts = [k for k, v in plain.items() if isinstance(v, int) and not isinstance(v, bool)]
    flags = [k for k, v in plain.items() if isinstance(v, bool)]
    return [
        plain,
        *({**plain, key: 2} for key in counts),
        *({**plain, key: True} for key in flags),
    ]


def _list_edits(item: Any, value: Sequence[Any]) -> list[Any]:
    present = list(value)
    removed = [present[:i] + present[i + 1 :] for i in range(len(present))]
    if item is MeldPenalty:  # one more entry: a meld short of a canasta costs 100
        more = {"kinds": ["group"], "fewer_than": None, "ranks": [], "natural_only": False}
        return [*removed, [*present, {**more, "points": 100}]]
    if item is HandPenalty:  # one more entry: three sevens kept in hand cost 500
        return [*removed, [*present, {"ranks": ["7"], "at_least": 3, "points": 500}]]
    if item is DiscardBar:  # one more entry: sevens kept as Pennies from Heaven keeps them,
        # black threes kept in the first round as Cuban Canasta keeps them
        bars = (
            {"cards": ["7"], "until": "side_canasta", "canasta": "natural", "going_out": True},
            {"cards": ["black_three"], "until": "first_round", "canasta": None, "going_out": False},
        )
        return [*removed, *([*present, bar] for bar in bars if bar not in present)]
    choices = _literals(item)
    if choices is None or len(choices) > 5:  # numbers, ranks: taken away only
        return removed
    return removed + [[*present, c] for c in choices if c not in present]


def _table_edits(key_type: Any, item_type: Any, value: Mapping[str, Any], depth: int) -> list[Any]:
    """Other values of a table: the seatings, counts or card points by kind, or by players."""
    table = dict(value)
    inner, metadata, _ = unwrap(item_type)
    if inner is Seating:
        return _seating_edits(table)
    if inner is RankWild:
        return _rank_wild_edits(table)
    keys = _literals(key_type)
    if keys is None:
        return _by_players_edits(table, item_type, depth)
    if bounds(metadata)[1] <= MAX_CARDS:
        return _count_edits(table, keys)
    return _worth_edits(table)


def _rank_wild_edits(table: dict[str, Any]) -> list[Any]:
    """Limits of wild cards by rank: each rank taken away or given the other first-meld
    freedom; sevens with no wild card and aces with none but in the first meld added, as
    Modern American Canasta has them."""
    out: list[Any] = []
    for rank, limit in table.items():
        out.append({k: v for k, v in table.items() if k != rank})
        out.append({**table, rank: {**limit, "first_meld": not limit.get("first_meld", False)}})
    added = {"7": {"max_wild": 0, "first_meld": False}, "A": {"max_wild": 0, "first_meld": True}}
    return out + [{**table, rank: limit} for rank, limit in added.items() if rank not in table]


def _count_edits(table: dict[str, Any], keys: Sequence[Any]) -> list[Any]:
    """Counts by kind: each one less (or taken away) and one more; each kind missing added."""
    out = []
    for key, n in table.items():
        fewer = {k: v for k, v in table.items() if k != key}
        out += [{**fewer, key: n - 1} if n > 1 else fewer, {**table, key: n + 1}]
    return out + [{**table, key: 1} for key in keys if key not in table]


def _worth_edits(table: dict[str, Any]) -> list[Any]:
    """Card points by rank: each rank worth the next lower or higher value of the table."""
    worths = sorted(set(table.values()))
    out = []
    for key, worth in table.items():
        for other in _neighbours(worths, worth):
            out.append({**table, key: other})
    return out


def _neighbours(worths: Sequence[int], worth: int) -> list[int]:
    """The next lower and the next higher of the sorted values, those there are."""
    lower = [w for w in worths if w < worth]
    higher = [w for w in worths if w > worth]
    return ([lower[-1]] if lower else []) + ([higher[0]] if higher else [])


def _by_players_edits(table: dict[str, Any], item_type: Any, depth: int) -> list[Any]:
    """A table by players: each entry taken away; at the top, one added for the fewest missing."""
    out = [{k: v for k, v in table.items() if k != key} for key in table]
    if depth == 0:
        missing = next((n for n in range(2, 9) if str(n) not in table), None)
        if missing is not None:
            out.extend({**table, str(missing): other} for other in _default_edits(item_type))
    return out


def _default_edits(item_type: Any) -> list[Any]:
    """Values for a new entry of a table (its own alternatives of a plain value)."""
    inner, metadata, _ = unwrap(item_type)
    if inner is int:
        low, high = bounds(metadata)
        return _numbers(min(max(10_000, low), high), low, high, False)[:1]
    if _is_record(inner):
        return [_plain(inner)]
    return []


def _seating_edits(table: dict[str, Any]) -> list[Any]:
    """The seatings: hands and draws a card larger or smaller, each seating taken away, sides."""
    out: list[Any] = [
        {n: {**s, key: s[key] + step} for n, s in table.items()}
        for key in ("hand_size", "draw")
        for step in (-1, 1)
    ]
    out.extend({k: v for k, v in table.items() if k != n} for n in table)
    out.extend(_sides_changed(table))
    return out


def _sides_changed(table: dict[str, Any]) -> Iterator[Any]:
    """Each seating's partnerships split, or made where the players can pair up."""
    for n, seating in table.items():
        players = int(n)
        if seating["teams"] < players:
            yield {**table, n: {**seating, "teams": players}}
        elif players >= 4 and players % 2 == 0:
            yield {**table, n: {**seating, "teams": players // 2}}


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
    """Other values of the initial-meld bands, one band changed at a time.

    Each band is taken away, its minimum made 10 lower or higher, a canasta asked or not, and
    its start made 500 lower or higher.
    """
    out: list[Any] = []
    for i, band in enumerate(bands):
        if len(bands) > 1:
            out.append(_without_band(bands, i))
        out.extend(
            _with_band(bands, i, {**band, "minimum": band["minimum"] + step})
            for step in (-10, 10)
            if band["minimum"] + step >= 0
        )
        asked = [] if band.get("canasta") else ["natural"]  # a canasta asked, or not
        out.append(_with_band(bands, i, {**band, "canasta": asked}))
        if band["from"] is not None:
            out.extend(
                _with_band(bands, i, {**band, "from": band["from"] + step}) for step in (-500, 500)
            )
    return out


def _without_band(bands: Sequence[Mapping[str, Any]], i: int) -> list[Any]:
    """The bands without the one at ``i``; the first of the rest starts at no score."""
    rest = [dict(b) for j, b in enumerate(bands) if j != i]
    rest[0]["from"] = None
    return rest


def _with_band(bands: Sequence[Mapping[str, Any]], i: int, band: Mapping[str, Any]) -> list[Any]:
    """The bands with the one at ``i`` replaced."""
    return [band if j == i else b for j, b in enumerate(bands)]


# Other values of a list of records, by the record.
def _packet_edits(value: Sequence[int]) -> list[Any]:
    """Bonus piles (``deal.bonus_piles``): each taken away, one of three cards more, and
    Modern American Canasta's four and three."""
    present = list(value)
    out: list[Any] = [present[:i] + present[i + 1 :] for i in range(len(present))]
    out.append([*present, 3])
    return [*out, *([[4, 3]] if present != [4, 3] else [])]


_LISTS: dict[Any, Callable[[Any], list[Any]]] = {
    SpecialCanasta: _special_edits,
    Band: _band_edits,
    PositiveCardCount: _packet_edits,  # deal.bonus_piles, the one list of counts
}


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
    """The ruleset with the leaves at these paths set to these JSON values.

    It is validated like a ruleset file: each field, then the rules together. A
    :class:`RulesetError` says what is wrong. It is an in-memory ruleset: its id is
    ``ruleset_id`` (default: the ruleset's own).
    """
    data = _changed_json(ruleset, changes)
    where = ruleset_id or ruleset.id
    rules = _rules_of(data, where)
    unseated = [found for found in coherence.unseated_entries(rules) if found[0][0] in changes]
    problems = [*coherence.check(rules), *unseated]
    if problems:
        raise RulesetError([Problem(where, None, paths[0], why) for paths, why in problems])
    return dataclasses.replace(ruleset, id=where, rules=rules)


def _changed_json(ruleset: Ruleset, changes: Mapping[str, Any]) -> dict[str, Any]:
    """The ruleset's rules as JSON with the changes made; the sections on the way copied."""
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
    return data


def _rules_of(data: dict[str, Any], where: str) -> Rules:
    """Rules validated from JSON; a :class:`RulesetError` with pydantic's first error."""
    try:
        return Rules.model_validate_json(json.dumps(data))
    except ValidationError as exc:
        first = exc.errors()[0]
        at = ".".join(str(p) for p in first["loc"])
        raise RulesetError([Problem(where, None, at, first["msg"])]) from None


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
