"""The questions a profile asks an engine, and what any ruleset would answer to them.

A battery is made for one ruleset, the *base*. First come every case of the suites. Each is
asked under the base, or under the nearest ruleset of its chain that the case has an
expectation for.

Then comes one witness for every one-field variant of the base that no question yet tells from
it. The witness is the smallest request on which the variant and the base answer differently.
It comes from the comparison's enumeration (:mod:`bolivia.compare.witnesses`), with a few more
situations here.

So every alternative value of every field is told from the base's, where the oracle's ops can
tell it at all. The fields no question tells apart are *unobservable*: a canasta's name, or how
the deal turns up the first card.

Each question knows the fields its answer depends on under the base. For a case of the base
itself, these are the committed dependencies. Otherwise they are derived here the same way.
"""

from __future__ import annotations

import dataclasses
import functools
import json
from collections.abc import Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bolivia.compare.witnesses import AREA_OPS, area_rules, compared_keys, requests_for
from bolivia.profiles.questions import generated
from bolivia.rules.ruleset import Ruleset
from bolivia.rules.variants import LEAVES, one_field_variants
from bolivia.verify.conformance import Case, Suite, compare
from bolivia.verify.dependencies import ask, case_fields, expectation_from, fields_of
from bolivia.verify.oracle import RESULT_FIELDS, Oracle

__all__ = [
    "WITNESSES",
    "Battery",
    "Predictor",
    "Question",
    "answered",
    "build_battery",
    "extended",
    "find_witnesses",
    "include",
    "separating",
    "suite_questions",
    "tells_apart",
]

WITNESSES = "witnesses"  # the suite name of the witness questions
SURVEY = "survey"  # the suite name of the generated questions every engine is asked
GENERATED = (WITNESSES, SURVEY)  # the suites of questions the profile made, not a suite's case
# the areas whose generated situations every engine is asked: their answers are values the
# profile reads (card points, red threes, the first meld's bands, the game's end, seatings)
SURVEYED = (
    "card points",
    "scoring",
    "initial meld",
    "game end",
    "turn rules",
    "melds",
    "extending",
    "pickup",
    "taking the top card",
    "going out",
)
MEMO = 200_000  # answers a predictor keeps before it starts again
MEMO_RULESETS = 5_000  # rulesets it keeps registered


@dataclass(frozen=True)
class Question:
    """One request, and the keys of its answer that are compared (a case's expectation for the
    ruleset it was written for: its values are those of that ruleset)."""

    suite: str
    case: str
    op: str
    input: dict[str, Any]
    template: dict[str, Any]
    about: str
    ruleset: str = ""  # the ruleset the template's values are those of
    field: str = ""  # for a witness: the field it was found for

    @property
    def name(self) -> str:
        return f"{self.suite}:{self.case}"

    @functools.cached_property
    def key(self) -> str:
        """What the question asks and compares (two questions of one name may differ)."""
        return json.dumps([self.op, self.input, self.template], sort_keys=True)

    def shown(self) -> str:
        """The question for a person: its name, or for a witness the request itself."""
        if self.suite not in GENERATED:
            return self.name
        return f"{self.op} {json.dumps(self.input, separators=(',', ':'), ensure_ascii=False)}"


class Predictor:
    """What the built-in oracle answers to a question under any ruleset, as an expectation
    (:func:`~bolivia.verify.dependencies.expectation_from`), kept by the ruleset's rules."""

    def __init__(self) -> None:
        self.oracle = Oracle()
        self._memo: dict[tuple[str, str], dict[str, Any]] = {}
        self._answers: dict[tuple[str, str], dict[str, Any]] = {}
        self._registered: set[str] = set()
        self.requests = 0

    def response(self, ruleset: Ruleset, op: str, data: Mapping[str, Any]) -> dict[str, Any]:
        key = (ruleset.digest, json.dumps({"op": op, **data}, sort_keys=True))
        found = self._answers.get(key)
        if found is not None:
            return found
        if len(self._answers) >= MEMO or len(self._registered) >= MEMO_RULESETS:
            self._forget()
        rid = f"~{ruleset.digest[:24]}"
        if rid not in self._registered:  # once per set of rules
            self.oracle.register(dataclasses.replace(ruleset, id=rid))
            self._registered.add(rid)
        self.requests += 1
        found = self._answers[key] = ask(self.oracle, {"op": op, "id": "p", "ruleset": rid, **data})
        return found

    def _forget(self) -> None:
        """Start again with nothing kept (the memory a long run holds stays bounded)."""
        self.oracle = Oracle()
        self._registered.clear()
        self._answers.clear()
        self._memo.clear()

    def expectation(self, ruleset: Ruleset, question: Question) -> dict[str, Any]:
        key = (ruleset.digest, question.key)
        found = self._memo.get(key)
        if found is None:
            if len(self._memo) >= MEMO:
                self._forget()
            response = self.response(ruleset, question.op, question.input)
            found = self._memo[key] = expectation_from(question.op, question.template, response)
        return found

    def explains(self, ruleset: Ruleset, question: Question, answer: Mapping[str, Any]) -> bool:
        """Whether the engine's answer is what ``ruleset`` answers to the question."""
        return not compare(self.expectation(ruleset, question), answer)


@dataclass
class Battery:
    base: Ruleset
    questions: list[Question]
    fields: dict[str, tuple[str, ...]]  # question name -> the fields its answer depends on
    predictor: Predictor = field(repr=False)
    unobservable: tuple[str, ...] = ()

    def depending_on(self, path: str) -> list[Question]:
        return [q for q in self.questions if path in self.fields[q.name]]

    def copy(self) -> Battery:
        """A battery of its own to extend (the predictor shared)."""
        return Battery(
            self.base, list(self.questions), dict(self.fields), self.predictor, self.unobservable
        )


# --------------------------------------------------------------------------- the suites


def _reference(base: Ruleset, case: Case) -> str | None:
    """The ruleset a case's expectation is taken from for ``base``: its own, or the nearest
    of its chain the case has one for."""
    return next((rid for rid in reversed(base.chain) if rid in case.expect), None)


def suite_questions(base: Ruleset, suites: Sequence[Suite]) -> list[Question]:
    out = []
    for suite in suites:
        for case in suite.cases:
            ref = _reference(base, case)
            if ref is None:
                continue
            expected = case.expect[ref]
            out.append(
                Question(suite.suite, case.id, case.op, case.input, expected, case.about, ref)
            )
    return out


# --------------------------------------------------------------------------- witnesses

_RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]


def _runs() -> list[tuple[str, dict[str, Any]]]:
    """Sequences of hearts from every rank: three cards, and seven to ten where they fit."""
    out = []
    for i in range(len(_RANKS)):
        for size in (3, 7, 8, 9, 10):
            if i + size <= len(_RANKS):
                out.append(("meld", {"cards": [f"{r}H" for r in _RANKS[i : i + size]]}))
    return out


# situations the comparison's enumeration does not hold: more players, every rank alone, all
# the red threes of packs of two to four decks, sequences from every rank
_MORE: dict[str, list[tuple[str, dict[str, Any]]]] = {
    "melds": _runs(),
    "turn rules": [("info", {"players": n}) for n in (7, 8)],
    "card points": [
        ("card_points", {"cards": [card], "in_hand": in_hand})
        for card in ("5S", "6S", "9S", "10S", "JS", "QS", "3S")
        for in_hand in (False, True)
    ],
    "scoring": [
        (
            "score",
            {"teams": [{"melds": melds, "red_threes": reds}, {"melds": [["9H", "9S", "9D"]]}]},
        )
        for reds in (4, 6, 8)
        for melds in ([], [["KH", "KS", "KD", "KC", "KH", "KS", "KD"]] * 2)
    ],
}


def _situations(path: str, ruleset: Ruleset) -> Iterator[tuple[str, dict[str, Any]]]:
    for area in AREA_OPS:
        if area_rules(area, [path]):
            yield from requests_for(area)
            yield from _MORE.get(area, [])
            yield from generated(ruleset, area)


def answered(op: str, response: Mapping[str, Any]) -> dict[str, Any]:
    """A question's template from a ruleset's answer: the keys the op compares, or the error."""
    if response.get("ok") is True:
        result = response["result"]
        return {k: result[k] for k in compared_keys(op) if k in result}
    return {"error": response.get("error", {}).get("code")}


def survey(
    predictor: Predictor, base: Ruleset
) -> tuple[list[Question], dict[str, tuple[str, ...]]]:
    """The generated situations of the surveyed areas as questions (the keys compared: those
    the base answers), with the fields each depends on: those its area reads."""
    questions: list[Question] = []
    fields: dict[str, tuple[str, ...]] = {}
    seen: set[str] = set()
    for area in SURVEYED:
        reads = tuple(p for p in LEAVES if area_rules(area, [p]))
        for op, data in generated(base, area):
            key = json.dumps([op, data], sort_keys=True)
            if key in seen:
                continue
            seen.add(key)
            template = answered(op, predictor.response(base, op, data))
            name = f"s{len(questions) + 1}"
            about = f"a situation of {area}"
            questions.append(Question(SURVEY, name, op, data, template, about, base.id))
            fields[f"{SURVEY}:{name}"] = reads
    return questions, fields


def _error_template(base: Mapping[str, Any], other: Mapping[str, Any]) -> dict[str, Any] | None:
    """The base's error code, unless the other answer is the same error."""
    code = base.get("error", {}).get("code")
    theirs = other.get("error", {}).get("code") if other.get("ok") is not True else None
    return None if code == theirs else {"error": code}


def _differing_keys(op: str, result: Mapping[str, Any], other: Mapping[str, Any]) -> list[str]:
    """The keys compared of a result that the other answer does not give alike."""
    if other.get("ok") is not True:
        return [k for k in compared_keys(op) if k in RESULT_FIELDS[op] and k in result]
    return [k for k in compared_keys(op) if k in result and result[k] != other["result"].get(k)]


def _template(op: str, base: Mapping[str, Any], other: Mapping[str, Any]) -> dict[str, Any] | None:
    """The keys on which two answers differ, with the base's values (None: they agree)."""
    if base.get("ok") is not True:
        return _error_template(base, other)
    result = base["result"]
    return {k: result[k] for k in _differing_keys(op, result, other)} or None


def build_battery(
    base: Ruleset, suites: Sequence[Suite], predictor: Predictor | None = None
) -> Battery:
    """The questions for ``base``: the suites' cases, then the witnesses they lack."""
    predictor = predictor if predictor is not None else Predictor()
    questions = suite_questions(base, suites)
    fields: dict[str, tuple[str, ...]] = {}
    unknown = []
    for q in questions:
        known = case_fields(q.suite, q.case, q.ruleset)
        if known is None:
            unknown.append(q)
        else:  # the case's own ruleset's, for a ruleset built on it
            fields[q.name] = known
    fields.update(_fields(predictor, base, unknown))
    surveyed, by_area = survey(predictor, base)
    questions += surveyed
    fields.update(by_area)
    witnesses, told = find_witnesses(predictor, base, questions, fields, LEAVES)
    fields.update(_fields(predictor, base, witnesses))
    unobservable = tuple(p for p in LEAVES if p not in told)
    return Battery(base, questions + witnesses, fields, predictor, unobservable)


def extended(battery: Battery, ruleset: Ruleset, paths: Sequence[str]) -> list[Question]:
    """Witnesses for the variants of ``ruleset`` (a base with changes) in ``paths`` that no
    question of the battery tells from it; added to the battery."""
    witnesses, _ = find_witnesses(
        battery.predictor,
        ruleset,
        battery.questions,
        battery.fields,
        paths,
        hidden=(battery.base, battery.unobservable),
    )
    include(battery, witnesses)
    return witnesses


def include(battery: Battery, questions: Sequence[Question]) -> None:
    """Add questions to the battery, with the fields they depend on under its base."""
    battery.questions.extend(questions)
    battery.fields.update(_fields(battery.predictor, battery.base, questions))


def tells_apart(
    predictor: Predictor,
    ruleset: Ruleset,
    other: Ruleset,
    path: str,
    questions: Sequence[Question] = (),
) -> bool:
    """Whether some question, or some situation of the areas that read ``path``, is answered
    differently under the two rulesets."""
    if any(predictor.expectation(other, q) != predictor.expectation(ruleset, q) for q in questions):
        return True
    return separating(predictor, ruleset, other, [path], 0) is not None


def separating(
    predictor: Predictor, ruleset: Ruleset, other: Ruleset, paths: Sequence[str], numbered: int
) -> Question | None:
    """The first situation of the areas that read ``paths`` that the two rulesets answer
    differently, as a witness question numbered after ``numbered`` (its template:
    ``ruleset``'s answer)."""
    for path in paths:
        for op, data in _situations(path, ruleset):
            template = _template(
                op, predictor.response(ruleset, op, data), predictor.response(other, op, data)
            )
            if template is not None:
                about = f"a situation in which {' or '.join(paths)} decides"
                name = f"w{numbered + 1}"
                return Question(WITNESSES, name, op, data, template, about, ruleset.id, path)
    return None


def find_witnesses(
    predictor: Predictor,
    ruleset: Ruleset,
    questions: Sequence[Question],
    fields: dict[str, tuple[str, ...]],
    paths: Sequence[str],
    hidden: tuple[Ruleset, Collection[str]] | None = None,
) -> tuple[list[Question], set[str]]:
    """A witness for every one-field variant of ``ruleset`` in ``paths`` that the questions
    do not tell from it, and the fields that some question now tells. ``hidden``: a base and
    the fields no situation told under it; for those, only the situations that ``ruleset``
    answers differently from the base are looked at (a field the base hides shows, if at all,
    where the changes that unhide it show)."""
    witnesses: list[Question] = []
    told: set[str] = set()
    numbered = sum(q.suite == WITNESSES for q in questions)
    for path, _, changed in one_field_variants(ruleset, paths):
        if any(
            predictor.expectation(changed, q) != predictor.expectation(ruleset, q)
            for q in [*questions, *witnesses]
            if path in fields.get(q.name, (path,))
        ):
            told.add(path)
            continue
        for op, data in _situations(path, ruleset):
            mine = predictor.response(ruleset, op, data)
            if (
                hidden is not None
                and path in hidden[1]
                and _template(op, mine, predictor.response(hidden[0], op, data)) is None
            ):
                continue
            template = _template(op, mine, predictor.response(changed, op, data))
            if template is not None:
                n = numbered + len(witnesses) + 1
                about = f"a situation in which {path} decides"
                found = Question(WITNESSES, f"w{n}", op, data, template, about, ruleset.id, path)
                witnesses.append(found)
                fields.setdefault(found.name, (path,))
                told.add(path)
                break
    return witnesses, told


def _fields(
    predictor: Predictor, base: Ruleset, questions: Sequence[Question]
) -> dict[str, tuple[str, ...]]:
    """The fields each question's answer depends on under ``base``, derived."""
    if not questions:
        return {}
    expected = [(q.name, q.op, q.input, predictor.expectation(base, q)) for q in questions]
    found, _, requests = fields_of(predictor.oracle, base, expected)
    predictor.requests += requests
    return {name: tuple(paths) for name, paths in found.items()}
