"""Hardening of the oracle's transport: every line gets an answer that is RFC 8259 JSON, the id
comes back as it was written, and a fault of standard input or output ends the oracle with one
line and a non-zero exit, never a traceback. Each test is a reproducer of a fault found."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bolivia.verify.oracle import Oracle, serve

ORACLE = Oracle()
ROOT = Path(__file__).resolve().parent.parent
HELLO = b'{"op":"hello","id":"next"}\n'


def _refuse(text: str) -> Any:
    raise AssertionError(f"{text} is not JSON")


def strict_json(line: bytes) -> Any:
    """A line as RFC 8259 reads it: UTF-8, no NaN or Infinity (integers of any length)."""
    return json.loads(line.decode("utf-8"), parse_constant=_refuse, parse_int=str)


def served(data: bytes) -> list[bytes]:
    out = io.BytesIO()
    assert serve(io.BytesIO(data), out, ORACLE) == 0
    return out.getvalue().splitlines()


def oracle_process(
    data: bytes, stdout: Any = subprocess.PIPE
) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "bolivia", "oracle"],
        input=data,
        stdout=stdout,
        stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=60,
        check=False,
    )


def started() -> subprocess.Popen[bytes]:
    """The oracle over pipes, once it has answered a first line (so it is serving)."""
    process = subprocess.Popen(
        [sys.executable, "-m", "bolivia", "oracle"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write(HELLO)
    process.stdin.flush()
    assert process.stdout.readline()
    return process


# --------------------------------------------------------------------------- lone surrogates


@pytest.mark.parametrize(
    "line",
    [
        rb'{"op":"hello","id":"\ud800"}',
        rb'{"op":"\udfff"}',
        rb'{"op":"meld","ruleset":"samba","\ud800":1}',
        rb'{"op":"meld","ruleset":"\ud800x"}',
        rb'{"op":"meld","ruleset":"samba","cards":["\udc00"]}',
    ],
)
def test_a_lone_surrogate_is_refused_and_the_next_line_answered(line: bytes) -> None:
    first, second = served(line + b"\n" + HELLO)
    answer = strict_json(first)
    assert answer["ok"] is False
    assert answer["error"]["code"] == "bad-json"
    assert "surrogate" in answer["error"]["message"]
    assert strict_json(second)["id"] == "next"


def test_a_lone_surrogate_over_the_pipe_is_answered_with_no_traceback() -> None:
    done = oracle_process(rb'{"op":"hello","id":"\ud800"}' + b"\n" + HELLO)
    assert done.returncode == 0, done.stderr
    assert done.stderr == b""
    answers = [strict_json(line) for line in done.stdout.splitlines()]
    assert [a["ok"] for a in answers] == [False, True]


def test_a_surrogate_pair_is_a_character() -> None:  # a guard: pairs stay readable
    (line,) = served(rb'{"op":"hello","id":"\ud83d\ude00"}' + b"\n")
    assert strict_json(line)["id"] == "\N{GRINNING FACE}"


def test_a_str_line_holding_a_surrogate_gets_an_answer() -> None:
    answer = strict_json(ORACLE.handle_line('{"op":"hello","id":"\ud800"}').encode())
    assert answer["error"]["code"] == "bad-json"


# --------------------------------------------------------------------------- numbers in the id


@pytest.mark.parametrize(
    "number",
    [b"1e400", b"-1E+400", b"1.5e-400", b"1.50", b"0.1000000000000000000001", b"9" * 5000],
)
def test_an_id_number_is_echoed_as_written_and_the_answer_is_json(number: bytes) -> None:
    (line,) = served(b'{"op":"hello","id":' + number + b"}\n")
    assert line.startswith(b'{"id":' + number + b',"ok":true,')
    strict_json(line)


def test_a_huge_number_in_a_field_is_refused_naming_it() -> None:  # a guard
    (line,) = served(b'{"op":"initial_minimum","ruleset":"samba","team_score":1e400}\n')
    answer = strict_json(line)
    assert answer["error"]["code"] == "bad-request"
    assert "team_score" in answer["error"]["message"]


# --------------------------------------------------------------------------- deep nesting


def test_deep_nesting_inside_a_card_list_is_refused_not_a_crash() -> None:
    depth = 900
    cards = b"[" * depth + b"]" * depth
    lines = served(b'{"op":"meld","ruleset":"samba","cards":[' + cards + b"]}\n" + HELLO)
    assert strict_json(lines[0])["error"]["code"] == "bad-json"
    assert strict_json(lines[1])["id"] == "next"


def test_nesting_up_to_the_limit_is_read() -> None:
    from bolivia.verify.wire import MAX_DEPTH

    inner = MAX_DEPTH - 1  # the request object is one level
    request = b'{"op":"hello","id":' + b"[" * inner + b"]" * inner + b"}\n"
    (line,) = served(request)
    assert strict_json(line)["ok"] is True
    deeper = request.replace(b"[", b"[[", 1).replace(b"]", b"]]", 1)
    (line,) = served(deeper)
    assert strict_json(line)["error"]["code"] == "bad-json"


# --------------------------------------------------------------------------- faults of the streams


class _Broken(io.BytesIO):
    def __init__(self, error: OSError) -> None:
        super().__init__()
        self.error = error

    def flush(self) -> None:
        raise self.error


def test_a_write_error_names_the_line_whose_answer_is_lost() -> None:
    from bolivia.verify.wire import TransportError

    sink = _Broken(BrokenPipeError(32, "Broken pipe"))
    with pytest.raises(TransportError, match=r"line 2: the reader closed the pipe"):
        serve(io.BytesIO(b"\n" + HELLO), sink, ORACLE)


def test_a_full_disk_ends_the_oracle_with_one_line() -> None:
    with open("/dev/full", "wb") as full:
        done = oracle_process(HELLO, stdout=full)
    assert done.returncode == 1
    (line,) = done.stderr.decode().splitlines()
    assert "line 1" in line and "No space left on device" in line


@pytest.mark.parametrize("stream", ["0", "1"])
def test_a_closed_stream_ends_the_oracle_with_one_line(stream: str) -> None:
    done = subprocess.run(
        ["sh", "-c", f'"$0" -m bolivia oracle {stream}>&-', sys.executable],
        input=HELLO if stream == "1" else None,
        capture_output=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=60,
        check=False,
    )
    assert done.returncode == 1
    (line,) = done.stderr.decode().splitlines()
    assert "closed" in line


def test_a_reader_that_goes_away_ends_the_oracle_with_one_line() -> None:
    process = started()
    assert process.stdin is not None and process.stdout is not None
    assert process.stderr is not None
    process.stdout.close()  # the reader goes away: the next answer cannot be written
    process.stdin.write(HELLO)
    process.stdin.close()
    err = process.stderr.read()
    process.stderr.close()
    assert process.wait(timeout=60) == 1
    (line,) = err.decode().splitlines()
    assert "line 2" in line and "closed" in line


def test_ctrl_c_exits_130_quietly() -> None:
    process = started()  # serving, now waiting for the next line
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 130
    assert err == b""
