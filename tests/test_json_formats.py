"""The JSON documents the toolkit writes (``bolivia/formats.py``) against their schemas.

Every kind of document has a JSON Schema in ``docs/schemas/`` whose ``format`` and
``version`` are the registry's, and a row in ``docs/json.md``. Every command's real output
validates against its schema, in small runs that between them give each optional key (a run
of games, a failing engine, a profile with every part). And a document changed as a careless
release would change it (a key added, the version raised, a key dropped) does not validate, so
the schemas can fail.

The comparison's output is checked against its schema in ``tests/test_report.py``.
"""

from __future__ import annotations

import copy
import functools
import json
import re
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator  # type: ignore[import-untyped]

from bolivia import formats
from bolivia.profiles.battery import Question
from bolivia.profiles.profile import Behaviour, Change, Profile
from bolivia.profiles.report import profile_json
from bolivia.rules.library import shipped_library
from bolivia.rules.variants import with_values
from tests.test_cli import run

ROOT = Path(__file__).resolve().parents[1]
SCHEMAS = ROOT / "docs" / "schemas"
PAGE = ROOT / "docs" / "json.md"
DATA = ROOT / "tests" / "data"
# a partial engine (bolivia-da only, five ops, a crash): failures and skips of every kind
PARTIAL = f'"{sys.executable}" "{DATA / "partial_engine.py"}"'
# the oracle serving a house ruleset as bolivia-da: an engine with two changed values
HOUSE = f'"{sys.executable}" -m bolivia oracle --serve bolivia-da={DATA / "house-da.yaml"}'
# the schema that came before the rule that every key is described
UNDESCRIBED = {"comparison"}


@functools.cache
def schema(kind: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((SCHEMAS / f"{kind}.json").read_text(encoding="utf-8"))
    return loaded


def problems(kind: str, document: Any) -> list[str]:
    """What is wrong with a document by its kind's schema, each as ``path: message`` (formats
    such as ``date-time`` are not checked, as the schemas use none)."""
    found = Draft202012Validator(schema(kind)).iter_errors(document)
    return sorted(f"{'/'.join(map(str, e.absolute_path))}: {e.message[:300]}" for e in found)


def subschemas(node: Any) -> Iterator[dict[str, Any]]:
    """Every object in a schema, itself included."""
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from subschemas(value)
    elif isinstance(node, list):
        for value in node:
            yield from subschemas(value)


def consts(kind: str, key: str) -> set[Any]:
    """The constants the schema gives the property ``key``, wherever it has one."""
    return {
        node["properties"][key]["const"]
        for node in subschemas(schema(kind))
        if isinstance(node.get("properties"), dict) and "const" in node["properties"].get(key, {})
    }


def listed() -> dict[str, str]:
    """The list of docs/json.md, by format: each item's text on one line."""
    text = PAGE.read_text(encoding="utf-8")
    items = re.findall(r"^- `(bolivia-[a-z-]+)`, (.*?)(?=^- |^$)", text, re.M | re.S)
    return {name: " ".join(item.split()) for name, item in items}


# --------------------------------------------------------------------------- the registry


@pytest.mark.parametrize("kind", formats.FORMATS)
def test_each_kind_has_a_valid_schema_of_the_registry_s_format_and_version(kind: str) -> None:
    Draft202012Validator.check_schema(schema(kind))
    assert schema(kind)["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema(kind)["$id"] == f"https://bolivia.invalid/schemas/{kind}.json"
    assert schema(kind)["title"] and schema(kind)["description"]
    assert consts(kind, "format") == {formats.name(kind)}
    assert consts(kind, "version") == {formats.version(kind)}


@pytest.mark.parametrize("kind", sorted(set(formats.FORMATS) - UNDESCRIBED))
def test_every_key_of_a_schema_is_described(kind: str) -> None:
    defs = schema(kind).get("$defs", {})
    bare = [
        name
        for node in subschemas(schema(kind))
        if isinstance(node.get("properties"), dict)
        for name, rule in node["properties"].items()
        if "description" not in rule
        and "description" not in defs.get(rule.get("$ref", "").removeprefix("#/$defs/"), {})
    ]
    assert bare == []


def test_there_is_no_schema_without_a_kind() -> None:
    assert sorted(path.stem for path in SCHEMAS.glob("*")) == sorted(formats.FORMATS)


def test_the_page_lists_every_kind_as_the_registry_has_it() -> None:
    items = listed()
    assert sorted(items) == sorted(formats.name(kind) for kind in formats.FORMATS)
    earlier = PAGE.read_text(encoding="utf-8").split("## Earlier versions", 1)[1]
    for kind, number in formats.FORMATS.items():
        item = items[formats.name(kind)]
        assert item.startswith(f"version {number}, "), item
        assert f"[{kind}.json](schemas/{kind}.json)" in item, item
        if number > 1:  # what changed is said under "Earlier versions"
            assert f"**{kind}**, version {number}" in earlier, kind
    assert "JSON outputs: json.md" in (ROOT / "mkdocs.yml").read_text(encoding="utf-8")


# --------------------------------------------------------------------------- real outputs


def output(*args: str, status: int = 0) -> Any:
    """A command's standard output, read as JSON, once it exited with ``status``."""
    code, out, err = run(*args)
    assert code == status, err[-2000:]
    return json.loads(out)


def replay_lines(folder: Path) -> list[Any]:
    """Every line of every replay file in the folder, read as JSON: hands from start to end."""
    lines = [
        json.loads(line)
        for path in sorted(folder.glob("*.jsonl"))
        for line in path.read_text(encoding="utf-8").splitlines()
    ]
    assert lines and lines[0]["type"] == "hand" and lines[-1]["type"] == "end"
    return lines


def _sweep(tmp: Path, words: str) -> list[Any]:
    """A small sweep of bolivia-da: its --json and the sweep.json it wrote, which are the
    same."""
    out = tmp / "out"
    store = tmp / "s.sqlite"
    where = ["--store", str(store), "--out", str(out), "--format", "json"]
    printed = output("sweep", "bolivia-da", *words.split(), "--workers", "1", *where, "--json")
    written = json.loads((out / "sweep.json").read_text(encoding="utf-8"))
    assert printed == written
    return [written]


def _store_after_a_sweep(tmp: Path) -> list[Any]:
    """What the store holds after a small sweep: its two sets of deals."""
    _sweep(tmp, "--vary going_out.bonus=300 --hands 2 --bots random")
    document = output("sweep", "--status", "--json", "--store", str(tmp / "s.sqlite"))
    assert document["exists"] and len(document["sets"]) == 2
    return [document]


def _user_rulesets(tmp: Path) -> list[Any]:
    """The list with a folder of the user's: a ruleset not shipped, read from a file."""
    house = (ROOT / "rulesets" / "house" / "bolivia-da-100.yaml").read_text(encoding="utf-8")
    (tmp / "ours.yaml").write_text(re.sub(r"(?m)^id: .*$", "id: ours", house), encoding="utf-8")
    listed = output("rulesets", "--json", "--rulesets", str(tmp))
    shipped = {row["id"]: row["shipped"] for row in listed["rulesets"]}
    assert shipped["ours"] is False and shipped["bolivia-da"] is True
    return [listed]


def _simulated_replays(tmp: Path, words: str) -> list[Any]:
    output("simulate", "samba", *words.split(), "--replays", str(tmp / "replays"), "--json")
    return replay_lines(tmp / "replays")


def _profile_of_a_house(tmp: Path) -> list[Any]:
    """The house engine, profiled as bolivia-da and written to a file: two changes found."""
    out = tmp / "profile.yaml"
    document = output(
        "profile", "--json", "--as", "bolivia-da", "--out", str(out), "--engine", HOUSE
    )
    assert document["written"] == str(out) and out.is_file()
    assert {c["field"] for c in document["changes"]} == {"going_out.bonus", "red_threes.all_value"}
    return [document]


def _profile_of_every_part(_tmp: Path) -> list[Any]:
    """A profile with every optional part filled (changes with equivalents and changes that
    explain as well together, a witness, a behaviour, several claimed bases and a tie, the
    search cut, the engine stopped), put as the command puts it: the real runs give few of
    these cheaply."""
    da = shipped_library().load("bolivia-da")
    found = with_values(da, {"going_out.bonus": 100}, "test-engine-profile")
    case = Question("scoring", "going-out-bonus-escalera", "score", {"teams": []}, {}, "bonus")
    witness = Question("witnesses", "w1", "meld", {"cards": ["8H"] * 3}, {}, "x", "", "m.x")
    change = Change(
        "going_out.bonus",
        100,
        200,
        (case, witness),
        equivalents=(("going_out.concealed_bonus", 300),),
        together=((("scoring.card_points", {"JK": 40}), ("going_out.requirement", None)),),
    )
    profile = Profile(
        "test engine",
        "bolivia-da",
        da,
        found,
        (change,),
        (Behaviour("meld: different value for legal", (witness,)),),
        ("pile.take_frozen",),
        ("deal.foot",),
        40,
        39,
        ("1 skipped: the engine answered unsupported: not yet",),
        7,
        47,
        screened={"bolivia-da": (1, 0), "bolivia-da-100": (1, 0), "samba": (9, 3)},
        ties=("bolivia-da-100",),
        farther=("samba",),
        seconds=1.5,
        cut=True,
        search_cap=100,
        stopped="gave up on the engine after 3 cases in a row without an answer",
    )
    return [profile_json(profile, "profile.yaml")]


def runs(line: str, *more: str, status: int = 0) -> Callable[[Path], list[Any]]:
    """A run of ``bolivia`` with the words of ``line`` and then ``more`` (an engine's command
    is one argument), its output one document."""
    return lambda _tmp: [output(*line.split(), *more, status=status)]


# kind -> (run's name -> what it prints or writes, as JSON documents); tmp is a fresh folder
RUNS: dict[str, dict[str, Callable[[Path], list[Any]]]] = {
    "rulesets": {
        "shipped": runs("rulesets --json"),
        "a folder of the user's": _user_rulesets,
    },
    "ruleset": {
        "bolivia-fr": runs("show bolivia-fr --json"),
        "a house ruleset": runs("show bolivia-da-100 --json"),
    },
    "sources": {
        "counted": runs("sources --json"),
        "with --claims": runs("sources --claims --json"),
    },
    "simulation": {
        "hands": runs("simulate samba --hands 3 --json"),
        "games": runs("simulate samba --games 2 --json"),
        "random bots, Bolivia": runs("simulate bolivia-fr --hands 3 --bots random --json"),
    },
    "match": {
        "deals": runs("match bolivia-fr --bots greedy,random --deals 5 --json"),
        "games": runs("match bolivia-fr --bots greedy,random --games 1 --json"),
    },
    "ladder": {
        "two bots": runs("ladder bolivia-fr --bots greedy,random --deals 2 --json"),
    },
    "sweep": {
        "hands": lambda tmp: _sweep(tmp, "--vary going_out.bonus=300 --hands 2 --bots random"),
        "games, two fields": lambda tmp: _sweep(
            tmp,
            "--vary going_out.bonus=300 --vary red_threes.all_value=800 --games 1 --bots greedy",
        ),
    },
    "sweep-store": {
        "none yet": lambda tmp: [output("sweep", "--status", "--json", "--store", str(tmp / "no"))],
        "after a sweep": _store_after_a_sweep,
    },
    "conformance": {
        "the built-in oracle": runs("conform --json"),
        "a partial engine": runs("conform --json --engine", PARTIAL, status=1),
        "cases not run": runs(
            "conform --json -k cards:points-*:bolivia-da --maxfail 2 --engine", PARTIAL, status=1
        ),
    },
    "profile": {
        "a house engine": _profile_of_a_house,
        "the cap on questions": runs(
            "profile --json --as bolivia-da --max-questions 30 --engine", HOUSE
        ),
        "every part": _profile_of_every_part,
    },
    "replay": {
        "hands": lambda tmp: _simulated_replays(tmp, "--hands 2"),
        "a game": lambda tmp: _simulated_replays(tmp, "--games 1"),
    },
}


def test_every_kind_but_the_comparison_has_its_runs() -> None:
    assert sorted(RUNS) == sorted(set(formats.FORMATS) - {"comparison"})


@pytest.mark.parametrize(
    ("kind", "name"), [(kind, name) for kind, named in RUNS.items() for name in named]
)
def test_the_output_follows_its_schema(kind: str, name: str, tmp_path: Path) -> None:
    documents = RUNS[kind][name](tmp_path)
    assert documents
    for document in documents:
        assert problems(kind, document) == []


# --------------------------------------------------------------------------- the schemas fail


DROP = object()  # the key dropped, not set


def changed(document: dict[str, Any], path: str, value: Any) -> dict[str, Any]:
    """A copy of the document with the key at the dotted ``path`` set to ``value`` (or
    dropped)."""
    out = copy.deepcopy(document)
    *parents, last = path.split(".")
    inner = out
    for key in parents:
        inner = inner[key]
    if value is DROP:
        del inner[last]
    else:
        inner[last] = value
    return out


# a match's key changed as a careless release might -> what the schema says of it
MATCH_CHANGES: list[tuple[str, Any, str]] = [
    ("extra", 1, "Additional properties are not allowed ('extra' was unexpected)"),
    ("version", 2, "1 was expected"),
    ("format", "bolivia-matches", "'bolivia-match' was expected"),
    ("version", DROP, "'version' is a required property"),
    ("paired.a_margin", DROP, "'a_margin' is a required property"),
    ("paired.a_margin.low", "-1", "'-1' is not of type 'number', 'null'"),
    ("hands.a_win_rate.extra", 0, "('extra' was unexpected)"),
    ("games.a_win_rate.value", 1.5, "1.5 is greater than the maximum of 1"),
    ("games.a_win_rate.n", "12", "'12' is not of type 'integer'"),
    ("unit", "hand", "'hand' is not one of ['deal', 'game']"),
    ("ended_by.went_out_early", 1, "'went_out_early' is not one of"),
]


def test_a_changed_match_does_not_follow_the_schema() -> None:
    # a match of games has every key a match document has; played once for every change
    match = RUNS["match"]["games"](Path())[0]
    assert problems("match", match) == []
    for path, value, said in MATCH_CHANGES:
        found = problems("match", changed(match, path, value))
        assert any(said in problem for problem in found), (path, value, found)


def test_replay_lines_of_the_old_head_a_later_version_or_a_changed_action_do_not_follow(
    tmp_path: Path,
) -> None:
    lines = RUNS["replay"]["hands"](tmp_path)
    head = lines[0]
    old = {key: value for key, value in head.items() if key != "version"} | {"format": 1}
    later = head | {"version": 3}
    bad_action = next(line for line in lines if line["type"] == "action") | {
        "action": {"type": "draw", "cards": ["8H"]}
    }
    bad_end = lines[-1] | {"ended_by": "step_limit"}
    for line in (old, later, bad_action, bad_end, head | {"type": "deal"}):
        assert problems("replay", line), line


def test_a_simulation_of_games_needs_every_key_of_games() -> None:
    document = RUNS["simulation"]["games"](Path())[0]
    assert problems("simulation", document) == []
    without = {key: value for key, value in document.items() if key != "wins"}
    assert problems("simulation", without) == [": 'wins' is a dependency of 'games'"]
    assert problems("simulation", without | {"games": 0}) != []
