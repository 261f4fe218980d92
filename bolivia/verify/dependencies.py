"""What each conformance case decides: the rule fields its expectation depends on.

A case depends on a field, for a ruleset, when changing that field alone (to any of the
alternatives :mod:`bolivia.rules.variants` proposes) changes what the built-in oracle answers
to the keys the case checks -- the case would fail under the variant. This is derived
mechanically, and being slow to derive (every case under some two hundred variants of each
ruleset) it is generated data, committed as ``suites/dependencies.json`` and kept current by a
test (``BOLIVIA_REGENERATE=1 python -m pytest tests/test_dependencies.py`` rewrites it).

A failure then says which rules it is about, with the ruleset's values
(:func:`outcome_fields`), by which ``bolivia conform`` groups failures by rule field.
"""

from __future__ import annotations

import functools
import json
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bolivia.play.batch.workers import worker_pool
from bolivia.rules.ruleset import Ruleset
from bolivia.rules.variants import LEAVES, one_field_variants
from bolivia.verify.conformance import MOVE_CHECKS, Case, Outcome, Suite, compare, suites_dir
from bolivia.verify.oracle import FIELD_PROTOCOLS, OP_PROTOCOLS, Oracle

__all__ = [
    "DEPENDENCIES",
    "Derived",
    "ask",
    "case_fields",
    "derive",
    "expectation_from",
    "fields_of",
    "outcome_fields",
]

DEPENDENCIES = "dependencies.json"
FORMAT = 1


def _move_key(move: Any) -> str:
    return json.dumps(move, sort_keys=True)


def _moves_where(expected: Mapping[str, Any], result: Mapping[str, Any], key: str) -> list[Any]:
    """The moves ``includes`` and ``excludes`` name that go to ``key``, as the answer lists
    them (``includes``: listed; ``excludes``: not)."""
    moves = result.get("moves")
    listed = {_move_key(m) for m in moves} if isinstance(moves, list) else set()
    named = [m for check in MOVE_CHECKS for m in expected.get(check, [])]
    inside = key == "includes"
    return [m for m in named if (_move_key(m) in listed) == inside]


def _error_code(response: Mapping[str, Any]) -> dict[str, Any]:
    """An answer's error, as an expectation: its code."""
    error = response.get("error")
    return {"error": error.get("code") if isinstance(error, dict) else None}


def first_fields(op: str) -> list[str]:
    """The result fields an op has had since the protocol that brought it (its reason
    aside): what an expected error becomes when an answer gives a result, so that no engine
    is held to a field of a later protocol the case never named."""
    first = OP_PROTOCOLS.get(op, 1)
    fields = FIELD_PROTOCOLS.get(op, {})
    return sorted(f for f, v in fields.items() if v == first and "." not in f and f != "reason")


def expectation_from(
    op: str, expected: Mapping[str, Any], response: Mapping[str, Any]
) -> dict[str, Any]:
    """What ``response`` answers to the keys of ``expected``, as an expectation of its own.

    It is ``expected`` itself when the response meets it, else the error code, or the values
    of the same keys. A move of ``includes`` or ``excludes`` goes to the one the answer puts
    it in. An expected error answered with a result gives the op's result fields but its
    reason.
    """
    if not compare(expected, response):
        return dict(expected)
    if response.get("ok") is not True:
        return _error_code(response)
    result = response.get("result")
    result = result if isinstance(result, dict) else {}
    keys = [k for k in expected if k != "error"] or first_fields(op)
    out: dict[str, Any] = {}
    for key in keys:
        if key in MOVE_CHECKS:
            out[key] = _moves_where(expected, result, key)
        elif key in result:
            out[key] = result[key]
    return out


def ask(oracle: Oracle, request: dict[str, Any]) -> dict[str, Any]:
    """The oracle's answer as it reads over the wire (JSON values: lists, string keys),
    without writing the request as a line and reading it back (a test checks that this answers
    every case's request as the line does)."""
    answer: dict[str, Any] = json.loads(json.dumps(oracle.handle(request)))
    return answer


@dataclass(frozen=True)
class Derived:
    """What :func:`derive` found: for every case and ruleset, the fields; and what it took."""

    fields: dict[str, dict[str, list[str]]]  # "suite:case" -> ruleset -> fields
    variants: int  # variants asked, all rulesets together
    requests: int  # oracle requests
    seconds: float

    def as_json(self) -> dict[str, Any]:
        return {"format": FORMAT, "cases": self.fields}


Item = tuple[str, str, dict[str, Any], Mapping[str, Any]]  # name, op, input, expectation


def fields_of(
    oracle: Oracle,
    ruleset: Ruleset,
    items: Sequence[Item],
    answers: dict[tuple[str, str], dict[str, Any]] | None = None,
) -> tuple[dict[str, list[str]], int, int]:
    """For each item (a request and what it expects under ``ruleset``), the fields whose
    change alone makes the answer fail the expectation, in the rule tree's order; and the
    variants and the requests it took. ``answers`` keeps the variants' answers by their
    rules and the item's name, for rulesets with the same rules."""
    answers = answers if answers is not None else {}
    found: dict[str, set[str]] = {name: set() for name, _, _, _ in items}
    variants = requests = 0
    for path, _, changed in one_field_variants(ruleset):
        oracle.register(changed)
        variants += 1
        for name, op, data, expected in items:
            if path in found[name]:
                continue  # another value of the field changed it already
            key = (changed.digest, name)
            response = answers.get(key)
            if response is None:
                requests += 1
                request = {"op": op, "id": name, "ruleset": changed.id, **data}
                response = answers[key] = ask(oracle, request)
            if compare(expected, response):
                found[name].add(path)
    return (
        {name: [p for p in LEAVES if p in paths] for name, paths in found.items()},
        variants,
        requests,
    )


def _group(job: tuple[Sequence[Suite], Sequence[Ruleset]]) -> tuple[dict[str, Any], int, int]:
    """The fields for rulesets with the same rules (bolivia-zh and bolivia-ko), which share
    their variants' answers: ruleset -> case name -> fields; variants; requests."""
    suites, rulesets = job
    oracle = Oracle()
    answers: dict[tuple[str, str], dict[str, Any]] = {}
    out: dict[str, Any] = {}
    variants = requests = 0
    for ruleset in rulesets:
        items = [
            (f"{s.suite}:{c.id}", c.op, c.input, c.expect[ruleset.id])
            for s in suites
            for c in s.cases
            if ruleset.id in c.expect
        ]
        out[ruleset.id], asked, sent = fields_of(oracle, ruleset, items, answers)
        variants, requests = variants + asked, requests + sent
    return out, variants, requests


def derive(suites: Sequence[Suite], rulesets: Sequence[Ruleset], workers: int = 1) -> Derived:
    """The fields every case depends on, for every ruleset it has an expectation for (the
    rulesets shared out among ``workers`` processes)."""
    start = time.monotonic()
    groups: dict[str, list[Ruleset]] = {}
    for ruleset in sorted(rulesets, key=lambda r: r.id):
        groups.setdefault(ruleset.digest, []).append(ruleset)
    jobs = [(list(suites), group) for group in groups.values()]
    if workers > 1 and len(jobs) > 1:
        with worker_pool(min(workers, len(jobs))) as pool:
            results = pool.map(_group, jobs, chunksize=1)
    else:
        results = [_group(job) for job in jobs]
    fields: dict[str, dict[str, list[str]]] = {
        f"{suite.suite}:{case.id}": {} for suite in suites for case in suite.cases
    }
    variants = requests = 0
    for found, asked, sent in results:
        variants, requests = variants + asked, requests + sent
        for ruleset_id, by_case in found.items():
            for name, paths in by_case.items():
                fields[name][ruleset_id] = paths
    return Derived(fields, variants, requests, time.monotonic() - start)


def dependencies_text(derived: Derived) -> str:
    """The committed file's text: one line a case, deterministic."""
    lines = [f'{{"format": {FORMAT}, "cases": {{']
    names = list(derived.fields)
    for i, name in enumerate(names):
        entry = json.dumps(derived.fields[name], sort_keys=True, separators=(", ", ": "))
        lines.append(f"  {json.dumps(name)}: {entry}{',' if i < len(names) - 1 else ''}")
    return "\n".join([*lines, "}}"]) + "\n"


@functools.cache
def _committed(path: Path) -> dict[str, dict[str, tuple[str, ...]]]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    cases = data.get("cases") if isinstance(data, dict) else None
    if not isinstance(cases, dict):
        return {}
    return {
        name: {ruleset: tuple(paths) for ruleset, paths in by_ruleset.items()}
        for name, by_ruleset in cases.items()
        if isinstance(by_ruleset, dict)
    }


def case_fields(suite: Suite | str, case: Case | str, ruleset: str) -> tuple[str, ...] | None:
    """The rule fields a shipped case depends on for a ruleset (in the rule tree's order), or
    None when the committed data does not know the case for that ruleset."""
    suite_name = suite if isinstance(suite, str) else suite.suite
    case_id = case if isinstance(case, str) else case.id
    found = _committed(suites_dir() / DEPENDENCIES).get(f"{suite_name}:{case_id}", {})
    return found.get(ruleset)


def outcome_fields(outcome: Outcome, ruleset: Ruleset) -> list[tuple[str, Any]]:
    """The fields an outcome's case depends on, each with the ruleset's value."""
    return [
        (path, ruleset.value(path))
        for path in case_fields(outcome.suite, outcome.case, outcome.ruleset) or ()
    ]
