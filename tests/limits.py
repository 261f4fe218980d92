"""A time limit for a block of test code: a hang becomes a failure instead of a stuck suite."""

from __future__ import annotations

import contextlib
import signal
from collections.abc import Iterator
from types import FrameType

__all__ = ["within"]


@contextlib.contextmanager
def within(seconds: float) -> Iterator[None]:
    """Raise TimeoutError in the block once it has run ``seconds`` (main thread, POSIX)."""

    def expire(_signum: int, _frame: FrameType | None) -> None:
        raise TimeoutError(f"still running after {seconds} seconds")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
