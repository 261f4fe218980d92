"""Fuzzing ``--cluster`` with services that are not Dask schedulers (issue 41).

Each example serves a drawn script on a local port: bytes of any kind (random, another
protocol's greeting, Dask's own framing with lengths from zero to 2**64 - 1 and payloads that
are not its messages), pauses, and an end (it closes, resets, or holds the connection and
never speaks again). Connecting to it, the sweep's backend either gets a client or (always,
for these) says in one :class:`BackendError` what the service did, within the wait it allows
plus a margin: never another exception, never a hang, and nothing left behind that stops the
next client (the last example connects to a real scheduler, which must still work).

The wait is 1.5 s here (20 s in the command). A few dozen services by default, a few hundred
under ``HYPOTHESIS_PROFILE=thorough``.
"""

from __future__ import annotations

import contextlib
import socket
import struct
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bolivia.sweeps import backends
from bolivia.sweeps.backends import BackendError
from bolivia.text import terminal

distributed = pytest.importorskip("distributed")

WAIT = 1.5
# a Dask message on the wire: its size, then the number of frames, each frame's size, the frames
_sizes = st.one_of(st.integers(0, 64), st.integers(0, 2**64 - 1))


@st.composite
def dask_like(draw: st.DrawFn) -> bytes:
    frames = draw(st.lists(st.binary(max_size=40), max_size=3))
    body = struct.pack("<Q", draw(_sizes) if draw(st.booleans()) else len(frames))
    body += b"".join(
        struct.pack("<Q", draw(_sizes) if draw(st.booleans()) else len(f)) for f in frames
    )
    body += b"".join(frames)
    size = draw(_sizes) if draw(st.booleans()) else len(body)
    return struct.pack("<Q", size) + body[: draw(st.integers(0, len(body)))]


chunks = st.one_of(
    st.binary(max_size=200),
    dask_like(),
    st.sampled_from(
        [
            b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n",
            b"SSH-2.0-OpenSSH_9.2\r\n",
            b"220 mail ESMTP\r\n",
            b"\x16\x03\x01\x00\xa5\x01\x00\x00\xa1\x03\x03",  # a TLS hello's start
            b"-ERR unknown command\r\n",  # Redis
        ]
    ),
)
scripts = st.tuples(
    st.lists(st.tuples(chunks, st.sampled_from([0.0, 0.0, 0.05, 0.3])), max_size=4),
    st.sampled_from(["close", "reset", "hold"]),
)


@contextlib.contextmanager
def serving(script: tuple[list[tuple[bytes, float]], str]) -> Iterator[str]:
    """A local service playing ``script`` to every connection; its address."""
    steps, end = script
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    held: list[socket.socket] = []
    done = threading.Event()

    def play(conn: socket.socket) -> None:
        with conn, contextlib.suppress(OSError):
            for data, pause in steps:
                time.sleep(pause)
                conn.sendall(data)
            if end == "reset":
                conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            if end == "hold":
                held.append(conn)
                done.wait()

    def accept() -> None:
        with contextlib.suppress(OSError):
            while not done.is_set():
                conn, _ = server.accept()
                threading.Thread(target=play, args=(conn,), daemon=True).start()

    threading.Thread(target=accept, daemon=True).start()
    try:
        yield f"tcp://127.0.0.1:{server.getsockname()[1]}"
    finally:
        done.set()
        server.close()
        for conn in held:
            with contextlib.suppress(OSError):
                conn.close()


@settings(
    max_examples=max(10, settings().max_examples // 4),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    deadline=None,
)
@given(script=scripts)
def test_a_service_that_is_no_scheduler_is_named_in_one_line(
    script: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(backends, "CONNECT_WAIT", WAIT)
    with serving(script) as address:
        started = time.monotonic()
        with pytest.raises(BackendError) as raised:
            backends._connect(distributed.Client, address)
        took = time.monotonic() - started
    said = str(raised.value)
    assert said.startswith((address, f"cannot reach the Dask scheduler at {address}")), said
    assert "\n" not in said and terminal(said) == said
    assert took < WAIT + 5, took


def test_after_the_services_a_real_scheduler_is_reached() -> None:
    """Run after the harness in one process: nothing it left behind holds Dask's loop (a
    client abandoned on a silent service once deadlocked every later client)."""
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None
    ) as cluster:
        client = backends._connect(distributed.Client, cluster.scheduler_address)
        client.close()
