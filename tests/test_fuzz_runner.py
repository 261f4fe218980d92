"""Fuzzing the conformance runner's reading of an engine's output: byte streams of valid answers
with right, earlier, wrong and missing ids, garbage, lines around the length bound, deep nesting,
control characters, blank lines and a missing last newline, cut into chunks at random. Reading
one answer never raises anything but :class:`EngineFailure`, never reads past the stream (it
cannot hang), and agrees with a line-by-line model of the protocol. Then the same through a real
process, and the report of what an engine answered, escaped.
"""

from __future__ import annotations

import itertools
import json
import os
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from hypothesis import given, settings
from hypothesis import strategies as st

from bolivia.text import terminal
from bolivia.verify.conformance import (
    Outcome,
    Planned,
    conforms,
    load_suite,
    plan,
    run_plan,
    shipped_suites,
    summary,
)
from bolivia.verify.engines import (
    MAX_DEPTH,
    MAX_LINE,
    Engine,
    EngineFailure,
    InProcessEngine,
    Lines,
    ProcessEngine,
    decode_answer,
    read_answer,
)
from bolivia.verify.reporting import Run, text_report, unchecked

WIRE = "suite:case:samba"  # the request being answered
EARLIER = ("hello", "suite:before:samba")  # requests sent before it
LIMIT = 4096  # the line bound in these tests (the real one, 1 MiB, in the process test)

# characters a terminal acts on: what terminal() must never let through
ACTIVE = {chr(c) for c in (*range(0x20), *range(0x7F, 0xA0))} | {
    "\u061c",
    "\u200e",
    "\u200f",
    *(chr(c) for c in range(0x202A, 0x202F)),
    *(chr(c) for c in range(0x2066, 0x206A)),
}
hostile_text = st.text(st.sampled_from(sorted(ACTIVE)) | st.characters(codec="utf-8"), max_size=20)
values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | hostile_text,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(hostile_text, inner, max_size=3),
    max_leaves=12,
)
ids = st.sampled_from([WIRE, *EARLIER]) | values


@st.composite
def answers(draw: st.DrawFn) -> bytes:
    """A response object, maybe without an id, maybe padded to around the bound."""
    answer: dict[str, Any] = {"ok": draw(st.booleans()), "result": draw(values)}
    if draw(st.booleans()):
        answer["id"] = draw(ids)
    line = json.dumps(answer, ensure_ascii=draw(st.booleans())).encode()
    if draw(st.integers(0, 4)) == 0 and len(line) < LIMIT:  # padded to the bound, or past it
        line = line[:-1] + b" " * (LIMIT - len(line) + draw(st.integers(-1, 1))) + b"}"
    return line


lines = st.one_of(
    answers(),
    answers(),
    st.binary(max_size=40),
    st.integers(LIMIT - 1, LIMIT + 1).map(lambda n: b"x" * n),
    st.integers(MAX_DEPTH - 2, 2000).map(lambda d: b"[" * d + b"]" * d),
    st.sampled_from([b"", b"  ", b"\r", b"\t\r", b'"just a string"', b"[1, 2]", b"NaN"]),
)


@st.composite
def streams(draw: st.DrawFn) -> tuple[list[bytes], bytes]:
    """The lines, and the bytes the engine sent (the last newline maybe missing)."""
    parts = draw(st.lists(lines, max_size=8))
    stream = b"".join(part + b"\n" for part in parts)
    if parts and draw(st.booleans()):
        stream = stream[:-1]
    return parts, stream


T = TypeVar("T")


def attempt(call: Callable[[], T]) -> tuple[T | None, EngineFailure | None]:
    """What ``call`` returns, or the runner's failure it raises (anything else propagates)."""
    try:
        return call(), None
    except EngineFailure as exc:
        return None, exc


def chunked(stream: bytes, cuts: list[int]) -> list[bytes]:
    points = sorted({c % (len(stream) + 1) for c in cuts} | {0, len(stream)})
    return [stream[a:b] for a, b in itertools.pairwise(points)]


def model(stream: bytes) -> tuple[str, Any, int]:
    """What reading the answer to WIRE from ``stream`` gives, line by line: ("ok", answer,
    strays) or (kind of the failure, None, strays)."""
    strays = 0
    *whole, rest = stream.split(b"\n")
    for line in whole:
        if len(line) > LIMIT:
            return "overflow", None, strays
        if not line.rstrip(b"\r").strip():
            continue
        try:
            answer = decode_answer(line.rstrip(b"\r"))
        except EngineFailure:
            return "answer", None, strays
        answered = answer.get("id")
        if isinstance(answered, str) and answered == WIRE:
            return "ok", answer, strays
        if isinstance(answered, str) and answered in EARLIER:
            strays += 1
            continue
        return "answer", None, strays
    return ("overflow" if len(rest) > LIMIT else "exit"), None, strays


@given(streams(), st.lists(st.integers(min_value=0), max_size=12))
def test_reading_an_answer_never_raises_another_error_nor_reads_on(
    sent: tuple[list[bytes], bytes], cuts: list[int]
) -> None:
    _, stream = sent
    chunks = chunked(stream, cuts)
    framer = Lines(LIMIT)
    calls = 0

    def next_line() -> bytes:
        nonlocal calls
        calls += 1
        assert calls <= stream.count(b"\n") + 1, "read past the end of the stream"
        while (line := framer.pop()) is None:
            if not chunks:
                raise EngineFailure("exit", "the stream ended")
            framer.feed(chunks.pop(0))
        return line

    kind, expected, strays = model(stream)
    read, failure = attempt(lambda: read_answer(next_line, WIRE, set(EARLIER)))
    if failure is not None:
        assert failure.kind == kind, (failure, stream)
        assert str(failure) == terminal(str(failure))
    else:
        assert kind == "ok" and read is not None, stream
        answer, note = read
        assert answer == expected and answer["id"] == WIRE
        assert bool(note) == bool(strays)


@given(lines | st.binary(max_size=200))
def test_decoding_a_line_gives_a_bounded_object_or_the_runners_failure(line: bytes) -> None:
    answer, failure = attempt(lambda: decode_answer(line))
    if failure is not None:
        assert failure.kind == "answer"
    else:
        assert isinstance(answer, dict)
        assert depth(answer) <= MAX_DEPTH


def depth(value: Any) -> int:
    if isinstance(value, dict):
        value = list(value.values())
    return 1 + max(map(depth, value), default=0) if isinstance(value, list) else 0


@given(values, hostile_text)
def test_a_failure_report_shows_no_character_a_terminal_acts_on(actual: Any, note: str) -> None:
    outcome = Outcome("s", "c", "samba", "failed", {"op": "meld"}, {"legal": True}, actual, note)
    for line in outcome.report().split("\n"):
        assert not ACTIVE & set(line), line


@given(st.text())
def test_terminal_leaves_nothing_a_terminal_acts_on_and_is_idempotent(text: str) -> None:
    shown = terminal(text)
    assert not ACTIVE & set(shown)
    assert terminal(shown) == shown
    rest = iter(shown)  # every other character is kept, in order
    assert all(c in rest for c in text if c not in ACTIVE)


# a real process: its output, as ``cat`` writes it, after a valid hello; it exits at the end
# of its input. Each example starts processes, so under ``ci`` fewer of them.
HELLO = b'{"id": "hello", "ok": true, "result": {"protocol": 2, "rulesets": ["samba"]}}\n'
PROCESS = settings(max_examples=50) if os.environ.get("HYPOTHESIS_PROFILE") == "ci" else settings()


@PROCESS
@given(streams(), st.booleans())
def test_a_process_engine_answers_or_fails_within_its_time(
    sent: tuple[list[bytes], bytes], endless: bool
) -> None:
    _, stream = sent
    if endless:  # a line past the real bound, without end
        stream += b"x" * (MAX_LINE + 10)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "stream"
        path.write_bytes(HELLO + stream)
        # the writer is a child, which may still hold the pipe when the engine is closed
        engine = ProcessEngine(["sh", "-c", 'cat "$0" & exec cat >/dev/null', str(path)], 0.2)
        try:
            started = time.monotonic()
            request = {"op": "meld", "id": WIRE, "ruleset": "samba"}
            read, failure = attempt(lambda: engine.exchange(request))
            assert time.monotonic() - started < 30  # a hang, not a slow machine
            if failure is not None:
                assert failure.kind in ("timeout", "exit", "overflow", "answer")
            else:
                assert read is not None and read[0]["id"] == WIRE
        finally:
            engine.close()


# the runner in-process: an engine that answers, fails, or sends strays as drawn, request by
# request, over a sample of the shipped suites' requests (the real oracle for right answers)
SHIPPED = plan([load_suite(path) for path in shipped_suites()])
ORACLE = InProcessEngine()
KINDS = ("timeout", "deadline", "exit", "overflow", "answer")
STATUSES = {"passed", "failed", "skipped", "not-run"}

behaviours = st.one_of(
    st.just("right"),
    st.just("right"),
    st.tuples(st.just("value"), st.dictionaries(st.sampled_from(["id", "ok", "result"]), values)),
    st.tuples(st.just("fail"), st.sampled_from(KINDS), hostile_text, values),
    st.tuples(st.just("stray"), hostile_text),
)


class Scripted(Engine):
    """Answers each request as the next drawn behaviour says (the right answer when they run
    out); records what it was asked."""

    def __init__(self, script: list[Any], rulesets: set[str], protocol: int) -> None:
        self.script = script
        self.rulesets = rulesets
        self.protocol = protocol
        self.asked: list[tuple[str, Any]] = []

    def exchange(
        self, request: dict[str, Any], budget: float | None = None
    ) -> tuple[dict[str, Any], str]:
        what = self.script.pop(0) if self.script else "right"
        self.asked.append((request["id"], what))
        if what == "right":
            return ORACLE.ask(request), ""
        if what[0] == "value":
            return what[1], ""
        if what[0] == "fail":
            raise EngineFailure(what[1], what[2], what[3])
        return ORACLE.ask(request), what[1] or "a stray"


@given(
    st.lists(st.integers(0, len(SHIPPED) - 1), max_size=30, unique=True),  # a short repr
    st.lists(behaviours, max_size=30),
    st.sets(st.sampled_from(["samba", "canasta", "bolivia-fr", "bolivia-da", "other"])),
    st.integers(1, 2),
    st.none() | st.integers(1, 4),
)
def test_the_runner_gives_one_verdict_per_case_whatever_the_engine_does(
    picked: list[int],
    script: list[Any],
    rulesets: set[str],
    protocol: int,
    give_up: int | None,
) -> None:
    planned: list[Planned] = [SHIPPED[i] for i in picked]
    engine = Scripted(list(script), rulesets, protocol)
    outcomes = list(run_plan(planned, engine, give_up=give_up))
    assert [o.name for o in outcomes] == [f"{s.suite}:{c.id}:{r}" for s, c, r, _ in planned]
    assert {o.status for o in outcomes} <= STATUSES
    statuses = [o.status for o in outcomes]
    if "not-run" in statuses:  # the rest of the run, once the runner stopped
        first = statuses.index("not-run")
        assert set(statuses[first:]) == {"not-run"}
        assert give_up is not None or any(w[0] == "fail" for _, w in engine.asked)
    # a pass is an answer the engine gave to that very request, with nothing before it
    behaved = dict(engine.asked)
    for outcome in outcomes:
        if outcome.status == "passed":
            what = behaved[outcome.request["id"]]
            assert what == "right" or what[0] == "value"
        if outcome.request["id"] not in behaved:
            assert outcome.status in ("skipped", "not-run")
    # lost cases in a row (skips between them do not count, unless the engine answered: a
    # field beyond the protocol it lacks) never exceed give_up
    run, longest = 0, 0
    for outcome in outcomes:
        answered = outcome.status == "skipped" and outcome.actual is not None
        if outcome.lost:
            run += 1
        elif outcome.status not in ("skipped", "not-run") or answered:
            run = 0
        longest = max(longest, run)
    assert give_up is None or longest <= give_up
    for outcome in outcomes:
        assert not ACTIVE - {"\n"} & set(outcome.report())
    assert conforms(outcomes) == (
        "passed" in statuses and "failed" not in statuses and "not-run" not in statuses
    )
    summary(outcomes)
    for line in unchecked(Run(outcomes, engine)):
        assert not ACTIVE & set(line)
    for line in text_report(Run(outcomes, engine)):
        assert not ACTIVE - {"\n"} & set(line)
