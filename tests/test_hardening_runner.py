"""The conformance runner under hostile engines and faults: it never hangs, never prints a
traceback, never loses a result, never passes what it did not check, and shows an engine's
output escaped. Each fake engine is a small Python script written to ``tmp_path``.

Grouped by what is guarded: hangs and process groups; answers matched to requests by id; the
run's deadline and giving up; bounds on answers; nothing checked is not a pass; escaping; the
engine command; Ctrl-C.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from bolivia.cli import cli

ROOT = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
ORACLE = f'"{sys.executable}" -m bolivia oracle'

# every case is answered right by an engine that says legal when a meld has three cards or more
SUITE = """\
suite: hostile
cases:
{cases}
"""
CASE = """\
  - id: {name}
    about: a meld of {count} cards
    op: meld
    input: {{cards: [{cards}]}}
    expect:
      samba: {{legal: {legal}}}
"""


def suite(tmp_path: Path, *counts: int) -> Path:
    """A suite of meld cases named ``c0``, ``c1``, ... of that many eights each."""
    ranks = ["8H", "8S", "8D", "8C"]
    cases = "".join(
        CASE.format(
            name=f"c{i}", count=n, cards=", ".join(ranks[:n]), legal="true" if n >= 3 else "false"
        )
        for i, n in enumerate(counts)
    )
    path = tmp_path / "suite.yaml"
    path.write_text(SUITE.format(cases=cases))
    return path


# the fake engine: hello, then BODY for every other request (``request``, ``send`` and
# ``right(request)``, the right answer, are at hand)
PRELUDE = """\
import json, os, subprocess, sys, time

def send(obj):
    sys.stdout.write(json.dumps(obj) + "\\n")
    sys.stdout.flush()

def right(request):
    legal = len(request.get("cards", [])) >= 3
    return {"id": request.get("id"), "ok": True, "result": {"legal": legal, "kind": "group"}}

RULESETS = ["samba"]
n = 0
for line in sys.stdin:
    request = json.loads(line)
    if request["op"] == "hello":
        send({"id": request["id"], "ok": True,
              "result": {"protocol": 2, "engine": "fake", "rulesets": RULESETS}})
        continue
    n += 1
"""


def engine(tmp_path: Path, body: str, before: str = "", name: str = "engine.py") -> str:
    """The command that runs a fake engine: PRELUDE, with ``before`` ahead of the loop."""
    script = tmp_path / name
    loop = PRELUDE.replace("n = 0\n", "n = 0\n" + textwrap.dedent(before))
    script.write_text(loop + textwrap.indent(textwrap.dedent(body), "    "))
    return f'"{sys.executable}" "{script}"'


def conform(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bolivia", "conform", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
        env=ENV,
        cwd=ROOT,
    )


def conform_here(*args: str) -> subprocess.CompletedProcess[str]:
    """``conform`` in this process (for what fails before an engine runs: fast)."""
    result = CliRunner().invoke(cli, ["conform", *args])
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return subprocess.CompletedProcess(["conform"], result.exit_code, result.stdout, result.stderr)


def last_line(done: subprocess.CompletedProcess[str]) -> str:
    lines = done.stdout.strip().splitlines()
    return lines[-1] if lines else ""


def assert_clean(done: subprocess.CompletedProcess[str]) -> None:
    assert "Traceback" not in done.stderr + done.stdout, done.stderr


def gone(pid: int, within: float = 5.0) -> bool:
    """Whether the process ``pid`` has ended (a zombie waiting for its parent counts)."""
    end = time.monotonic() + within
    while time.monotonic() < end:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except (FileNotFoundError, ProcessLookupError):
            return True
        if state in ("Z", "X"):
            return True
        time.sleep(0.05)
    return False


# --------------------------------------------------------------------------- hangs


def test_an_engine_whose_child_holds_its_output_does_not_hang(tmp_path: Path) -> None:
    """The issue's reproducer: ``sh -c 'sleep 300 & exec bolivia oracle'``."""
    cases = suite(tmp_path, 3, 2)
    started = time.monotonic()
    done = conform(str(cases), "--engine", f"sh -c 'sleep 300 & exec {ORACLE}'", timeout=30)
    assert time.monotonic() - started < 20
    assert done.returncode == 0, done.stdout + done.stderr
    assert last_line(done) == "2 passed, 0 failed"


def test_the_engine_and_every_process_it_started_are_stopped_at_the_end(tmp_path: Path) -> None:
    pidfile = tmp_path / "child.pid"
    spawn = f"""\
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)"])
    open({str(pidfile)!r}, "w").write(str(child.pid))
    """
    command = engine(tmp_path, "send(right(request))", before=spawn)
    done = conform(str(suite(tmp_path, 3)), "--engine", command, timeout=30)
    assert last_line(done) == "1 passed, 0 failed"
    assert gone(int(pidfile.read_text()))


def test_a_restart_stops_the_engine_and_its_children(tmp_path: Path) -> None:
    """A hung engine is restarted; its child holding the pipe must not hang the runner."""
    pids = tmp_path / "pids"
    spawn = f"""\
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)"])
    with open({str(pids)!r}, "a") as f:
        f.write(f"{{child.pid}}\\n")
    """
    body = """\
    if len(request["cards"]) == 2:
        time.sleep(300)
    send(right(request))
    """
    command = engine(tmp_path, body, before=spawn)
    started = time.monotonic()
    done = conform(str(suite(tmp_path, 2, 3, 3)), "--engine", command, "--timeout", "1", timeout=30)
    assert time.monotonic() - started < 20
    assert last_line(done) == "2 passed, 1 failed"
    assert "no answer within 1 s" in done.stdout
    children = [int(p) for p in pids.read_text().split()]
    assert len(children) == 2  # the first engine and the one started after it hung
    assert all(gone(pid) for pid in children)


def test_an_engine_that_does_not_read_its_input_does_not_block_the_runner(tmp_path: Path) -> None:
    """A request larger than the pipe holds, to an engine that never reads it."""
    cards = ", ".join(["8H"] * 15_000)  # ~90 KB as JSON, more than a pipe holds
    path = tmp_path / "big.yaml"
    path.write_text(
        SUITE.format(
            cases=CASE.format(name="big", count="many", cards=cards, legal="false")
            + CASE.format(name="small", count=3, cards="8H, 8S, 8D", legal="true")
        )
    )
    # answers the first line it reads (hello, or a request after a restart), then reads no more
    script = tmp_path / "deaf.py"
    script.write_text(
        PRELUDE.split("n = 0")[0]
        + "request = json.loads(sys.stdin.readline())\n"
        + 'send({"id": "hello", "ok": True, "result": {"protocol": 2, "rulesets": RULESETS}}'
        + ' if request["op"] == "hello" else right(request))\n'
        + "time.sleep(300)\n"
    )
    command = f'"{sys.executable}" "{script}"'
    started = time.monotonic()
    done = conform(str(path), "--engine", command, "--timeout", "1", timeout=30)
    assert time.monotonic() - started < 15
    assert last_line(done) == "1 passed, 1 failed"
    assert_clean(done)


# --------------------------------------------------------------------------- ids


def test_an_answer_with_the_wrong_id_fails_its_case(tmp_path: Path) -> None:
    command = engine(tmp_path, 'send({**right(request), "id": "WRONG"})')
    done = conform(str(suite(tmp_path, 3, 2)), "--engine", command)
    assert done.returncode == 1
    assert last_line(done) == "0 passed, 2 failed"
    assert "FAILED hostile:c0:samba" in done.stdout
    assert "\"WRONG\", not 'hostile:c0:samba'" in done.stdout


def test_an_answer_without_an_id_fails_its_case(tmp_path: Path) -> None:
    body = """\
    answer = right(request)
    del answer["id"]
    send(answer)
    """
    done = conform(str(suite(tmp_path, 3)), "--engine", engine(tmp_path, body))
    assert last_line(done) == "0 passed, 1 failed"
    assert "the answer has no id" in done.stdout


def test_a_request_answered_twice_does_not_shift_later_verdicts(tmp_path: Path) -> None:
    body = """\
    send(right(request))
    if n == 1:
        send(right(request))
    """
    done = conform(str(suite(tmp_path, 3, 2, 3, 2)), "--engine", engine(tmp_path, body))
    assert last_line(done) == "3 passed, 1 failed"
    # the second answer to c0 came while the runner waited for c1's: c1 says so
    assert "FAILED hostile:c1:samba" in done.stdout
    assert "another answer to the earlier request 'hostile:c0:samba'" in done.stdout


def test_answers_after_a_wrong_id_are_not_shifted(tmp_path: Path) -> None:
    """An engine that sends a stray line and then its answer: the answer is set aside as
    stray in the next case, which still gets its own answer."""
    body = """\
    if n == 1:
        send({"id": "WRONG", "ok": True, "result": {}})
    send(right(request))
    """
    done = conform(str(suite(tmp_path, 3, 2, 3)), "--engine", engine(tmp_path, body))
    assert "FAILED hostile:c0:samba" in done.stdout
    assert "FAILED hostile:c2:samba" not in done.stdout
    assert last_line(done) == "1 passed, 2 failed"


# --------------------------------------------------------------------------- deadline, giving up


SILENT = "time.sleep(300)"


def test_a_silent_engine_is_given_up_after_n_timeouts(tmp_path: Path) -> None:
    command = engine(tmp_path, SILENT)
    started = time.monotonic()
    done = conform(
        str(suite(tmp_path, 3, 3, 3, 3, 3, 3)),
        "--engine",
        command,
        "--timeout",
        "0.5",
        "--give-up",
        "2",
    )
    assert time.monotonic() - started < 15
    assert done.returncode == 1
    assert last_line(done) == "0 passed, 2 failed, 4 not run"
    assert "4 not run: gave up on the engine" in done.stdout
    assert_clean(done)


def test_by_default_the_runner_gives_up_after_3_timeouts(tmp_path: Path) -> None:
    done = conform(
        str(suite(tmp_path, *[3] * 6)), "--engine", engine(tmp_path, SILENT), "--timeout", "0.2"
    )
    assert last_line(done) == "0 passed, 3 failed, 3 not run"


def test_skipped_cases_between_timeouts_do_not_reset_the_count(tmp_path: Path) -> None:
    path = suite(tmp_path, *[3] * 4)
    path.write_text(
        path.read_text().replace(
            "samba: {legal: true}", "samba: {legal: true}\n      canasta: {legal: true}"
        )
    )
    done = conform(str(path), "--engine", engine(tmp_path, SILENT), "--timeout", "0.2")
    assert last_line(done) == "0 passed, 3 failed, 2 skipped, 3 not run"


def test_an_engine_that_dies_on_every_request_is_given_up(tmp_path: Path) -> None:
    done = conform(
        str(suite(tmp_path, *[3] * 6)),
        "--engine",
        engine(tmp_path, "sys.exit(4)"),
        "--give-up",
        "2",
    )
    assert last_line(done) == "0 passed, 2 failed, 4 not run"
    assert "exited (status 4)" in done.stdout


def test_a_timeout_between_answers_resets_the_count(tmp_path: Path) -> None:
    body = """\
    if len(request["cards"]) == 2:
        time.sleep(300)
    send(right(request))
    """
    done = conform(
        str(suite(tmp_path, 2, 3, 2, 3)),
        "--engine",
        engine(tmp_path, body),
        "--timeout",
        "1",
        "--give-up",
        "2",
    )
    assert last_line(done) == "2 passed, 2 failed"


def test_the_deadline_stops_the_run_and_says_so(tmp_path: Path) -> None:
    body = """\
    time.sleep(0.3)
    send(right(request))
    """
    started = time.monotonic()
    done = conform(
        str(suite(tmp_path, *[3] * 30)), "--engine", engine(tmp_path, body), "--deadline", "1.5"
    )
    assert time.monotonic() - started < 20
    assert done.returncode == 1
    passed, _, not_run = last_line(done).split(", ")
    assert 1 <= int(passed.split()[0]) <= 9 and not_run.endswith("not run")
    assert "not run: the deadline of 1.5 s passed" in done.stdout


def test_an_engine_slow_to_start_is_given_time_for_hello(tmp_path: Path) -> None:
    """Starting a program takes longer than answering: hello may take 10 s whatever the
    timeout, the cases then only the timeout."""
    command = engine(tmp_path, "send(right(request))", before="time.sleep(1)\n")
    done = conform(str(suite(tmp_path, 3)), "--engine", command, "--timeout", "0.5")
    assert last_line(done) == "1 passed, 0 failed", done.stderr


@pytest.mark.parametrize("option", ["--timeout", "--deadline"])
@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "0", "-1", "1e9", "ten"])
def test_seconds_must_be_finite_positive_and_sane(option: str, value: str, tmp_path: Path) -> None:
    done = conform_here(str(suite(tmp_path, 3)), "--engine", ORACLE, option, value)
    assert done.returncode == 2
    assert_clean(done)
    assert f"Invalid value for '{option}'" in done.stderr


def test_give_up_must_be_a_positive_count(tmp_path: Path) -> None:
    done = conform_here(str(suite(tmp_path, 3)), "--give-up", "0")
    assert done.returncode == 2 and "'--give-up'" in done.stderr


# --------------------------------------------------------------------------- bounds


def test_an_over_long_answer_fails_its_case_and_the_run_goes_on(tmp_path: Path) -> None:
    body = """\
    answer = right(request)
    if len(request["cards"]) == 4:
        answer["padding"] = "x" * (2 * 1024 * 1024)
    send(answer)
    """
    done = conform(str(suite(tmp_path, 4, 3)), "--engine", engine(tmp_path, body))
    assert last_line(done) == "1 passed, 1 failed"
    assert "FAILED hostile:c0:samba" in done.stdout
    assert "longer than 1048576 bytes" in done.stdout
    assert len(done.stdout) < 50_000


def test_an_endless_line_fails_its_case_at_once(tmp_path: Path) -> None:
    body = """\
    if len(request["cards"]) == 4:
        while True:
            sys.stdout.write("x" * 65536)
    send(right(request))
    """
    # the engine never ends its line: only the bound on a line's length (not the timeout, which
    # would say "no answer within 600 s" and come ten minutes later) fails the case
    done = conform(
        str(suite(tmp_path, 4, 3)), "--engine", engine(tmp_path, body), "--timeout", "600"
    )
    assert last_line(done) == "1 passed, 1 failed"
    assert "longer than 1048576 bytes" in done.stdout
    assert "no answer within" not in done.stdout


@pytest.mark.parametrize("depth", [100, 100_000])
def test_a_deeply_nested_answer_fails_its_case(tmp_path: Path, depth: int) -> None:
    body = f"""\
    line = json.dumps(right(request))[:-2] + ', "deep": ' + "[" * {depth} + "]" * {depth} + "}}}}"
    sys.stdout.write(line + "\\n")
    sys.stdout.flush()
    """
    done = conform(str(suite(tmp_path, 3, 3)), "--engine", engine(tmp_path, body))
    assert_clean(done)
    assert last_line(done) == "0 passed, 2 failed"
    assert "nested more than 64 deep" in done.stdout


def test_an_answer_that_is_not_json_fails_its_case(tmp_path: Path) -> None:
    body = """\
    sys.stdout.buffer.write(b"\\xff\\xfe not json\\n" if n == 1 else b"[1, 2]\\n")
    sys.stdout.flush()
    """
    done = conform(str(suite(tmp_path, 3, 3)), "--engine", engine(tmp_path, body))
    assert last_line(done) == "0 passed, 2 failed"
    assert "a line that is not JSON" in done.stdout and "not a response object" in done.stdout


# --------------------------------------------------------------------------- nothing checked


def test_when_every_case_is_skipped_nothing_was_checked(tmp_path: Path) -> None:
    command = engine(tmp_path, "send(right(request))", before='RULESETS = ["other"]\n')
    done = conform(str(suite(tmp_path, 3, 2)), "--engine", command)
    assert done.returncode == 1
    assert last_line(done) == "0 passed, 0 failed, 2 skipped"
    assert "nothing was checked" in done.stderr
    assert "2 skipped: the engine does not claim the ruleset samba (it claims other)" in done.stdout


def test_a_ruleset_no_case_is_for_is_a_usage_error(tmp_path: Path) -> None:
    done = conform_here(str(suite(tmp_path, 3)), "--ruleset", "nosuch", "--ruleset", "samba")
    assert done.returncode == 2
    assert "'--ruleset': no case of the suites is for nosuch" in done.stderr
    assert_clean(done)


# --------------------------------------------------------------------------- escaping


HOSTILE = "\\x1b]0;pwned\\x07 \\x9b31m \\u202egnp.exe \\u2066"


def test_engine_output_in_a_failure_report_is_escaped(tmp_path: Path) -> None:
    body = f"""\
    send({{"id": request["id"], "ok": True, "result": {{"legal": "{HOSTILE}"}}}})
    """
    done = conform(str(suite(tmp_path, 3)), "--engine", engine(tmp_path, body))
    assert last_line(done) == "0 passed, 1 failed"
    for raw in ("\x1b", "\x07", "\x9b", "\u202e", "\u2066"):
        assert raw not in done.stdout
    assert "\\x9b31m \\u202egnp.exe \\u2066" in done.stdout


def test_a_broken_hello_is_one_escaped_line(tmp_path: Path) -> None:
    script = tmp_path / "hello.py"
    script.write_text(
        "import json, sys\n"
        "sys.stdin.readline()\n"
        f'print(json.dumps({{"id": "hello", "ok": True, "result": {{"engine": "{HOSTILE}"}}}}))\n'
    )
    done = conform(str(suite(tmp_path, 3)), "--engine", f'"{sys.executable}" "{script}"')
    assert done.returncode == 1
    assert_clean(done)
    failure, *rest = done.stderr.strip().splitlines()  # the failure, then what was not checked
    assert rest == ["nothing was checked: no case passed or failed"]
    assert "hello" in failure and "\x9b" not in done.stderr and "\u202e" not in done.stderr
    assert "1 not run: the engine's hello failed" in done.stdout  # the report is written


# --------------------------------------------------------------------------- the command


@pytest.mark.parametrize(
    ("command", "says"),
    [
        ('"x', "No closing quotation"),
        ("/no/such/engine --flag", "cannot start '/no/such/engine'"),
        ("", "the engine command is empty"),
        ("   ", "the engine command is empty"),
        (str(ROOT), "cannot start"),  # a folder
    ],
)
def test_an_engine_command_that_cannot_run_is_a_usage_error(
    tmp_path: Path, command: str, says: str
) -> None:
    done = conform_here(str(suite(tmp_path, 3)), "--engine", command)
    assert done.returncode == 2, done.stdout + done.stderr
    assert_clean(done)
    assert "Invalid value for '--engine'" in done.stderr and says in done.stderr
    assert done.stdout == ""


def test_an_engine_that_exits_at_once_is_one_clear_line(tmp_path: Path) -> None:
    done = conform(str(suite(tmp_path, 3)), "--engine", "true")
    assert done.returncode == 1
    assert_clean(done)
    assert done.stderr.strip().splitlines() == [
        "hello: the engine exited (status 0) instead of answering",
        "nothing was checked: no case passed or failed",
    ]
    assert done.stdout.splitlines()[-1] == "0 passed, 0 failed, 1 not run"


# --------------------------------------------------------------------------- Ctrl-C


def test_ctrl_c_reports_what_was_run_stops_the_engine_and_exits_130(tmp_path: Path) -> None:
    pidfile = tmp_path / "engine.pid"
    answered = tmp_path / "answered"
    body = f"""\
    time.sleep(0.1)
    send(right(request))
    open({str(answered)!r}, "a").write("x")
    """
    command = engine(
        tmp_path, body, before=f"open({str(pidfile)!r}, 'w').write(str(os.getpid()))\n"
    )
    runner = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "bolivia",
            "conform",
            str(suite(tmp_path, *[3] * 99)),
            "--engine",
            command,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=ENV,
        cwd=ROOT,
    )
    end = time.monotonic() + 30
    while time.monotonic() < end and len(answered.read_text() if answered.exists() else "") < 2:
        time.sleep(0.05)
    runner.send_signal(signal.SIGINT)
    out, err = runner.communicate(timeout=30)
    assert runner.returncode == 130, out + err
    assert "Traceback" not in err
    passed, failed, not_run = out.strip().splitlines()[-1].split(", ")
    assert int(passed.split()[0]) >= 1 and failed == "0 failed" and not_run.endswith("not run")
    assert "not run: interrupted" in out
    assert gone(int(pidfile.read_text()))


def test_ctrl_c_while_the_engine_starts_exits_130(tmp_path: Path) -> None:
    pidfile = tmp_path / "engine.pid"
    script = tmp_path / "mute.py"
    script.write_text(
        f"import os, time\nopen({str(pidfile)!r}, 'w').write(str(os.getpid()))\ntime.sleep(300)\n"
    )
    command = f'"{sys.executable}" "{script}"'
    runner = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "bolivia",
            "conform",
            str(suite(tmp_path, 3, 3)),
            "--engine",
            command,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=ENV,
        cwd=ROOT,
    )
    end = time.monotonic() + 20
    while not pidfile.exists() and time.monotonic() < end:
        time.sleep(0.05)
    time.sleep(0.2)
    runner.send_signal(signal.SIGINT)
    out, err = runner.communicate(timeout=30)
    assert runner.returncode == 130, out + err
    assert "Traceback" not in err
    assert out.strip().splitlines()[-1] == "0 passed, 0 failed, 2 not run"
    assert "2 not run: interrupted" in out
    assert gone(int(pidfile.read_text()))
