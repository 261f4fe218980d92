"""The committed JSON Schema and field reference are current, and describe the shipped files.

Regenerate with ``BOLIVIA_REGENERATE=1 python -m pytest tests/test_schema.py``.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from bolivia.resources import rulesets_dir
from bolivia.rules.library import SOURCES_FOLDER
from bolivia.rules.loading import load_yaml
from bolivia.rules.schema import fields_markdown, ruleset_schema, schema_text

REGENERATE = os.environ.get("BOLIVIA_REGENERATE") == "1"


@pytest.mark.parametrize(
    ("name", "make"), [("schema.json", schema_text), ("FIELDS.md", fields_markdown)]
)
def test_committed_file_is_current(name: str, make: Any) -> None:
    path = rulesets_dir() / name
    text = make()
    if REGENERATE:
        path.write_text(text, encoding="utf-8")
    assert path.read_text(encoding="utf-8") == text, (
        f"rulesets/{name} is stale: run BOLIVIA_REGENERATE=1 python -m pytest tests/test_schema.py"
    )


def _json(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _json(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_json(v) for v in value]
    return value


VALIDATOR = jsonschema.Draft202012Validator(ruleset_schema())


RULESET_FILES = sorted(
    path
    for path in rulesets_dir().rglob("*.yaml")
    if SOURCES_FOLDER not in path.relative_to(rulesets_dir()).parts  # source records
)


@pytest.mark.parametrize("path", RULESET_FILES, ids=lambda p: p.stem)
def test_shipped_files_validate_against_the_schema(path: Path) -> None:
    loaded = load_yaml(path)
    assert not loaded.problems
    errors = list(VALIDATOR.iter_errors(_json(loaded.data)))
    assert not errors, [e.message for e in errors]


def test_the_schema_refuses_what_the_loader_refuses() -> None:
    bad = {"id": "x", "melds": {"group": {"max_wilds": 3}}}
    assert list(VALIDATOR.iter_errors(bad))
    bad = {"id": "x", "red_threes": {"plus_when": {"condition": "sometimes"}}}
    assert list(VALIDATOR.iter_errors(bad))
    good = {
        "id": "x",
        "extends": "bolivia-da",
        "going_out": {"bonus": 100},
        "provenance": {"going_out.bonus": {"house": "ours"}},
    }
    assert not list(VALIDATOR.iter_errors(good))
