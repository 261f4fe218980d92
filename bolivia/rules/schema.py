"""The JSON Schema of the ruleset file format, for editors (``bolivia schema``).

A ruleset file may extend another, so in a file every rule key is optional (the loader, not the
schema, checks that a resolved ruleset sets everything); unknown keys are refused, choices are
enumerated, named choices keep their naming key.
"""

from __future__ import annotations

import json
import types
import typing
from collections.abc import Callable, Iterable
from typing import Any

from pydantic import BaseModel
from pydantic.fields import FieldInfo

from bolivia.rules.model import (
    MAX_CANASTAS,
    MAX_CARDS,
    MAX_DECKS,
    MAX_HANDS,
    MAX_JOKERS,
    MAX_POINTS,
    MAX_SCORE,
    Choice,
    Rules,
    Suggested,
)
from bolivia.rules.provenance import Entry
from bolivia.rules.ruleset import MAX_BASE_NAME
from bolivia.rules.tree import field_at, leaf_paths

__all__ = ["fields_markdown", "ruleset_schema", "schema_text"]

SCHEMA_ID = "https://bolivia.invalid/schema/ruleset.json"


def _choice_titles() -> set[str]:
    return {cls.__name__ for cls in _choice_classes()}


def _optional_everywhere(schema: dict[str, Any], keep: set[str]) -> None:
    for name, definition in schema.get("$defs", {}).items():
        if name not in keep:
            definition.pop("required", None)
    schema.pop("required", None)


def ruleset_schema() -> dict[str, Any]:
    """The schema as a dict (deterministic: same code, same schema)."""
    rules = Rules.model_json_schema(by_alias=True, ref_template="#/$defs/{model}")
    entry = Entry.model_json_schema(by_alias=True, ref_template="#/$defs/{model}")
    defs: dict[str, Any] = dict(rules.pop("$defs", {}))
    defs.update(entry.pop("$defs", {}))
    entry.pop("title", None)
    defs["ProvenanceEntry"] = entry
    schema: dict[str, Any] = {"$defs": defs}
    _optional_everywhere(schema, _choice_titles())
    claim_list = {"type": "array", "items": {"type": "string", "pattern": "^[a-z][a-z0-9-]*:"}}
    properties: dict[str, Any] = {
        "id": {
            "type": "string",
            "pattern": r"^[a-z0-9][a-z0-9._-]{0,63}$",
            "description": "The ruleset's id: lower-case letters, digits, - . _",
        },
        "name": {"type": "string", "description": "A name for people."},
        "extends": {
            "type": "string",
            "minLength": 1,
            "maxLength": MAX_BASE_NAME,
            "description": "The base ruleset: an id, or a relative path to a file "
            f"(at most {MAX_BASE_NAME} characters).",
        },
        "family": {"type": "string", "description": "The game: canasta, samba, bolivia."},
        "sources": {
            "type": "array",
            "items": {"type": "string"},
            "description": "Ids of the source records (seeds/) the ruleset encodes.",
        },
        "notes": {"type": "string"},
        **rules["properties"],
        "provenance": {
            "type": "object",
            "description": "Per key path (or 'extends'): the claim(s) the value encodes, or "
            "{assumed: reason} / {house: reason}.",
            "additionalProperties": {
                "anyOf": [
                    {"type": "string", "pattern": "^[a-z][a-z0-9-]*:"},
                    claim_list,
                    {"$ref": "#/$defs/ProvenanceEntry"},
                ]
            },
        },
    }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": "Bolivia ruleset",
        "description": "A ruleset of the bolivia toolkit: a Bolivia, Samba or Canasta "
        "rulebook as data. Write only what differs from the base named by "
        "'extends'.",
        "type": "object",
        "required": ["id"],
        "additionalProperties": False,
        "properties": properties,
        "$defs": schema["$defs"],
    }


def schema_text() -> str:
    return json.dumps(ruleset_schema(), indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def _range_text(metadata: Iterable[Any]) -> str:
    """`` from 0 to 440`` for the bounds among a field's constraints, or nothing."""
    low = high = None
    for item in metadata:
        if isinstance(item, FieldInfo):
            return _range_text(item.metadata)
        low = getattr(item, "ge", low)  # annotated_types.Ge, as pydantic keeps Field(ge=...)
        high = getattr(item, "le", high)
    if low is None and high is None:
        return ""
    if high is None:
        return f" from {low:,}"
    return f" from {low:,} to {high:,}" if low is not None else f" up to {high:,}"


def _type_text(annotation: Any, metadata: Iterable[Any] = ()) -> str:
    """A reader's name for a field type.

    For example ``list of (wild | red_three)``, ``number or null``, ``number from 0 to 440``.
    """
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin is typing.Annotated:
        return _type_text(args[0], args[1:])
    if annotation is int:
        return "number" + _range_text(metadata)
    suggested = [item for item in metadata if isinstance(item, Suggested)]
    if annotation is str and suggested:  # the kinds of canasta, or a special canasta's name
        return " | ".join([*suggested[0].values, suggested[0].more])
    if origin in _BY_ORIGIN:
        return _BY_ORIGIN[origin](args)
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return _record_text(annotation)
    if annotation in _NAMES:
        return _NAMES[annotation]
    return getattr(annotation, "__name__", str(annotation))


_NAMES = {int: "number", bool: "true/false", str: "text"}


def _union_text(args: tuple[Any, ...]) -> str:
    present = [a for a in args if a is not type(None)]
    text = " or ".join(_type_text(a) for a in present)
    return f"{text} or null" if len(present) < len(args) else text


def _list_text(args: tuple[Any, ...]) -> str:
    inner = _type_text(args[0])
    return f"list of ({inner})" if "|" in inner else f"list of {inner}"


def _record_text(record: type[BaseModel]) -> str:
    """A record's keys in braces; a named choice's name as ``key: name``."""
    parts = []
    for name, info in record.model_fields.items():
        literal = typing.get_args(info.annotation)
        if typing.get_origin(info.annotation) is typing.Literal and len(literal) == 1:
            parts.append(f"{name}: {literal[0]}")
        else:
            parts.append(info.alias or name)
    return "{" + ", ".join(parts) + "}"


# A reader's name for a type by its kind: choices, a union, a list, a table.
_BY_ORIGIN: dict[Any, Callable[[tuple[Any, ...]], str]] = {
    typing.Literal: lambda args: " | ".join(str(a) for a in args),
    typing.Union: _union_text,
    types.UnionType: _union_text,
    tuple: _list_text,
    dict: lambda args: f"table: {_type_text(args[0])} -> {_type_text(args[1])}",
}


def fields_markdown() -> str:
    """Every field of the rule tree, its type and meaning, as a Markdown table."""
    rows = [
        "# Ruleset fields",
        "",
        "Generated by `bolivia schema --fields` from `bolivia/rules/model.py`; a test keeps it "
        "current.",
        "",
        f"Every number has a range: a count of cards at most {MAX_CARDS:,} (the largest pack, "
        f"{MAX_DECKS} decks and {MAX_JOKERS} jokers), a count of canastas at most "
        f"{MAX_CANASTAS:,}, points and bonuses within {MAX_POINTS:,}, scores and targets within "
        f"{MAX_SCORE:,}, a cap on hands at most {MAX_HANDS:,}. A value outside its range is "
        "refused, with its file, line and key.",
        "",
        "| key path | type | meaning |",
        "|---|---|---|",
    ]
    for path in leaf_paths():
        found = field_at(path)
        assert found is not None
        record, name = found
        info = record.model_fields[name]
        meaning = (info.description or "").replace("|", "\\|")
        kind = _type_text(info.annotation, info.metadata).replace("|", "\\|")
        rows.append(f"| `{path}` | {kind} | {meaning} |")
    rows += ["", "Named choices:", ""]
    for choice in sorted(_choice_classes(), key=lambda c: c.__name__):
        rows.append(f"- {choice.__name__}: {_fields_text(choice)}")
    rows += ["", "Records inside tables and lists:", ""]
    for path, inner in _inner_records():
        rows.append(f"- {inner.__name__} (`{path}`): {_fields_text(inner)}")
    return "\n".join(rows) + "\n"


def _fields_text(cls: type[BaseModel]) -> str:
    """A record's fields for a list item: ``count`` (number from 0 to 220: what it means)."""
    parts = []
    for name, info in cls.model_fields.items():
        key = f"`{info.alias or name}`"
        literal = typing.get_args(info.annotation)
        if typing.get_origin(info.annotation) is typing.Literal and len(literal) == 1:
            parts.append(key)  # a named choice's name
            continue
        kind = _type_text(info.annotation, info.metadata)
        parts.append(f"{key} ({kind}" + (f": {info.description})" if info.description else ")"))
    return ", ".join(parts)


def _inner_records() -> list[tuple[str, type[BaseModel]]]:
    """The records a leaf holds (a seating of ``players.seats``, a band), with the leaf."""
    found: dict[type[BaseModel], str] = {}

    def walk(annotation: Any, path: str) -> None:
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            if not issubclass(annotation, Choice):
                found.setdefault(annotation, path)
            return
        for arg in typing.get_args(annotation):
            walk(arg, path)

    for path in leaf_paths():
        located = field_at(path)
        assert located is not None
        walk(located[0].model_fields[located[1]].annotation, path)
    return [(path, cls) for cls, path in found.items()]


def _choice_classes() -> list[type[Choice]]:
    out = []
    stack = list(Choice.__subclasses__())
    while stack:
        cls = stack.pop()
        out.append(cls)
        stack.extend(cls.__subclasses__())
    return out
