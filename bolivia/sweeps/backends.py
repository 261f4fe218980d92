"""Where a sweep's jobs run: in this process, in local worker processes (the default, no
setup), or on a Dask distributed cluster (``--cluster tcp://HOST:PORT``; the ``cluster``
extra installs Dask). Every backend hands back each job with its records as it finishes, in
whatever order; the sweep stores them and reads them back in the order of the deals, so the
results are the same bytes whatever ran them.

Dask is imported only here, and only when a cluster is asked for. A job's ruleset travels
with it (pickled), so a worker needs the toolkit installed but not the ruleset files.
"""

from __future__ import annotations

import asyncio
import socket
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


async def _identity(address: str) -> Any:
    """What the service at ``address`` says it is, asked as Dask asks a scheduler."""
    from distributed.comm.core import connect

    comm = await connect(address, timeout=CONNECT_WAIT)  # type: ignore[no-untyped-call]
    try:
        await comm.write({"op": "identity", "reply": True})
        return await comm.read()
    finally:
        comm.abort()


def _reach(address: str) -> None:
    """A :class:`BackendError` unless a TCP connection to ``address`` opens within
    :data:`CONNECT_WAIT` (other transports are left to Dask)."""
    from distributed.comm.addressing import parse_address, parse_host_port

    scheme, where = parse_address(address)
    if scheme != "tcp":
        return
    try:
        host, port = parse_host_port(where)
        socket.create_connection((host, port), timeout=CONNECT_WAIT).close()
    except (OSError, ValueError) as error:
        why = getattr(error, "strerror", None) or str(error) or type(error).__name__
        raise BackendError(f"cannot reach the Dask scheduler at {address}: {why}") from None


def _check_scheduler(address: str) -> None:
    """A :class:`BackendError` within :data:`CONNECT_WAIT` unless ``address`` answers as a Dask
    scheduler does (its identity, ``type: Scheduler``).

    Asked in an event loop of its own, which ends with the question, before any Dask client is
    made: a client left waiting on a service that never speaks is not only a hang, it holds
    Dask's shared loop so that no later client starts. One that speaks another protocol may
    announce a message of exabytes, which Dask tries to allocate; that too is said in words.
    """
    from distributed.comm.core import CommClosedError

    _reach(address)
    silent = BackendError(
        f"{address} accepted the connection but did not answer as a Dask scheduler within "
        f"{CONNECT_WAIT:g} s"
    )
    try:
        said = asyncio.run(asyncio.wait_for(_identity(address), CONNECT_WAIT + 0.5))
    except CommClosedError:  # reached, then closed or reset before it answered
        raise BackendError(
            f"{address} closed the connection without answering as a Dask scheduler (is it one?)"
        ) from None
    except MemoryError:  # a length read off bytes of another protocol
        raise BackendError(
            f"{address} did not answer as a Dask scheduler (is it one? its reply announced a "
            "message of impossible size)"
        ) from None
    except OSError as error:  # Dask's own time limit, or ours
        if isinstance(error, TimeoutError) or "Timed out" in str(error):
            raise silent from None
        raise BackendError(f"{address} did not answer as a Dask scheduler: {error}") from None
    except Exception as error:  # every other failure is said as the service's
        first = str(error).splitlines()[0] if str(error) else "-"
        raise BackendError(
            f"{address} did not answer as a Dask scheduler (is it one? its answer read as "
            f"{type(error).__name__}: {first})"
        ) from None
    if not isinstance(said, dict) or said.get("type") != "Scheduler":
        kind = said.get("type") if isinstance(said, dict) else type(said).__name__
        raise BackendError(
            f"{address} answered, but not as a Dask scheduler (it says it is {kind!s:.60})"
        )


def _connect(client_type: Any, cluster: Any) -> Any:
    """A Dask client of ``cluster``, or a :class:`BackendError` within :data:`CONNECT_WAIT`
    (twice that at most, for a scheduler that answers who it is and then stops)."""
    if isinstance(cluster, str):
        _check_scheduler(cluster)
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
            f"{cluster} answered as a Dask scheduler, then did not let a client connect "
            f"within {CONNECT_WAIT:g} s"
        )
    error = box.get("error")
    if error is not None:
        raise BackendError(f"cannot connect to the Dask scheduler at {cluster}: {error}")
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
