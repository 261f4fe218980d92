"""Conformance suites: case files in the oracle protocol's format, and the runner that checks an
engine against them -- the built-in one in-process, or any program speaking the protocol.

A case names an op, its input, and for each ruleset what the result must contain (or the error
code expected). The runner sends the request once per ruleset, compares only the keys the case
names, and reports each failure with the request, the expectation and the answer (escaped for the
terminal). A run may have a deadline, and gives up on an engine that stops answering or dies on
several cases in a row; the cases it did not get to are reported as not run, never as passed.
The engines themselves are in :mod:`bolivia.verify.engines`.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from bolivia.errors import Problem, RulesetError
from bolivia.rules.loading import load_yaml, plain, validation_problems
from bolivia.text import terminal
from bolivia.verify.engines import Engine, EngineFailure, InProcessEngine, ProcessEngine
from bolivia.verify.oracle import OPERATIONS, PROTOCOL, RESULT_FIELDS

__all__ = [
    "Case",
    "Engine",
    "EngineFailure",
    "InProcessEngine",
    "Outcome",
    "ProcessEngine",
    "Suite",
    "load_suite",
    "run_plan",
    "run_suites",
    "shipped_suites",
    "suites_dir",
]


class _Record(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class Case(_Record):
    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$", description="Unique within its suite.")
    about: str = Field(min_length=5, description="What the case checks, in words.")
    source: tuple[str, ...] = Field(default=(), description="The claims the case rests on.")
    op: str
    input: dict[str, Any] = Field(default_factory=dict)
    expect: dict[str, dict[str, Any]] = Field(min_length=1)

    @model_validator(mode="after")
    def _known_op(self) -> Case:
        """An op outside the protocol is allowed only to expect ``unknown-op``."""
        if self.op not in OPERATIONS and any(
            keys != {"error": "unknown-op"} for keys in self.expect.values()
        ):
            raise ValueError(
                f"{self.op!r} is not an operation of the protocol; a case may "
                "send it only to expect the error unknown-op"
            )
        return self

    @field_validator("input")
    @classmethod
    def _no_ruleset(cls, data: dict[str, Any]) -> dict[str, Any]:
        if "ruleset" in data or "op" in data:
            raise ValueError("input holds the op's own fields; the runner adds op and ruleset")
        converted: dict[str, Any] = plain(data)
        return converted

    @field_validator("expect")
    @classmethod
    def _expectations(cls, expect: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
        for ruleset, keys in expect.items():
            if not keys:
                raise ValueError(f"the expectation for {ruleset} names no key")
            if "error" in keys and len(keys) > 1:
                raise ValueError(
                    f"the expectation for {ruleset} is an error code or result keys, not both"
                )
        converted: dict[str, dict[str, Any]] = plain(expect)
        return converted


class Suite(_Record):
    suite: str = Field(min_length=1)
    cases: tuple[Case, ...] = Field(min_length=1)

    @field_validator("cases")
    @classmethod
    def _unique(cls, cases: tuple[Case, ...]) -> tuple[Case, ...]:
        seen: set[str] = set()
        for case in cases:
            if case.id in seen:
                raise ValueError(f"case id {case.id!r} is used twice")
            seen.add(case.id)
        return cases


def suites_dir() -> Path:
    return Path(__file__).resolve().parent / "suites"


def load_suite(path: Path) -> Suite:
    """A suite file, validated; problems name the file, line and key."""
    loaded = load_yaml(path, max_bytes=4 * 1024 * 1024)
    if loaded.problems:
        raise RulesetError(loaded.problems)
    try:
        return Suite.model_validate(loaded.data)
    except ValidationError as exc:
        raise RulesetError(validation_problems(exc, Suite, loaded.data, loaded.where)) from None


def shipped_suites() -> list[Path]:
    return sorted(suites_dir().glob("*.yaml"))


def find_suite(ref: str) -> Path:
    """A suite by name (``melds``) or path."""
    path = Path(ref)
    if path.is_file():
        return path
    candidate = suites_dir() / f"{ref}.yaml"
    if candidate.is_file():
        return candidate
    known = ", ".join(p.stem for p in shipped_suites())
    raise RulesetError(
        [Problem(ref, None, "", f"no such suite file or shipped suite (shipped: {known})")]
    )


# --------------------------------------------------------------------------- running


SHOWN = 10_000  # characters of a report line; the rest is cut, saying how much


@dataclass(frozen=True)
class Outcome:
    suite: str
    case: str
    ruleset: str
    status: str  # passed | failed | skipped | not-run
    request: dict[str, Any] = field(default_factory=dict)
    expected: dict[str, Any] = field(default_factory=dict)
    actual: Any = None
    note: str = ""
    lost: bool = False  # the engine stopped answering or died on this case

    @property
    def name(self) -> str:
        return f"{self.suite}:{self.case}:{self.ruleset}"

    def report(self) -> str:
        """The failure as lines for a terminal: each escaped, and cut if very long."""
        lines = [f"FAILED {self.name}"]
        if self.note:
            lines.append(f"  {self.note}")
        lines.append(f"  request:  {json.dumps(self.request, ensure_ascii=False)}")
        lines.append(f"  expected: {json.dumps(self.expected, ensure_ascii=False)}")
        lines.append(f"  actual:   {json.dumps(self.actual, ensure_ascii=False)}")
        return "\n".join(terminal(_cut(line)) for line in lines)


def _cut(line: str) -> str:
    if len(line) <= SHOWN:
        return line
    return f"{line[:SHOWN]}... ({len(line) - SHOWN} more characters not shown)"


POSITION_OPS = frozenset({"act", "moves"})  # protocol 2
# expectation keys that are not result fields: about the list ``moves`` answers
MOVE_CHECKS = frozenset({"includes", "excludes"})


def _move_key(move: Any) -> str:
    return json.dumps(move, sort_keys=True, ensure_ascii=False)


def compare(expected: Mapping[str, Any], response: Mapping[str, Any]) -> str:
    """Why the response does not meet the expectation ("" when it does). A list of ``moves``
    is compared as a set; ``includes`` and ``excludes`` name moves it must and must not hold."""
    if "error" in expected:
        error = response.get("error") if response.get("ok") is False else None
        code = error.get("code") if isinstance(error, dict) else None
        if code != expected["error"]:
            return f"expected the error {expected['error']!r}"
        return ""
    if response.get("ok") is not True or not isinstance(response.get("result"), dict):
        return "expected a result, got an error"
    result = response["result"]
    wrong = []
    moves = result.get("moves")
    listed = {_move_key(m) for m in moves} if isinstance(moves, list) else None
    for key, value in expected.items():
        if key in MOVE_CHECKS:
            want = {_move_key(m) for m in value} if isinstance(value, list) else set()
            if listed is None or (want - listed if key == "includes" else want & listed):
                wrong.append(key)
        elif key == "moves" and isinstance(value, list) and listed is not None:
            if {_move_key(m) for m in value} != listed or len(value) != len(moves):
                wrong.append(key)
        elif key not in result or result[key] != value:
            wrong.append(key)
    return f"different value for {', '.join(wrong)}" if wrong else ""


def case_requests(
    suite: Suite, case: Case, rulesets: Iterable[str] | None = None
) -> Iterator[tuple[str, dict[str, Any]]]:
    wanted = set(rulesets) if rulesets is not None else None
    for ruleset in case.expect:
        if wanted is None or ruleset in wanted:
            yield (
                ruleset,
                {
                    "op": case.op,
                    "id": f"{suite.suite}:{case.id}:{ruleset}",
                    "ruleset": ruleset,
                    **case.input,
                },
            )


def run_case(
    engine: Engine,
    suite: Suite,
    case: Case,
    ruleset: str,
    request: dict[str, Any],
    budget: float | None = None,
) -> Outcome:
    """One case for one ruleset; ``budget``: the seconds left to the run, if it has a
    deadline (a case it cuts short is not run)."""
    expected = case.expect[ruleset]

    def outcome(status: str, actual: Any = None, note: str = "") -> Outcome:
        return Outcome(suite.suite, case.id, ruleset, status, request, expected, actual, note)

    if ruleset not in engine.rulesets:
        return outcome("skipped", note=f"the engine has no ruleset {ruleset}")
    if case.op in POSITION_OPS and engine.protocol < 2:
        return outcome(
            "skipped",
            note=f"the engine speaks protocol {engine.protocol}; {case.op} is protocol 2",
        )
    try:
        response, strays = engine.exchange(request, budget)
    except EngineFailure as exc:
        if exc.kind == "deadline":
            return outcome("not-run", note=str(exc))
        note = f"{exc} (restarted)" if exc.restarts else str(exc)
        return replace(outcome("failed", exc.actual, note), lost=exc.lost)
    if strays:  # a protocol fault of the engine, whatever it answered to this request
        return outcome(
            "failed", response, "; ".join(filter(None, [strays, compare(expected, response)]))
        )
    result = response.get("result")
    beyond = sorted(
        set(expected) - RESULT_FIELDS.get(case.op, frozenset()) - {"error"} - MOVE_CHECKS
    )
    if (
        response.get("ok") is True
        and isinstance(result, dict)
        and any(key not in result for key in beyond)
    ):
        return outcome(
            "skipped",
            response,
            f"the engine does not answer {', '.join(beyond)}, beyond protocol {PROTOCOL}",
        )
    why = compare(expected, response)
    return outcome("failed" if why else "passed", response, why)


Planned = tuple[Suite, Case, str, dict[str, Any]]  # a case, a ruleset, and the request


def plan(suites: Sequence[Suite], rulesets: Iterable[str] | None = None) -> list[Planned]:
    """Every request of the suites, in order (only for ``rulesets``, when given)."""
    rulesets = list(rulesets) if rulesets is not None else None
    return [
        (suite, case, ruleset, request)
        for suite in suites
        for case in suite.cases
        for ruleset, request in case_requests(suite, case, rulesets)
    ]


def run_plan(
    planned: Sequence[Planned],
    engine: Engine,
    *,
    deadline: float | None = None,
    give_up: int | None = None,
) -> Iterator[Outcome]:
    """The outcome of each planned request, in order, one by one. When ``deadline`` seconds
    have passed, or the engine stopped answering or died on ``give_up`` cases in a row, the
    rest are not run, saying why."""
    end = None if deadline is None else time.monotonic() + deadline
    late = (
        "the run's deadline passed"
        if deadline is None
        else f"the deadline of {deadline:g} s passed"
    )
    lost = 0
    for done, (suite, case, ruleset, request) in enumerate(planned):
        budget = None if end is None else end - time.monotonic()
        if budget is not None and budget <= 0:
            yield from not_run(planned[done:], late)
            return
        if give_up is not None and lost >= give_up:
            why = f"gave up on the engine: it gave no answer or died on {lost} cases in a row"
            yield from not_run(planned[done:], why)
            return
        outcome = run_case(engine, suite, case, ruleset, request, budget)
        if outcome.status == "not-run":  # the deadline passed while it was asked
            yield from not_run(planned[done:], late)
            return
        if outcome.lost:
            lost += 1
        elif outcome.status != "skipped":  # it answered
            lost = 0
        yield outcome


def not_run(planned: Iterable[Planned], why: str) -> Iterator[Outcome]:
    for suite, case, ruleset, request in planned:
        yield Outcome(
            suite.suite, case.id, ruleset, "not-run", request, case.expect[ruleset], note=why
        )


def run_suites(
    suites: Sequence[Suite],
    engine: Engine,
    rulesets: Iterable[str] | None = None,
    *,
    deadline: float | None = None,
    give_up: int | None = None,
) -> list[Outcome]:
    return list(run_plan(plan(suites, rulesets), engine, deadline=deadline, give_up=give_up))


def summary(outcomes: Sequence[Outcome]) -> str:
    """``N passed, N failed``, then ``, N skipped`` and ``, N not run`` where there are any."""
    counts = Counter(o.status for o in outcomes)
    line = f"{counts['passed']} passed, {counts['failed']} failed"
    line += f", {counts['skipped']} skipped" if counts["skipped"] else ""
    return line + (f", {counts['not-run']} not run" if counts["not-run"] else "")


def unchecked(outcomes: Sequence[Outcome]) -> list[str]:
    """Lines for a terminal saying what was not checked and why: the skipped and the not run
    cases by reason, and that nothing was checked when no case passed or failed."""
    lines = []
    for status, said in (("skipped", "skipped"), ("not-run", "not run")):
        reasons = Counter(o.note for o in outcomes if o.status == status)
        lines += [f"{n} {said}: {terminal(why)}" for why, n in reasons.items()]
    if not any(o.status in ("passed", "failed") for o in outcomes):
        lines.append("nothing was checked: no case passed or failed")
    return lines


def conforms(outcomes: Sequence[Outcome]) -> bool:
    """Something was checked, and nothing failed or was left not run."""
    statuses = {o.status for o in outcomes}
    return "passed" in statuses and not statuses & {"failed", "not-run"}
