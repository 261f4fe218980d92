"""Engines the conformance runner checks: the built-in oracle in-process, or another program
speaking the oracle protocol over its standard input and output."""

from __future__ import annotations

import json
import queue
import shlex
import subprocess
import threading
from typing import Any

from bolivia.errors import BoliviaError, Problem, RulesetError
from bolivia.verify.oracle import PROTOCOL, Oracle

__all__ = ["Engine", "EngineFailure", "InProcessEngine", "ProcessEngine"]


class Engine:
    """Something that answers protocol requests."""

    rulesets: set[str]
    protocol: int = PROTOCOL

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        raise NotImplementedError

    def close(self) -> None:
        """Release what the engine holds."""


class InProcessEngine(Engine):
    """The built-in oracle, through the same JSON encoding as over the pipe."""

    def __init__(self, oracle: Oracle | None = None) -> None:
        self.oracle = oracle if oracle is not None else Oracle()
        self.rulesets = set(self.oracle.library.ids())

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        answer: dict[str, Any] = json.loads(self.oracle.handle_line(json.dumps(request)))
        return answer


class EngineFailure(BoliviaError):
    """The engine crashed, hung or answered something that is not a response."""


class ProcessEngine(Engine):
    """Another program speaking the protocol on its standard input and output."""

    def __init__(self, command: str, timeout: float = 10.0) -> None:
        self.command = shlex.split(command)
        if not self.command:
            raise RulesetError([Problem("--engine", None, "", "the engine command is empty")])
        self.timeout = timeout
        self._process: subprocess.Popen[bytes] | None = None
        self._lines: queue.Queue[bytes | None] = queue.Queue()
        self._start()
        hello = self.ask({"op": "hello", "id": "hello"})
        result = hello.get("result") if hello.get("ok") else None
        if not isinstance(result, dict) or not isinstance(result.get("rulesets"), list):
            raise EngineFailure(f"the engine's answer to hello holds no ruleset list: {hello}")
        self.rulesets = {str(r) for r in result["rulesets"]}
        self.engine_name = str(result.get("engine", "?"))
        version = result.get("protocol")
        self.protocol = version if isinstance(version, int) and not isinstance(version, bool) else 1

    def _start(self) -> None:
        try:
            self._process = subprocess.Popen(
                self.command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
            )
        except OSError as exc:
            raise RulesetError(
                [Problem("--engine", None, "", f"cannot start {self.command[0]!r}: {exc}")]
            ) from None
        self._lines = queue.Queue()
        stdout = self._process.stdout
        assert stdout is not None

        def pump(lines: queue.Queue[bytes | None] = self._lines) -> None:
            try:
                for line in iter(stdout.readline, b""):
                    lines.put(line)
            except (OSError, ValueError):  # the pipe was closed under the reader
                pass
            lines.put(None)

        threading.Thread(target=pump, daemon=True).start()

    def _restart(self) -> None:
        self.close()
        self._start()

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        process = self._process
        assert process is not None and process.stdin is not None
        try:
            process.stdin.write(json.dumps(request).encode() + b"\n")
            process.stdin.flush()
        except (BrokenPipeError, OSError):
            self._restart()
            raise EngineFailure("the engine had exited (its input pipe was closed)") from None
        try:
            line = self._lines.get(timeout=self.timeout)
        except queue.Empty:
            self._restart()
            raise EngineFailure(
                f"the engine gave no answer within {self.timeout:g} s (restarted)"
            ) from None
        if line is None:
            code = process.wait()
            self._restart()
            raise EngineFailure(
                f"the engine exited (status {code}) instead of answering (restarted)"
            )
        try:
            answer = json.loads(line)
        except ValueError:
            raise EngineFailure(
                f"the engine answered a line that is not JSON: {line[:200]!r}"
            ) from None
        if not isinstance(answer, dict):
            raise EngineFailure(f"the engine answered {answer!r}, not a response object")
        return answer

    def close(self) -> None:
        process = self._process
        if process is None:
            return
        try:
            if process.stdin is not None:
                process.stdin.close()
            process.wait(timeout=2)
        except (OSError, subprocess.TimeoutExpired):
            process.kill()
            process.wait()
        if process.stdout is not None:
            process.stdout.close()
        self._process = None
