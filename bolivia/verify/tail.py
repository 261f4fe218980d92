"""The last lines an engine wrote on its standard error, kept for the failures it explains.

A thread reads the pipe as fast as the engine writes (so the engine never blocks on a full
pipe), and :class:`Tail` keeps only the last :data:`MAX_LINES` lines and :data:`MAX_CHARS`
characters, each line cut at :data:`LINE_CHARS`. Lines are numbered as written: a runner takes
a mark before a request and asks for the lines after it (what the engine wrote while it was
asked), or for those between two marks (while a suite ran). Lines are kept as written (decoded
as UTF-8, a bad byte replaced); whoever shows them escapes them.

>>> tail = Tail(max_lines=2)
>>> tail.feed(b"one\\ntwo\\nthree\\nfour")
>>> tail.lines(), tail.dropped
(['two', 'three'], 1)
>>> mark = tail.mark()
>>> tail.feed(b"\\nfive\\n")
>>> tail.since(mark)
['four', 'five']
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections import deque
from typing import IO

__all__ = ["LINE_CHARS", "MAX_CHARS", "MAX_LINES", "Tail"]

MAX_LINES = 200
MAX_CHARS = 64 * 1024
LINE_CHARS = 2000  # the rest of a longer line is cut, saying so
CHUNK = 4096


class Tail:
    """A bounded ring of the last lines written to one or more streams, one after another."""

    def __init__(
        self, max_lines: int = MAX_LINES, max_chars: int = MAX_CHARS, line_chars: int = LINE_CHARS
    ) -> None:
        self.max_lines = max_lines
        self.max_chars = max_chars
        self.line_chars = line_chars
        self._lock = threading.Lock()
        self._lines: deque[tuple[int, str]] = deque()
        self._chars = 0
        self._written = 0  # lines written so far, kept or not
        self._partial = _Partial()

    @property
    def dropped(self) -> int:
        """Lines written but no longer kept."""
        with self._lock:
            return self._written - len(self._lines)

    def mark(self) -> int:
        """The number of the next line: lines after a mark are numbered from it on."""
        with self._lock:
            return self._written

    def lines(self) -> list[str]:
        with self._lock:
            return [line for _, line in self._lines]

    def since(self, mark: int, limit: int | None = None) -> list[str]:
        """The lines kept that were written after ``mark`` (the last ``limit`` of them)."""
        return self.between(mark, None, limit)

    def between(self, start: int, end: int | None, limit: int | None = None) -> list[str]:
        with self._lock:
            found = [line for n, line in self._lines if n >= start and (end is None or n < end)]
        return found[-limit:] if limit is not None and limit < len(found) else found

    def feed(self, chunk: bytes, line: _Partial | None = None) -> None:
        """Bytes a stream wrote: each whole line is kept; the rest waits in ``line`` (the
        stream's unfinished line; by default one shared by :meth:`feed` calls) for its end."""
        line = self._partial if line is None else line
        while chunk:
            end = chunk.find(b"\n")
            piece, chunk = (chunk, b"") if end < 0 else (chunk[:end], chunk[end + 1 :])
            line.add(piece, self.line_chars * 4)  # UTF-8: at most 4 bytes a character
            if end >= 0:
                self._keep(line.take(self.line_chars))

    def flush(self, line: _Partial | None = None) -> None:
        """The stream ended: a last line without its newline is kept too."""
        line = self._partial if line is None else line
        if line:
            self._keep(line.take(self.line_chars))

    def _keep(self, text: str) -> None:
        with self._lock:
            self._lines.append((self._written, text))
            self._written += 1
            self._chars += len(text)
            while self._lines and (
                len(self._lines) > self.max_lines or self._chars > self.max_chars
            ):
                self._chars -= len(self._lines.popleft()[1])

    # ---- following a stream

    def follow(self, stream: IO[bytes]) -> threading.Thread:
        """Read ``stream`` until its end on a thread of its own (a daemon: it never holds up
        the runner's exit); the thread, to join once the stream's writers are gone."""
        reader = threading.Thread(target=self._read, args=(stream,), daemon=True)
        reader.start()
        return reader

    def _read(self, stream: IO[bytes]) -> None:
        line = _Partial()
        with contextlib.suppress(OSError, ValueError):
            fd = stream.fileno()
            while chunk := os.read(fd, CHUNK):
                self.feed(chunk, line)
        self.flush(line)


class _Partial:
    """A stream's line not ended yet, at most a bound of bytes (the rest is dropped)."""

    def __init__(self) -> None:
        self.data = bytearray()
        self.cut = False

    def __bool__(self) -> bool:
        return bool(self.data) or self.cut

    def add(self, piece: bytes, limit: int) -> None:
        room = max(limit - len(self.data), 0)
        self.data += piece[:room]
        self.cut = self.cut or len(piece) > room

    def take(self, chars: int) -> str:
        text = self.data.decode("utf-8", "replace").rstrip("\r")
        if self.cut or len(text) > chars:
            text = text[:chars] + " ... (the rest of the line is not kept)"
        self.data.clear()
        self.cut = False
        return text
