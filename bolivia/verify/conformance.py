"""Conformance suites: case files in the oracle protocol's format, and the runner that checks an
engine against them -- the built-in one in-process, or any program speaking the protocol.

A case names an op, its input, and for each ruleset what the result must contain (or the error
code expected). The runner sends the request once per ruleset, compares only the keys the case
names (:func:`mismatch`), and reports each failure with the request, the expectation and the
answer (escaped for the terminal). What an engine does not claim -- a ruleset, an op or a number
of players its hello does not list, a request it answers ``unsupported`` -- is skipped, with the
reason, never passed. A run may have a deadline, may stop after some failures, and gives up on
an engine that stops answering or dies on several cases in a row; the cases it did not get to
are reported as not run, never as passed. The engines themselves are in
:mod:`bolivia.verify.engines`; summaries, JSON and JUnit in :mod:`bolivia.verify.reporting`.
"""

from __future__ import annotations

import json
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from bolivia.errors import Problem, RulesetError
from bolivia.rules.loading import load_yaml, plain, read_standard_input, validation_problems
from bolivia.text import terminal
from bolivia.verify.engines import Engine, EngineFailure, InProcessEngine, ProcessEngine, shown
from bolivia.verify.oracle import (
    FIELD_PROTOCOLS,
    OP_PROTOCOLS,
    OPERATIONS,
    PROTOCOL,
    UNSUPPORTED,
)

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


MAX_NAME = 200  # characters of a suite's name or a case's id
MAX_SUITE_BYTES = 4 * 1024 * 1024  # a suite file, or standard input


def _unicode(value: str) -> str:
    if any("\ud800" <= c <= "\udfff" for c in value):
        raise ValueError("holds half of a surrogate pair alone: not Unicode text")
    return value


class Case(_Record):
    id: str = Field(
        min_length=1, max_length=MAX_NAME, description="Any text, unique within its suite."
    )
    about: str = Field(min_length=5, description="What the case checks, in words.")
    source: tuple[str, ...] = Field(default=(), description="The claims the case rests on.")
    op: str
    protocol: int = Field(
        default=0,
        ge=0,
        le=PROTOCOL,
        description="The protocol the case is of, when above its op's (0: its op's); an "
        "engine of an earlier protocol skips it.",
    )
    input: dict[str, Any] = Field(default_factory=dict)
    expect: dict[str, dict[str, Any]] = Field(min_length=1)

    @property
    def needs(self) -> int:
        """The protocol an engine speaks for this case to be asked of it."""
        return max(self.protocol, OP_PROTOCOLS.get(self.op, 1))

    @field_validator("id")
    @classmethod
    def _text(cls, value: str) -> str:
        return _unicode(value)

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
            if keys.get("error") == UNSUPPORTED:
                raise ValueError(
                    f"the expectation for {ruleset} is the error {UNSUPPORTED}, which an engine "
                    "answers for what it does not implement: the runner counts it as a skip"
                )
            if "error" in keys and len(keys) > 1:
                raise ValueError(
                    f"the expectation for {ruleset} is an error code or result keys, not both"
                )
        converted: dict[str, dict[str, Any]] = plain(expect)
        return converted


class Suite(_Record):
    suite: str = Field(min_length=1, max_length=MAX_NAME)

    @field_validator("suite")
    @classmethod
    def _text(cls, value: str) -> str:
        return _unicode(value)

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
    loaded = load_yaml(path, max_bytes=MAX_SUITE_BYTES)
    if loaded.problems:
        raise RulesetError(loaded.problems)
    try:
        return Suite.model_validate(loaded.data)
    except ValidationError as exc:
        raise RulesetError(validation_problems(exc, Suite, loaded.data, loaded.where)) from None


def shipped_suites() -> list[Path]:
    return sorted(suites_dir().glob("*.yaml"))


def find_suite(ref: str) -> Path:
    """A suite by name (``melds``) or path, or ``-``: one read from standard input."""
    if ref == "-":
        return read_standard_input(sys.stdin.buffer, max_bytes=MAX_SUITE_BYTES)
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


STDERR_SHOWN = 20  # lines of the engine's stderr kept with a failure
# why a case is skipped: the engine does not claim its ruleset, its op, its number of players,
# the op's protocol or the result fields it names, or answered unsupported; why one is not run
SKIPS = ("ruleset", "op", "players", "protocol", "fields", "unsupported")
NOT_RUN = ("deadline", "give-up", "maxfail", "interrupted")


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
    reason: str = ""  # a skip's or a case not run's kind of reason: SKIPS, NOT_RUN
    subject: str = ""  # what the reason is about: the ruleset, op, number, message
    seconds: float = 0.0  # how long the engine took to answer
    stderr: tuple[str, ...] = ()  # a failure's: what the engine wrote on stderr meanwhile

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
        if self.stderr:
            lines.append("  the engine's stderr meanwhile (its last lines):")
            lines += [f"    | {line}" for line in self.stderr]
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


def _object_mismatch(expected: dict[Any, Any], actual: Any, where: str) -> str:
    """An object holds every key expected, each with a matching value."""
    if not isinstance(actual, dict):
        return f"{where or 'the result'} is {shown(actual, 80)}, not an object"
    for key, value in expected.items():
        path = f"{where}.{key}" if where else str(key)
        if key not in actual:
            return f"{path} is missing"
        found = mismatch(value, actual[key], path)
        if found:
            return found
    return ""


def _list_mismatch(expected: list[Any], actual: Any, where: str) -> str:
    """A list has as many items, each matching in order."""
    if not isinstance(actual, list) or len(actual) != len(expected):
        size = _items(len(actual)) if isinstance(actual, list) else shown(actual, 80)
        return f"{where} is {size}, not {_items(len(expected))}"
    for n, (e, a) in enumerate(zip(expected, actual, strict=True)):
        found = mismatch(e, a, f"{where}[{n}]")
        if found:
            return found
    return ""


def _same(expected: Any, actual: Any) -> bool:
    """Whether two plain values are equal: numbers by value, true and false not numbers."""
    if isinstance(expected, bool) or isinstance(actual, bool):
        return type(expected) is type(actual) and expected == actual
    if isinstance(expected, int | float):
        return isinstance(actual, int | float) and expected == actual
    return type(expected) is type(actual) and bool(expected == actual)


def mismatch(expected: Any, actual: Any, where: str = "") -> str:
    """Where an answered value fails to meet an expected one, in words ("" when it meets it).

    An object holds every key expected, each with a matching value; any other key is left
    alone, as the protocol lets an engine answer more fields, in a result and in every object
    inside one. A list has as many items, each matching in order. A number equals by value
    (5 and 5.0), but true and false are not numbers. Text and null equal exactly.

    >>> mismatch({"teams": [{"total": 5}]}, {"teams": [{"total": 4, "extra": 1}]})
    'teams[0].total is 4, not 5'
    """
    if isinstance(expected, dict):
        return _object_mismatch(expected, actual, where)
    if isinstance(expected, list):
        return _list_mismatch(expected, actual, where)
    if _same(expected, actual):
        return ""
    return f"{where} is {shown(actual, 80)}, not {shown(expected, 80)}"


def _items(n: int) -> str:
    return f"{n} item{'s' if n != 1 else ''}"


def _error_mismatch(expected: Mapping[str, Any], response: Mapping[str, Any]) -> str:
    """Why a response is not the error expected ("" when it is)."""
    error = response.get("error") if response.get("ok") is False else None
    code = error.get("code") if isinstance(error, dict) else None
    if code != expected["error"]:
        return f"expected the error {expected['error']!r}"
    return ""


def _listing_wrong(key: str, value: Any, listed: set[str] | None) -> bool:
    """Whether the moves listed miss one that ``includes`` names, or hold one of ``excludes``."""
    want = {_move_key(m) for m in value} if isinstance(value, list) else set()
    if listed is None:
        return True
    return bool(want - listed if key == "includes" else want & listed)


def _key_wrong(
    key: str, value: Any, result: Mapping[str, Any], listed: set[str] | None
) -> tuple[bool, str]:
    """Whether one key expected is not met, and where inside it it first differs.

    ``listed`` holds the moves the result lists, as keys (None: it lists none).
    """
    if key in MOVE_CHECKS:
        return _listing_wrong(key, value, listed), ""
    if key == "moves" and isinstance(value, list) and listed is not None:
        return {_move_key(m) for m in value} != listed or len(value) != len(result["moves"]), ""
    if key not in result:
        return True, ""
    found = mismatch(value, result[key], key)
    return bool(found), (found if isinstance(value, dict | list) else "")


def _wrong_keys(expected: Mapping[str, Any], result: Mapping[str, Any]) -> tuple[list[str], str]:
    """The keys expected that the result does not meet, and where the first value expected
    differs when it is inside a key."""
    wrong = []
    first = ""
    moves = result.get("moves")
    listed = {_move_key(m) for m in moves} if isinstance(moves, list) else None
    for key, value in expected.items():
        bad, where = _key_wrong(key, value, result, listed)
        if bad:
            wrong.append(key)
            first = first or where
    return wrong, first


def compare(expected: Mapping[str, Any], response: Mapping[str, Any]) -> str:
    """Why the response does not meet the expectation ("" when it does).

    Each key expected meets the result's (:func:`mismatch`). A list of ``moves`` is compared
    as a set of whole actions; ``includes`` and ``excludes`` name moves it must and must not
    hold.
    """
    if "error" in expected:
        return _error_mismatch(expected, response)
    if response.get("ok") is not True or not isinstance(response.get("result"), dict):
        return "expected a result, got an error"
    wrong, first = _wrong_keys(expected, response["result"])
    if not wrong:
        return ""
    return f"different value for {', '.join(wrong)}" + (f" ({first})" if first else "")


def seats_of(case: Case, ruleset: str, usual: Callable[[str], int | None] | None) -> int | None:
    """The number of players a case seats: the ``players`` of ``info`` or of a position, else
    the ruleset's usual number (``usual``); None for a case of no seating, or when the number
    is not a whole number (a case of a bad request) or not known."""
    if case.op == "info":
        source: Any = case.input
    elif case.op in POSITION_OPS:
        source = case.input.get("position")
    else:
        return None
    if not isinstance(source, dict):
        return None
    count = source.get("players")
    if count is None:
        return usual(ruleset) if usual is not None else None
    return count if isinstance(count, int) and not isinstance(count, bool) else None


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


def skip_reason(
    engine: Engine, case: Case, ruleset: str, seats: int | None = None
) -> tuple[str, str, str] | None:
    """Why the case is not for this engine, before it is asked: (reason, subject, sentence),
    or None. ``seats``: the number of players the case seats, if any (:func:`seats_of`)."""
    if ruleset not in engine.rulesets:
        return "ruleset", ruleset, f"the engine does not claim the ruleset {ruleset}"
    if case.needs > engine.protocol:
        what = case.op if case.needs == OP_PROTOCOLS.get(case.op, 1) else f"this {case.op} case"
        why = f"the engine speaks protocol {engine.protocol}; {what} is protocol {case.needs}"
        return "protocol", f"{case.op} (protocol {case.needs})", why
    listed = engine.ops is None or case.op in engine.ops or case.op == "hello"
    if not listed and case.op in OPERATIONS:
        return "op", case.op, f"the engine does not answer {case.op} (its hello does not list it)"
    if engine.players is not None and seats is not None and seats not in engine.players:
        return "players", str(seats), f"the engine does not seat {seats} players"
    return None


def run_case(
    engine: Engine,
    suite: Suite,
    case: Case,
    ruleset: str,
    request: dict[str, Any],
    budget: float | None = None,
    seats: int | None = None,
) -> Outcome:
    """One case for one ruleset; ``budget``: the seconds left to the run, if it has a
    deadline (a case it cuts short is not run); ``seats``: the number of players the case
    seats (:func:`seats_of`), skipped when the engine lists others."""
    expected = case.expect[ruleset]

    def outcome(status: str, actual: Any = None, note: str = "", **more: Any) -> Outcome:
        return Outcome(
            suite.suite, case.id, ruleset, status, request, expected, actual, note, **more
        )

    skip = skip_reason(engine, case, ruleset, seats)
    if skip is not None:
        return outcome("skipped", note=skip[2], reason=skip[0], subject=skip[1])
    mark = engine.stderr.mark() if engine.stderr is not None else 0
    started = time.monotonic()

    def failed(actual: Any, note: str, lost: bool = False) -> Outcome:
        said = engine.stderr.since(mark, STDERR_SHOWN) if engine.stderr is not None else []
        return outcome("failed", actual, note, lost=lost, seconds=seconds, stderr=tuple(said))

    try:
        response, strays = engine.exchange(request, budget)
    except EngineFailure as exc:
        seconds = time.monotonic() - started
        if exc.kind == "deadline":
            return outcome("not-run", note=str(exc), reason="deadline", seconds=seconds)
        return failed(exc.actual, f"{exc} (restarted)" if exc.restarts else str(exc), exc.lost)
    seconds = time.monotonic() - started
    status, note, skipped = _judged(case, expected, response, strays, engine)
    if status == "failed":
        return failed(response, note)
    return outcome(status, response, note, seconds=seconds, **skipped)


def _unsupported(response: Mapping[str, Any]) -> str | None:
    """The engine's reason when it answered unsupported (escaped, cut), else None."""
    error = response.get("error") if response.get("ok") is False else None
    if not (isinstance(error, dict) and error.get("code") == UNSUPPORTED):
        return None
    message = error.get("message")
    return terminal(message[:200]) if isinstance(message, str) and message else "no reason"


def _unanswered(case: Case, expected: Any, response: Mapping[str, Any]) -> list[str]:
    """The fields expected that no protocol defines and an answer's result does not hold."""
    result = response.get("result")
    beyond = sorted(set(expected) - set(FIELD_PROTOCOLS.get(case.op, {})) - {"error"} - MOVE_CHECKS)
    return [key for key in beyond if isinstance(result, dict) and key not in result]


def claimed(
    op: str, expected: Mapping[str, Any], protocol: int, fields: Mapping[str, frozenset[str]]
) -> tuple[dict[str, Any], list[str]]:
    """What an engine speaking ``protocol`` answers of an expectation, and the fields left
    out: a field of a later protocol is compared only when the engine's hello claims it
    (``fields``, by op). A field inside each object of a list (``teams.penalties``) is left
    out of every object."""
    versions = FIELD_PROTOCOLS.get(op, {})
    claims = fields.get(op, frozenset())

    def answered(field: str) -> bool:
        return versions.get(field, 1) <= protocol or field in claims

    kept: dict[str, Any] = {}
    left: list[str] = []
    for key, value in expected.items():
        if not answered(key):
            left.append(key)
            continue
        inner = [f.split(".", 1)[1] for f in versions if f.startswith(f"{key}.")]
        out = sorted(sub for sub in inner if not answered(f"{key}.{sub}"))
        left += [f"{key}.{sub}" for sub in out if _holds(value, sub)]
        kept[key] = _without(value, out)
    return kept, left


def _holds(value: Any, key: str) -> bool:
    """Whether an object, or an object of a list, holds ``key``."""
    items = value if isinstance(value, list) else [value]
    return any(isinstance(item, dict) and key in item for item in items)


def _without(value: Any, keys: Sequence[str]) -> Any:
    """An object, or each object of a list, without ``keys``."""
    if not keys:
        return value
    if isinstance(value, list):
        return [_without(item, keys) for item in value]
    if isinstance(value, dict):
        return {k: v for k, v in value.items() if k not in keys}
    return value


def _judged(
    case: Case,
    expected: Any,
    response: Mapping[str, Any],
    strays: str,
    engine: Engine | None = None,
) -> tuple[str, str, dict[str, str]]:
    """What an answer makes of a case: its status, a note, and why it was skipped."""
    if strays:  # a protocol fault of the engine, whatever it answered to this request
        return "failed", "; ".join(filter(None, [strays, compare(expected, response)])), {}
    said = _unsupported(response)
    if said is not None:
        why = f"the engine answered unsupported: {said}"
        return "skipped", why, {"reason": "unsupported", "subject": said}
    left: list[str] = []
    if engine is not None:
        expected, left = claimed(case.op, expected, engine.protocol, engine.fields)
        if left and not expected:
            why = (
                f"the engine speaks protocol {engine.protocol}; {', '.join(left)} of {case.op} "
                f"{'is' if len(left) == 1 else 'are'} of a later protocol, and its hello does "
                "not claim them"
            )
            return "skipped", why, {"reason": "fields", "subject": f"{case.op}: {', '.join(left)}"}
    missing = _unanswered(case, expected, response)
    if response.get("ok") is True and missing:
        why = f"the engine does not answer {', '.join(missing)} of {case.op}, beyond the protocol"
        return "skipped", why, {"reason": "fields", "subject": f"{case.op}: {', '.join(missing)}"}
    why = compare(expected, response)
    if why:
        return "failed", why, {}
    return "passed", f"compared without {', '.join(left)} (a later protocol)" if left else "", {}


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


def _stop(
    budget: float | None,
    late: str,
    lost: int,
    give_up: int | None,
    failures: int,
    maxfail: int | None,
) -> tuple[str, str] | None:
    """Why the rest of a run is not run, and its reason's code; None to go on."""
    if budget is not None and budget <= 0:
        return late, "deadline"
    if give_up is not None and lost >= give_up:
        why = f"gave up on the engine: it gave no answer or died on {lost} cases in a row"
        return why, "give-up"
    if maxfail is not None and failures >= maxfail:
        if maxfail == 1:
            return "stopped at the first failure (-x)", "maxfail"
        return f"stopped after {failures} failures (--maxfail {maxfail})", "maxfail"
    return None


def run_plan(
    planned: Sequence[Planned],
    engine: Engine,
    *,
    deadline: float | None = None,
    give_up: int | None = None,
    maxfail: int | None = None,
    usual: Callable[[str], int | None] | None = None,
) -> Iterator[Outcome]:
    """The outcome of each planned request, in order, one by one. When ``deadline`` seconds
    have passed, the engine stopped answering or died on ``give_up`` cases in a row, or
    ``maxfail`` cases failed, the rest are not run, saying why. ``usual``: a ruleset's usual
    number of players, for the cases that seat the usual number (:func:`seats_of`)."""
    end = None if deadline is None else time.monotonic() + deadline
    late = (
        "the run's deadline passed"
        if deadline is None
        else f"the deadline of {deadline:g} s passed"
    )
    lost = failures = 0
    for done, (suite, case, ruleset, request) in enumerate(planned):
        budget = None if end is None else end - time.monotonic()
        stop = _stop(budget, late, lost, give_up, failures, maxfail)
        if stop is not None:
            yield from not_run(planned[done:], *stop)
            return
        seats = seats_of(case, ruleset, usual)
        outcome = run_case(engine, suite, case, ruleset, request, budget, seats)
        if outcome.status == "not-run":  # the deadline passed while it was asked
            yield from not_run(planned[done:], late, "deadline")
            return
        failures += outcome.status == "failed"
        if outcome.lost:
            lost += 1
        elif outcome.status != "skipped" or outcome.actual is not None:  # it answered
            lost = 0
        yield outcome


def not_run(planned: Iterable[Planned], why: str, reason: str = "") -> Iterator[Outcome]:
    for suite, case, ruleset, request in planned:
        yield Outcome(
            suite.suite,
            case.id,
            ruleset,
            "not-run",
            request,
            case.expect[ruleset],
            note=why,
            reason=reason,
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


def conforms(outcomes: Sequence[Outcome]) -> bool:
    """Something was checked, and nothing failed or was left not run."""
    statuses = {o.status for o in outcomes}
    return "passed" in statuses and not statuses & {"failed", "not-run"}
