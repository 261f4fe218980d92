"""``bolivia conform`` for engine developers and CI, shown on two test engines: the project's
oracle serving a house ruleset under a shipped id (``bolivia oracle --serve
bolivia-da=tests/data/house-da.yaml``), and a partial engine (``tests/data/partial_engine.py``:
bolivia-da only, five ops, four players, ``unsupported`` for melding going out, a wrong black
three in hand, a crash with a traceback on stderr). Each runner feature is checked on them: the
summary per suite, skips grouped by reason, JSON, JUnit XML validated against the Jenkins
schema, ``-k``, ``-x``, ``--maxfail``, ``--quiet``/``--verbose``, the engine's stderr shown
with the crash, and exit statuses. Then the protocol's revision-3 additions, the comparison of
nested results, and the documents."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tomllib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
import xmlschema
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from bolivia.cli import cli
from bolivia.engine.scoring import SCORE_PARTS
from bolivia.errors import RulesetError
from bolivia.resources import docs_dir
from bolivia.rules.library import Library
from bolivia.verify.conformance import (
    Case,
    Outcome,
    Suite,
    compare,
    load_suite,
    mismatch,
    seats_of,
    shipped_suites,
)
from bolivia.verify.engines import Engine, InProcessEngine
from bolivia.verify.junit import junit_xml
from bolivia.verify.oracle import OPERATIONS, PROTOCOL, RESULT_FIELDS
from bolivia.verify.reporting import Run, document, text_report
from bolivia.verify.runner import pick, run
from bolivia.verify.tail import Tail

from .test_hardening_runner import ROOT, conform

DATA = ROOT / "tests" / "data"
SCHEMA = xmlschema.XMLSchema(DATA / "junit-4.xsd")
PARTIAL = f'"{sys.executable}" "{DATA / "partial_engine.py"}"'
HOUSE = f'"{sys.executable}" -m bolivia oracle --serve bolivia-da={DATA / "house-da.yaml"}'


def here(*args: str, stdin: str = "") -> tuple[int, str, str]:
    """A command in this process (an engine it starts is still a process)."""
    result = CliRunner().invoke(cli, list(args), input=stdin)
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def last(out: str) -> str:
    return out.strip().splitlines()[-1]


@pytest.fixture(scope="module")
def partial(
    tmp_path_factory: pytest.TempPathFactory,
) -> tuple[subprocess.CompletedProcess[str], Path]:
    """The whole shipped suites against the partial engine, as text, with a JUnit file."""
    junit = tmp_path_factory.mktemp("junit") / "conform.xml"
    return conform("--engine", PARTIAL, "--junit", str(junit)), junit


# --------------------------------------------------------------------------- the summary


def test_the_summary_counts_each_suite(
    partial: tuple[subprocess.CompletedProcess[str], Path],
) -> None:
    done, _ = partial
    assert done.returncode == 1
    lines = done.stdout.splitlines()
    assert last(done.stdout) == "105 passed, 5 failed, 2401 skipped"
    table = lines[lines.index(next(line for line in lines if line.startswith("suite "))) :]
    rows = {line.split()[0]: line.split()[1:] for line in table[1 : len(shipped_suites()) + 2]}
    assert rows["cards"] == ["16", "5", "147", "0"]  # hello-protocol: a protocol 3 case
    assert rows["scoring"] == ["0", "0", "216", "0"]
    assert rows["total"] == ["105", "5", "2401", "0"]
    assert set(rows) == {p.stem for p in shipped_suites()} | {"total"}


def test_every_skip_is_grouped_with_its_reason(
    partial: tuple[subprocess.CompletedProcess[str], Path],
) -> None:
    out = partial[0].stdout
    assert (
        "2086 skipped: the engine does not claim the rulesets canasta, samba, bolivia-fr, "
        "bolivia-zh, bolivia-ko, brazilian-canasta, black-samba, joker-canasta, "
        "pennies-from-heaven, cuban-canasta, modern-american-canasta, danish-family-canasta "
        "and 1 more (it claims bolivia-da)"
    ) in out
    assert (
        "275 skipped: the engine does not answer extend, score, go_out, game_over, take_top, "
        "pickup, initial_meld, act, moves (its hello lists card_points, hello, info, "
        "initial_minimum, meld)"
    ) in out
    assert (
        "18 skipped: the engine does not seat 1, 2, 3, 5, 6, 7 players (its hello lists 4)" in out
    )
    assert (
        "10 skipped: the engine answered unsupported: this engine does not meld going out yet"
        in out
    )
    assert (
        "4 skipped: the engine does not answer these fields (of a later protocol than its own, "
        "or no protocol's): info's keep_cards, discard_required, stock_exhausted, "
        "going_out_bonus_when_exhausted, take_top"
    ) in out
    assert (
        "8 skipped: the engine speaks protocol 2; these are of a later one: hello (protocol 3), "
        "act (protocol 3), meld (protocol 3), upcard (protocol 3)" in out
    )
    assert 2086 + 275 + 18 + 10 + 4 + 8 == 2401


def test_a_crash_is_shown_with_the_engines_last_lines_on_stderr(
    partial: tuple[subprocess.CompletedProcess[str], Path],
) -> None:
    out = partial[0].stdout
    block = out[out.index("FAILED cards:points-joker:bolivia-da") :].split("\nFAILED ")[0]
    assert "the engine exited (status 1) instead of answering (restarted)" in block
    assert "    | partial-engine: card_points cards:points-joker:bolivia-da" in block
    assert "    | Traceback (most recent call last):" in block
    assert "    | RuntimeError: no value for the joker" in block
    # after the restart, the next cases are answered again
    assert "FAILED cards:points-black-three-in-hand:bolivia-da" in out
    assert "different value for points" in out


def test_junit_validates_against_the_jenkins_schema(
    partial: tuple[subprocess.CompletedProcess[str], Path],
) -> None:
    _, junit = partial
    SCHEMA.validate(str(junit))
    tree = SCHEMA.to_dict(str(junit))
    assert tree["@tests"] == "2511" and tree["@failures"] == "5" and tree["@errors"] == "0"
    suites = {suite["@name"]: suite for suite in tree["testsuite"]}
    assert set(suites) == {p.stem for p in shipped_suites()}
    cards = suites["cards"]
    assert (cards["@tests"], cards["@failures"], cards["@skipped"]) == ("168", "5", "147")
    crash = next(c for c in cards["testcase"] if c["@name"] == "points-joker:bolivia-da")
    assert crash["@classname"] == "cards"
    assert crash["failure"][0]["@message"].startswith("the engine exited (status 1)")
    assert "RuntimeError: no value for the joker" in crash["system-err"][0]
    skipped = next(c for c in cards["testcase"] if c["@name"] == "points-joker:samba")
    assert skipped["skipped"] == "the engine does not claim the ruleset samba"
    assert "partial-engine: card_points" in cards["system-err"]
    properties = {p["@name"]: p["@value"] for p in cards["properties"]["property"]}
    assert properties["engine"] == "partial-engine 0.1" and properties["protocol"] == "2"


def test_json_is_one_document_of_every_outcome() -> None:
    done = conform("--engine", PARTIAL, "--json")
    assert done.returncode == 1
    doc = json.loads(done.stdout)
    assert list(doc) == [
        "format",
        "version",
        "tool",
        "engine",
        "conforms",
        "interrupted",
        "seconds",
        "summary",
        "counts",
        "suites",
        "reasons",
        "failures_by_rule_field",
        "outcomes",
    ]
    assert (doc["format"], doc["version"]) == ("bolivia-conformance", 2)
    assert doc["conforms"] is False
    assert doc["summary"] == "105 passed, 5 failed, 2401 skipped"
    assert doc["counts"] == {"passed": 105, "failed": 5, "skipped": 2401, "not-run": 0}
    engine = doc["engine"]
    assert engine["name"] == "partial-engine 0.1" and engine["protocol"] == 2
    assert engine["ops"] == sorted(["hello", "info", "meld", "card_points", "initial_minimum"])
    assert engine["players"] == [4] and engine["rulesets"] == ["bolivia-da"]
    assert any("RuntimeError" in line for line in engine["stderr"])
    assert doc["suites"][0] == {
        "suite": "cards",
        "counts": {"passed": 16, "failed": 5, "skipped": 147, "not-run": 0},
    }
    kinds = {(r["status"], r["reason"]): r["count"] for r in doc["reasons"]}
    assert kinds == {
        ("skipped", "ruleset"): 2086,
        ("skipped", "op"): 275,
        ("skipped", "players"): 18,
        ("skipped", "fields"): 4,
        ("skipped", "protocol"): 8,
        ("skipped", "unsupported"): 10,
    }
    groups = doc["failures_by_rule_field"]  # every failure under the fields its case decides
    assert all(list(g) == ["field", "count", "values", "cases"] for g in groups)
    failed = {o["name"] for o in doc["outcomes"] if o["status"] == "failed"}
    assert {name for g in groups for name in g["cases"]} == failed
    assert all(g["count"] == len(g["cases"]) for g in groups)
    assert all(
        value.endswith("(bolivia-da)") for g in groups if g["field"] for value in g["values"]
    )
    assert len(doc["outcomes"]) == 2511
    crash = next(o for o in doc["outcomes"] if o["name"] == "cards:points-joker:bolivia-da")
    assert crash["status"] == "failed" and crash["actual"] is None
    assert "RuntimeError: no value for the joker" in crash["stderr"]
    seated = next(o for o in doc["outcomes"] if o["reason"] == "players")
    assert seated["status"] == "skipped" and seated["subject"] in {"1", "2", "3", "5", "6", "7"}
    assert list(crash) == list(seated)  # every outcome has the same keys, in the same order


# --------------------------------------------------------------------------- picking, stopping


def test_k_picks_cases_by_substring_or_glob() -> None:
    code, out, _ = here("conform", "--engine", PARTIAL, "-k", "points-two-and-ace:bolivia-da")
    assert code == 0 and last(out) == "1 passed, 0 failed"
    code, out, _ = here(
        "conform", "--engine", PARTIAL, "-k", "cards:points-*:bolivia-da", "-k", "hello-protocol"
    )
    # 15, and hello in six rulesets: five the engine does not claim, and a protocol 3 case
    assert last(out) == "10 passed, 5 failed, 6 skipped"


def test_a_pattern_that_matches_nothing_is_a_usage_error_naming_it() -> None:
    code, out, err = here("conform", "-k", "melds:*", "-k", "no-such-thing")
    assert code == 2 and out == ""
    assert "Invalid value for '-k': 'no-such-thing' matches no case" in err
    assert "SUITE:CASE:RULESET" in err and "Traceback" not in err


def test_x_stops_at_the_first_failure_and_junit_counts_the_rest_as_errors(
    tmp_path: Path,
) -> None:
    junit = tmp_path / "x.xml"
    args = ("-k", "cards:points-*:bolivia-da", "-x", "--junit", str(junit))
    code, out, _ = here("conform", "--engine", PARTIAL, *args)
    assert code == 1
    assert last(out) == "0 passed, 1 failed, 14 not run"
    assert "14 not run: stopped at the first failure (-x)" in out
    SCHEMA.validate(str(junit))
    tree = SCHEMA.to_dict(str(junit))
    assert (tree["@failures"], tree["@errors"]) == ("1", "14")
    error = tree["testsuite"][0]["testcase"][1]["error"][0]
    assert error["@type"] == "not-run" and error["@message"] == "stopped at the first failure (-x)"


@pytest.mark.parametrize("where", ["folder", "missing/conform.xml"])
def test_a_junit_file_that_cannot_be_written_is_a_usage_error_before_the_run(
    tmp_path: Path, where: str
) -> None:
    (tmp_path / "folder").mkdir()
    code, out, err = here("conform", "--junit", str(tmp_path / where))
    assert code == 2 and out == "" and "Invalid value for '--junit'" in err


def test_maxfail_stops_after_n_failures() -> None:
    args = ("conform", "--engine", PARTIAL, "-k", "cards:points-*:bolivia-da", "--maxfail", "2")
    code, out, _ = here(*args)
    assert code == 1
    assert last(out) == "2 passed, 2 failed, 11 not run"
    assert "11 not run: stopped after 2 failures (--maxfail 2)" in out


def test_quiet_prints_the_last_line_only_and_verbose_every_outcome() -> None:
    pattern = ("-k", "cards:points-*:bolivia-da", "--ruleset", "bolivia-da")
    code, out, _ = here("conform", "--engine", PARTIAL, *pattern, "--quiet")
    assert code == 1 and out == "10 passed, 5 failed\n"
    code, out, _ = here("conform", "--engine", PARTIAL, *pattern, "--verbose")
    assert "PASSED cards:points-two-and-ace:bolivia-da" in out
    assert "FAILED cards:points-black-three-in-hand:bolivia-da\n  different value" in out
    code, _, err = here("conform", "--quiet", "--verbose")
    assert code == 2 and "--quiet or --verbose, not both" in err


def test_exit_1_when_every_case_is_skipped() -> None:
    code, out, err = here("conform", "--engine", PARTIAL, "--ruleset", "samba", "cards")
    assert code == 1
    assert last(out) == "0 passed, 0 failed, 28 skipped"
    assert "nothing was checked" in err


# --------------------------------------------------------------------------- the house oracle


def test_the_oracle_serves_a_house_ruleset_under_a_shipped_id() -> None:
    requests = [
        {"op": "hello", "id": 1},
        {"op": "info", "id": 2, "ruleset": "bolivia-da"},
        {
            "op": "score",
            "id": 3,
            "ruleset": "bolivia-da",
            "teams": [{"melds": [["8C", "8D", "8H"]], "red_threes": 6}, {"melds": []}],
        },
    ]
    code, out, _ = here(
        "oracle",
        "--serve",
        f"bolivia-da={DATA / 'house-da.yaml'}",
        stdin="".join(json.dumps(r) + "\n" for r in requests),
    )
    assert code == 0
    hello, info, score = (json.loads(line) for line in out.splitlines())
    assert hello["result"]["rulesets"].count("bolivia-da") == 1
    assert info["result"]["draw"] == 2  # the house's base, bolivia-da
    assert score["result"]["teams"][0]["red_threes"] == -800  # the house: 800, not 1000


def test_conform_against_a_house_served_as_bolivia_da() -> None:
    done = conform("--engine", HOUSE, "--ruleset", "bolivia-da", "scoring", "cards")
    assert done.returncode == 1
    assert last(done.stdout) == "58 passed, 5 failed"
    assert "(teams[0].going_out is 100, not 200)" in done.stdout
    assert "(teams[0].red_threes is 800, not 1000)" in done.stdout
    rows = [line.split() for line in done.stdout.splitlines() if line.startswith("scoring ")]
    assert rows == [["scoring", "30", "5", "0", "0"]]


@pytest.mark.parametrize(
    ("served", "status", "says"),
    [
        ("bolivia-da", 2, "'bolivia-da' is not ID=FILE"),
        ("=x.yaml", 2, "is not ID=FILE"),
        ("bolivia-da=/no/such/house.yaml", 1, "/no/such/house.yaml"),
        ("bolivia-da={bad}", 1, "{bad}:4: going_out.bonnus: unknown key 'bonnus'; did you mean"),
    ],
)
def test_serve_errors_name_the_file(served: str, status: int, says: str, tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(
        "id: bad\nname: bad\nextends: bolivia-da\ngoing_out: {bonnus: 100}\n"
        "provenance:\n  extends: {house: a test}\n"
    )
    code, out, err = here("oracle", "--serve", served.format(bad=bad))
    assert code == status, err
    assert says.format(bad=bad) in err and "Traceback" not in err and out == ""


def test_an_id_served_twice_is_a_usage_error() -> None:
    house = f"bolivia-da={DATA / 'house-da.yaml'}"
    code, _, err = here("oracle", "--serve", house, "--serve", house)
    assert code == 2 and "the id 'bolivia-da' is served twice" in err


# --------------------------------------------------------------------------- the protocol


def test_hello_may_list_ops_and_players_but_only_as_lists(tmp_path: Path) -> None:
    script = tmp_path / "bad_hello.py"
    script.write_text(
        "import json, sys\nsys.stdin.readline()\n"
        'print(json.dumps({"id": "hello", "ok": True, "result": {"protocol": 2, '
        '"rulesets": ["samba"], "players": ["four"]}}), flush=True)\n'
    )
    code, out, err = here("conform", "cards", "--engine", f'"{sys.executable}" "{script}"')
    assert code == 1
    says = "hello: 'players' is a list of numbers of players, not [\"four\"]"
    assert err.splitlines()[0] == says
    assert out.splitlines()[-1] == "0 passed, 0 failed, 168 not run"
    assert f"168 not run: the engine's hello failed: {says}" in out


def test_an_engine_that_dies_at_start_shows_its_traceback(tmp_path: Path) -> None:
    script = tmp_path / "broken.py"
    script.write_text("import json\nimport no_such_module_here\n")
    code, out, err = here("conform", "cards", "--engine", f'"{sys.executable}" "{script}"')
    assert code == 1 and "not run: the engine's hello failed: hello: the engine exited" in out
    lines = err.strip().splitlines()
    assert lines[0] == "hello: the engine exited (status 1) instead of answering"
    assert lines[1] == "its last lines on stderr:"
    assert lines[2] == "  | Traceback (most recent call last):"
    assert lines[-2] == "  | ModuleNotFoundError: No module named 'no_such_module_here'"
    assert lines[-1] == "nothing was checked: no case passed or failed"


def test_a_failed_hello_still_writes_the_json_and_junit_reports(tmp_path: Path) -> None:
    """CI reads the reports: an engine whose hello is no answer gets them too, every case
    not run with the reason (issue 41)."""
    script = tmp_path / "no_hello.py"
    script.write_text("import sys\nfor line in sys.stdin:\n    print('{}', flush=True)\n")
    junit = tmp_path / "out" / "junit.xml"
    junit.parent.mkdir()
    engine = f'"{sys.executable}" "{script}"'
    code, out, err = here("conform", "cards", "--engine", engine, "--json", "--junit", str(junit))
    assert code == 1 and err.startswith("hello: the answer has no id")
    doc = json.loads(out)
    assert doc["conforms"] is False and doc["counts"]["not-run"] == 168
    assert doc["engine"]["command"] == [sys.executable, str(script)]
    assert [r["reason"] for r in doc["reasons"]] == ["hello"]
    SCHEMA.validate(str(junit))
    assert SCHEMA.to_dict(str(junit))["@tests"] == "168"


def test_seats_of_a_case() -> None:
    def case(op: str, data: dict[str, Any]) -> Case:
        return Case(id="c", about="seats", op=op, input=data, expect={"samba": {"legal": True}})

    def usual(ruleset: str) -> int:
        return 4

    assert seats_of(case("info", {}), "samba", usual) == 4
    assert seats_of(case("info", {"players": 6}), "samba", usual) == 6
    assert seats_of(case("info", {"players": "4"}), "samba", usual) is None
    assert seats_of(case("act", {"position": {"players": 3}}), "samba", usual) == 3
    assert seats_of(case("moves", {"position": {}}), "samba", None) is None
    assert seats_of(case("meld", {"cards": ["8H"]}), "samba", usual) is None


class Unsupported(Engine):
    """Answers unsupported to everything (and hello)."""

    def __init__(self) -> None:
        self.rulesets = {"samba", "canasta", "bolivia-fr", "bolivia-da", "bolivia-zh", "bolivia-ko"}

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        error = {"code": "unsupported", "message": f"no {request['op']} here"}
        return {"id": request["id"], "ok": False, "error": error}


def test_unsupported_is_a_skip_even_where_an_error_is_expected() -> None:
    from bolivia.verify.conformance import run_plan

    planned = pick([load_suite(p) for p in shipped_suites()], ["samba"], ["errors:*"])
    outcomes = list(run_plan(planned, Unsupported()))
    assert {o.status for o in outcomes} == {"skipped"}
    assert {o.reason for o in outcomes} == {"unsupported"}
    lines = text_report(Run(outcomes, Unsupported()))
    assert any(
        line.endswith("skipped: the engine answered unsupported: no meld here") for line in lines
    )


def test_no_case_may_expect_unsupported_and_ids_are_any_bounded_text(tmp_path: Path) -> None:
    def suite(case_id: str, expect: dict[str, Any]) -> Suite:
        case = {"id": case_id, "about": "a case", "op": "meld", "input": {}, "expect": expect}
        path = tmp_path / "suite.yaml"
        path.write_text(json.dumps({"suite": "s", "cases": [case]}), encoding="utf-8")
        return load_suite(path)

    for case_id in ("cp-JK", "Zwei Wilde, 8♥", "a:b", "x" * 200):
        assert suite(case_id, {"samba": {"legal": True}}).cases[0].id == case_id
    for case_id, says in (("", "at least 1"), ("x" * 201, "at most 200"), ("\ud800", "Unicode")):
        with pytest.raises(RulesetError, match=says):
            suite(case_id, {"samba": {"legal": True}})
    with pytest.raises(RulesetError, match="the error unsupported"):
        suite("c", {"samba": {"error": "unsupported"}})


def test_extra_fields_inside_nested_results_do_not_fail_a_case() -> None:
    team = {"cards": 30, "bonuses": 0, "red_threes": 0, "going_out": 0, "hands": 0, "total": 30}
    answer = {"ok": True, "result": {"teams": [{**team, "canastas": 0}, {**team, "x": [1]}]}}
    assert compare({"teams": [team, team]}, answer) == ""
    assert (
        compare({"teams": [team]}, answer)
        == "different value for teams (teams is 2 items, not 1 item)"
    )
    wrong = {"ok": True, "result": {"teams": [{**team, "total": 31}, team]}}
    assert compare({"teams": [team, team]}, wrong) == (
        "different value for teams (teams[0].total is 31, not 30)"
    )
    assert mismatch({"a": {"b": 1}}, {"a": {}}) == "a.b is missing"
    assert mismatch(True, 1) == " is 1, not true" and mismatch(1, True)
    assert mismatch(5, 5.0) == "" and mismatch(None, None) == "" and mismatch("5", 5)


# --------------------------------------------------------------------------- reporting


def _outcomes(n: int) -> list[Outcome]:
    return [
        Outcome("melds", f"c{i}", "samba", "failed", {"op": "meld"}, {"legal": True}, None, "x")
        for i in range(n)
    ]


def test_many_failures_are_one_line_each_after_the_first_twenty() -> None:
    lines = "\n".join(text_report(Run(_outcomes(30)))).splitlines()
    assert sum(line.startswith("FAILED ") for line in lines) == 20  # in full
    assert sum(line.startswith("    FAILED melds:c") for line in lines) == 30  # the index
    assert (
        "10 of the 30 failures are not shown in full: --verbose shows them all, as do "
        "--json and --junit FILE"
    ) in lines
    assert len(lines) < 200
    verbose = "\n".join(text_report(Run(_outcomes(30)), "verbose")).splitlines()
    assert sum(line.startswith("FAILED ") for line in verbose) == 30


def test_failures_group_by_rule_field_when_cases_name_them() -> None:
    suite = load_suite(shipped_suites()[0])
    outcomes = [
        Outcome(suite.suite, case.id, "samba", "failed", note="x") for case in suite.cases[:3]
    ]
    fields = {suite.cases[0].id: ["scoring.card_points"], suite.cases[1].id: ["a.b", "c.d"]}
    this = Run(outcomes, cases={(suite.suite, c.id): c for c in suite.cases})

    def fields_of(outcome: Outcome) -> Sequence[tuple[str, str]]:
        return [(name, "1") for name in fields.get(outcome.case, [])]

    text = "\n".join(text_report(this, fields_of=fields_of))
    assert "failures by rule field:" in text
    assert (
        f"  scoring.card_points: 1 failed ({suite.suite}:{suite.cases[0].id}:samba); "
        "the rules say 1 (samba)"
    ) in text
    assert "  (no rule field named): 1 failed" in text
    groups = document(this, fields_of)["failures_by_rule_field"]
    assert [g["field"] for g in groups] == ["a.b", "c.d", "scoring.card_points", None]
    assert "failures by rule field" not in "\n".join(text_report(this))


HOSTILE = "evil\x1b]0;pwned\x07 \u202egnp \x0c\ufffe"


def test_case_ids_are_escaped_in_text_json_and_junit(tmp_path: Path) -> None:
    raw = {
        "suite": f"s {HOSTILE}",
        "cases": [
            {
                "id": f"cp-JK {HOSTILE}",
                "about": "a wrong expectation",
                "op": "card_points",
                "input": {"cards": ["JK"]},
                "expect": {"samba": {"points": 0}},
            }
        ],
    }
    path = tmp_path / "hostile.yaml"
    path.write_text(json.dumps(raw), encoding="utf-8")
    suites = [load_suite(path)]
    this = run(suites, pick(suites), Library())
    assert this.outcomes[0].status == "failed"
    text = "\n".join(text_report(this))
    for active in ("\x1b", "\x07", "\u202e", "\x0c"):
        assert active not in text
    assert "FAILED s evil\\x1b]0;pwned\\x07 \\u202egnp \\x0c" in text
    assert json.loads(json.dumps(document(this)))["outcomes"][0]["case"] == raw["cases"][0]["id"]
    xml = junit_xml(this)
    SCHEMA.validate(xml.decode())
    assert b"\x1b" not in xml and "\u202e".encode() not in xml and b"\\x1b]0;pwned" in xml


def test_an_engine_that_floods_stderr_is_not_blocked_and_its_tail_is_bounded(
    tmp_path: Path,
) -> None:
    script = tmp_path / "noisy.py"
    script.write_text(
        "import json, sys\n"
        "for line in sys.stdin:\n"
        "    request = json.loads(line)\n"
        "    sys.stderr.write(('noise ' * 50 + '\\n') * 2000)\n"  # 600 KB, more than a pipe holds
        "    sys.stderr.write('x' * 100000)\n"  # a line without end
        "    sys.stderr.flush()\n"
        "    if request['op'] == 'hello':\n"
        "        result = {'protocol': 2, 'rulesets': ['samba'], 'ops': ['hello', 'meld']}\n"
        "    elif request['cards'] == ['8H', '8S']:\n"
        '        print(\'{"id": "%s", "ok": true, "result": {"legal": NaN}}\' % request[\'id\'])\n'
        "        sys.stdout.flush()\n"
        "        continue\n"
        "    else:\n"
        "        result = {'legal': len(request['cards']) >= 3}\n"
        "    print(json.dumps({'id': request['id'], 'ok': True, 'result': result}), flush=True)\n"
    )
    suite = tmp_path / "suite.yaml"
    suite.write_text(
        "suite: noisy\ncases:\n"
        "  - {id: three, about: three eights, op: meld, input: {cards: [8H, 8S, 8D]},"
        " expect: {samba: {legal: true}}}\n"
        "  - {id: two, about: two eights, op: meld, input: {cards: [8H, 8S]},"
        " expect: {samba: {legal: false}}}\n"
    )
    done = conform(str(suite), "--engine", f'"{sys.executable}" "{script}"', "--json")
    doc = json.loads(done.stdout)
    assert doc["summary"] == "1 passed, 1 failed"
    failed = next(o for o in doc["outcomes"] if o["status"] == "failed")
    assert "a line that is not JSON" in failed["note"]  # NaN is not JSON
    assert len(failed["stderr"]) == 20
    stderr = doc["engine"]["stderr"]
    assert len(stderr) <= 200 and sum(map(len, stderr)) <= 64 * 1024 + 2000
    assert doc["engine"]["stderr_dropped"] > 3000
    assert any(line.endswith("(the rest of the line is not kept)") for line in stderr)


@given(st.lists(st.binary(max_size=300) | st.sampled_from([b"\n", b"\r\n", b"x" * 500])))
def test_the_stderr_tail_keeps_the_last_lines_within_its_bounds(chunks: list[bytes]) -> None:
    tail = Tail(max_lines=5, max_chars=300, line_chars=100)
    mark = tail.mark()
    for chunk in chunks:
        tail.feed(chunk)
    tail.flush()
    kept = tail.lines()
    assert len(kept) <= 5 and sum(map(len, kept)) <= 300
    assert all(len(line) <= 100 + len(" ... (the rest of the line is not kept)") for line in kept)
    assert tail.dropped + len(kept) == tail.mark() - mark
    assert tail.since(mark) == kept and tail.between(mark, tail.mark(), 2) == kept[-2:]
    written = b"".join(chunks).split(b"\n")
    if written[-1] == b"":
        written.pop()
    expected = [line.decode("utf-8", "replace").rstrip("\r") for line in written]
    short = [line for line in expected[-len(kept) :] if len(line) <= 100] if kept else []
    if all(len(line) <= 100 for line in expected):
        assert kept == short


# --------------------------------------------------------------------------- the documents


GUIDE = ROOT / "docs" / "checking-your-engine.md"
PROTOCOL_DOC = ROOT / "docs" / "oracle-protocol.md"


def test_the_guides_adapter_is_a_working_engine(tmp_path: Path) -> None:
    text = GUIDE.read_text(encoding="utf-8")
    (code,) = re.findall(r"```python\n(.*?)```", text, re.S)
    assert len([line for line in code.splitlines() if line.strip()]) <= 45
    adapter = tmp_path / "my_adapter.py"
    adapter.write_text(code)
    done = conform("--engine", f'"{sys.executable}" "{adapter}"', "--ruleset", "bolivia-da")
    assert done.returncode == 0, done.stdout[-2000:]
    said = re.search(r"The last line reads `([^`]*)`", text)
    assert said is not None and last(done.stdout) == said.group(1)
    assert (
        "5 skipped: the engine answered unsupported: cards left in hand are not counted yet"
        in done.stdout
    )
    assert "bolivia profile --help" in text and "Reading a profile" not in text


def test_the_documents_are_shipped_and_found() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    build = project["tool"]["hatch"]["build"]["targets"]
    assert "docs" in build["sdist"]["include"]
    assert build["wheel"]["force-include"]["docs"] == "bolivia/_data/docs"
    assert (docs_dir() / "oracle-protocol.md").is_file()
    assert "shared spec" not in (ROOT / "docs" / "engine.md").read_text(encoding="utf-8")
    code, out, _ = here("oracle", "--protocol")
    assert code == 0 and out == PROTOCOL_DOC.read_text(encoding="utf-8")
    code, out, _ = here("oracle", "--help")
    assert "oracle-protocol.md" in out and "--protocol" in out and "--serve" in out


def test_the_protocol_document_lists_every_field_the_suites_compare() -> None:
    text = PROTOCOL_DOC.read_text(encoding="utf-8")
    assert f"Protocol {PROTOCOL} · document revision 9" in text
    table = text.split("### Fields the suites compare", 1)[1]
    documented = {
        op: set(re.findall(r"`([a-z_]+)`", fields))
        for op, fields in re.findall(r"^\| `([a-z_]+)` \| (.*) \|$", table, re.M)
    }
    used: dict[str, set[str]] = {}
    for path in shipped_suites():
        for case in load_suite(path).cases:
            if case.op in OPERATIONS:
                keys = {k for e in case.expect.values() for k in e if k != "error"}
                used.setdefault(case.op, set()).update(keys)
    team = {*SCORE_PARTS, "total"}
    for op, keys in used.items():
        assert keys <= documented[op], op
        beyond = keys - RESULT_FIELDS[op] - {"includes", "excludes"}
        assert all(f"`{key}`" in text.split("### Fields the suites compare")[0] for key in beyond)
    assert documented["score"] == {"teams"} | team
    assert set(documented) == set(OPERATIONS)


def test_the_in_process_engine_names_itself() -> None:
    assert InProcessEngine().name.startswith("bolivia ")


def test_a_ruleset_files_failures_quote_the_files_values_not_its_bases(tmp_path: Path) -> None:
    house = tmp_path / "our-house.yaml"
    house.write_text(
        "id: our-house\nname: Our house\nextends: bolivia-da\ngoing_out:\n  bonus: 100\n"
        "provenance:\n  going_out.bonus: {house: agreed at the meeting}\n",
        encoding="utf-8",
    )
    code, out, _ = here("conform", "--ruleset", str(house))  # the built-in engine plays 200
    assert code == 1
    line = next(x for x in out.splitlines() if x.strip().startswith("going_out.bonus:"))
    assert "the rules say 100 (bolivia-da)" in line and "200" not in line
