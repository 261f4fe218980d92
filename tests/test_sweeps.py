"""Rule sweeps (bolivia sweep): the grid and its derived rulesets, the same deals under every
value, the same bytes from every backend, the store that a stopped sweep resumes from, and
errors that say what is allowed."""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bolivia.cli import cli
from bolivia.compare.statistics import Difference, units_for_precision
from bolivia.rules.library import Library, shipped_library
from bolivia.sweeps.grid import SweepError, derive_variants, parse_axis, parse_range
from bolivia.sweeps.jobs import HAND_FIELDS, Job
from bolivia.sweeps.measures import MeasuredVariant, measure_all, measures_for
from bolivia.sweeps.precision import deals_needed, parse_precision
from bolivia.sweeps.report import render_json, render_markdown, sweep_data
from bolivia.sweeps.run import SweepSpec, plan, run_sweep
from bolivia.sweeps.store import Store, StoreError, engine_fingerprint

ROOT = Path(__file__).resolve().parent.parent
BASE = shipped_library().load("bolivia-da")


def _spec(
    tmp_path: Path,
    vary: list[str],
    deals: int = 4,
    bots: str = "random",
    games: bool = False,
    chunk: int = 2,
) -> SweepSpec:
    axes = tuple(parse_axis(text, BASE) for text in vary)
    variants = derive_variants(BASE, "bolivia-da", axes, tmp_path / "rulesets", Library())
    return SweepSpec(BASE, axes, tuple(variants), (bots,) * 4, 4, games, deals, 5, chunk=chunk)


def _report(spec: SweepSpec, records: list[list[list[int]]]) -> tuple[str, str]:
    measures = measures_for(spec.games, spec.teams, spec.players)
    measured = measure_all(records, spec.base_index, spec.games, spec.teams, measures)
    data = sweep_data(spec, measures, measured, [None] * len(spec.variants))
    return render_json(data), render_markdown(data, {m.name: f"{m.name}.svg" for m in measures})


# --------------------------------------------------------------------------- the grid


def test_a_range_and_a_list_each_include_the_base_value_and_mark_it() -> None:
    ranged = parse_axis("going_out.bonus=300..500/100", BASE)
    assert ranged.values == (200, 300, 400, 500) and ranged.base == 200
    listed = parse_axis(
        "going_out.requirement={rule: canastas, count: 2},{rule: canastas, count: 1}", BASE
    )
    assert listed.values[0] == listed.base == BASE.value("going_out.requirement")
    assert listed.values[1:] == ({"rule": "canastas", "count": 2}, {"rule": "canastas", "count": 1})


def test_a_range_is_written_in_ascii_digits() -> None:
    """Arabic-Indic digits are not read as a range (issue 41): the text goes on as a value,
    which the field then refuses by name."""
    assert parse_range("1..3") == [1, 2, 3]
    assert parse_range("\u0661..\u0663") is None
    assert parse_range("1..\u0663") is None


def test_every_combination_is_a_validated_ruleset_with_its_values(tmp_path: Path) -> None:
    spec = _spec(tmp_path, ["going_out.bonus=100,300", "game.target=10000"])
    assert len(spec.variants) == 2 * 3
    assert [v.is_base for v in spec.variants].count(True) == 1
    for variant in spec.variants:
        if variant.is_base:
            assert variant.ruleset is BASE
            continue
        # the file bolivia new would write, loading back to the same rules
        again = Library([tmp_path / "rulesets"]).load(
            tmp_path / "rulesets" / f"{variant.ruleset.id}.yaml"
        )
        assert again.digest == variant.ruleset.digest
        assert again.value("going_out.bonus") == variant.values[0]
        assert again.value("game.target") == variant.values[1]
        assert again.provenance["going_out.bonus"] is not None


@pytest.mark.parametrize(
    ("vary", "expected"),
    [
        ("going_out.bonsu=100", "did you mean"),
        ("going_out.bonus=abc", "going_out.bonus"),
        ("going_out.bonus=400..100/50", "low value up to a high one"),
        ("going_out.bonus=100..400/0", "step > 0"),
        ("going_out.bonus=0..1000000/1", "more than 100 values"),
        ("going_out.requirement=1..3", "whole-number field"),
        ("going_out.bonus=100,100", "given twice"),
        ("going_out.bonus", "FIELD=V1,V2"),
        ("going_out=1", "going_out"),
    ],
)
def test_a_bad_field_or_value_says_what_and_exits_1(
    tmp_path: Path, vary: str, expected: str
) -> None:
    result = CliRunner().invoke(
        cli,
        [
            "sweep",
            "bolivia-da",
            "--vary",
            vary,
            "--store",
            str(tmp_path / "s.sqlite"),
            "--out",
            str(tmp_path / "out"),
            "--hands",
            "1",
        ],
    )
    assert result.exit_code == 1, result.output
    assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit)
    assert expected in result.stderr and "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_a_value_the_field_refuses_names_the_combination(tmp_path: Path) -> None:
    with pytest.raises(SweepError, match=r"going_out\.bonus=abc: going_out\.bonus: "):
        _spec(tmp_path, ["going_out.bonus=100,abc"])


# --------------------------------------------------------------------------- same deals


def test_every_value_plays_the_same_deals(tmp_path: Path) -> None:
    """A bonus changes no legal move, so random bots play every hand alike under each value:
    the same turns and the same endings, the points apart by the bonus for a hand gone out."""
    spec = _spec(tmp_path, ["going_out.bonus=100,500"], deals=4)
    with Store(tmp_path / "s.sqlite") as store:
        records = run_sweep(spec, store)
    turns, went_out = HAND_FIELDS.index("turns"), HAND_FIELDS.index("went_out")
    points = slice(len(HAND_FIELDS), len(HAND_FIELDS) + 2)
    bonus = [v.values[0] for v in spec.variants]
    for deal in range(spec.deals):
        first = records[0][deal]
        for v, variant in enumerate(records[1:], 1):
            assert variant[deal][turns] == first[turns]
            assert variant[deal][went_out] == first[went_out]
            moved = sum(
                abs(a - b) for a, b in zip(variant[deal][points], first[points], strict=True)
            )
            assert moved == first[went_out] * (bonus[v] - bonus[0])


# --------------------------------------------------------------------------- backends


def test_local_processes_and_a_dask_local_cluster_give_the_same_bytes(tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")
    spec = _spec(tmp_path, ["going_out.bonus=100"], deals=4)
    outputs = []
    for name, options in [
        ("one", {"workers": 1}),
        ("processes", {"workers": 2}),
    ]:
        with Store(tmp_path / f"{name}.sqlite") as store:
            outputs.append(_report(spec, run_sweep(spec, store, **options)))
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=False, dashboard_address=":0"
        ) as cluster,
        Store(tmp_path / "dask.sqlite") as store,
    ):
        outputs.append(_report(spec, run_sweep(spec, store, cluster=cluster)))
    assert outputs[0] == outputs[1] == outputs[2]
    assert json.loads(outputs[0][0])["combinations"][1]["deals"] == 4


# --------------------------------------------------------------------------- the store


class Stop(Exception):
    pass


def _stopping_after(n: int) -> Callable[[Job, float], None]:
    seen: list[Job] = []

    def progress(job: Job, seconds: float) -> None:
        seen.append(job)
        if len(seen) == n:
            raise Stop

    return progress


def test_a_stopped_sweep_resumes_and_replays_nothing_stored(tmp_path: Path) -> None:
    spec = _spec(tmp_path, ["going_out.bonus=100"], deals=6)  # 2 values x 3 chunks
    path = tmp_path / "s.sqlite"
    with Store(path) as store, pytest.raises(Stop):
        run_sweep(spec, store, progress=_stopping_after(2))
    with Store(path) as store:
        kept = {(d, f) for d, f in store.db.execute("SELECT digest, first FROM chunks")}
        assert len(kept) == 2
        ran: list[Job] = []
        resumed = run_sweep(spec, store, progress=lambda job, s: ran.append(job))
    assert len(ran) == 4 and not {(j.ruleset.digest, j.first) for j in ran} & kept
    with Store(tmp_path / "whole.sqlite") as store:
        whole = run_sweep(spec, store)
    assert _report(spec, resumed) == _report(spec, whole)


def test_more_deals_and_more_values_play_only_what_is_new(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite"
    with Store(path) as store:
        run_sweep(_spec(tmp_path, ["going_out.bonus=100"], deals=4), store)
        grown = _spec(tmp_path, ["going_out.bonus=100,300"], deals=6)
        todo = plan(grown, store)
        # the two old values: only the third chunk each; the new value: all three
        assert sorted((j.ruleset.value("going_out.bonus"), j.first) for j in todo.pending) == [
            (100, 4),
            (200, 4),
            (300, 0),
            (300, 2),
            (300, 4),
        ]
        assert todo.stored_deals == (4, 4, 0)


def _stored_then(tmp_path: Path, spec: SweepSpec, change: str) -> Path:
    """A store holding the sweep, then changed by one SQL statement; its path."""
    path = tmp_path / "s.sqlite"
    with Store(path) as store:
        run_sweep(spec, store)
        store.db.execute(change)
        store.db.commit()
    return path


def test_rules_stored_under_an_older_name_are_named_anew_and_not_played_again(
    tmp_path: Path,
) -> None:
    """The chunks are keyed by the rules, not the id: a sweep whose derived ids changed
    (issue 38: ``bolivia-da-going_out.bonus-100`` is now ``bolivia-da.bonus-100``) reuses
    them as they are and gives the rules their new name for ``--status``."""
    spec = _spec(tmp_path, ["going_out.bonus=100"], deals=2)
    path = _stored_then(
        tmp_path, spec, "UPDATE rulesets SET id = 'bolivia-da-going_out.bonus-100', label = 'x'"
    )
    ran: list[Job] = []
    with Store(path) as store:
        run_sweep(spec, store, progress=lambda job, s: ran.append(job))
        named = sorted(s.ruleset for s in store.status())
        labels = sorted(s.label for s in store.status())
    assert ran == []
    assert named == ["bolivia-da", "bolivia-da.bonus-100"]
    assert labels == ["going-out bonus: 100 points", "going-out bonus: 200 points"]


def test_a_games_sweep_measures_hands_per_game_and_wins(tmp_path: Path) -> None:
    spec = _spec(tmp_path, ["game.target=1000"], deals=2, bots="greedy", games=True, chunk=1)
    with Store(tmp_path / "s.sqlite") as store:
        records = run_sweep(spec, store)
    data = json.loads(_report(spec, records)[0])
    low = next(c for c in data["combinations"] if c["values"] == [1000])
    assert low["measures"]["hands_per_game"]["value"] >= 1
    wins = low["measures"]["wins_1"]["value"] + low["measures"]["wins_2"]["value"]
    assert wins <= 1 and low["games_not_over"] == 0


def _sweep_args(
    store: Path, out: Path, hands: str, *more: str, vary: str = "going_out.bonus=300"
) -> list[str]:
    return [
        "sweep",
        "bolivia-da",
        "--vary",
        vary,
        "--hands",
        hands,
        *more,
        "--bots",
        "random",
        "--workers",
        "1",
        "--store",
        str(store),
        "--out",
        str(out),
    ]


def test_the_command_writes_the_report_and_status_reads_the_store(tmp_path: Path) -> None:
    store, out = tmp_path / "s.sqlite", tmp_path / "out"
    args = _sweep_args(store, out, "2")
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.stderr
    data = json.loads((out / "sweep.json").read_text())
    assert [c["base"] for c in data["combinations"]] == [True, False]
    assert (out / "plots" / "went_out.svg").exists() and (out / "sweep.html").exists()
    assert "- 200 points (as the ruleset has it)\n- 300 points" in (out / "sweep.md").read_text()
    assert (out / "rulesets" / f"{data['combinations'][1]['ruleset']}.yaml").exists()
    again = CliRunner().invoke(cli, [*args, "--format", "json"])
    assert "all 2 hands from the store" in again.stderr
    assert (out / "sweep.json").read_text() == json.dumps(data, indent=2) + "\n"
    status = CliRunner().invoke(cli, ["sweep", "--status", "--store", str(store)])
    assert status.exit_code == 0 and "going-out bonus: 300 points" in status.stdout
    assert "bolivia-da.bonus-300" in status.stdout
    assert "2 sets of deals" in status.stdout


def test_ctrl_c_keeps_every_finished_chunk(tmp_path: Path) -> None:
    """The command interrupted by SIGINT (as Ctrl-C sends it) once it has stored a chunk:
    one line, exit 130, and every chunk stored before the signal still there."""
    store = tmp_path / "s.sqlite"
    args = [
        sys.executable,
        "-m",
        "bolivia",
        *_sweep_args(store, tmp_path / "out", "400", "--chunk", "2"),
    ]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    process = subprocess.Popen(args, stderr=subprocess.PIPE, text=True, env=env, cwd=tmp_path)
    deadline = time.monotonic() + 60
    chunks = 0
    while time.monotonic() < deadline and not chunks:
        time.sleep(0.2)
        if store.exists():
            try:
                with sqlite3.connect(store) as db:
                    chunks = db.execute("SELECT COUNT(*) FROM chunks").fetchone()[0]
            except sqlite3.OperationalError:
                pass
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    assert "stopped:" in err and "Traceback" not in err
    with Store(store) as kept:
        assert kept.db.execute("SELECT COUNT(*) FROM chunks").fetchone()[0] >= chunks >= 1


def test_a_store_that_is_not_one_is_an_error(tmp_path: Path) -> None:
    bad = tmp_path / "s.sqlite"
    bad.write_text("not a database " * 100)
    result = CliRunner().invoke(cli, ["sweep", "--status", "--store", str(bad)])
    assert result.exit_code == 1 and "cannot use" in result.stderr


def test_a_base_given_as_a_file_is_found_by_its_derived_rulesets(tmp_path: Path) -> None:
    club = tmp_path / "club" / "our-club.yaml"
    club.parent.mkdir()
    club.write_text(
        "id: our-club\nname: Our club\nextends: bolivia-da\ngame:\n  target: 10000\n"
        "provenance:\n  extends: {house: the club plays bolivia-da}\n"
        "  game.target: {house: agreed}\n"
    )
    args = _sweep_args(tmp_path / "s.sqlite", tmp_path / "out", "1", "--format", "json")
    args[args.index("bolivia-da")] = str(club)
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.stderr
    derived = json.loads((tmp_path / "out" / "sweep.json").read_text())["combinations"][1]
    ruleset = Library([club.parent]).load(tmp_path / "out" / derived["file"])
    assert ruleset.value("game.target") == 10000 and ruleset.value("going_out.bonus") == 300


def test_precision_asks_for_the_deals_the_widest_difference_needs() -> None:
    measures = measures_for(False, 2, 4)
    wanted = parse_precision("turns=0.5", measures, games=False)
    assert wanted.measure.name == "turns" and wanted.half == 0.5
    assert parse_precision("2", measures, games=False).half == pytest.approx(0.02)
    narrow, wide = Difference(1.0, 0.1, 100), Difference(1.0, 0.3, 100)  # sd 1 and 3 a deal

    def variant(d: Difference | None) -> MeasuredVariant:
        return MeasuredVariant({}, {"turns": d}, {}, 100, 0, 0, 0)

    need = deals_needed([variant(None), variant(narrow), variant(wide)], wanted, 100, 10)
    assert need == -(-units_for_precision(0.5, 3.0) // 10) * 10 and need > 100
    assert deals_needed([variant(None), variant(narrow)], wanted, 100, 10) == 100
    with pytest.raises(SweepError, match="no measure 'length'; measures: went_out, turns"):
        parse_precision("length=1", measures, games=False)
    with pytest.raises(SweepError, match="a half-width above 0"):
        parse_precision("turns=-1", measures, games=False)


def test_the_command_plays_on_until_the_precision_is_reached(tmp_path: Path) -> None:
    out = tmp_path / "out"
    # greedy bots go out of about half the hands, each worth 100 more points under 300
    args = _sweep_args(tmp_path / "s.sqlite", out, "10", "--chunk", "5", "--format", "json")
    more = ["--bots", "greedy", "--precision", "points_1=20", "--seed", "0"]  # 10 deals too few
    result = CliRunner().invoke(cli, [*args, *more])
    assert result.exit_code == 0, result.stderr
    assert "needs" in result.stderr and "going on" in result.stderr
    data = json.loads((out / "sweep.json").read_text())
    assert data["deals"] > 10 and data["deals"] % 5 == 0
    difference = data["combinations"][1]["measures"]["points_1"]["difference"]
    assert 0 < difference["high"] - difference["value"] <= 20


# --------------------------------------------------------------------------- the store, hardened


@pytest.mark.parametrize(
    "damage",
    [
        "'{not json'",
        "'[]'",  # no deals
        "'[[1, 1]]'",  # too few fields
        "json_set(records, '$[0][0]', 7)",  # a hand's record counts 7 hands
        "json_set(records, '$[1][3]', -5)",  # negative turns
        "json_set(records, '$[0][1]', 'yes')",  # text where a number goes
        "json_set(records, '$[0][2]', 1.5)",  # not a whole number
    ],
)
def test_a_damaged_chunk_is_played_again_and_replaced(tmp_path: Path, damage: str) -> None:
    """A row that is not the chunk it should be is never read into the report (issue 41)."""
    spec = _spec(tmp_path, ["going_out.bonus=100"], deals=4)
    path = tmp_path / "s.sqlite"
    with Store(path) as store:
        whole = run_sweep(spec, store)
        store.db.execute(f"UPDATE chunks SET records = {damage} WHERE first = 0")
        store.db.commit()
    with Store(path) as store:
        ran: list[Job] = []
        again = run_sweep(spec, store, progress=lambda job, s: ran.append(job))
        assert store.damaged >= len(spec.variants)
    assert sorted(j.first for j in ran) == [0] * len(spec.variants)
    assert again == whole


def test_the_cli_says_damaged_chunks_are_played_again(tmp_path: Path) -> None:
    store = tmp_path / "s.sqlite"
    args = ["sweep", "bolivia-da", "--vary", "going_out.bonus=100", "--hands", "4"]
    args += ["--store", str(store), "--out", str(tmp_path / "out")]
    first = CliRunner().invoke(cli, args)
    assert first.exit_code == 0, first.output
    with sqlite3.connect(store) as db:
        db.execute("UPDATE chunks SET records = '{'")
    second = CliRunner().invoke(cli, [*args[:-1], str(tmp_path / "out2")])
    assert second.exit_code == 0, second.output
    assert "did not read as what they should hold" in second.stderr
    assert (tmp_path / "out" / "sweep.json").read_bytes() == (
        tmp_path / "out2" / "sweep.json"
    ).read_bytes()


def test_chunks_of_other_playing_code_are_not_reused(tmp_path: Path) -> None:
    """The key holds a digest of the code that plays, not the version alone (issue 41)."""
    spec = _spec(tmp_path, ["going_out.bonus=100"], deals=2)
    path = _stored_then(tmp_path, spec, "UPDATE chunks SET engine = '0.1.0'")
    with Store(path) as store:
        assert plan(spec, store).stored_deals == (0, 0)
    fingerprint = engine_fingerprint()
    assert re.fullmatch(r"\d+\.\d+\.\d+\+[0-9a-f]{16}", fingerprint)


def test_a_store_in_use_is_refused_by_name_within_seconds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("bolivia.sweeps.store.LOCK_WAIT", 0.2)
    path = tmp_path / "s.sqlite"
    Store(path).close()
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    try:
        started = time.monotonic()
        with pytest.raises(StoreError, match="in use by another sweep"):
            Store(path)
        assert time.monotonic() - started < 5
    finally:
        other.execute("ROLLBACK")
        other.close()


def test_a_store_that_cannot_be_written_is_refused_before_playing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "s.sqlite"
    Store(path).close()
    connect = sqlite3.connect

    def read_only(target: Any, **options: Any) -> sqlite3.Connection:
        return connect(f"file:{target}?mode=ro", uri=True, **options)

    monkeypatch.setattr("bolivia.sweeps.store.sqlite3.connect", read_only)
    with pytest.raises(StoreError, match="readonly"):
        Store(path)
    with Store(path, write=False) as store:  # --status reads it
        assert store.status() == []


@pytest.fixture
def fake_services() -> Iterator[tuple[str, str]]:
    """Two local services that are not Dask schedulers: one replies with HTTP, one accepts
    and never speaks. Their addresses."""
    sockets = []
    for _ in range(2):
        server = socket.socket()
        server.bind(("127.0.0.1", 0))
        server.listen()
        sockets.append(server)
    held: list[socket.socket] = []

    def serve(server: socket.socket, reply: bytes) -> None:
        with contextlib.suppress(OSError):
            while True:
                conn, _ = server.accept()
                held.append(conn)
                if reply:
                    conn.sendall(reply)

    http = b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n" * 50
    for server, reply in zip(sockets, (http, b""), strict=True):
        threading.Thread(target=serve, args=(server, reply), daemon=True).start()
    yield tuple(f"tcp://127.0.0.1:{s.getsockname()[1]}" for s in sockets)  # type: ignore[misc]
    for s in [*sockets, *held]:
        s.close()


def test_a_service_that_is_no_dask_scheduler_is_named_not_a_traceback(
    tmp_path: Path, fake_services: tuple[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 41: another protocol's reply, and a service that never speaks (2 s here)."""
    monkeypatch.setattr("bolivia.sweeps.backends.CONNECT_WAIT", 2.0)
    talks, silent = fake_services
    said = {
        talks: "did not answer as a Dask scheduler (is it one?",
        silent: "accepted the connection but did not answer as a Dask scheduler within 2 s",
    }
    for address, words in said.items():
        started = time.monotonic()
        store, out = str(tmp_path / "s.sqlite"), str(tmp_path / "out")
        args = ["sweep", "bolivia-da", "--vary", "going_out.bonus=100", "--hands", "2"]
        args += ["--store", store, "--out", out, "--cluster", address]
        result = CliRunner().invoke(cli, args)
        assert result.exit_code == 1 and words in result.stderr, result.output
        assert result.exception is None or isinstance(result.exception, SystemExit)
        assert time.monotonic() - started < 30


# the values a damaged or hostile store may hold in a chunk's records: any SQLite value the
# column takes (it is NOT NULL, and SQLite stores a NaN as NULL: the column cannot hold one)
_STORED = st.one_of(
    st.integers(-(2**63), 2**63 - 1),
    st.floats(allow_nan=False),
    st.binary(max_size=64),
    st.text(max_size=64),
    st.recursive(
        st.one_of(st.integers(-10, 10**6), st.floats(), st.text(max_size=4), st.booleans()),
        lambda inner: st.lists(inner, max_size=6),
        max_leaves=40,
    ).map(json.dumps),
)


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture], deadline=None)
@given(value=_STORED)
def test_any_value_in_a_stored_chunk_is_read_or_played_again(tmp_path: Path, value: Any) -> None:
    """The store's fuzz harness (issue 41): whatever a row's records hold, the store returns the
    chunk's own valid records or says it must be played again; it never raises."""
    spec = _spec(tmp_path, [], deals=2)
    path = tmp_path / "fuzz.sqlite"
    job = spec.jobs(spec.variants[0])[0]
    with Store(path) as store:
        if store.get(job) is None:
            run_sweep(spec, store)
        good = store.get(job)
        assert good is not None
        store.db.execute("UPDATE chunks SET records = ? WHERE first = 0", (value,))
        store.db.commit()
        damaged = store.damaged
        found = store.get(job)
        assert found is None or found == json.loads(value), value
        assert found is not None or store.damaged == damaged + 1
        store.db.execute("UPDATE chunks SET records = ? WHERE first = 0", (json.dumps(good),))
        store.db.commit()
