"""Where a sweep's jobs run: in this process, in local worker processes (the default, no
setup), or on a Dask distributed cluster (``--cluster tcp://HOST:PORT``; the ``cluster``
extra installs Dask). Every backend hands back each job with its records as it finishes, in
whatever order; the sweep stores them and reads them back in the order of the deals, so the
results are the same bytes whatever ran them.

Dask is imported only here, and only when a cluster is asked for. A job's ruleset travels
with it (pickled), so a worker needs the toolkit installed but not the ruleset files.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from typing import Any

from bolivia.errors import BoliviaError
from bolivia.play.batch.simulate import worker_pool
from bolivia.sweeps.jobs import Job, run_job

__all__ = ["BackendError", "Finished", "run_jobs"]

Finished = tuple[Job, list[list[int]], float]  # a job, its records, the seconds it took


class BackendError(BoliviaError):
    """A cluster that cannot be reached or used, named with the reason."""


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
    try:
        client = Client(cluster, timeout="20s") if own else cluster  # type: ignore[no-untyped-call]
    except (OSError, TimeoutError, ValueError) as exc:
        raise BackendError(f"cannot reach the Dask scheduler at {cluster}: {exc}") from None
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
