"""Every value a rule field may take that a profile can try, and numbers solved from answers.

The one-field variants (:mod:`bolivia.rules.variants`) give each field a few neighbours of its
value: enough to show that a field differs, not to say what it is. A profile also needs the
value itself. Two sources give it:

- :func:`domain`: for a field of few possible values, all of them. A count of cards every
  number from its least to a bound past any pack's meld (and "no limit" where it may have
  none); a choice every option; a list of options every subset (of ranks, up to two); a hand
  limit every number of hands a question asks about, with either outcome; a going-out
  requirement every count of canastas with or without one of a kind.
- :func:`solved`: for a number (points, a bonus, a target, a count inside a table), the value
  that makes the ruleset answer what the engine answered. The field's number is moved, the
  answers' numbers that move with it are found, and the line through the two is solved for
  the engine's number.

Each is only a candidate: the search keeps a value when the ruleset with it explains the
answers, and the profile asks questions that tell apart the values that explain them alike.
"""

from __future__ import annotations

import itertools
import typing
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from bolivia.errors import RulesetError
from bolivia.profiles.questions import HANDS_PLAYED
from bolivia.rules.model import CANASTA_KINDS, MAX_CARDS
from bolivia.rules.ruleset import Ruleset
from bolivia.rules.tree import field_at
from bolivia.rules.variants import bounds, set_part, unwrap, with_values

__all__ = ["COUNT_BOUND", "domain", "number_parts", "solved"]

COUNT_BOUND = 16  # the largest count of cards a domain holds (a meld of a three-deck pack)
RANK_SUBSETS = 2  # the most ranks in a list of ranks a domain holds
MOVE = 1000  # how far a number is moved to see which answers move with it


def _literal_options(annotation: Any) -> list[Any] | None:
    """The options of a Literal, or of a tuple of Literals (None for another type)."""
    while typing.get_origin(annotation) is typing.Annotated:
        annotation = typing.get_args(annotation)[0]
    if typing.get_origin(annotation) is typing.Literal:
        return list(typing.get_args(annotation))
    return None


def _item_options(annotation: Any) -> list[Any] | None:
    """For a tuple of Literals (a list of options), the options."""
    while typing.get_origin(annotation) is typing.Annotated:
        annotation = typing.get_args(annotation)[0]
    if typing.get_origin(annotation) is tuple:
        args = typing.get_args(annotation)
        if len(args) == 2 and args[1] is Ellipsis:
            return _literal_options(args[0])
    return None


def _subsets(options: Sequence[Any], most: int) -> Iterator[list[Any]]:
    for size in range(0, min(most, len(options)) + 1):
        for chosen in itertools.combinations(options, size):
            yield list(chosen)


def _requirements(ruleset: Ruleset) -> Iterator[dict[str, Any]]:
    """Going-out requirements of up to six canastas, one of them of a kind or a special
    canasta of the ruleset's, by name."""
    for count in range(0, 7):
        yield {"rule": "canastas", "count": count, "including": {}}
        for name in _canasta_names(ruleset) if count else ():
            yield {"rule": "canastas", "count": count, "including": {name: 1}}


def _canasta_names(ruleset: Ruleset) -> list[str]:
    """The kinds of canasta, then the ruleset's special canastas by name."""
    specials = [entry["name"] for entry in ruleset.value("canastas.special")]
    return [*CANASTA_KINDS, *dict.fromkeys(specials)]


def _shaped(ruleset: Ruleset, path: str) -> list[Any] | None:
    """The domains of the fields whose value is a rule with its parameters."""
    if path == "game.hand_cap":
        caps = [
            {"hands": n, "outcome": outcome}
            for n in range(1, HANDS_PLAYED + 1)
            for outcome in ("draw", "leader_wins")
        ]
        return [None, *caps]
    if path == "going_out.requirement":
        return list(_requirements(ruleset))
    if path == "going_out.requirement_by_players":  # one seating's own requirement, any
        table = dict(ruleset.value(path))
        return [
            {**table, str(n): requirement}
            for n in sorted(ruleset.value("players.seats"), key=int)
            for requirement in _requirements(ruleset)
        ]
    if path == "red_threes.plus_when":
        out: list[Any] = [
            {"condition": c} for c in ("side_melded", "going_out_requirement", "always")
        ]
        out += [{"condition": "canastas", "count": n, "including": {}} for n in range(1, 7)]
        return out + [  # one canasta of a kind, or a special canasta by name
            {"condition": "canastas", "count": 1, "including": {name: 1}}
            for name in _canasta_names(ruleset)
        ]
    if path == "stock.exhausted":
        return [
            {"rule": "end_hand"},
            {"rule": "take_discards", "must_take_onto_meld": True},
            {"rule": "take_discards", "must_take_onto_meld": False},
        ]
    if path == "players.usual":
        return [int(n) for n in ruleset.value("players.seats")]
    return None


def domain(ruleset: Ruleset, path: str) -> list[Any]:
    """Every value of the field a profile tries, as JSON (the ruleset's own among them); empty
    for a field of too many values to list (points, tables)."""
    shaped = _shaped(ruleset, path)
    if shaped is not None:
        return shaped
    found = field_at(path)
    if found is None:
        return []
    record, name = found
    info = record.model_fields[name]
    annotation = info.annotation
    if annotation is bool:
        return [False, True]
    options = _literal_options(annotation)
    if options is not None:
        return options
    items = _item_options(annotation)
    if items is not None:
        return list(_subsets(items, RANK_SUBSETS if len(items) > 6 else len(items)))
    inner, metadata, nullable = unwrap(annotation, info.metadata)
    low, high = bounds(metadata)
    if inner is not int or high > MAX_CARDS:  # points, scores: solved, not listed
        return []
    counts: list[Any] = list(range(max(low, 0), min(high, COUNT_BOUND) + 1))
    return [*counts, None] if nullable else counts


# --------------------------------------------------------------------------- solving numbers


def number_parts(value: Any, at: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], int]]:
    """Every number inside a value (not a truth value), with the keys that reach it."""
    if isinstance(value, bool) or value is None:
        return
    if isinstance(value, int):
        yield at, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from number_parts(item, (*at, str(key)))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from number_parts(item, (*at, str(i)))


def _numbers_of(value: Any) -> dict[str, int]:
    """An answer's numbers by where they are in it."""
    return {"/".join(keys): number for keys, number in number_parts(value)}


def _names_read(mine: Any, answer: Mapping[str, Any], name: str) -> Iterator[str]:
    """The texts the engine answered where the ruleset's expectation gives ``name``."""
    result = answer.get("result") if answer.get("ok") is True else None
    if not isinstance(mine, Mapping) or not isinstance(result, Mapping):
        return
    for key, value in mine.items():
        theirs = result.get(key)
        if value == name and isinstance(theirs, str) and theirs != name and 0 < len(theirs) <= 40:
            yield theirs


def solved(
    predict: typing.Callable[[Ruleset], Mapping[str, Any]],
    ruleset: Ruleset,
    path: str,
    answer: Mapping[str, Any],
) -> Iterator[Any]:
    """Values of the field, each with one of its numbers solved, under which the ruleset's
    answer (``predict``: the expectation it gives) has a number the engine answered."""
    current = ruleset.value(path)
    if isinstance(current, str):  # a name: the engine's, where the ruleset's own is answered
        yield from _names_read(predict(ruleset), answer, current)
        return
    theirs = _numbers_of(answer.get("result") if answer.get("ok") is True else None)
    if not theirs:
        return
    mine = _numbers_of(predict(ruleset))
    for keys, number in list(number_parts(current)):
        for step in (MOVE, 1):
            try:
                moved = with_values(ruleset, {path: set_part(current, keys, number + step)})
            except (RulesetError, KeyError, IndexError, ValueError, TypeError):
                continue
            after = _numbers_of(predict(moved))
            for where, before in mine.items():
                slope = after.get(where, before) - before
                if where not in theirs or not slope or theirs[where] == before:
                    continue
                value, left = divmod((theirs[where] - before) * step, slope)
                if not left and value:
                    yield set_part(current, keys, number + value)
            break
