"""Fuzzing the oracle's request handler and transport: arbitrary bytes, JSON of any shape
(lone surrogates, numbers of any size, nesting deeper than a reader goes), lines arriving in
pieces. Every line gets one answer, each answer is RFC 8259 JSON of the protocol's shape, the
id comes back as it was written, and serving never raises."""

from __future__ import annotations

import io
import json
import re
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from bolivia.verify.oracle import Oracle, serve
from bolivia.verify.wire import OracleError, decode, encode

from .strategies import hostile_lines, json_texts, odd_texts
from .test_oracle import CODES

ORACLE = Oracle()


def _refuse(text: str) -> Any:
    raise AssertionError(f"{text} is not JSON")


def _token(text: str) -> tuple[str, str]:
    return ("number", "0" if text == "-0" else text)  # -0 is echoed as the integer 0


def read(text: str | bytes) -> Any:
    """JSON as RFC 8259 has it (UTF-8, no NaN or Infinity), numbers kept as written."""
    if isinstance(text, bytes):
        text = text.decode("utf-8")
    return json.loads(text, parse_constant=_refuse, parse_int=_token, parse_float=_token)


def check_answer(line: bytes, answer: str) -> None:
    """The answer is one line of JSON of the protocol's shape, with the request's id."""
    assert "\n" not in answer
    data = read(answer.encode("utf-8"))  # encodable: no lone surrogate
    assert isinstance(data, dict)
    assert data["ok"] in (True, False)
    if data["ok"]:
        assert set(data) == {"id", "ok", "result"} and isinstance(data["result"], dict)
    else:
        assert set(data) == {"id", "ok", "error"}
        assert set(data["error"]) == {"code", "message"}
        assert data["error"]["code"] in CODES and data["error"]["message"]
    if data["ok"] or data["error"]["code"] not in ("bad-json", "too-large"):
        request = read(line)
        assert data["id"] == (request.get("id") if isinstance(request, dict) else None)


@given(hostile_lines())
def test_every_request_line_gets_a_json_answer_with_its_id(line: bytes) -> None:
    check_answer(line, ORACLE.handle_line(line))


@given(st.binary(max_size=300))
def test_arbitrary_bytes_get_json_answers(data: bytes) -> None:
    line = data.replace(b"\n", b" ")
    check_answer(line, ORACLE.handle_line(line))


class _Trickle(io.RawIOBase):
    """A pipe that hands over its bytes a few at a time (lines arrive in pieces)."""

    def __init__(self, data: bytes, sizes: list[int]) -> None:
        self.data, self.sizes, self.at = data, sizes or [1], 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        size = min(len(buffer), self.sizes[self.at % len(self.sizes)], len(self.data))
        buffer[:size] = self.data[:size]
        self.data = self.data[size:]
        self.at += 1
        return size


@given(
    st.lists(hostile_lines() | st.binary(max_size=40), max_size=6),
    st.sampled_from([b"\n", b"\r\n", b"\n\n", b"\n \t\n"]),
    st.booleans(),
    st.lists(st.integers(1, 64), max_size=5),
)
def test_serving_answers_every_line_in_order_however_the_bytes_arrive(
    lines: list[bytes], newline: bytes, last_newline: bool, sizes: list[int]
) -> None:
    lines = [line.replace(b"\n", b" ") for line in lines]
    data = newline.join(lines) + (newline if last_newline else b"")
    out = io.BytesIO()
    assert serve(io.BufferedReader(_Trickle(data, sizes), 16), out, ORACLE) == 0
    expected = [line.rstrip(b"\r") for line in data.split(b"\n")]
    expected = [line for line in expected if line.strip()]
    answers = out.getvalue().split(b"\n")
    assert answers.pop() == b""  # every answer ends its line
    assert answers == [ORACLE.handle_line(line).encode("utf-8") for line in expected]
    for line, answer in zip(expected, answers, strict=True):
        check_answer(line, answer.decode("utf-8"))


@given(json_texts, odd_texts)
def test_an_answer_is_utf8_json_whatever_it_holds(text: str, message: str) -> None:
    try:
        value = decode(text)
    except OracleError:
        value = None
    error = {"code": "bad-request", "message": message}
    answer = read(encode({"id": value, "ok": False, "error": error}).encode("utf-8"))
    assert answer["id"] == (read(text) if value is not None else None)
    assert answer["error"]["message"] == re.sub("[\ud800-\udfff]", "\ufffd", message)
