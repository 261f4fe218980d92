"""Every field of the ruleset format is read: changing it alone changes what the engine says
or does. A field nothing reads is removed from the format, and a file that still sets it is
told so in one line.

The evidence for each leaf of the rule tree (:func:`bolivia.rules.model.leaf_paths`), in a
variant of a shipped ruleset with that field alone changed (:mod:`bolivia.rules.variants`):

- a conformance case that depends on it (``bolivia/verify/suites/dependencies.json``, derived
  from the oracle): the case is asked again here under the field's variants, and one of them
  must make it fail;
- else a witness kept below as data: an oracle request answered otherwise, a seeded hand
  that the same bots play otherwise, or, for a field that is words (a canasta's name), those
  words in what the oracle says.

Each of these fails when the engine stops reading the field.
"""

from __future__ import annotations

import json
import textwrap
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest

from bolivia.errors import RulesetError, SourceError
from bolivia.play.batch.simulate import play_hand
from bolivia.play.bots.registry import make_bot
from bolivia.rules.library import Library, shipped_library
from bolivia.rules.loading import REMOVED_FIELDS
from bolivia.rules.ruleset import Ruleset
from bolivia.rules.sources import load_sources
from bolivia.rules.variants import LEAVES, one_field_variants, variant
from bolivia.verify.conformance import compare, load_suite, shipped_suites, suites_dir
from bolivia.verify.dependencies import DEPENDENCIES, ask
from bolivia.verify.oracle import Oracle

LIBRARY = shipped_library()
GREEDY = ("greedy",) * 4


# --------------------------------------------------------------------------- witnesses


@dataclass(frozen=True)
class Asked:
    """An oracle request answered otherwise once the field alone is changed. ``compared``: the
    answer's keys that change (by default every key but the reason)."""

    name: str
    shows: str
    ruleset: str
    field: str
    value: Any
    op: str
    request: Mapping[str, Any]
    compared: tuple[str, ...] = ()


@dataclass(frozen=True)
class Played:
    """A seeded hand that the same bots play otherwise (other actions or other scores) once
    the field alone is changed."""

    name: str
    shows: str
    ruleset: str
    field: str
    value: Any
    seed: int
    bots: tuple[str, ...] = GREEDY


@dataclass(frozen=True)
class Named:
    """A field that is words: the words a variant gives reach the oracle's answer."""

    name: str
    shows: str
    ruleset: str
    field: str
    value: str
    op: str
    request: Mapping[str, Any]


Witness = Asked | Played | Named

_SEVEN_EIGHTS = ["8H", "8H", "8S", "8S", "8D", "8D", "8C"]

# the fields no conformance case depends on, each with what shows that the engine reads it (an
# oracle request that shows a field is a case of the suite rule-fields instead)
WITNESSES: tuple[Witness, ...] = (
    Played(
        "wild-upcard-covered",
        "Canasta covers a wild upcard: seed 3 turns up 3H, covered by 2D, covered by AC. Covering "
        "red threes only, the 2D stays on top and freezes the pile, and the hand plays otherwise.",
        "canasta",
        "deal.upcard_covered_if",
        ["red_three"],
        seed=3,
    ),
    Named(
        "natural-canasta-named",
        "A natural canasta is called what the ruleset calls it in the oracle's reason.",
        "canasta",
        "canastas.natural.name",
        "canasta limpia",
        "meld",
        {"cards": _SEVEN_EIGHTS},
    ),
    Named(
        "mixed-canasta-named",
        "A mixed canasta is called what the ruleset calls it in the oracle's reason.",
        "canasta",
        "canastas.mixed.name",
        "canasta sucia",
        "meld",
        {"cards": [*_SEVEN_EIGHTS[:6], "2C"]},
    ),
    Named(
        "escalera-named",
        "Samba calls its escalera a samba; another name reaches the oracle's reason.",
        "samba",
        "canastas.escalera.name",
        "escalera real",
        "meld",
        {"cards": ["4H", "5H", "6H", "7H", "8H", "9H", "10H"]},
    ),
    Named(
        "bolivia-named",
        "Seven wild cards are a bolivia, or what the ruleset calls it, in the oracle's reason.",
        "bolivia-da",
        "canastas.bolivia.name",
        "bolivita",
        "meld",
        {"cards": ["2C", "2C", "2D", "2D", "2H", "2H", "JK"]},
    ),
    Played(
        "red-threes-replaced",
        "Seed 0 deals player 1 both of his side's red threes: Canasta replaces them from the "
        "stock; unreplaced, he plays with nine cards, and the hand plays otherwise.",
        "canasta",
        "red_threes.replaced",
        False,
        seed=0,
    ),
)


def _changed(witness: Witness) -> tuple[Ruleset, Ruleset]:
    base = LIBRARY.load(witness.ruleset)
    changed = variant(base, witness.field, witness.value)
    assert changed is not None, f"{witness.name}: not a valid value of {witness.field}"
    return base, changed


def _answers(witness: Asked | Named) -> tuple[dict[str, Any], dict[str, Any]]:
    """The oracle's answers under the ruleset and under the variant, asked by the same id."""
    base, changed = _changed(witness)
    answers = []
    for ruleset in (base, changed):
        oracle = Oracle()
        oracle.register(ruleset, base.id)
        answers.append(ask(oracle, {"op": witness.op, "ruleset": base.id, **witness.request}))
    return answers[0], answers[1]


def _verdict(answer: Mapping[str, Any], keys: tuple[str, ...]) -> dict[str, Any]:
    """What is compared of an answer: its error code, or the result's keys."""
    if not answer["ok"]:
        return {"error": answer["error"]["code"]}
    result: dict[str, Any] = answer["result"]
    return {k: v for k, v in result.items() if (k in keys if keys else k != "reason")}


def _play(ruleset: Ruleset, witness: Played) -> tuple[list[str], list[int]]:
    """The hand's actions, as its replay writes them, and its scores."""
    bots = [make_bot(name) for name in witness.bots]
    stats, _ = play_hand(ruleset, len(bots), witness.seed, bots, check="none", record=True)
    assert stats.completed, f"{witness.name}: {ruleset.id} ends by {stats.ended_by}"
    return stats.replay[1:-1], stats.points


def shown(witness: Witness) -> bool:
    """Whether the witness shows what changing its field changes."""
    if isinstance(witness, Played):
        base, changed = _changed(witness)
        return _play(base, witness) != _play(changed, witness)
    before, after = _answers(witness)
    if isinstance(witness, Named):
        said = after["result"]["reason"]
        return witness.value in said and witness.value not in before["result"]["reason"]
    return _verdict(before, witness.compared) != _verdict(after, witness.compared)


@pytest.mark.parametrize("witness", WITNESSES, ids=lambda w: w.name)
def test_the_witness_shows_its_field_is_read(witness: Witness) -> None:
    assert witness.field in LEAVES
    assert shown(witness), f"{witness.name}: {witness.field} changes nothing here"


@pytest.mark.parametrize("witness", WITNESSES, ids=lambda w: w.name)
def test_the_witness_fails_for_a_field_that_changes_nothing_there(witness: Witness) -> None:
    # a name changes no play and no answer but the words that say it
    other = "canastas.mixed.name" if witness.field == "canastas.natural.name" else None
    elsewhere = replace(witness, field=other or "canastas.natural.name", value="another name")
    assert not shown(elsewhere), witness.name


# --------------------------------------------------------------------------- the cases


def _depended_on() -> dict[str, tuple[str, str]]:
    """For each field some case depends on, the first case and ruleset that do."""
    data = json.loads((suites_dir() / DEPENDENCIES).read_text(encoding="utf-8"))
    out: dict[str, tuple[str, str]] = {}
    for name, by_ruleset in data["cases"].items():
        for ruleset, paths in sorted(by_ruleset.items()):
            for path in paths:
                out.setdefault(path, (name, ruleset))
    return out


DEPENDED_ON = _depended_on()
CASES = {
    f"{suite.suite}:{case.id}": case
    for suite in (load_suite(path) for path in shipped_suites())
    for case in suite.cases
}


@pytest.mark.parametrize("path", sorted(DEPENDED_ON))
def test_a_case_that_depends_on_a_field_fails_under_its_variant(path: str) -> None:
    name, ruleset_id = DEPENDED_ON[path]
    case = CASES[name]
    expected = case.expect[ruleset_id]
    oracle = Oracle()
    request = {"op": case.op, "ruleset": ruleset_id, **case.input}
    assert not compare(expected, ask(oracle, request)), f"{name} fails under {ruleset_id}"
    failed = []
    for _, value, changed in one_field_variants(LIBRARY.load(ruleset_id), [path]):
        oracle.register(changed, ruleset_id)
        if compare(expected, ask(oracle, request)):  # why it fails the case, or ""
            failed.append(value)
    assert failed, f"{name} under {ruleset_id} answers the same whatever {path} is"


def test_every_field_is_read() -> None:
    witnessed = {witness.field for witness in WITNESSES}
    assert witnessed <= set(LEAVES)
    unread = [path for path in LEAVES if path not in DEPENDED_ON and path not in witnessed]
    assert not unread, (
        f"no case depends on {unread} and no witness shows them read: add a witness to "
        "tests/test_fields_read.py, or remove the field (bolivia.rules.loading.REMOVED_FIELDS)"
    )
    assert len({witness.name for witness in WITNESSES}) == len(WITNESSES)


def test_every_field_is_decided_by_a_case() -> None:
    """A field of the format no case decides is a rule an engine may read wrongly and still
    conform: each is a case to write (the suite rule-fields holds those that had none)."""
    assert sorted(set(LEAVES) - set(DEPENDED_ON)) == []


def test_a_table_plays_to_the_target_or_one_it_is_offered() -> None:
    oracle = Oracle()

    def game_over(ruleset: str, target: int) -> dict[str, Any]:
        return ask(
            oracle,
            {"op": "game_over", "ruleset": ruleset, "scores": [7500, 0], "target": target},
        )

    assert game_over("canasta", 10000)["result"]["over"] is False
    assert game_over("canasta", 7500)["result"] == {"over": True, "winner": 0, "draw": False}
    assert game_over("canasta", 5000)["result"]["over"] is True  # its own target
    refused = game_over("bolivia-fr", 5000)
    assert refused["error"]["code"] == "bad-request"
    assert "plays to 15,000 and no other, not 5,000" in refused["error"]["message"]
    refused = game_over("canasta", 3000)
    assert "one of 2,500, 7,500, 10,000, not 3,000" in refused["error"]["message"]


# --------------------------------------------------------------------------- removed fields


def test_a_removed_field_is_no_field() -> None:
    assert "initial_meld.counts_pile_rest" in REMOVED_FIELDS
    assert not set(REMOVED_FIELDS) & set(LEAVES)


def _problems(path: Path) -> list[str]:
    with pytest.raises(RulesetError) as caught:
        Library([path.parent]).load(path)
    return [str(problem) for problem in caught.value.problems]


@pytest.mark.parametrize(
    ("text", "lines"),
    [
        ("initial_meld:\n  counts_pile_rest: false\n  counts_top_card: true\n", [4]),
        ("initial_meld.counts_pile_rest: true\n", [3]),
        ("initial_meld: {counts_pile_rest: true}\n", [3]),
        (
            "initial_meld:\n  counts_pile_rest: false\n"
            "provenance:\n  initial_meld.counts_pile_rest: {house: as we play}\n",
            [4, 6],
        ),
    ],
)
def test_a_file_setting_a_removed_field_is_told_to_delete_it(
    tmp_path: Path, text: str, lines: list[int]
) -> None:
    path = tmp_path / "club.yaml"
    path.write_text("id: club\nextends: canasta\n" + text, encoding="utf-8")
    problems = _problems(path)
    assert [problem.split(":")[1] for problem in problems] == [str(n) for n in lines]
    for problem in problems:
        assert "initial_meld.counts_pile_rest: removed from the format" in problem
        assert "never counts toward the first meld" in problem
        assert "delete this key" in problem
        assert "did you mean" not in problem


def test_a_source_fixing_a_removed_field_is_told_to_delete_it(tmp_path: Path) -> None:
    (tmp_path / "club.yaml").write_text(
        textwrap.dedent(
            """\
            id: club
            title: The club's rules
            claims:
              - id: club:first-meld
                about: bolivia
                says: The rest of the pile does not count toward the first meld.
                where: page 2
                fixes: {initial_meld.counts_pile_rest: false}
            """
        ),
        encoding="utf-8",
    )
    with pytest.raises(SourceError) as caught:
        load_sources(tmp_path)
    (problem,) = caught.value.problems
    assert problem.line == 8
    assert "removed from the format" in problem.message
