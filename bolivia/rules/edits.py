"""Dotted keys in a ruleset file, and edits of one table entry.

A key with dots stands for the path it spells, from where it is written. A path that ends at a
field or a section is written into the file's sections as if nested.

A path that goes on into a field's table or list is an :class:`Edit`. It changes the value the
file would otherwise inherit, once the chain is merged (:func:`apply`). The position after a
list's last entry adds an entry at the end. An entry not there yet (a new band, a seating for
five) may be written whole or key by key. A table or list written whole still replaces the
base's whole.

For example::

    scoring:
      card_points.3: -200           # one entry of the base's table; the rest inherited
    initial_meld:
      bands.2.minimum: 100          # one value of the third band (lists count from 0)
      bands.4: {from: 7000, minimum: 150}   # a fifth band, after the base's four
    melds.group.max_wild: 3         # the same as melds: {group: {max_wild: 3}}
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, MutableMapping, Sequence
from dataclasses import dataclass
from typing import Any

from bolivia.rules.loading import Loaded, Location, not_a_field, plain, plain_digits, tuples
from bolivia.rules.tree import field_at, is_section, leaf_paths, split_leaf

__all__ = ["Edit", "apply", "expand", "set_entry"]


@dataclass(frozen=True)
class Edit:
    """One entry of a field's table set by a file: ``leaf`` the field, ``inside`` the keys (a
    list's position as digits) down to the entry, ``where`` the key as written."""

    leaf: str
    inside: tuple[str, ...]
    value: Any
    where: Location

    @property
    def path(self) -> str:
        return ".".join((self.leaf, *self.inside))


def expand(
    sections: dict[str, Any], loaded: Loaded
) -> tuple[list[Edit], dict[Location, int], list[tuple[Location, str]]]:
    """Rewrite the dotted keys of ``sections`` in place: the edits they make, the line of
    every path they spell (for problems found later), and the problems (location, message)."""
    edits: list[Edit] = []
    lines: dict[Location, int] = {}
    problems: list[tuple[Location, str]] = []

    def walk(node: MutableMapping[Any, Any], prefix: tuple[str, ...], written: Location) -> None:
        for key in list(node):
            value = node[key]
            here: Location = (*written, key)
            if isinstance(key, str) and "." in key:
                del node[key]
                path = ".".join((*prefix, key))
                split = split_leaf(path)
                line = loaded.line(here)
                if split is None:
                    problems.append((here, not_a_field(path, LEAVES)))
                    continue
                leaf, inside = split
                if line is not None:
                    lines[tuple(path.split("."))] = line
                if inside:
                    edits.append(Edit(leaf, inside, value, here))
                elif not _nest(sections, path.split("."), value):
                    problems.append((here, f"{path} is given twice (once as {key!r})"))
                continue
            found = field_at(".".join((*prefix, str(key))))
            if (
                found is not None
                and is_section(found[0].model_fields[found[1]].annotation)
                and isinstance(value, MutableMapping)
            ):
                walk(value, (*prefix, str(key)), here)

    for key in list(sections):  # the file's data stays as read
        sections[key] = copy.deepcopy(sections[key])
    walk(sections, (), ())
    return edits, lines, problems


LEAVES = tuple(leaf_paths())


def _nest(sections: dict[str, Any], parts: list[str], value: Any) -> bool:
    """Set a value at a path of the sections; False when something is set there already."""
    node = sections
    for part in parts[:-1]:
        child = node.setdefault(part, {})
        if not isinstance(child, dict):
            return False
        node = child
    if parts[-1] in node:
        return False
    node[parts[-1]] = value
    return True


def apply(merged: dict[str, Any], edit: Edit) -> str | None:
    """Make one edit in the merged rule data (tables as mappings, lists as tuples); why it
    cannot be made, or None."""
    *parents, last = edit.leaf.split(".")
    node: Any = merged
    for part in parents:
        node[part] = node = dict(node[part])
    table = plain(node[last], key=lambda k: k)
    why = set_entry(table, edit.inside, plain(edit.value, key=lambda k: k), edit.leaf)
    node[last] = tuples(table)
    return why


def set_entry(table: Any, inside: Sequence[str], value: Any, leaf: str) -> str | None:
    """Set one entry inside a field's table, in place; why it cannot be, or None.

    A mapping's entry is found by its key, a list's by its position from 0. The next position
    after a list's end adds an entry there. An entry not there yet is made, to be filled key by
    key.
    """
    target = table
    for depth, part in enumerate(inside):
        at = ".".join((leaf, *inside[:depth]))
        final = depth == len(inside) - 1
        if isinstance(target, list):
            if not plain_digits(part) or int(part) > len(target):
                return _position_problem(at, len(target), part)
            key: Any = int(part)
            if key == len(target):
                target.append({})
        elif isinstance(target, dict):
            key = _key_in(target, part)
            if key is None:
                key = int(part) if plain_digits(part) else part
                target[key] = {}
        else:
            return f"{at} is not a table: write {at} whole"
        if final:
            target[key] = value
        else:
            target = target[key]
    return None


def _position_problem(at: str, size: int, part: str) -> str:
    """A list's position out of range, said as people count the entries."""
    entries = f"{size} entr{'y' if size == 1 else 'ies'}"
    change = f"{at}.0 to {at}.{size - 1} change the first to the last, " if size else ""
    return f"{at} holds {entries}: {change}{at}.{size} adds one at the end (not {part!r})"


def _key_in(table: Mapping[Any, Any], part: str) -> Any:
    """The key of a table a path's part names (a table by number of players has numbers)."""
    for key in table:
        if str(key) == part:
            return key
    return None
