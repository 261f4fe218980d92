"""The conformance runner against engines that misbehave: wrong answers, crashes, hangs,
missing rulesets. Each is a failure (or a skip) reported with the case; the runner goes on."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

SUITE = """\
suite: runner-check
cases:
  - id: right
    about: an answer the engine gets right
    op: meld
    input: {cards: [8H, 8S, 8D]}
    expect:
      samba: {legal: true, kind: group}
      bolivia-da: {legal: true}
  - id: wrong
    about: an answer the engine gets wrong
    op: meld
    input: {cards: [8H, 8S]}
    expect:
      samba: {legal: true}
  - id: crash
    about: the engine dies on this one
    op: card_points
    input: {cards: [JK]}
    expect:
      samba: {points: 50}
  - id: hang
    about: the engine never answers this one
    op: initial_minimum
    input: {team_score: 0}
    expect:
      samba: {minimum: 50}
  - id: after
    about: the runner goes on after a crash and a hang
    op: meld
    input: {cards: [9H, 9S, 9D]}
    expect:
      samba: {legal: true}
  - id: error-expected
    about: an expected error code
    op: meld
    input: {cards: [1H]}
    expect:
      samba: {error: bad-card}
"""

ENGINE = """\
import json, sys, time
for line in sys.stdin:
    request = json.loads(line)
    op = request["op"]
    if op == "card_points":
        sys.exit(3)
    if op == "initial_minimum":
        time.sleep(60)
    if op == "hello":
        result = {"protocol": 1, "engine": "fake", "rulesets": ["samba"]}
    elif "1H" in request.get("cards", []):
        print(json.dumps({"id": request.get("id"), "ok": False,
                          "error": {"code": "bad-card", "message": "no"}}), flush=True)
        continue
    else:
        result = {"legal": len(request["cards"]) >= 3, "kind": "group"}
    print(json.dumps({"id": request.get("id"), "ok": True, "result": result}), flush=True)
"""


@pytest.fixture
def files(tmp_path: Path) -> tuple[Path, Path]:
    suite = tmp_path / "suite.yaml"
    suite.write_text(SUITE)
    engine = tmp_path / "engine.py"
    engine.write_text(ENGINE)
    return suite, engine


def conform(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bolivia", "conform", *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_a_misbehaving_engine_is_reported_case_by_case(files: tuple[Path, Path]) -> None:
    suite, engine = files
    done = conform(str(suite), "--engine", f'"{sys.executable}" "{engine}"', "--timeout", "2")
    assert done.returncode == 1
    out = done.stdout
    assert out.strip().splitlines()[-1] == "3 passed, 3 failed, 1 skipped"
    assert "FAILED runner-check:wrong:samba" in out
    assert "FAILED runner-check:crash:samba" in out and "exited (status 3)" in out
    assert "FAILED runner-check:hang:samba" in out and "no answer within 2 s" in out
    assert '"expected": ' not in out  # the report is lines, not a JSON dump
    assert "request:  {" in out and "expected: {" in out and "actual:" in out


def test_the_built_in_engine_passes_and_exit_0(files: tuple[Path, Path]) -> None:
    suite, _ = files
    broken = suite.read_text().replace(
        "samba: {legal: true}\n  - id: crash", "samba: {legal: false}\n  - id: crash"
    )
    suite.write_text(broken)
    done = conform(str(suite))
    assert done.returncode == 0, done.stdout
    assert done.stdout.strip().splitlines()[-1] == "7 passed, 0 failed"


def test_only_some_rulesets(files: tuple[Path, Path]) -> None:
    suite, _ = files
    done = conform(str(suite), "--ruleset", "bolivia-da")
    assert done.stdout.strip().splitlines()[-1] == "1 passed, 0 failed"


def test_a_broken_suite_file_is_a_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(
        textwrap.dedent("""\
        suite: bad
        cases:
          - id: x
            about: an op that does not exist
            op: fly
            input: {}
            expect: {samba: {legal: true}}
        """)
    )
    done = conform(str(bad))
    assert done.returncode == 1
    said = f"{bad}:3: cases.0: the first case: 'fly' is not an operation of the protocol"
    assert said in done.stderr
    assert "Traceback" not in done.stderr


def test_an_engine_that_cannot_start(files: tuple[Path, Path]) -> None:
    suite, _ = files
    done = conform(str(suite), "--engine", "/no/such/engine")
    assert done.returncode == 2  # a usage error
    assert "cannot start" in done.stderr and "Traceback" not in done.stderr
