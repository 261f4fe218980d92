"""The shipped conformance suites: valid case files, covering every claim of the Bolivia
sources, every op and error code, and passed by the built-in engine -- in-process (one test per
case and ruleset) and through ``bolivia conform --engine "bolivia oracle"`` end to end."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bolivia.rules.library import shipped_library
from bolivia.rules.sources import shipped_sources
from bolivia.verify.conformance import (
    InProcessEngine,
    case_requests,
    load_suite,
    run_case,
    shipped_suites,
    summary,
)
from bolivia.verify.oracle import OPERATIONS

SUITES = [load_suite(path) for path in shipped_suites()]
ENGINE = InProcessEngine()
SOURCES = shipped_sources()
PARAMS = [
    pytest.param(suite, case, ruleset, request, id=f"{suite.suite}:{case.id}:{ruleset}")
    for suite in SUITES
    for case in suite.cases
    for ruleset, request in case_requests(suite, case)
]


@pytest.mark.parametrize(("suite", "case", "ruleset", "request_"), PARAMS)
def test_case(suite, case, ruleset, request_) -> None:  # type: ignore[no-untyped-def]
    outcome = run_case(ENGINE, suite, case, ruleset, request_)
    assert outcome.status == "passed", outcome.report()


def test_suites_are_valid_and_name_known_rulesets_and_claims() -> None:
    assert SUITES, "no shipped suite"
    library = shipped_library()
    known = set(library.ids())
    claims = {c for rid in known for c in library.sources_for(library.path_of(rid)).claims}
    names = [suite.suite for suite in SUITES]
    assert len(names) == len(set(names))
    library = shipped_library()
    claims = set(SOURCES.claims)
    for rid in known:  # and the records of the variants' own sources (rulesets/variants/)
        path = library.path_of(rid)
        claims |= set(library.sources_for(path).claims)
    for suite in SUITES:
        for case in suite.cases:
            assert set(case.expect) <= known, case.id
            for claim in case.source:
                assert claim in claims, f"{suite.suite}:{case.id} cites {claim}"


def test_every_modelled_claim_of_the_bolivia_sources_is_checked() -> None:
    cited = {claim for suite in SUITES for case in suite.cases for claim in case.source}
    missing = [
        claim.id
        for source in ("fr", "da", "zh", "ko")
        for claim in SOURCES[source].claims
        if claim.fixes and claim.id not in cited
    ]
    assert not missing, f"claims no case checks: {missing}"


def test_every_op_and_error_code_is_exercised() -> None:
    ops = {case.op for suite in SUITES for case in suite.cases}
    assert ops >= set(OPERATIONS)
    assert any(op not in OPERATIONS for op in ops), "no case sends an unknown op"
    codes = {
        expect["error"]
        for suite in SUITES
        for case in suite.cases
        for expect in case.expect.values()
        if "error" in expect
    }
    # bad-json and unknown-ruleset cannot be written in a case (the runner writes valid JSON and
    # names known rulesets): tests/test_oracle.py checks them
    assert codes >= {"bad-request", "unknown-op", "bad-card", "too-many-copies", "too-large"}


def test_disagreements_are_side_by_side() -> None:
    """Where sources disagree, cases expect each ruleset's own, different answer."""
    differing = 0
    for suite in SUITES:
        for case in suite.cases:
            values = {json.dumps(v, sort_keys=True) for v in case.expect.values()}
            differing += len(values) > 1
    assert differing >= 50


def test_the_whole_suite_through_the_oracle_command(tmp_path: Path) -> None:
    engine = f'"{sys.executable}" -m bolivia oracle'
    done = subprocess.run(
        [sys.executable, "-m", "bolivia", "conform", "--engine", engine],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    outcomes = [run_case(ENGINE, s, c, r, q) for s, c, r, q in (p.values for p in PARAMS)]
    assert done.stdout.strip().splitlines()[-1] == summary(outcomes)
