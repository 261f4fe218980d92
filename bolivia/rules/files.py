"""One ruleset file, read and checked on its own: its metadata, its rule sections as written,
and its provenance entries, with every problem found (file, line, key path).

Nothing here looks at another file: :mod:`bolivia.rules.resolution` merges a file with its
base, and :mod:`bolivia.rules.library` finds the base.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from bolivia.errors import Problem
from bolivia.rules.edits import Edit, expand
from bolivia.rules.loading import (
    MAX_PROBLEMS,
    Loaded,
    Location,
    did_you_mean,
    load_yaml,
    more_problems,
    not_a_field,
    validation_problems,
)
from bolivia.rules.provenance import Entry, parse_entry
from bolivia.rules.ruleset import LEAVES, META_KEYS, SECTION_KEYS, TOP_KEYS, Meta
from bolivia.rules.sources import Sources
from bolivia.rules.tree import split_leaf

__all__ = ["Layer", "entry_for", "location_of", "read_layer", "sets"]


def sets(data: Mapping[str, Any], path: str) -> bool:
    current: Any = data
    for part in path.split("."):
        if not isinstance(current, Mapping) or part not in current:
            return False
        current = current[part]
    return True


def location_of(path: str) -> Location:
    return tuple(path.split("."))


@dataclass
class Layer:
    """One file of a chain, read and checked on its own."""

    path: Path
    loaded: Loaded
    meta: Meta | None
    sections: dict[str, Any]
    entries: dict[str, tuple[Entry, Location]]
    extends_entry: Entry | None
    problems: list[Problem] = field(default_factory=list)
    broken_entries: set[str] = field(default_factory=set)  # provenance keys that did not parse
    edits: list[Edit] = field(default_factory=list)  # entries of tables set one by one
    path_lines: dict[Location, int] = field(default_factory=dict)  # lines of dotted keys

    def sets(self, leaf: str) -> bool:
        """Whether the file sets the field (whole, or some entry of it)."""
        return sets(self.sections, leaf) or any(edit.leaf == leaf for edit in self.edits)


def read_layer(path: Path, sources: Sources) -> Layer:
    """One ruleset file, read and checked on its own; its problems kept, not raised."""
    loaded = load_yaml(path)
    layer = Layer(path, loaded, None, {}, {}, None, list(loaded.problems))
    if loaded.problems:
        return layer
    data = loaded.data
    if not isinstance(data, Mapping):
        layer.problems.append(loaded.problem((), "a ruleset file is a mapping of keys to values"))
        return layer
    meta_raw = _sort_keys(layer, data)
    layer.edits, layer.path_lines, found = expand(layer.sections, loaded)
    layer.problems.extend(loaded.problem(where, message) for where, message in found)
    layer.meta = _read_meta(layer, meta_raw, sources)
    _read_entries(layer, data.get("provenance", {}), sources)
    return layer


def _sort_keys(layer: Layer, data: Mapping[Any, Any]) -> dict[Any, Any]:
    """The file's metadata; its rule sections go to the layer, an unknown key is a problem."""
    meta_raw = {}
    for key, value in data.items():
        if key in META_KEYS:
            meta_raw[key] = value
        elif key in SECTION_KEYS or str(key).split(".")[0] in SECTION_KEYS:
            layer.sections[key] = value  # a dotted key is expanded below
        elif key != "provenance" and len(layer.problems) <= MAX_PROBLEMS:
            layer.problems.append(
                layer.loaded.problem(
                    (key,),
                    f"unknown key {str(key)!r}"
                    + (
                        did_you_mean(str(key), TOP_KEYS)
                        or "; expected one of: " + ", ".join(TOP_KEYS)
                    ),
                )
            )
    return meta_raw


def _read_meta(layer: Layer, meta_raw: dict[Any, Any], sources: Sources) -> Meta | None:
    """The file's metadata validated; None when it is not valid. Each source must be known."""
    loaded = layer.loaded
    try:
        meta = Meta.model_validate(meta_raw)
    except ValidationError as exc:
        layer.problems.extend(validation_problems(exc, Meta, meta_raw, loaded.where))
        return None
    for source_id in meta.sources:
        if source_id not in sources:
            layer.problems.append(
                loaded.problem(
                    ("sources",), f"no source {source_id!r}" + did_you_mean(source_id, sources)
                )
            )
    return meta


def _read_entries(layer: Layer, raw: Any, sources: Sources) -> None:
    """The file's provenance entries, each checked and kept under the field it is for."""
    loaded = layer.loaded
    if not isinstance(raw, Mapping):
        layer.problems.append(
            loaded.problem(
                ("provenance",), "provenance is a mapping of key paths to claims or reasons"
            )
        )
        return
    for key, value in raw.items():
        if len(layer.problems) >= MAX_PROBLEMS:
            layer.problems.append(more_problems(loaded.file))
            return
        _read_entry(layer, ("provenance", key), str(key), value, sources)


def _read_entry(layer: Layer, where: Location, key: str, value: Any, sources: Sources) -> None:
    """One provenance entry: parsed, its claims known, kept under its field or the base's."""
    entry = _parsed_entry(layer, where, value)
    if entry is None:
        layer.broken_entries.add(key)
        return
    for claim_id in (
        *entry.claims,
        *entry.via,
        *(c for alt in entry.alternatives for c in alt.claims),
    ):
        if claim_id not in sources.claims:
            layer.problems.append(
                layer.loaded.problem(where, sources.unknown_claim_message(claim_id))
            )
    if key == "extends":
        layer.extends_entry = entry
        return
    field_key = _entry_field(layer, where, key, entry)
    if field_key is not None:
        layer.entries[field_key] = (entry, where)


def _parsed_entry(layer: Layer, where: Location, value: Any) -> Entry | None:
    """An entry as a record; None, with the problem told, when it is not one."""
    loaded = layer.loaded
    try:
        return parse_entry(value)
    except ValidationError as exc:
        layer.problems.extend(
            validation_problems(exc, Entry, value, functools.partial(_within, loaded, where))
        )
    except ValueError as exc:
        layer.problems.append(loaded.problem(where, str(exc)))
    return None


def _entry_field(layer: Layer, where: Location, key: str, entry: Entry) -> str | None:
    """The field an entry is for (a table's, for an entry of it); None, told, if it may not be."""
    split = split_leaf(key)
    if split is None:
        layer.problems.append(layer.loaded.problem(where, not_a_field(key, LEAVES)))
        return None
    if split[1]:  # an entry of a table: the provenance is the field's
        if split[0] in layer.entries:
            layer.problems.append(
                layer.loaded.problem(
                    where, f"{split[0]} has an entry already: one provenance for its table"
                )
            )
            return None
        key = split[0]
    if not layer.sets(key) and entry.assumed:
        layer.problems.append(
            layer.loaded.problem(
                where,
                f"{key} is not set in this file: an entry for an inherited value may "
                "cite claims that confirm it, or add a house note ({house: <why>})",
            )
        )
        return None
    return key


def _within(loaded: Loaded, prefix: Location, location: Location) -> tuple[str, int | None]:
    return loaded.where((*prefix, *location))


def entry_for(layer: Layer, leaf: str) -> tuple[str, Entry, Location] | None:
    """The entry covering a leaf: the leaf's own, or its nearest section's."""
    parts = leaf.split(".")
    for end in range(len(parts), 0, -1):
        key = ".".join(parts[:end])
        if key in layer.entries:
            entry, where = layer.entries[key]
            return key, entry, where
    return None
