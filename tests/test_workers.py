"""Worker processes: results in order, and a worker that dies ends the run at once (issue 41).

The standard library's pool waits forever for the result of a worker killed from outside (as
the system kills one when memory runs out); :mod:`bolivia.play.batch.workers` notices.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from bolivia.play.batch import workers
from bolivia.play.batch.workers import WorkerDied, start_method, worker_pool


def _square(n: int) -> int:
    return n * n


def _dies_at_seven(n: int) -> int:
    if n == 7:
        os.kill(os.getpid(), signal.SIGKILL)
    return n


def test_results_come_in_the_jobs_order_or_as_they_finish() -> None:
    with worker_pool(2) as pool:
        assert list(pool.imap(_square, iter(range(50)), chunksize=3)) == [n * n for n in range(50)]
        assert sorted(pool.imap_unordered(_square, range(20))) == [n * n for n in range(20)]
        assert pool.map(_square, []) == []


@pytest.mark.skipif(sys.platform != "linux", reason="workers fork on Linux only")
def test_workers_fork_from_one_thread_and_are_spawned_beside_others(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with monkeypatch.context() as threads:
        threads.setattr(threading, "active_count", lambda: 1)
        assert start_method() == "fork"
        threads.setattr(threading, "active_count", lambda: 2)
        assert start_method() == "spawn"  # a fork could copy a lock the other thread holds
    release = threading.Event()
    other = threading.Thread(target=release.wait)
    other.start()
    try:
        with worker_pool(2) as pool:
            assert pool.method == "spawn"
            assert pool.map(_square, range(5)) == [0, 1, 4, 9, 16]
    finally:
        release.set()
        other.join()
    # each worker runs the setup before its first job (forked only from one thread: a test
    # process may keep threads an earlier test started)
    for method in ("fork", "spawn") if threading.active_count() == 1 else ("spawn",):
        monkeypatch.setattr(workers, "start_method", lambda method=method: method)
        with worker_pool(2, _remember, (7,)) as pool:
            assert pool.method == method
            assert pool.map(_remembered, range(3)) == [7, 8, 9]


_REMEMBERED: list[int] = []


def _remember(n: int) -> None:
    _REMEMBERED.append(n)


def _remembered(n: int) -> int:
    return _REMEMBERED[-1] + n


def test_a_worker_killed_mid_run_ends_the_run_with_one_clear_error() -> None:
    start = time.monotonic()
    with (
        pytest.raises(WorkerDied, match=r"worker process \d+ \(ended by SIGKILL\) died"),
        worker_pool(2) as pool,
    ):
        list(pool.imap(_dies_at_seven, range(40)))
    assert time.monotonic() - start < 60


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
    return found


def _workers(run: subprocess.Popen[str]) -> list[int]:
    """The run's worker processes, once two have started (within a minute): its children,
    forked or spawned, but for the helper multiprocessing starts beside spawned ones."""
    deadline = time.monotonic() + 60
    workers: list[int] = []
    while len(workers) < 2 and time.monotonic() < deadline and run.poll() is None:
        time.sleep(0.2)
        workers = []
        for p in _children(run.pid):
            try:
                line = Path(f"/proc/{p}/cmdline").read_bytes()
            except OSError:
                continue
            if b"resource_tracker" not in line:
                workers.append(p)
    assert len(workers) >= 2, "the workers did not start"
    return workers


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_simulate_with_a_worker_killed_stops_at_once(tmp_path: Path) -> None:
    """``simulate --workers 2`` with one worker killed from outside: exit 1, one line, no
    traceback, no process left behind."""
    run = subprocess.Popen(
        [sys.executable, "-m", "bolivia", "simulate", "bolivia-da",
         "--hands", "5000", "--workers", "2"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        cwd=tmp_path,
    )  # fmt: skip
    try:
        workers = _workers(run)
        time.sleep(1)
        os.kill(workers[-1], signal.SIGKILL)
        _, err = run.communicate(timeout=60)
    finally:
        if run.poll() is None:
            run.kill()
    assert run.returncode == 1, err
    assert f"worker process {workers[-1]} (ended by SIGKILL) died" in err, err
    assert "Traceback" not in err and len(err.strip().splitlines()[-1]) > 40, err
    assert not [p for p in workers if Path(f"/proc/{p}").exists()], "a worker was left running"


def _group(pgid: int) -> list[int]:
    """The live processes of a process group (zombies are not alive)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[2]) == pgid and fields[0] != "Z":
                found.append(int(entry.name))
    return found


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
@pytest.mark.parametrize("signal_sent", [signal.SIGINT, signal.SIGKILL])
def test_compare_with_workers_stops_at_once_and_leaves_no_process(
    tmp_path: Path, signal_sent: signal.Signals
) -> None:
    """Ctrl-C (to the whole group, as a terminal sends it) or one worker killed, mid-play of
    ``compare --workers 2``: it ends within seconds with one line, and nothing of it stays."""
    run = subprocess.Popen(
        [sys.executable, "-m", "bolivia", "compare", "--hands", "400", "--bots", "expert,greedy",
         "--workers", "2", "--out", str(tmp_path / "out")],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )  # fmt: skip
    try:
        workers = _workers(run)
        time.sleep(2)
        if signal_sent == signal.SIGINT:
            os.killpg(run.pid, signal.SIGINT)
        else:
            os.kill(workers[-1], signal.SIGKILL)
        start = time.monotonic()
        _, err = run.communicate(timeout=60)
        took = time.monotonic() - start
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
    assert run.returncode == (130 if signal_sent == signal.SIGINT else 1), err
    assert "Traceback" not in err, err
    assert took < 30, took
    if signal_sent == signal.SIGKILL:
        assert "died before finishing its jobs" in err, err
    time.sleep(0.5)
    assert _group(run.pid) == [], "a process of the run outlived it"
