"""Worker processes that play jobs, and notice when one of them dies.

:func:`worker_pool` gives worker processes that leave Ctrl-C to the parent. Their
:meth:`Workers.imap` yields the results in the jobs' order, :meth:`Workers.imap_unordered` as
they finish, and :meth:`Workers.map` all of them. The jobs are taken from their iterable
only as the workers need them, a few chunks ahead, never all at once.

A worker killed from outside (by the system when memory runs out, or by a user) ends the run
with :class:`WorkerDied`, one line, at once: the pool of the standard library would wait for
its result forever. Leaving the pool stops every worker: on an error or an interrupt the
workers still playing are terminated, and none is left behind in the process group.

Where the system forks cheaply and safely (Linux, from a process running one thread) the
workers are forked: they start with what this process has imported and loaded, in a few
milliseconds, where a spawned worker starts a new interpreter and imports the play again (a
third of a second each). Elsewhere (macOS, Windows, or a process with threads running, which a
fork could leave holding a lock) they are spawned. The jobs carry everything that decides their
results, so the two give the same results.
"""

from __future__ import annotations

import collections
import gc
import multiprocessing
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from types import TracebackType
from typing import Any

from bolivia.errors import BoliviaError

__all__ = ["WorkerDied", "Workers", "worker_pool"]

AHEAD = 4  # chunks given to each worker at once: enough that none waits for the next


class WorkerDied(BoliviaError):
    """A worker process ended without finishing its jobs."""


def _start(setup: Callable[..., object] | None, args: tuple[Any, ...]) -> None:
    """A worker's first step: Ctrl-C left to the parent, then the caller's ``setup``."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if setup is not None:
        setup(*args)


def start_method() -> str:
    """How the workers are started: ``fork`` on Linux from a process running one thread,
    else ``spawn`` (see the module)."""
    if sys.platform == "linux" and threading.active_count() == 1:
        return "fork"
    return "spawn"


def _chunk(job: Callable[[Any], Any], items: list[Any]) -> list[Any]:
    return [job(item) for item in items]


def _chunks(items: Iterable[Any], size: int) -> Iterator[list[Any]]:
    chunk: list[Any] = []
    for item in items:
        chunk.append(item)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


class _Closed:
    """What a closed pool holds instead of its executor: it submits nothing."""

    def submit(self, *args: Any) -> Any:
        raise RuntimeError("the worker pool is closed")

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        pass


_CLOSED: Any = _Closed()


class Workers:
    """``count`` worker processes (see the module); each runs ``setup(*args)`` first."""

    def __init__(
        self,
        count: int,
        setup: Callable[..., object] | None = None,
        args: tuple[Any, ...] = (),
    ) -> None:
        self.count = count
        self.method = start_method()
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
        # forked workers leave alone what this process made before them: the collector does
        # not walk it (walking would copy every page it touches into each worker)
        frozen = self.method == "fork"
        if frozen:
            gc.freeze()
        try:
            self._executor = ProcessPoolExecutor(
                count,
                mp_context=multiprocessing.get_context(self.method),
                initializer=_start,
                initargs=(setup, args),
            )
            # started now, with Ctrl-C ignored, rather than one by one as jobs come (the
            # executor's way with spawned processes), maybe from a thread that cannot ignore it
            launch = getattr(self._executor, "_launch_processes", None)
            if launch is not None:
                launch()
            self._started = list(getattr(self._executor, "_processes", {}).values())
        finally:
            if frozen:
                gc.unfreeze()
            signal.signal(signal.SIGINT, previous)

    def __enter__(self) -> Workers:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close(stop=kind is not None)

    def close(self, *, stop: bool = False) -> None:
        """Wait for the workers to end; with ``stop``, end them now."""
        if stop:
            # the executor cannot stop a job begun: its processes are ended here, then its
            # manager thread is waited for (a shutdown without waiting forgets it), so that
            # its queues are let go before the tracker stops
            manager = getattr(self._executor, "_executor_manager_thread", None)
            self._executor.shutdown(wait=False, cancel_futures=True)
            for process in self._started:
                if process.is_alive():
                    process.terminate()
            for process in self._started:
                process.join(5)
            if manager is not None:
                manager.join(10)
            del manager
        self._executor.shutdown(wait=True)
        self._executor = _CLOSED
        if not stop:
            # the executor's queues hold semaphores the tracker knows: let go before it stops.
            # After an error or Ctrl-C, the traceback may still hold them: the tracker is left
            # to end with this process (it does at once), as multiprocessing has it
            gc.collect()
            _stop_tracker()

    def _submitted(
        self, job: Callable[[Any], Any], jobs: Iterable[Any], chunksize: int
    ) -> Iterator[Future[list[Any]]]:
        for chunk in _chunks(jobs, max(1, chunksize)):
            try:
                yield self._executor.submit(_chunk, job, chunk)
            except BrokenProcessPool:
                raise self._died() from None

    def imap(
        self, job: Callable[[Any], Any], jobs: Iterable[Any], chunksize: int = 1
    ) -> Iterator[Any]:
        """Each job's result, in the jobs' order."""
        pending: collections.deque[Future[list[Any]]] = collections.deque()
        feed = self._submitted(job, jobs, chunksize)
        for future in feed:
            pending.append(future)
            if len(pending) >= self.count * AHEAD:
                yield from self._results(pending.popleft())
        while pending:
            yield from self._results(pending.popleft())

    def imap_unordered(
        self, job: Callable[[Any], Any], jobs: Iterable[Any], chunksize: int = 1
    ) -> Iterator[Any]:
        """Each job's result, as the workers finish them."""
        from concurrent.futures import FIRST_COMPLETED, wait

        pending: set[Future[list[Any]]] = set()
        feed = self._submitted(job, jobs, chunksize)
        for future in feed:
            pending.add(future)
            while len(pending) >= self.count * AHEAD:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for finished in sorted(done, key=id):
                    yield from self._results(finished)
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for finished in sorted(done, key=id):
                yield from self._results(finished)

    def _results(self, future: Future[list[Any]]) -> list[Any]:
        try:
            return future.result()
        except BrokenProcessPool:
            raise self._died() from None

    def _died(self) -> WorkerDied:
        """The error naming the worker that died first, and how (the executor ends the
        others with SIGTERM once one is gone)."""
        first = None
        ended: list[Any] = []
        deadline = time.monotonic() + 2.0  # the dead worker's exit code, once the system has it
        while first is None and time.monotonic() < deadline:
            ended = [p for p in self._started if p.exitcode is not None]
            first = next((p for p in ended if p.exitcode != -signal.SIGTERM), None)
            if first is None:
                time.sleep(0.05)
        if first is None:
            first = ended[0] if ended else None
        if first is None:
            who = "a worker process"
        elif first.exitcode is not None and first.exitcode < 0:
            how = signal.Signals(-first.exitcode).name
            who = f"worker process {first.pid} (ended by {how})"
        else:
            who = f"worker process {first.pid} (exit code {first.exitcode})"
        return WorkerDied(
            f"{who} died before finishing its jobs, as when the system kills a process for "
            "want of memory; the run stopped: run it again, with fewer --workers if memory "
            "is short"
        )

    def map(self, job: Callable[[Any], Any], jobs: Iterable[Any], chunksize: int = 1) -> list[Any]:
        """Every job's result, in the jobs' order."""
        return list(self.imap(job, jobs, chunksize))


def _stop_tracker() -> None:
    """End the helper process multiprocessing starts beside spawned workers (its resource
    tracker), and wait for it, so that no process of the run outlives it, not even as a
    zombie where nothing reaps orphans; the next pool starts a new one."""
    from multiprocessing import resource_tracker

    stop = getattr(resource_tracker._resource_tracker, "_stop", None)  # private, 3.11 to 3.13
    if stop is not None:
        stop()


def worker_pool(
    workers: int, setup: Callable[..., object] | None = None, args: tuple[Any, ...] = ()
) -> Workers:
    """Worker processes that leave Ctrl-C to the parent, which stops them; each runs
    ``setup(*args)`` before its first job (``args`` are pickled where the workers are spawned).

    So an interrupted run ends quietly, not with a traceback from every worker. The workers
    are started with Ctrl-C ignored, which a forked process and a new interpreter keep, so even
    one still starting up ignores it; the initializer keeps it so. A Ctrl-C in the instant the
    parent starts them is ignored too.
    """
    return Workers(workers, setup, args)
