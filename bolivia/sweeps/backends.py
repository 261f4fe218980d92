"""Where a sweep's jobs run: in this process, in local worker processes (the default, no
setup), or on a Dask distributed cluster (``--cluster tcp://HOST:PORT``; the ``cluster``
extra installs Dask). Every backend hands back each job with its records as it finishes, in
whatever order; the sweep stores them and reads them back in the order of the deals, so the
results are the same bytes whatever ran them.

Dask is imported only here, and only when a cluster is asked for. A job's ruleset travels
with it (pickled), so a worker needs the toolkit installed but not the ruleset files.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator, Sequence
from typing import Any

from bolivia.errors import BoliviaError
from bolivia.play.batch.workers import worker_pool
from bolivia.sweeps.jobs import Job, run_job

__all__ = ["BackendError", "Finished", "run_jobs"]

Finished = tuple[Job, list[list[int]], float]  # a job, its records, the seconds it took


CONNECT_WAIT = 20.0  # seconds a scheduler has to answer, however it fails to


class BackendError(BoliviaError):
    """A cluster that cannot be reached or used, named with the reason."""


def _connect(client_type: Any, cluster: Any) -> Any:
    """A Dask client of ``cluster``, or a :class:`BackendError` within :data:`CONNECT_WAIT`.

    The client is made in a thread the sweep waits for: a service that accepts and never
    speaks would hold it for ever. One that speaks another protocol may announce a message of
    exabytes, which Dask tries to allocate; that too is said in words.
    """
    box: dict[str, Any] = {}

    def connect() -> None:
        try:
            box["client"] = client_type(cluster, timeout=f"{CONNECT_WAIT:g}s")
        except Exception as exc:  # every failure is said as the cluster's
            box["error"] = exc

    thread = threading.Thread(target=connect, name="dask-connect", daemon=True)
    thread.start()
    thread.join(CONNECT_WAIT + 1)
    if thread.is_alive():
        raise BackendError(
            f"{cluster} accepted the connection but did not answer as a Dask scheduler within "
            f"{CONNECT_WAIT:g} s"
        )
    error = box.get("error")
    if isinstance(error, (OSError, TimeoutError)):
        raise BackendError(f"cannot reach the Dask scheduler at {cluster}: {error}")
    if isinstance(error, MemoryError):  # a length read off bytes of another protocol
        raise BackendError(
            f"{cluster} did not answer as a Dask scheduler (is it one? its reply announced a "
            "message of impossible size)"
        )
    if error is not None:
        raise BackendError(
            f"{cluster} did not answer as a Dask scheduler (is it one? its answer read as "
            f"{type(error).__name__}: {str(error).splitlines()[0] if str(error) else '-'})"
        )
    return box["client"]


def timed_job(job: Job) -> Finished:
    """Run a job where it is sent; the job, its records and how long it took there."""
    start = time.perf_counter()
    records = run_job(job)
    return job, records, time.perf_counter() - start


def run_jobs(jobs: Sequence[Job], workers: int = 1, cluster: Any = None) -> Iterator[Finished]:
    """Every job run, as each finishes. ``cluster``: a Dask scheduler's address, or a
    ``distributed.Client`` or cluster object (tests pass an in-process LocalCluster)."""
    if not jobs:
        return
    if cluster is not None:
        yield from _on_dask(jobs, cluster)
    elif workers <= 1:
        yield from map(timed_job, jobs)
    else:
        with worker_pool(min(workers, len(jobs))) as pool:
            yield from pool.imap_unordered(timed_job, jobs, chunksize=1)


def _on_dask(jobs: Sequence[Job], cluster: Any) -> Iterator[Finished]:
    try:
        from distributed import Client, as_completed
    except ImportError:
        raise BackendError(
            "--cluster needs Dask: pip install 'bolivia[cluster]' (dask[distributed])"
        ) from None
    own = not isinstance(cluster, Client)
    client = _connect(Client, cluster) if own else cluster
    futures: list[Any] = []
    try:
        # pure=False: a job is run once, never taken from another client's results
        futures = client.map(timed_job, list(jobs), pure=False)
        for future in as_completed(futures):  # type: ignore[no-untyped-call]
            found: Finished = future.result()
            yield found
    finally:
        if futures:
            client.cancel(futures)
        if own:
            client.close()
