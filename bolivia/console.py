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
import time
from collections.abc import Callable
from typing import IO, Any

import click

from bolivia.errors import BoliviaError
from bolivia.output import OutputError
from bolivia.text import json_for_terminal, terminal

__all__ = [
    "BROKEN_PIPE",
    "INTERRUPTED",
    "SECTIONS",
    "Formats",
    "Group",
    "Progress",
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


#: ``bolivia --help``: the commands by who reaches for them, each with a line that fits
SECTIONS: dict[str, tuple[tuple[str, str], ...]] = {
    "For clubs and rules committees": (
        ("compare", "The report: rulesets compared, in rules and in play."),
        ("rulebook", "A ruleset written as a rulebook to play from."),
        ("new", "Start a house ruleset from a published one."),
        ("validate", "Check ruleset files; every problem, with its line."),
        ("lint", "What a valid ruleset may still get wrong."),
        ("sweep", "Rule values played against each other, same deals."),
        ("rulesets", "The rulesets: shipped, and your own."),
        ("show", "A ruleset, each value with its source."),
        ("sources", "The source documents and what they claim."),
    ),
    "For engine developers": (
        ("oracle", "Answer rules questions (JSON Lines) on standard input."),
        ("conform", "Run conformance suites, here or against an engine."),
        ("profile", "The rule values an engine plays by."),
        ("simulate", "Bots play hands or games; what happened, counted."),
        ("match", "A duplicate match between two bots."),
        ("ladder", "Every pair of bots in a match; their ratings."),
        ("replay", "Re-verify recorded hands, action by action."),
        ("schema", "The JSON Schema of ruleset files, for editors."),
    ),
}


class Group(click.Group):
    """Turns the toolkit's errors into clear lines and exit status 1, and a closed standard
    output into a quiet exit. Its help lists the commands by :data:`SECTIONS`."""

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        listed = {name for rows in SECTIONS.values() for name, _line in rows}
        others = [(n, "") for n in self.list_commands(ctx) if n not in listed]
        for title, rows in (*SECTIONS.items(), ("Other commands", tuple(others))):
            shown = [
                (name, line or (self.commands[name].get_short_help_str(60)))
                for name, line in rows
                if name in self.commands and not self.commands[name].hidden
            ]
            if shown:
                with formatter.section(title):
                    formatter.write_dl(shown)
        formatter.write_paragraph()
        formatter.write_text(
            "bolivia COMMAND --help tells more. Shell completion: docs/cli.md "
            '(eval "$(_BOLIVIA_COMPLETE=bash_source bolivia)" for bash).'
        )

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


class Formats(click.ParamType):  # type: ignore[type-arg]  # (generic from click 8.2 on)
    """``--format``: one or more of ``choices``, comma-separated (``md,html``), checked as the
    command line is read like any choice, each kept once in the order given. A wrong one is a
    usage error naming it and the choices."""

    name = "formats"

    def __init__(self, choices: tuple[str, ...]) -> None:
        self.choices = choices

    def get_metavar(self, param: click.Parameter, ctx: click.Context | None = None) -> str:
        return ",".join(self.choices)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, list):
            return value
        chosen = [part.strip() for part in str(value).split(",") if part.strip()]
        unknown = [f for f in chosen if f not in self.choices]
        if unknown or not chosen:
            given = ", ".join(unknown) or "nothing"
            self.fail(f"takes {', '.join(self.choices)}, comma-separated (not {given})", param, ctx)
        return list(dict.fromkeys(chosen))


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


def _duration(seconds: float) -> str:
    """``45 s``, ``3 min 05 s``, ``1 h 02 min``."""
    whole = round(seconds)
    if whole < 60:
        return f"{whole} s"
    if whole < 3600:
        return f"{whole // 60} min {whole % 60:02d} s"
    return f"{whole // 3600} h {whole % 3600 // 60:02d} min"


class Progress:
    """A count of work done, on standard error: on a terminal one line rewritten in place,
    piped a line every tenth of the work (and at most every ``every`` seconds between).

    The time left is given only once the rate is known (a twentieth of the work done and two
    seconds passed since the first unit), from the rate since that first unit: the minutes of
    work before it (finding witnesses) do not make the estimate up.
    """

    def __init__(
        self,
        total: int,
        noun: str,
        *,
        stream: IO[str] | None = None,
        clock: Callable[[], float] = time.monotonic,
        every: float = 10.0,
    ) -> None:
        self.total, self.noun, self.done = max(total, 0), noun, 0
        self.stream = stream if stream is not None else sys.stderr
        self.clock, self.every = clock, every
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.started = clock()
        self.first: float | None = None  # when the first unit was done
        self.last_line = -1.0
        self.last_tenth = 0
        self.base = 0  # the work done when the rate's measure began (see extend)

    def note(self, text: str) -> None:
        """A stage of the work (``finding witnesses``), on its own line."""
        self._write(text, final=True)

    def left(self) -> str:
        """The time left, or nothing while the rate is not known yet."""
        if self.first is None or not self.total or self.done >= self.total:
            return ""
        elapsed = self.clock() - self.first
        done = self.done - self.base
        if done < max(2, (self.total - self.base) // 20) or elapsed < 2.0:
            return ""
        rate = (done - 1) / elapsed if done > 1 else 0.0
        if rate <= 0:
            return ""
        return f", about {_duration((self.total - self.done) / rate)} left"

    def extend(self, n: int, why: str) -> None:
        """More work than was planned, said on its own line: the total grows by ``n`` and the
        rate is measured again from here (the new work may go at another pace)."""
        if self.tty:
            self._write("", final=True)
        self.note(why)
        self.total += max(n, 0)
        self.first = self.clock() if self.done else None
        self.base = self.done
        self.last_tenth = 10 * self.done // self.total if self.total else 10

    def line(self) -> str:
        share = f" ({100 * self.done // self.total}%)" if self.total else ""
        passed = _duration(self.clock() - self.started)
        return f"{self.done:,} of {self.total:,} {self.noun}{share}, {passed}{self.left()}"

    def update(self, n: int) -> None:
        self.done = min(self.total, self.done + n)
        now = self.clock()
        if self.first is None and self.done:
            self.first = now
        if self.tty:
            if now - self.last_line >= 0.2 or self.done == self.total:
                self._write(self.line(), final=False)
                self.last_line = now
            return
        tenth = 10 * self.done // self.total if self.total else 10
        if tenth > self.last_tenth or now - self.last_line >= self.every:
            self.last_tenth = tenth
            self.last_line = now
            self._write(self.line(), final=True)

    def finish(self) -> None:
        if self.tty:
            self._write(self.line(), final=False)
            self._write("", final=True)

    def _write(self, text: str, *, final: bool) -> None:
        with contextlib.suppress(OSError):
            if self.tty and not final:
                self.stream.write("\r\x1b[K" + text)
            else:
                self.stream.write(text + "\n")
            self.stream.flush()
