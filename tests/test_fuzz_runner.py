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
from bolivia.verify.conformance import Outcome
from bolivia.verify.engines import (
    MAX_DEPTH,
    MAX_LINE,
    EngineFailure,
    Lines,
    ProcessEngine,
    decode_answer,
    read_answer,
)

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
            assert time.monotonic() - started < 5
            if failure is not None:
                assert failure.kind in ("timeout", "exit", "overflow", "answer")
            else:
                assert read is not None and read[0]["id"] == WIRE
        finally:
            engine.close()
