"""Hardening what the toolkit writes, under hostile input and faults: each test is a reproducer
that failed on the code before it was fixed.

1. Markdown injection: ruleset text never becomes a link, a heading or a table cell.
2. Escape sequences: ruleset data and user text reach the terminal escaped.
3. Write errors: one clear line, never a traceback; every file is written whole or not at all;
   a replay folder never keeps stale replays.
4. Bounds: a huge run is refused by a documented maximum, and a run streams its jobs.
5. The entry point: Ctrl-C exits 130 and a closed standard output 141, both quietly.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import resource
import signal
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import markdown as markdown_lib
import pytest
import yaml
from click.testing import CliRunner, Result

from bolivia.authoring.rulebook import render_rulebook
from bolivia.cli import cli, main
from bolivia.compare.findings import Comparison, build
from bolivia.compare.report import render_html, render_markdown, write_report
from bolivia.rules.library import Library, LibrarySpec
from bolivia.verify.oracle import Oracle

RUNNER = CliRunner()
OSC = "\x1b]0;owned\x07"
LINK = "(javascript:alert(1))"
EVIL = {
    "name": rf"\[x\]{LINK}",
    "notes": rf"# Heading \[y\]{LINK} a \| b",
    "reason": rf"\[w\]{LINK} \| cell",
    "canasta": rf"\[n\]{LINK} \| x",
}


def invoke(*args: str) -> Result:
    result = RUNNER.invoke(cli, list(args))
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception  # a traceback: the bug these tests are about
    return result


def bolivia(*args: str, **options: Any) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bolivia", *args],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
        **options,
    )


def one_line(stderr: str) -> str:
    """The one line an error is; a progress bar's label (``bolivia-da: hands``) and blank lines
    (the one that ends the terminal's ``^C``) aside."""
    assert "Traceback" not in stderr, stderr
    lines = [line for line in stderr.splitlines() if line.strip() and not line.endswith(": hands")]
    assert len(lines) == 1, stderr
    return lines[0]


def write_ruleset(folder: Path, text: str, name: str = "evil.yaml") -> Path:
    path = folder / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def evil(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A house ruleset whose name, notes, reasons and canasta name hold escaped brackets."""
    data = {
        "id": "evil",
        "extends": "bolivia-da",
        "name": EVIL["name"],
        "notes": EVIL["notes"],
        "canastas": {"natural": {"name": EVIL["canasta"]}},
        "going_out": {"bonus": 150},
        "provenance": {
            "extends": {"house": EVIL["reason"]},
            "going_out.bonus": {"house": EVIL["reason"]},
            "canastas.natural.name": {"house": EVIL["reason"]},
        },
    }
    path = tmp_path_factory.mktemp("evil") / "evil.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    return path


# --------------------------------------------------------------------------- 1. Markdown


def _rulebook_html(path: Path) -> str:
    return render_rulebook(Library([path.parent]).load(path), "html")


def test_escaped_brackets_make_no_link_in_the_rulebook(evil: Path) -> None:
    page = _rulebook_html(evil)
    assert "<a " not in page and 'href="javascript' not in page
    assert r"\[x\]" + LINK in page  # shown as written


def test_notes_starting_with_a_hash_make_no_heading(evil: Path) -> None:
    page = _rulebook_html(evil)
    assert page.count("<h1") == 1  # the title only
    assert "# Heading" in page


def test_an_escaped_pipe_does_not_split_a_table_cell(evil: Path) -> None:
    page = _rulebook_html(evil)
    rows = re.findall(r"<tr>(.*?)</tr>", page, re.S)
    row = next(row for row in rows if "natural group (no wild card)" in row)
    cells = re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row)  # the row's header, then its cells
    assert len(cells) == 4 and cells[1] == rf"\[n\]{LINK} \| x (house rule)", row


@pytest.fixture(scope="module")
def comparison(evil: Path) -> Comparison:
    library = Library([evil.parent])
    return build(
        [library.load("bolivia-da"), library.load(evil)],
        hands=10,
        games=0,
        bots=("expert", "greedy"),  # the escaping, not the search's play, is tested here
        seed=1,
        workers=1,
        oracle=Oracle(library),
        where=LibrarySpec((str(evil.parent),)),
    )


def test_escaped_brackets_make_no_link_in_the_report(comparison: Comparison) -> None:
    text = render_markdown(comparison, {})
    rendered = markdown_lib.markdown(text, extensions=["tables"])
    assert 'href="javascript' not in rendered
    assert "<h1" not in rendered.split("<h2", 1)[1]  # notes make no heading
    assert 'href="javascript' not in render_html(comparison, {})


def test_safe_html_shows_unsafe_markup_as_text() -> None:
    from bolivia.text import safe_html

    fragment = '<p id="a">x <a href="javascript:y">z</a><script>w</script><img src=x onerror=v>'
    assert str(safe_html(fragment)) == (
        '<p id="a">x &lt;a href=&quot;javascript:y&quot;&gt;z&lt;/a&gt;'
        "&lt;script&gt;w&lt;/script&gt;&lt;img src=x onerror=v&gt;"
    )


# --------------------------------------------------------------------------- 2. terminal


@pytest.fixture
def osc(tmp_path: Path) -> Path:
    """A ruleset whose name, notes and reason hold an OSC sequence, a C1 CSI, DEL and a bidi
    override."""
    write_ruleset(
        tmp_path,
        r"""
        id: osc
        extends: bolivia-da
        name: "Club \e]0;owned\a \x9b31m \u202eevil \x7f"
        notes: "notes \e]8;;http://x\e\\"
        provenance:
          extends: {house: "why \e[2J"}
        """,
        "osc.yaml",
    )
    return tmp_path


RAW = ("\x1b", "\x07", "\x9b", "\u202e", "\x7f")


def assert_escaped(text: str) -> None:
    assert not [c for c in RAW if c in text], repr(text)


def test_rulesets_prints_ruleset_names_escaped(osc: Path) -> None:
    result = invoke("rulesets", "--rulesets", str(osc))
    assert result.exit_code == 0
    assert_escaped(result.stdout)
    assert r"Club \x1b]0;owned\x07 \x9b31m \u202eevil \x7f" in result.stdout


def test_rulesets_json_is_the_same_data_written_safely(osc: Path) -> None:
    result = invoke("rulesets", "--rulesets", str(osc), "--json")
    assert_escaped(result.stdout)
    row = next(r for r in json.loads(result.stdout)["rulesets"] if r["id"] == "osc")
    assert row["name"] == "Club \x1b]0;owned\x07 \x9b31m \u202eevil \x7f"


@pytest.mark.parametrize("form", [[], ["--json"], ["--standalone"]])
def test_show_prints_ruleset_text_escaped(osc: Path, form: list[str]) -> None:
    result = invoke("show", str(osc / "osc.yaml"), *form)
    assert result.exit_code == 0
    assert_escaped(result.stdout)


def test_show_standalone_escaped_still_loads_back(osc: Path, tmp_path: Path) -> None:
    flat = tmp_path / "flat"
    flat.mkdir()
    result = invoke("show", str(osc / "osc.yaml"), "--standalone")
    (flat / "osc.yaml").write_text(result.stdout, encoding="utf-8")
    again = Library([flat]).load(flat / "osc.yaml")
    original = Library([osc]).load(osc / "osc.yaml")
    assert (again.name, again.notes, again.rules) == (original.name, original.notes, original.rules)


def test_a_line_break_in_a_name_injects_no_key_into_show_standalone(tmp_path: Path) -> None:
    write_ruleset(
        tmp_path,
        """
        id: nl
        extends: bolivia-da
        name: "Club\\nextends: canasta"
        provenance:
          extends: {house: ours}
        """,
        "nl.yaml",
    )
    shown = invoke("show", str(tmp_path / "nl.yaml"), "--standalone").stdout
    flat = tmp_path / "flat"
    flat.mkdir()
    (flat / "nl.yaml").write_text(shown, encoding="utf-8")
    again = Library([flat]).load(flat / "nl.yaml")
    assert again.extends is None and again.name == "Club\nextends: canasta"


def test_validate_prints_a_key_path_escaped(tmp_path: Path) -> None:
    path = write_ruleset(
        tmp_path,
        """
        id: bad
        extends: bolivia-da
        going_out: {"bonus\\e]0;owned\\a": 1}
        provenance:
          extends: {house: ours}
        """,
        "bad.yaml",
    )
    result = invoke("validate", str(path))
    assert result.exit_code == 1
    assert_escaped(result.stderr)
    assert r"bonus\x1b]0;owned\x07" in result.stderr


def test_a_usage_error_quoting_the_command_line_is_escaped(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["compare", "--format", f"md,{OSC}"]) == 2
    err = capsys.readouterr().err
    assert_escaped(err)
    assert r"(not \x1b]0;owned\x07)" in err


def test_new_prints_the_file_it_wrote_escaped(tmp_path: Path) -> None:
    result = invoke("new", "club", "--from", "bolivia-da", "--out", str(tmp_path / f"a{OSC}.yaml"))
    assert result.exit_code == 0
    assert_escaped(result.stdout)


# --------------------------------------------------------------------------- 3. writing


def unwritable(tmp_path: Path) -> list[Path]:
    """Places no one can write, root included."""
    (tmp_path / "file").write_text("a file, not a folder", encoding="utf-8")
    return [Path("/proc/x"), Path("/nonexistent/dir/x"), tmp_path / "file" / "x"]


@pytest.mark.parametrize(
    "command",
    [
        ["rulebook", "bolivia-da", "--out"],
        ["rulebook", "bolivia-da", "--format", "html", "--out"],
        ["schema", "--out"],
        ["new", "club", "--from", "bolivia-da", "--out"],
    ],
)
def test_a_file_that_cannot_be_written_is_one_line(tmp_path: Path, command: list[str]) -> None:
    for place in unwritable(tmp_path):
        if place.parts[1] == "nonexistent":
            continue  # the folder is made (test_a_missing_folder_is_made)
        result = invoke(*command, str(place))
        assert result.exit_code == 1, (place, result.stderr)
        assert one_line(result.stderr).startswith("cannot "), result.stderr


@pytest.mark.parametrize(
    "command",
    [
        ["rulebook", "bolivia-da", "--out"],
        ["schema", "--out"],
        ["new", "club", "--from", "bolivia-da", "--out"],
    ],
)
def test_a_missing_folder_is_made(tmp_path: Path, command: list[str]) -> None:
    place = tmp_path / "a" / "b" / "c.md"
    result = invoke(*command, str(place))
    assert result.exit_code == 0, result.stderr
    assert place.is_file()


@pytest.mark.parametrize("option", ["--out", "--suite"])
def test_compare_refuses_a_place_it_cannot_write_before_it_works(
    tmp_path: Path, option: str
) -> None:
    for place in [Path("/proc/x"), tmp_path / "file" / "x"]:
        (tmp_path / "file").write_text("a file", encoding="utf-8")
        target = place / "suite.yaml" if option == "--suite" else place
        started = time.monotonic()
        result = invoke(
            *("compare", "bolivia-zh", "bolivia-ko", "--hands", "10", "--bots", "greedy"),
            *("--out", str(tmp_path)),
            *(option, str(target)),
        )
        assert result.exit_code == 1, result.stderr
        assert one_line(result.stderr).startswith("cannot "), result.stderr
        assert time.monotonic() - started < 30  # refused at once, not after the comparison


def test_replays_into_something_not_a_folder_is_a_usage_error() -> None:
    done = bolivia("simulate", "bolivia-da", "--hands", "2", "--replays", "/dev/null")
    assert done.returncode == 2
    assert "Traceback" not in done.stderr and "not a folder" in done.stderr


def full_device() -> Path:
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full here")
    return Path("/dev/full")


@pytest.mark.parametrize(
    "command", [["schema", "--out"], ["rulebook", "bolivia-da", "--format", "html", "--out"]]
)
def test_a_full_device_is_one_line(command: list[str]) -> None:
    result = invoke(*command, str(full_device()))
    assert result.exit_code == 1
    assert one_line(result.stderr) == "cannot write /dev/full: No space left on device"


@pytest.mark.parametrize("command", [["show", "bolivia-da"], ["rulesets"], ["sources"]])
def test_standard_output_on_a_full_device_is_one_line(command: list[str]) -> None:
    with full_device().open("w") as stdout:
        done = subprocess.run(
            [sys.executable, "-m", "bolivia", *command],
            stdout=stdout,
            stderr=subprocess.PIPE,
            text=True,
            timeout=600,
            check=False,
        )
    assert done.returncode == 1
    assert "No space left on device" in one_line(done.stderr)


@contextmanager
def file_size_limit(size: int) -> Iterator[None]:
    """Writes past ``size`` bytes fail (EFBIG), as on a full disk."""
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    previous = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (size, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
        signal.signal(signal.SIGXFSZ, previous)


def test_a_full_disk_leaves_the_older_report_whole(comparison: Comparison, tmp_path: Path) -> None:
    from bolivia.output import OutputError

    out = tmp_path / "report"
    write_report(comparison, out, ["md", "html", "json"])
    older = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    html_size = (out / "comparison.html").stat().st_size
    changed = dataclasses.replace(comparison, seed=99)  # other bytes
    with file_size_limit(html_size // 2), pytest.raises(OutputError, match="cannot write"):
        write_report(changed, out, ["md", "html", "json"])
    assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file()} == older


def _limited(size: int) -> None:
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (size, resource.getrlimit(resource.RLIMIT_FSIZE)[1]))


def test_a_full_disk_leaves_no_truncated_replay(tmp_path: Path) -> None:
    folder = tmp_path / "replays"
    done = bolivia(
        *("simulate", "bolivia-da", "--hands", "2", "--replays", str(folder)),
        preexec_fn=lambda: _limited(3000),
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
    )
    assert done.returncode == 1
    assert "File too large" in one_line(done.stderr)
    assert list(folder.iterdir()) == []  # no truncated replay, no temporary file


def test_a_reused_replay_folder_keeps_no_stale_replay(tmp_path: Path) -> None:
    folder = tmp_path / "replays"
    first = bolivia("simulate", "bolivia-da", "--hands", "3", "--replays", str(folder))
    assert first.returncode == 0, first.stderr
    done = bolivia("simulate", "bolivia-da", "--hands", "1", "--replays", str(folder))
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in folder.iterdir()) == ["hand-000000.jsonl"]
    assert "replacing the 3 files of an earlier run" in done.stderr


def test_a_replay_folder_holding_other_files_is_refused(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("mine", encoding="utf-8")
    done = bolivia("simulate", "bolivia-da", "--hands", "1", "--replays", str(tmp_path))
    assert done.returncode == 2
    assert "notes.txt" in done.stderr and "which the run replaces" in done.stderr
    assert [p.name for p in tmp_path.iterdir()] == ["notes.txt"]


def test_a_file_named_as_a_replay_in_other_digits_is_not_a_replay(tmp_path: Path) -> None:
    """Arabic-Indic digits are digits to Python's ``\\d``; a file so named is the user's, never
    a replay of an earlier run to delete (issue 41)."""
    from bolivia.output import OutputError
    from bolivia.play.batch.simulate import REPLAY_NAME, prepare_replays

    name = "hand-\u0661\u0662\u0663\u0664\u0665\u0666.jsonl"
    (tmp_path / name).write_text("mine", encoding="utf-8")
    assert REPLAY_NAME.fullmatch("hand-000001.jsonl") and not REPLAY_NAME.fullmatch(name)
    with pytest.raises(OutputError, match="which the run replaces"):
        prepare_replays(tmp_path)
    assert [p.name for p in tmp_path.iterdir()] == [name]


def test_written_files_are_whole_or_not_at_all(tmp_path: Path) -> None:
    from bolivia.output import OutputError, write_files, write_text

    older = tmp_path / "a.txt"
    older.write_text("older", encoding="utf-8")
    older.chmod(0o640)
    (tmp_path / "b.txt").mkdir()
    with pytest.raises(OutputError, match=r"cannot write .*b\.txt: it is a folder"):
        write_files({older: "newer", tmp_path / "b.txt": "x"})
    assert older.read_text(encoding="utf-8") == "older"  # staged, never replaced
    write_text(older, "newer")
    assert older.read_text(encoding="utf-8") == "newer" and older.stat().st_mode & 0o777 == 0o640
    link = tmp_path / "link.txt"
    link.symlink_to(older)
    write_text(link, "through the link")
    assert link.is_symlink() and older.read_text(encoding="utf-8") == "through the link"
    write_text(Path(os.devnull), "to a device, directly")
    assert Path(os.devnull).is_char_device()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt", "b.txt", "link.txt"]


# --------------------------------------------------------------------------- 4. bounds


def _memory_limit() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (2 << 30, resource.getrlimit(resource.RLIMIT_AS)[1]))


@pytest.mark.parametrize("option", ["--hands", "--games"])
def test_simulate_refuses_more_than_its_maximum(option: str) -> None:
    done = bolivia("simulate", "bolivia-da", option, "100000000000", preexec_fn=_memory_limit)
    assert done.returncode == 2, done.stderr[-2000:]
    assert "Traceback" not in done.stderr and "1<=x<=1000000" in done.stderr


def test_the_maxima_are_in_the_help() -> None:
    assert "at most 1,000,000" in " ".join(invoke("simulate", "--help").stdout.split())
    assert "at most 100,000" in " ".join(invoke("compare", "--help").stdout.split())


def test_compare_refuses_more_hands_than_its_maximum() -> None:
    done = bolivia("compare", "--hands", "100000000000", preexec_fn=_memory_limit)
    assert done.returncode == 2, done.stderr[-2000:]
    assert "Traceback" not in done.stderr and "10<=x<=100000" in done.stderr


STREAM = """
from bolivia.play.batch import simulate
from bolivia.play.batch.simulate import HandStats, RunSpec, run
from bolivia.rules.library import LibrarySpec

def job(args):
    spec, index = args
    stats = HandStats(index, 0, "went_out", True, 10, 5, True, {}, [1, 2], 0)
    return {"hands": [stats], "game": None}

class Enough(Exception):
    pass

done = []
def progress(n):
    done.append(n)
    if len(done) == 2000:
        raise Enough

simulate.hand_job = job
try:
    spec = RunSpec("bolivia-da", LibrarySpec(), 4, ("greedy",) * 4, 0, hands=10**11)
    run(spec, progress=progress)
except Enough:
    print("streamed", len(done))
"""


def test_a_run_streams_its_jobs() -> None:
    done = subprocess.run(
        [sys.executable, "-c", STREAM],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
        preexec_fn=_memory_limit,
    )
    assert done.stdout.strip() == "streamed 2000", done.stderr[-2000:]


# --------------------------------------------------------------------------- 5. entry point


LONG_RUN = ["simulate", "bolivia-da", "--hands", "100000", "--workers", "2"]


def test_ctrl_c_exits_130_quietly() -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "bolivia", *LONG_RUN],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own process group, as a terminal's Ctrl-C reaches
    )
    assert process.stderr is not None
    seen: list[str] = []
    reader = threading.Thread(target=lambda: seen.extend(process.stderr or []), daemon=True)
    reader.start()
    deadline = time.monotonic() + 300
    while not any("bolivia-da: hands" in line for line in seen) and time.monotonic() < deadline:
        time.sleep(0.1)
    time.sleep(3)  # the workers are playing
    os.killpg(process.pid, signal.SIGINT)
    assert process.wait(timeout=120) == 130
    reader.join(timeout=30)
    process.stderr.close()
    assert process.stdout is not None
    process.stdout.close()
    assert one_line("".join(seen).replace("\r", "\n")) == "interrupted", "".join(seen)


def test_ctrl_c_in_any_command_exits_130(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def interrupted(*_: object, **__: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr("bolivia.rules.library.Library", interrupted)  # where commands build it
    assert main(["rulesets"]) == 130
    assert capsys.readouterr().err.strip() == "interrupted"


@pytest.mark.parametrize("command", [["show", "bolivia-da"], ["sources", "--claims"]])
def test_a_closed_standard_output_exits_141_quietly(command: list[str]) -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "bolivia", *command],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None and process.stderr is not None
    process.stdout.close()  # the reader has gone, as `| head` does
    stderr = process.stderr.read()
    process.stderr.close()
    assert process.wait(timeout=120) == 141
    assert stderr == ""


def test_replay_prints_a_hostile_file_name_escaped(tmp_path: Path) -> None:
    path = tmp_path / f"hand{OSC}.jsonl"
    path.write_text('{"not": "a replay"}\n', encoding="utf-8")
    result = invoke("replay", str(path))
    assert result.exit_code == 1
    assert_escaped(result.stdout + result.stderr)


@pytest.mark.parametrize("notes", ["\u2028\\", "a  b " * 30, " lead", "x\u2029y\x85z"])
def test_show_standalone_reads_back_any_notes(tmp_path: Path, notes: str) -> None:
    """Found by the fuzz file (thorough): a line break YAML knows but ``textwrap`` does not
    (U+2028) broke the folded block of the notes; spaces a fold loses changed them."""
    import dataclasses as dc

    from bolivia.rules.rendering import standalone_yaml

    original = dc.replace(Library().load("bolivia-da"), name=f"n{OSC}", notes=notes)
    (tmp_path / "flat.yaml").write_text(standalone_yaml(original), encoding="utf-8")
    again = Library([tmp_path]).load(tmp_path / "flat.yaml")
    assert (again.name, again.notes) == (original.name, notes)


def test_templates_compiled_once_are_read_back_and_an_unusable_cache_is_passed_over(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The report's templates, compiled once, are read from the cache folder by the next
    command (which then compiles nothing), kept apart by autoescaping; a cache folder that
    cannot be made leaves the templates compiled as without one."""
    import jinja2

    from bolivia.compare.report import report_environment

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    names = {False: "report.md.j2", True: "report.html.j2"}
    first = {auto: report_environment(autoescape=auto).get_template(name)
             for auto, name in names.items()}  # fmt: skip
    assert len(list((tmp_path / "cache" / "bolivia" / "templates").iterdir())) == 2

    def compiles(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("compiled again")

    with monkeypatch.context() as patched:
        patched.setattr(jinja2.Environment, "compile", compiles)
        for auto, name in names.items():
            again = report_environment(autoescape=auto).get_template(name)
            assert again.root_render_func.__code__ == first[auto].root_render_func.__code__

    (tmp_path / "file").write_text("not a folder")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "file"))
    made = report_environment(autoescape=True).get_template(names[True])
    assert made.root_render_func.__code__ == first[True].root_render_func.__code__
