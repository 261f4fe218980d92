"""The progress display of long commands: an honest time left, and counts when piped."""

from __future__ import annotations

import io

from bolivia.console import Progress


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_piped_it_prints_a_line_every_tenth_and_no_estimate_before_the_rate_is_known() -> None:
    stream, clock = io.StringIO(), Clock()
    meter = Progress(200, "hands", stream=stream, clock=clock)
    clock.now = 60.0  # a minute of work before the first hand: no part of the rate
    meter.update(1)
    assert "left" not in stream.getvalue()
    for _ in range(199):
        clock.now += 0.5
        meter.update(1)
    lines = stream.getvalue().splitlines()
    assert 9 <= len(lines) <= 11, lines
    assert lines[-1].startswith("200 of 200 hands (100%)")
    middle = next(line for line in lines if line.startswith("100 of 200"))
    assert "about 50 s left" in middle  # 100 hands at 2 a second, not 160 s of wall time


def test_piped_it_prints_at_least_every_few_seconds() -> None:
    stream, clock = io.StringIO(), Clock()
    meter = Progress(10_000, "hands", stream=stream, clock=clock, every=5.0)
    for _ in range(30):
        clock.now += 1.0
        meter.update(1)
    assert len(stream.getvalue().splitlines()) >= 5


def test_more_work_than_planned_grows_the_total_and_measures_its_own_rate() -> None:
    """compare --precision: the first deals done, the precision asks for more; the line does
    not stay at 100% with 0 s left while they are played (issue 41)."""
    stream, clock = io.StringIO(), Clock()
    meter = Progress(100, "deals", stream=stream, clock=clock)
    for _ in range(100):
        clock.now += 0.1
        meter.update(1)
    assert stream.getvalue().splitlines()[-1].startswith("100 of 100 deals (100%)")
    meter.extend(300, "the precision asks 400 deals per column: 300 more")
    assert stream.getvalue().splitlines()[-1] == "the precision asks 400 deals per column: 300 more"
    for _ in range(150):
        clock.now += 1.0  # the new deals go ten times slower
        meter.update(1)
    middle = stream.getvalue().splitlines()[-1]
    assert middle.startswith("250 of 400 deals (62%)"), middle
    # 149 deals in 150 s since the precision asked: about 151 s for the 150 left (at the old
    # rate it would say 15 s)
    assert middle.endswith("about 2 min 31 s left"), middle
