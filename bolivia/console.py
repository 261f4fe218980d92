"""The command line's dealings with the terminal: what it prints escaped (no escape sequence
from ruleset data or the user reaches the terminal, even through a pipe), the toolkit's errors
as clear lines and exit status 1, a closed standard output as a quiet exit, Ctrl-C as one line.

May import: the ground floor (errors, output, text) and click; nothing of the rules or play.
"""

from __future__ import annotations

import contextlib
import io
import math
import os
import sys
from typing import IO, Any

import click

from bolivia.errors import BoliviaError
from bolivia.output import OutputError
from bolivia.text import json_for_terminal, terminal

__all__ = [
    "BROKEN_PIPE",
    "INTERRUPTED",
    "Group",
    "Seconds",
    "Terminal",
    "echo",
    "echo_json",
    "interrupted",
    "silence",
]

INTERRUPTED = 130  # 128 + SIGINT, as a shell reports a program Ctrl-C ended
BROKEN_PIPE = 141  # 128 + SIGPIPE: the reader of standard output has gone


def silence(stream: IO[str]) -> None:
    """Point a failed output stream at the null device, so that the interpreter's last flush
    has nowhere to fail (a test's in-memory stream is left alone)."""
    try:
        fd = stream.fileno()
    except (AttributeError, ValueError, io.UnsupportedOperation):
        return
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, fd)
    os.close(null)


class Group(click.Group):
    """Turns the toolkit's errors into clear lines and exit status 1, and a closed standard
    output into a quiet exit."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except BoliviaError as exc:
            for line in exc.lines():
                click.echo(terminal(line), err=True)
            ctx.exit(1)
        except BrokenPipeError:
            silence(sys.stdout)
            ctx.exit(BROKEN_PIPE)
        except OSError as exc:  # an output stream that fails, a file gone while read
            silence(sys.stdout)
            where = f": {exc.filename}" if exc.filename else ""
            click.echo(terminal(f"error: {exc.strerror or exc}{where}"), err=True)
            ctx.exit(1)


class Seconds(click.FloatRange):
    """Seconds: a finite number in the range (``nan`` is in no range, but FloatRange lets it by)."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        seconds = super().convert(value, param, ctx)
        if math.isnan(seconds):
            self.fail(f"{value!r} is not a number of seconds", param, ctx)
        return seconds


class Terminal(io.TextIOBase):
    """A text stream writing to another, escaped for the terminal."""

    def __init__(self, stream: IO[str]) -> None:
        self.stream = stream

    def write(self, text: str) -> int:
        self.stream.write(terminal(text, lines=True))
        return len(text)

    def flush(self) -> None:
        self.stream.flush()

    def isatty(self) -> bool:
        return self.stream.isatty()


def echo(text: str, *, nl: bool = True) -> None:
    """Print ruleset data or user text on standard output, escaped for the terminal."""
    try:
        click.echo(terminal(text, lines=True), nl=nl)
    except BrokenPipeError:
        raise
    except OSError as exc:
        silence(sys.stdout)
        raise OutputError(f"cannot write standard output: {exc.strerror or exc}") from None


def echo_json(data: Any) -> None:
    echo(json_for_terminal(data, indent=2))


def interrupted() -> int:
    """Ctrl-C: one line, no traceback, and the status a shell gives a program SIGINT ended."""
    with contextlib.suppress(OSError, KeyboardInterrupt):  # a second Ctrl-C, no stderr
        click.echo("interrupted", err=True)
    return INTERRUPTED
