"""Walking the rule tree by path: its sections and leaves, and the record and field a dotted
path names (``initial_meld.bands``). The records themselves: :mod:`bolivia.rules.model`."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, TypeGuard

from bolivia.rules.model import Choice, Record, Rules

__all__ = ["field_at", "is_section", "leaf_paths", "split_leaf"]


def is_section(annotation: Any) -> TypeGuard[type[Record]]:
    """Whether a field is a section (merged key by key) rather than a leaf (replaced whole)."""
    return (
        isinstance(annotation, type)
        and issubclass(annotation, Record)
        and not issubclass(annotation, Choice)
    )


def leaf_paths(model: type[Record] = Rules, prefix: str = "") -> Iterator[str]:
    """Every leaf's dotted path, in declaration order: ``pack.decks``, ..."""
    for name, info in model.model_fields.items():
        key = info.alias or name
        path = f"{prefix}{key}"
        if is_section(info.annotation):
            yield from leaf_paths(info.annotation, path + ".")
        else:
            yield path


def field_at(path: str, model: type[Record] = Rules) -> tuple[type[Record], str] | None:
    """The record class and field name a dotted path names, or None when it names nothing.

    Paths use the YAML spelling (``initial_meld.bands``); a section path returns the section's
    parent and field too.
    """
    parts = path.split(".")
    current: type[Record] = model
    for i, part in enumerate(parts):
        found = None
        for name, info in current.model_fields.items():
            if (info.alias or name) == part:
                found = (name, info)
                break
        if found is None:
            return None
        name, info = found
        if i == len(parts) - 1:
            return current, name
        if not is_section(info.annotation):
            return None
        current = info.annotation
    return None


def split_leaf(path: str) -> tuple[str, tuple[str, ...]] | None:
    """A dotted path as the field it names and the keys it goes on to inside that field's
    table (``scoring.card_points.3`` -> ``("scoring.card_points", ("3",))``; a path naming a
    field or a section -> the path and ``()``), or None when it names no field."""
    parts = path.split(".")
    for end in range(len(parts), 0, -1):
        prefix = ".".join(parts[:end])
        found = field_at(prefix)
        if found is not None:
            record, name = found
            inside = tuple(parts[end:])
            if inside and is_section(record.model_fields[name].annotation):
                return None
            return prefix, inside
    return None
