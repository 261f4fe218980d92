"""Engines the conformance runner checks: the built-in oracle in-process, or another program
speaking the oracle protocol over its standard input and output.

A program is untrusted: it may hang, die, leave children holding its output, answer twice, answer
with another request's id, or send lines without end or nesting without bottom. The runner reads
its answers in bounded chunks (a line at most :data:`MAX_LINE` bytes, like the oracle's requests;
nesting at most :data:`MAX_DEPTH`), never waits past a time limit, matches every answer to its
request by id, and stops the program with every process it started (its own process group).
Its standard error is kept, the last lines of it (:mod:`bolivia.verify.tail`), to be shown with
the failures it explains. How one answer is read -- :class:`Lines` and :func:`read_answer` --
needs no process.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import re
import selectors
import shlex
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Container, Mapping, Sequence
from types import MappingProxyType
from typing import Any, Literal

from bolivia.errors import BoliviaError
from bolivia.text import terminal
from bolivia.verify.oracle import MAX_LINE, PROTOCOL, Oracle
from bolivia.verify.tail import Tail
from bolivia.version import __version__

__all__ = [
    "MAX_DEPTH",
    "MAX_LINE",
    "Engine",
    "EngineFailure",
    "InProcessEngine",
    "Lines",
    "ProcessEngine",
    "decode_answer",
    "read_answer",
]

_SURROGATE = re.compile("[\ud800-\udfff]")
MAX_DEPTH = 64  # nesting of an answer; the protocol's deepest (moves) is under 10
CHUNK = 64 * 1024
GRACE = 2.0  # seconds an engine has to exit by itself at the end of its input
STARTUP = 10.0  # seconds at least for the first answer (hello): starting a program takes time

# what went wrong: the program could not be started (a usage error); gave no answer in its
# time; had its wait cut by the run's deadline; died; sent a line longer than the bound; or
# answered something that is not the answer (not JSON, too deep, not an object, the wrong id)
Kind = Literal["start", "timeout", "deadline", "exit", "overflow", "answer"]


class EngineFailure(BoliviaError):
    """The engine crashed, hung or answered something that is not the response asked for.
    ``actual`` is what it answered, when it answered something; ``stderr``: the last lines
    it wrote on its standard error meanwhile, shown below the message; both escaped for the
    terminal."""

    def __init__(
        self, kind: Kind, message: str, actual: Any = None, stderr: Sequence[str] = ()
    ) -> None:
        self.kind: Kind = kind
        self.actual = actual
        self.stderr = tuple(stderr)
        super().__init__(terminal(message))

    def lines(self) -> list[str]:
        said = [f"  | {terminal(line)}" for line in self.stderr]
        return [str(self), *(["its last lines on stderr:", *said] if said else [])]

    @property
    def lost(self) -> bool:
        """The engine stopped answering or died (what giving up on an engine counts)."""
        return self.kind in ("timeout", "exit")

    @property
    def restarts(self) -> bool:
        """What the engine sends next belongs to no request: it is stopped, and started again
        for the next one."""
        return self.kind in ("timeout", "deadline", "exit", "overflow")


def shown(value: Any, limit: int = 200) -> str:
    """A value out of an answer as JSON, cut to ``limit`` characters (saying so)."""
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text) - limit} more)"


class Engine:
    """Something that answers protocol requests. ``ops`` and ``players``: the operations and
    the numbers of players its hello lists (None: it did not say, so all); ``fields``: by op,
    the fields of a later protocol than its own that its hello claims to answer; ``stderr``:
    the last lines it wrote on its standard error, when it has one."""

    rulesets: set[str]
    protocol: int = PROTOCOL
    name: str = "?"
    ops: frozenset[str] | None = None
    players: frozenset[int] | None = None
    fields: Mapping[str, frozenset[str]] = MappingProxyType({})
    stderr: Tail | None = None

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        raise NotImplementedError

    def exchange(
        self, request: dict[str, Any], budget: float | None = None
    ) -> tuple[dict[str, Any], str]:
        """The answer to ``request``, and a note on what else the engine sent first ("" when
        nothing); ``budget``: the seconds left to the run, when it has a deadline."""
        return self.ask(request), ""

    def close(self) -> None:
        """Release what the engine holds."""


class InProcessEngine(Engine):
    """The built-in oracle, through the same JSON encoding as over the pipe."""

    def __init__(self, oracle: Oracle | None = None) -> None:
        self.oracle = oracle if oracle is not None else Oracle()
        self.rulesets = set(self.oracle.ids())
        self.name = f"bolivia {__version__} (in-process)"

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        answer: dict[str, Any] = json.loads(self.oracle.handle_line(json.dumps(request)))
        return answer


# --------------------------------------------------------------------------- reading answers


class Lines:
    """Lines out of bytes fed in chunks, each line at most ``limit`` bytes: a longer one (or
    one that never ends) is an :class:`EngineFailure` as soon as it is longer."""

    def __init__(self, limit: int = MAX_LINE) -> None:
        self.limit = limit
        self._buffer = bytearray()
        self._scanned = 0  # bytes of the buffer known to hold no newline

    def feed(self, chunk: bytes) -> None:
        self._buffer += chunk

    def pop(self) -> bytes | None:
        """The next whole line, without its line end; None until one is whole."""
        end = self._buffer.find(b"\n", self._scanned, self.limit + 1)
        if end < 0:
            self._scanned = len(self._buffer)
            if len(self._buffer) > self.limit:
                raise EngineFailure(
                    "overflow", f"the engine answered a line longer than {self.limit} bytes"
                )
            return None
        line = bytes(self._buffer[:end]).rstrip(b"\r")
        del self._buffer[: end + 1]
        self._scanned = 0
        return line


def decode_answer(line: bytes, max_depth: int = MAX_DEPTH) -> dict[str, Any]:
    """One line of the engine's output as a response object."""
    too_deep = EngineFailure(
        "answer", f"the engine answered JSON nested more than {max_depth} deep"
    )
    try:
        answer = json.loads(line, parse_constant=_not_json)
    except RecursionError:
        raise too_deep from None
    except ValueError:
        raise EngineFailure(
            "answer", f"the engine answered a line that is not JSON: {line[:200]!r}"
        ) from None
    if not _within(answer, max_depth):
        raise too_deep
    if (b"\\u" in line or b"\xed" in line) and (half := _half_surrogate(answer)):
        raise EngineFailure(
            "answer",
            f"the engine answered a string holding \\u{ord(half):04x}, half of a surrogate "
            "pair alone: not Unicode text",
        )
    if not isinstance(answer, dict):
        raise EngineFailure(
            "answer", f"the engine answered {shown(answer)}, not a response object", answer
        )
    return answer


def _half_surrogate(value: Any) -> str:
    """A lone surrogate in a string (or key) of the answer, else "" (without recursion)."""
    todo = [value]
    while todo:
        item = todo.pop()
        if isinstance(item, dict):
            todo.extend(item)
            todo.extend(item.values())
        elif isinstance(item, list):
            todo.extend(item)
        elif isinstance(item, str):
            found = _SURROGATE.search(item)
            if found:
                return found.group()
    return ""


def _not_json(text: str) -> Any:
    raise ValueError(f"{text} is not JSON")


def _within(value: Any, depth: int) -> bool:
    """Whether ``value`` nests lists and objects at most ``depth`` deep (without recursion)."""
    todo = [(value, 1)]
    while todo:
        item, level = todo.pop()
        if isinstance(item, dict | list):
            if level > depth:
                return False
            todo.extend((v, level + 1) for v in (item.values() if isinstance(item, dict) else item))
    return True


def read_answer(
    next_line: Callable[[], bytes], wire_id: str, earlier: Container[str]
) -> tuple[dict[str, Any], str]:
    """The answer to the request ``wire_id``, read line by line from ``next_line`` (which raises
    :class:`EngineFailure` when the engine stops), and a note on the answers to ``earlier``
    requests that came first: a request answered twice, set aside so that it shifts nothing.
    Blank lines are passed over. Any other line is this request's failure."""
    strays: list[str] = []
    while True:
        line = next_line()
        if not line.strip():
            continue
        answer = decode_answer(line)
        answered = answer.get("id")
        if isinstance(answered, str) and answered == wire_id:
            return answer, _strays(strays)
        if isinstance(answered, str) and answered in earlier:
            strays.append(answered)
            continue
        wrong = f"its id is {shown(answered)}" if "id" in answer else "the answer has no id"
        note = f"{wrong}, not {wire_id!r}"
        raise EngineFailure("answer", "; ".join(filter(None, [note, _strays(strays)])), answer)


def _strays(ids: Sequence[str]) -> str:
    if not ids:
        return ""
    unique = list(dict.fromkeys(ids))
    named = ", ".join(map(repr, unique[:3])) + (
        f" and {len(unique) - 3} more" if unique[3:] else ""
    )
    requests = "requests" if len(unique) > 1 else "request"
    return f"before its answer the engine sent another answer to the earlier {requests} {named}"


# --------------------------------------------------------------------------- a program


class ProcessEngine(Engine):
    """Another program speaking the protocol on its standard input and output (POSIX)."""

    def __init__(self, command: str | Sequence[str], timeout: float = 10.0) -> None:
        if not (math.isfinite(timeout) and timeout > 0):
            raise ValueError(f"the timeout must be a positive number of seconds, not {timeout}")
        self.command = list(command) if not isinstance(command, str) else _split(command)
        if not self.command:
            raise EngineFailure("start", "the engine command is empty")
        self.timeout = timeout
        self._process: subprocess.Popen[bytes] | None = None
        self._reader = threading.Thread()
        self._lines = Lines()
        self._sent: set[str] = set()
        self.stderr = Tail()
        # what the engine says from its start on belongs with a failed hello: marked before
        # it starts, since an engine that dies at once may have said it all before hello
        started = self.stderr.mark()
        self._start()
        self.timeout = max(timeout, STARTUP)  # for hello only
        try:
            self._hello(started)
        except BaseException:
            self.close()
            raise
        finally:
            self.timeout = timeout

    def _hello(self, mark: int) -> None:
        """Ask hello: the rulesets, protocol, name, and the ops and players it lists (a
        failure shows what the engine wrote on stderr since ``mark``)."""
        assert self.stderr is not None
        try:
            hello = self.ask({"op": "hello", "id": "hello"})
        except EngineFailure as exc:
            said = self.stderr.since(mark, 20)
            raise EngineFailure("answer", f"hello: {exc}", exc.actual, said) from None
        result = hello.get("result") if hello.get("ok") is True else None
        if not isinstance(result, dict) or not isinstance(result.get("rulesets"), list):
            raise EngineFailure(
                "answer", f"hello: the engine's answer holds no ruleset list: {shown(hello)}"
            )
        version = result.get("protocol")
        self.protocol = version if isinstance(version, int) and not isinstance(version, bool) else 1
        self.name = terminal(str(result.get("engine", "?"))[:200])  # for display: escaped, short
        self.rulesets = {str(r) for r in result["rulesets"]}
        self.ops = _listed(result, "ops", str, "operation names")
        self.players = _listed(result, "players", int, "numbers of players")
        self.fields = _claimed_fields(result)

    def _start(self) -> subprocess.Popen[bytes]:
        if os.name != "posix":
            raise EngineFailure("start", "an engine program can only be run on a POSIX system")
        try:
            process = subprocess.Popen(
                self.command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                bufsize=0,
                start_new_session=True,  # its own process group, stopped whole
            )
        except (OSError, ValueError) as exc:
            raise EngineFailure("start", f"cannot start {self.command[0]!r}: {exc}") from None
        assert process.stdin is not None and process.stdout is not None
        assert process.stderr is not None and self.stderr is not None
        os.set_blocking(process.stdin.fileno(), False)
        self._reader = self.stderr.follow(process.stderr)
        self._process = process
        self._lines = Lines()
        return process

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        answer, strays = self.exchange(request)
        if strays:
            raise EngineFailure("answer", strays, answer)
        return answer

    def exchange(
        self, request: dict[str, Any], budget: float | None = None
    ) -> tuple[dict[str, Any], str]:
        limit = self.timeout if budget is None else max(0.0, min(self.timeout, budget))
        kind: Kind = "timeout" if limit >= self.timeout else "deadline"
        deadline = time.monotonic() + limit
        wire_id = self._wire_id(request.get("id"))
        data = json.dumps({**request, "id": wire_id}).encode() + b"\n"
        try:
            process = self._process or self._restart()
            self._send(process, data, deadline, kind)
            self._sent.add(wire_id)
            return read_answer(
                lambda: self._next_line(process, deadline, kind), wire_id, self._sent
            )
        except EngineFailure as exc:
            if exc.restarts:
                self._stop(0.0)
            raise

    def _wire_id(self, wanted: Any) -> str:
        """The request's id if it is a string not sent before, else one made unique."""
        base = wanted if isinstance(wanted, str) else ""
        wire_id, n = base, len(self._sent)
        while not wire_id or wire_id in self._sent:
            n += 1
            wire_id = f"{base}#{n}"
        return wire_id

    def _restart(self) -> subprocess.Popen[bytes]:
        try:
            return self._start()
        except EngineFailure as exc:
            raise EngineFailure("exit", f"the engine could not be started again: {exc}") from None

    def _send(
        self, process: subprocess.Popen[bytes], data: bytes, deadline: float, kind: Kind
    ) -> None:
        assert process.stdin is not None
        fd = process.stdin.fileno()
        with selectors.DefaultSelector() as selector:
            selector.register(fd, selectors.EVENT_WRITE)
            while data:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise self._late(kind, "took no request")
                if not selector.select(remaining):
                    continue
                try:
                    data = data[os.write(fd, data) :]
                except BlockingIOError:
                    continue
                except OSError:  # a broken pipe: it closed its input or exited
                    raise self._ended() from None

    def _next_line(self, process: subprocess.Popen[bytes], deadline: float, kind: Kind) -> bytes:
        assert process.stdout is not None
        fd = process.stdout.fileno()
        with selectors.DefaultSelector() as selector:
            selector.register(fd, selectors.EVENT_READ)
            while (line := self._lines.pop()) is None:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise self._late(kind, "gave no answer")
                if not selector.select(remaining):
                    continue
                chunk = os.read(fd, CHUNK)
                if not chunk:
                    raise self._ended()
                self._lines.feed(chunk)
            return line

    def _late(self, kind: Kind, what: str) -> EngineFailure:
        if kind == "deadline":
            return EngineFailure(kind, "the run's deadline passed while the engine was asked")
        return EngineFailure(kind, f"the engine {what} within {self.timeout:g} s")

    def _ended(self) -> EngineFailure:
        status = self._stop(1.0)
        if status is None:
            how = "closed its output"
        elif status < 0:
            how = f"was ended by signal {-status}"
        else:
            how = f"exited (status {status})"
        return EngineFailure("exit", f"the engine {how} instead of answering")

    def _stop(self, grace: float) -> int | None:
        """Stop the engine and every process it started (its process group), after ``grace``
        seconds for it to exit by itself; its exit status, or None if it had to be stopped."""
        process, self._process = self._process, None
        if process is None:
            return None
        assert process.stdin is not None and process.stdout is not None
        process.stdin.close()
        status = None
        try:
            status = process.wait(timeout=grace) if grace > 0 else None
        except subprocess.TimeoutExpired:
            pass
        finally:  # even on Ctrl-C. While a child is in the group, its id stays taken (even
            # with the leader gone), so the signal reaches only the engine's processes.
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()
            process.stdout.close()
            # what it wrote on stderr up to its end (a child that left the group may hold the
            # pipe: its reader is then left to end with it). An engine that ended by itself has
            # closed its end: the reader is at the pipe's end soon, if the machine is busy
            self._reader.join(1.0 if status is None else 10.0)
            if not self._reader.is_alive() and process.stderr is not None:
                process.stderr.close()
        return status

    def close(self) -> None:
        self._stop(GRACE)


def _listed(
    result: dict[str, Any], key: str, kind: type[str] | type[int], what: str
) -> frozenset[Any] | None:
    """hello's list under ``key``: None when it gives none (everything), else its items."""
    value = result.get(key)
    if value is None:
        return None
    if (
        not isinstance(value, list)
        or len(value) > 1000
        or not all(isinstance(v, kind) and not isinstance(v, bool) for v in value)
    ):
        raise EngineFailure("answer", f"hello: {key!r} is a list of {what}, not {shown(value)}")
    return frozenset(value)


def _claimed_fields(result: dict[str, Any]) -> Mapping[str, frozenset[str]]:
    """hello's ``fields``: by op, the fields of a later protocol the engine answers."""
    value = result.get("fields")
    if value is None:
        return MappingProxyType({})
    if not isinstance(value, dict) or len(value) > 100:
        raise EngineFailure("answer", f"hello: 'fields' is an object of ops, not {shown(value)}")
    return {
        str(op): _listed(value, op, str, f"field names of {terminal(str(op)[:40])}") or frozenset()
        for op in value
    }


def _split(command: str) -> list[str]:
    try:
        return shlex.split(command)
    except ValueError as exc:  # No closing quotation, No escaped character
        raise EngineFailure("start", f"cannot read the engine command {command!r}: {exc}") from None
