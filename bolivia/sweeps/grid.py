"""The grid of a sweep: every combination of the values asked for.

The values for some fields of a base ruleset come from ``--vary FIELD=V1,V2,...`` or
``--vary FIELD=LOW..HIGH/STEP``. Every combination is a derived ruleset.

Each value is read as YAML (``100``, ``escalera``, ``[wild, black_three]``). A range is of
whole numbers, both ends included. The base's own value is always part of an axis (added if
not given) and marked. So every measure is set beside the base on the same deals.

Every combination is derived with :func:`bolivia.authoring.house.derive_text`. It is validated
exactly as ``bolivia new`` validates (:func:`bolivia.authoring.house.write_ruleset`). A field
that is not one, or a value the field does not take, is a :class:`SweepError`. It names the
``--vary`` given and what is allowed.

>>> split_values("100,[wild, black_three],{a: 1, b: 2}")
['100', '[wild, black_three]', '{a: 1, b: 2}']
>>> parse_range("100..400/100")
[100, 200, 300, 400]
"""

from __future__ import annotations

import hashlib
import itertools
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bolivia.authoring.house import derive_text, parse_setting, write_ruleset
from bolivia.errors import BoliviaError, Problem, RulesetError
from bolivia.rules.library import Library
from bolivia.rules.ruleset import Ruleset
from bolivia.sweeps.words import BASE_MARK, combination_words

__all__ = [
    "MAX_COMBINATIONS",
    "MAX_VALUES",
    "Axis",
    "SweepError",
    "Variant",
    "derive_variants",
    "parse_axis",
    "parse_range",
    "split_values",
    "value_text",
]

MAX_VALUES = 100  # values on one axis
MAX_COMBINATIONS = 200  # derived rulesets in one sweep
_LONGEST = 24  # characters of a value written out in an id; a longer one is hashed
_MAX_ID = 64  # characters of a ruleset id (bolivia.rules.ruleset.ID_PATTERN)
_RANGE = re.compile(r"\s*(-?\d+)\s*\.\.\s*(-?\d+)\s*(?:/\s*(\d+)\s*)?", re.ASCII)  # 0-9 only


class SweepError(BoliviaError):
    """A sweep that cannot be set up as given: one line saying what and what is allowed."""


def value_text(value: Any) -> str:
    """A value as a person writes it: ``100``, ``escalera``, ``[wild, black_three]``."""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "none"
    if isinstance(value, list):
        return "[" + ", ".join(value_text(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {value_text(v)}" for k, v in value.items()) + "}"
    return json.dumps(value)


def split_values(text: str) -> list[str]:
    """A comma-separated list of YAML values; commas inside brackets or braces stay."""
    out: list[str] = []
    current: list[str] = []
    depth = 0
    for char in text:
        if char in "[{":
            depth += 1
        elif char in "]}":
            depth -= 1
        if char == "," and depth == 0:
            out.append("".join(current).strip())
            current = []
        else:
            current.append(char)
    out.append("".join(current).strip())
    return out


def parse_range(text: str) -> list[int] | None:
    """``LOW..HIGH/STEP`` (both ends included; step 1 if not given), or None if not a range."""
    found = _RANGE.fullmatch(text)
    if found is None:
        return None
    low, high, step = int(found[1]), int(found[2]), int(found[3] or 1)
    if step <= 0 or high < low:
        raise SweepError(f"the range {text!r} runs from a low value up to a high one by a step > 0")
    if (high - low) // step + 1 > MAX_VALUES:
        raise SweepError(f"the range {text!r} has more than {MAX_VALUES} values")
    return list(range(low, high + 1, step))


@dataclass(frozen=True)
class Axis:
    """One varied field: its values in order, the base's value among them."""

    field: str
    values: tuple[Any, ...]
    base: Any
    given: str  # the --vary as written, for error messages

    def setting(self, value: Any) -> str:
        return f"{self.field}={json.dumps(value)}"


def _current(where: str, field: str, base: Ruleset) -> Any:
    """The base's value of a field; an unknown field is refused."""
    try:
        derive_text("x", base, base.id, [f"{field}=0"])  # names an unknown field
        return base.value(field)
    except RulesetError as exc:
        raise SweepError(f"{where}: {exc.problems[0].message}") from None
    except KeyError:
        raise SweepError(f"{where}: {base.id} has no value at {field}") from None


def _listed(where: str, field: str, raw: str) -> list[Any]:
    """The values of a comma-separated list, each read as the field's YAML value."""
    values = []
    for item in split_values(raw):
        if not item:
            raise SweepError(f"{where}: an empty value in the list")
        try:
            values.append(parse_setting(f"{field}={item}")[1])
        except RulesetError as exc:
            raise SweepError(f"{where}: {exc.problems[0].message}") from None
    return values


def _ranged(where: str, field: str, numbers: list[int], current: Any, base: Ruleset) -> list[Any]:
    """The values of a range, for a whole-number field only."""
    if not isinstance(current, int) or isinstance(current, bool):
        raise SweepError(
            f"{where}: a range is for a whole-number field; {field} is "
            f"{value_text(current)} in {base.id}: list its values instead"
        )
    return list(numbers)


def _unique(where: str, values: Sequence[Any]) -> list[Any]:
    """The values, none given twice and not too many."""
    if len(values) > MAX_VALUES:
        raise SweepError(f"{where}: more than {MAX_VALUES} values")
    unique: list[Any] = []
    for value in values:
        if value in unique:
            raise SweepError(f"{where}: {value_text(value)} is given twice")
        unique.append(value)
    return unique


def parse_axis(text: str, base: Ruleset) -> Axis:
    """``FIELD=V1,V2`` or ``FIELD=LOW..HIGH/STEP`` against the base: the axis, its values
    checked to be the field's kind of value by the derivation that follows."""
    where = f"--vary {text}"
    if "=" not in text:
        raise SweepError(f"{where}: write --vary FIELD=V1,V2,... or FIELD=LOW..HIGH/STEP")
    field, raw = (part.strip() for part in text.split("=", 1))
    if not raw:
        raise SweepError(f"{where}: give the values after '='")
    current = _current(where, field, base)
    numbers = parse_range(raw)
    if numbers is not None:
        values = _ranged(where, field, numbers, current, base)
    else:
        values = _listed(where, field, raw)
    unique = _unique(where, values)
    if current not in unique:
        unique.insert(0, current)
        if numbers is not None or all(isinstance(v, int | float) for v in unique):
            unique.sort()
    return Axis(field, tuple(unique), current, text)


@dataclass(frozen=True)
class Variant:
    """One combination of the grid: its values (one per axis, as given), its resolved
    ruleset and its values as that ruleset holds them (every default filled in)."""

    values: tuple[Any, ...]
    ruleset: Ruleset
    is_base: bool
    settings: tuple[str, ...]
    resolved: tuple[Any, ...] = ()

    def label(self, axes: Sequence[Axis]) -> str:
        """The combination in words (the base marked): ``300 points``."""
        words = combination_words([a.field for a in axes], self.resolved or self.values)
        return f"{words} ({BASE_MARK})" if self.is_base else words


def _stable_hash(value: Any, digits: int) -> str:
    text = json.dumps(value, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:digits]


def _flat(value: Any) -> list[str]:
    """A value's words in order: a choice's name and count, a table's keys and scalars
    (``{rule: canastas, count: 2, including: {escalera: 1}}``: canastas 2 escalera 1)."""
    if isinstance(value, dict):
        out = []
        for key, item in value.items():
            named = key not in ("rule", "condition", "outcome", "count")
            if named and not isinstance(item, dict | list):
                out.append(str(key))
            out += _flat(item)
        return out
    if isinstance(value, list):
        return [part for item in value for part in _flat(item)]
    return [value_text(value)]


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def _first_words(slug: str, most: int) -> str:
    """The first words of a slug, at most ``most`` characters, none cut."""
    out = ""
    for word in slug.split("-"):
        if len(out) + len(word) + 1 > most + 1:
            break
        out = f"{out}-{word}" if out else word
    return out


def short_value(value: Any, words: bool = True) -> str:
    """A value in a ruleset id: ``300``, ``no``, ``never``, ``canastas-2``. A long one (or
    any list or table with ``words=False``) is given by its first words and a short stable
    hash of it.

    >>> short_value(300), short_value(False), short_value(None), short_value("onto_meld")
    ('300', 'no', 'none', 'onto-meld')
    >>> short_value({"rule": "canastas", "count": 2}), short_value([1], words=False)
    ('canastas-2', '080a9e')
    >>> short_value({"rule": "canastas", "count": 2, "including": {"escalera": 1, "mixed": 1}})
    'canastas-2-84401c'
    """
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int | float) and value < 0:
        return "minus-" + short_value(-value)
    shown = _slug("-".join(_flat(value)))
    if isinstance(value, list | dict) and not words:
        return _stable_hash(value, 6)
    if 0 < len(shown) <= _LONGEST:
        return shown
    first = _first_words(shown, 12)
    return f"{first}-{_stable_hash(value, 6)}" if first else _stable_hash(value, 6)


def _field_names(axes: Sequence[Axis]) -> list[str]:
    """Each axis's field in an id: its last key (``bonus``), or more of its path where that
    is a number or another axis ends alike (``escalera-bonus``, ``card-points-3``)."""
    out = []
    for axis in axes:
        parts = axis.field.split(".")
        take = 1
        while take < len(parts) and (
            parts[-take].isdigit()
            or sum(a.field.split(".")[-take:] == parts[-take:] for a in axes) > 1
        ):
            take += 1
        out.append(_slug("-".join(parts[-take:])))
    return out


def derived_id(base_id: str, axes: Sequence[Axis], combo: Sequence[Any]) -> str:
    """A combination's ruleset id: the base's id, then each varied field's short name and
    value (``bolivia-da.bonus-300``). Too long for an id (64 characters), lists and tables
    are given by their hash only, then all the values by one stable hash
    (``bolivia-da.sweep-1c0f9e2a7b4d``).

    >>> bonus = Axis("going_out.bonus", (100, 200), 200, "")
    >>> derived_id("bolivia-da", [bonus], [100])
    'bolivia-da.bonus-100'
    """
    fields = _field_names(axes)
    for words in (True, False):
        name = f"{base_id}." + ".".join(
            f"{f}-{short_value(v, words)}" for f, v in zip(fields, combo, strict=True)
        )
        if len(name) <= _MAX_ID:
            return name
    return _hashed_id(base_id, axes, combo, 12)


def _hashed_id(base_id: str, axes: Sequence[Axis], combo: Sequence[Any], digits: int) -> str:
    whole = _stable_hash([[a.field, v] for a, v in zip(axes, combo, strict=True)], digits)
    return f"{base_id[: _MAX_ID - len(whole) - 7]}.sweep-{whole}"


def _name(base: Ruleset, axes: Sequence[Axis], combo: Sequence[Any], names: set[str]) -> str:
    """A combination's ruleset id (:func:`derived_id`); in the rare case that another of the
    grid has it already, a stable hash of the values, as long as it takes to differ."""
    name = derived_id(base.id, axes, combo)
    digits = 12
    while name in names:
        name = _hashed_id(base.id, axes, combo, digits)
        digits += 4
    names.add(name)
    return name


def _combinations(axes: Sequence[Axis]) -> list[tuple[Any, ...]]:
    """Every combination of the axes' values, the first axis varying slowest; not too many."""
    combos = list(itertools.product(*(axis.values for axis in axes)))
    if len(combos) > MAX_COMBINATIONS:
        raise SweepError(
            f"the grid has {len(combos)} combinations, more than {MAX_COMBINATIONS}: "
            "vary fewer fields or fewer values"
        )
    return combos


def derive_variants(
    base: Ruleset, base_ref: str, axes: Sequence[Axis], folder: Path, library: Library
) -> list[Variant]:
    """Every combination of the axes' values, each a ruleset file in ``folder``.

    Each file is validated as ``bolivia new`` does; the base combination is the base itself.
    Every invalid combination is named, then the sweep refused.
    """
    out: list[Variant] = []
    problems: list[str] = []
    names: set[str] = set()
    for combo in _combinations(axes):
        settings = tuple(
            axis.setting(v) for axis, v in zip(axes, combo, strict=True) if v != axis.base
        )
        if not settings:
            out.append(Variant(combo, base, True, (), _resolved(base, axes)))
            continue
        name = _name(base, axes, combo, names)
        why = "sweep: " + "; ".join(settings)
        try:
            text = derive_text(name, base, base_ref, settings, why=why)
            ruleset = write_ruleset(text, folder / f"{name}.yaml", library, force=True)
        except RulesetError as exc:
            problems += _problems(axes, combo, exc)
            continue
        out.append(Variant(combo, ruleset, False, settings, _resolved(ruleset, axes)))
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise SweepError(f"not a valid ruleset: {problems[0]}{more}")
    return out


def _resolved(ruleset: Ruleset, axes: Sequence[Axis]) -> tuple[Any, ...]:
    return tuple(ruleset.value(axis.field) for axis in axes)


def _problems(axes: Sequence[Axis], combo: Sequence[Any], exc: RulesetError) -> list[str]:
    """What is wrong with a combination's ruleset, each problem after its values."""
    shown = ", ".join(f"{a.field}={value_text(v)}" for a, v in zip(axes, combo, strict=True))
    return [f"{shown}: {_problem_text(p)}" for p in exc.problems]


def _problem_text(problem: Problem) -> str:
    return f"{problem.path}: {problem.message}" if problem.path else problem.message
