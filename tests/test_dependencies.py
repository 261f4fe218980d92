"""What each conformance case decides: the rule fields its expectation depends on, derived by
asking the oracle under one-field variants, committed as generated data and kept current.

Regenerate the committed ``bolivia/verify/suites/dependencies.json`` with
``BOLIVIA_REGENERATE=1 python -m pytest tests/test_dependencies.py``.
"""

from __future__ import annotations

import json
import os
import time
from typing import Any

import pytest

from bolivia.errors import RulesetError
from bolivia.rules.library import shipped_library
from bolivia.rules.variants import LEAVES, alternatives, one_field_variants, variant, with_values
from bolivia.verify.conformance import (
    InProcessEngine,
    Outcome,
    load_suite,
    plan,
    run_suites,
    shipped_suites,
    suites_dir,
)
from bolivia.verify.dependencies import (
    DEPENDENCIES,
    ask,
    case_fields,
    dependencies_text,
    derive,
    expectation_from,
    outcome_fields,
)
from bolivia.verify.oracle import Oracle
from bolivia.verify.reporting import Run, by_rule_field
from bolivia.verify.runner import rule_fields

LIBRARY = shipped_library()
SUITES = [load_suite(path) for path in shipped_suites()]
REGENERATE = os.environ.get("BOLIVIA_REGENERATE") == "1"
CASE_RULESETS = sorted({r for s in SUITES for c in s.cases for r in c.expect})


def test_the_committed_dependencies_are_current() -> None:
    workers = max(1, min(2, os.cpu_count() or 1))
    derived = derive(SUITES, [LIBRARY.load(r) for r in CASE_RULESETS], workers)
    text = dependencies_text(derived)
    committed = suites_dir() / DEPENDENCIES
    if REGENERATE:
        committed.write_text(text, encoding="utf-8")
    print(
        f"dependencies: {derived.variants} variants, {derived.requests} requests, "
        f"{derived.seconds:.1f} s"
    )
    assert committed.read_text(encoding="utf-8") == text, (
        "bolivia/verify/suites/dependencies.json is stale: run BOLIVIA_REGENERATE=1 "
        "python -m pytest tests/test_dependencies.py"
    )


def test_every_case_and_ruleset_has_its_fields() -> None:
    for suite in SUITES:
        for case in suite.cases:
            for ruleset in case.expect:
                fields = case_fields(suite, case, ruleset)
                assert fields is not None, f"{suite.suite}:{case.id}:{ruleset}"
                assert all(path in LEAVES for path in fields)
    assert case_fields("cards", "points-joker", "bolivia-da") == ("scoring.card_points",)
    assert case_fields("cards", "no-such-case", "bolivia-da") is None
    assert "going_out.bonus" in (case_fields("scoring", "going-out-bonus-escalera", "samba") or ())


def test_failures_group_by_field_with_the_values_involved() -> None:
    oracle = Oracle()
    da = LIBRARY.load("bolivia-da")
    oracle.register(with_values(da, {"going_out.bonus": 100}, "bolivia-da"))
    outcomes = run_suites(SUITES, InProcessEngine(oracle), ["bolivia-da"])
    groups = {
        name: (found, values)
        for name, found, values in by_rule_field(Run(outcomes), rule_fields(LIBRARY)) or []
    }
    found, values = groups["going_out.bonus"]
    assert values == ["200 (bolivia-da)"]  # what the rules say, not what the engine did
    assert ("going_out.bonus", 200) in outcome_fields(found[0], da)
    assert all(o.status == "failed" for found, _ in groups.values() for o in found)
    passed = Outcome("cards", "points-joker", "bolivia-da", "passed")
    assert by_rule_field(Run([passed]), rule_fields(LIBRARY)) == []
    assert outcome_fields(passed, da) == [("scoring.card_points", da.value("scoring.card_points"))]


def test_ask_answers_as_the_wire_does() -> None:
    oracle = Oracle()
    engine = InProcessEngine(oracle)
    for _, _, _, request in plan(SUITES):
        assert ask(oracle, request) == engine.ask(request), request


@pytest.mark.parametrize(
    ("expected", "response", "derived"),
    [
        (
            {"legal": True},
            {"ok": True, "result": {"legal": True, "kind": "group"}},
            {"legal": True},
        ),
        ({"legal": True}, {"ok": True, "result": {"legal": False}}, {"legal": False}),
        ({"legal": True}, {"ok": False, "error": {"code": "bad-card"}}, {"error": "bad-card"}),
        (
            {"error": "bad-card"},
            {"ok": True, "result": {"points": 5, "reason": "x"}},
            {"points": 5},
        ),
        (
            {"includes": [{"a": 1}], "excludes": [{"b": 2}]},
            {"ok": True, "result": {"moves": [{"b": 2}]}},
            {"includes": [{"b": 2}], "excludes": [{"a": 1}]},
        ),
    ],
)
def test_an_answer_as_an_expectation(
    expected: dict[str, Any], response: dict[str, Any], derived: dict[str, Any]
) -> None:
    op = "card_points" if "points" in json.dumps(response) else "moves"
    assert expectation_from(op, expected, response) == derived


def test_the_variants_are_valid_and_different() -> None:
    for ruleset in (LIBRARY.load("bolivia-da"), LIBRARY.load("canasta")):
        seen = 0
        for path, value, changed in one_field_variants(ruleset):
            seen += 1
            assert changed.value(path) == json.loads(json.dumps(value)) or path == "players.seats"
            assert changed.rules != ruleset.rules
        assert seen > 150
    da = LIBRARY.load("bolivia-da")
    assert all(alternatives(da, p) for p in LEAVES)  # a name's too: another name
    assert alternatives(da, "canastas.natural.name") == ("natural canasta (renamed)",)
    assert variant(da, "melds.group.max_size", 2) is None  # below min_size: incoherent
    with pytest.raises(RulesetError, match="not a rule field"):
        with_values(da, {"melds.nosuch": 1})
    with pytest.raises(RulesetError):
        with_values(da, {"pack.decks": "three"})


def test_deriving_takes_what_it_takes() -> None:
    start = time.monotonic()
    derived = derive(SUITES[:1], [LIBRARY.load("samba")])
    assert derived.variants > 150 and derived.requests > 0
    assert derived.seconds <= time.monotonic() - start + 0.01
