"""Profiling an engine: its closest shipped ruleset, and the rule values it plays by.

The engine is asked under a ruleset id it claims in ``hello``. Given ``as_id``, that is the
one. Else every id it claims that the library knows is profiled as the base in turn (the
closest on the suites' cases first), and the base is the one that needs the fewest changes to
explain the engine's answers (then leaves the fewest unexplained); others as close are said as
a tie.

For a base, its battery is asked (:mod:`bolivia.profiles.battery`). The search finds the
changes that explain the answers (:mod:`bolivia.profiles.search`). Those changes may open
fields the base hid. For example, a pile that may now be taken onto a meld makes the meld kinds
it may go onto matter. The witnesses for such fields are asked too, and the search goes on from
there.

Questions go through the conformance runner (:func:`~bolivia.verify.conformance.run_plan`).
Some questions are no evidence: those the engine skips, fails on (it crashed, hung, answered
something else) or is not asked (the run's deadline, the cap on questions). The fields only
such questions would have shown are *undetermined*.
"""

from __future__ import annotations

import hashlib
import json
import re
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bolivia.compare.witnesses import AREA_OPS, area_rules
from bolivia.errors import BoliviaError, RulesetError
from bolivia.profiles.battery import (
    WITNESSES,
    Battery,
    Predictor,
    Question,
    answered,
    build_battery,
    extended,
    include,
    separating,
    suite_questions,
)
from bolivia.profiles.domains import domain
from bolivia.profiles.questions import bisections
from bolivia.profiles.search import MAX_REQUESTS, Found, explain
from bolivia.rules.library import Library
from bolivia.rules.ruleset import Ruleset
from bolivia.rules.variants import LEAVES, alternatives, same_value, with_values
from bolivia.text import terminal
from bolivia.verify.conformance import (
    Case,
    Engine,
    Outcome,
    Suite,
    compare,
    not_run,
    plan,
    run_plan,
)
from bolivia.verify.engines import shown
from bolivia.verify.reporting import Run, unchecked

__all__ = [
    "MAX_QUESTIONS",
    "Behaviour",
    "Change",
    "Profile",
    "ProfileError",
    "profile_engine",
    "profile_id",
]

MAX_QUESTIONS = 20_000  # questions asked of an engine in one profile, unless told otherwise
ROUNDS = 4  # times the battery is extended for the changes found
BISECTIONS = 14  # rounds of questions that narrow where the first meld's minimum changes
MAX_RIVALS = 120  # other values of a changed field checked against the answers
_PREDICTOR = Predictor()  # shared by every battery: its memory is bounded once, not per base
_BATTERIES: dict[str, Battery] = {}  # by base and suites; a battery takes seconds to build


class ProfileError(BoliviaError):
    """An engine that cannot be profiled as asked (it claims no ruleset the library knows)."""


@dataclass(frozen=True)
class Change:
    """A rule value the engine plays by that differs from the base's."""

    path: str
    value: Any
    base_value: Any
    questions: tuple[Question, ...]  # the answers only this value explains
    # other fields' values that, in its place, explain the answers as well
    equivalents: tuple[tuple[str, Any], ...] = ()
    # changes of several fields that, together in its place, explain the answers as well
    together: tuple[tuple[tuple[str, Any], ...], ...] = ()


@dataclass(frozen=True)
class Behaviour:
    """Answers no rule value explains, alike (the same op, the same keys differing)."""

    about: str
    questions: tuple[Question, ...]


@dataclass(frozen=True)
class Profile:
    engine: str  # the engine's name, as its hello gives it
    asked_as: str  # the ruleset id it was asked under: the base
    base: Ruleset
    ruleset: Ruleset  # the base with the changes, under the profile's id
    changes: tuple[Change, ...]
    behaviours: tuple[Behaviour, ...]
    undetermined: tuple[str, ...]  # fields only unanswered questions would have shown
    unobservable: tuple[str, ...]  # fields no question of the protocol's ops tells apart
    asked: int
    answered: int
    unanswered: tuple[str, ...]  # why questions gave no evidence, as conform says it
    not_asked: int  # questions left out by the cap
    cap: int
    # every claimed id profiled, when it claims several: id -> (changes, answers unexplained)
    screened: dict[str, tuple[int, int]] = field(default_factory=dict)
    ties: tuple[str, ...] = ()  # other claimed ids as close: as many changes, as much unexplained
    farther: tuple[str, ...] = ()  # claimed ids whose search stopped past another's changes
    seconds: float = 0.0
    cut: bool = False  # the search stopped at its bound on oracle requests
    search_cap: int = MAX_REQUESTS  # that bound
    stopped: str = ""  # why the engine was no longer asked (it stopped answering, the deadline)


def profile_id(engine: str) -> str:
    """``<engine>-profile`` as a ruleset id (lower case, letters, digits, - . _)."""
    slug = re.sub(r"[^a-z0-9._-]+", "-", engine.lower()).strip("-._")[:55].strip("-._")
    return f"{slug or 'engine'}-profile"


# --------------------------------------------------------------------------- asking


# the protocol's error codes (docs/oracle-protocol.md) that answer a question; unknown-op is
# one only where the question expects it (else the engine has not written the op), and any
# other code (unsupported, a code of the engine's own) says it did not answer
_ANSWERING_ERRORS = frozenset(
    {"bad-json", "bad-request", "unknown-ruleset", "bad-card", "too-many-copies", "too-large"}
)


def _evidence(outcome: Outcome) -> dict[str, Any] | None:
    """The engine's response, when it answered the question: a skip, a crash, a hang, an
    answer to another request, or an error code that is no answer (see above), is no
    evidence."""
    answer = outcome.actual
    if outcome.status not in ("passed", "failed") or not isinstance(answer, dict):
        return None
    if answer.get("id") != outcome.request.get("id"):
        return None
    if answer.get("ok") is True:
        return answer if isinstance(answer.get("result"), dict) else None
    error = answer.get("error")
    code = error.get("code") if isinstance(error, dict) else None
    if answer.get("ok") is not False or not isinstance(code, str):
        return None
    return answer if code in _ANSWERING_ERRORS or outcome.expected.get("error") == code else None


# the reasons a run leaves the rest of its questions not asked
_STOPS = frozenset({"give-up", "deadline"})


class _Asker:
    """Asks an engine questions under one ruleset id, within the cap and the deadline."""

    def __init__(self, engine: Engine, cap: int, deadline: float | None, give_up: int | None):
        self.engine = engine
        self.cap = cap
        self.end = None if deadline is None else time.monotonic() + deadline
        self.give_up = give_up
        self.asked = 0
        self.not_asked = 0
        self.outcomes: list[Outcome] = []
        self.stopped = ""  # why asking stopped: giving up on the engine, or the deadline
        self._done: set[tuple[str, str]] = set()  # (ruleset id, question key) asked already

    def ask(
        self, battery: Battery, questions: Sequence[Question], answers: dict[str, dict[str, Any]]
    ) -> None:
        """Ask the questions not asked yet under the battery's base; the answers that are
        evidence go into ``answers`` by question name."""
        base = battery.base
        todo = [q for q in questions if (base.id, q.key) not in self._done]
        room = max(0, self.cap - self.asked)
        self.not_asked += max(0, len(todo) - room)
        todo = todo[:room]
        if not todo:
            return
        suites: dict[str, list[Case]] = {}
        for q in todo:
            self._done.add((base.id, q.key))
            expected = battery.predictor.expectation(base, q)
            suites.setdefault(q.suite, []).append(
                Case.model_construct(
                    id=q.case,
                    about=q.about,
                    source=(),
                    op=q.op,
                    input=q.input,
                    expect={base.id: expected},
                )
            )
        planned = plan([Suite.model_construct(suite=s, cases=tuple(c)) for s, c in suites.items()])
        if self.stopped:  # the engine is not asked again: these count with the rest not run
            self.outcomes.extend(not_run(planned, self.stopped, "give-up"))
            return
        left = None if self.end is None else max(0.001, self.end - time.monotonic())
        for outcome in run_plan(planned, self.engine, deadline=left, give_up=self.give_up):
            self.asked += outcome.status != "not-run"
            if outcome.reason in _STOPS and not self.stopped:
                self.stopped = outcome.note
            self.outcomes.append(outcome)
            found = _evidence(outcome)
            if found is not None:
                answers[f"{outcome.suite}:{outcome.case}"] = found

    def unanswered(self) -> tuple[str, ...]:
        """Why questions gave no evidence, grouped, as conform says it."""
        lines = [
            line
            for line in unchecked(Run(list(self.outcomes), self.engine))
            if not line.startswith("nothing")
        ]
        failed: dict[str, int] = {}
        for outcome in self.outcomes:
            if outcome.status == "failed" and _evidence(outcome) is None:
                error = outcome.actual.get("error") if isinstance(outcome.actual, dict) else None
                code = error.get("code") if isinstance(error, dict) else None
                why = f"the engine answered the error {shown(code)}" if code else outcome.note
                failed[why] = failed.get(why, 0) + 1
        lines += [f"{n} unanswered: {terminal(why)}" for why, n in failed.items()]
        return tuple(lines)


# --------------------------------------------------------------------------- the base


def _battery(base: Ruleset, suites: Sequence[Suite]) -> Battery:
    text = json.dumps([s.model_dump(mode="json") for s in suites], sort_keys=True)
    key = f"{base.id}:{base.digest}:{hashlib.sha256(text.encode()).hexdigest()}"
    if key not in _BATTERIES:
        if len(_BATTERIES) >= 16:
            _BATTERIES.clear()
        _BATTERIES[key] = build_battery(base, suites, _PREDICTOR)
    return _BATTERIES[key].copy()


def _claimed(engine: Engine, library: Library, as_id: str | None) -> list[str]:
    known = [rid for rid in library.ids() if rid in engine.rulesets]
    claims = ", ".join(rid[:80] for rid in sorted(engine.rulesets)[:20]) or "none"
    if as_id is not None:
        if as_id not in engine.rulesets:
            raise ProfileError(f"the engine does not answer for {as_id}: its hello lists {claims}")
        if as_id not in library:
            raise ProfileError(
                f"{as_id} is not a ruleset the library knows (give --rulesets FOLDER for "
                "a folder that holds it)"
            )
        return [as_id]
    if not known:
        raise ProfileError(
            f"the engine claims none of the rulesets the library knows (it claims {claims})"
        )
    return known


def _screen(
    asker: _Asker,
    library: Library,
    suites: Sequence[Suite],
    ids: Sequence[str],
    answers: dict[str, dict[str, dict[str, Any]]],
) -> list[str]:
    """The claimed rulesets, those whose own rules explain the most of the engine's answers to
    the suites' cases under their id first (the order they are profiled in)."""
    predictor = Predictor()
    wrong: dict[str, float] = {}
    for rid in ids:
        ruleset = library.load(rid)
        questions = suite_questions(ruleset, suites)
        mine = answers.setdefault(rid, {})
        asker.ask(Battery(ruleset, questions, {}, predictor), questions, mine)
        answered = [q for q in questions if q.name in mine]
        missed = sum(
            1 for q in answered if compare(predictor.expectation(ruleset, q), mine[q.name])
        )
        wrong[rid] = missed / max(1, len(answered))
    return sorted(ids, key=lambda rid: wrong[rid])


# --------------------------------------------------------------------------- profiling


def _opened(battery: Battery, changes: Mapping[str, Any]) -> list[str]:
    """The fields to look for witnesses of again once the base has changed: those some
    question told under the base (the change may hide them from it), and those none told that
    share an area with a change (the change may show them)."""
    areas = {area for area in AREA_OPS for path in changes if area_rules(area, [path])}
    return [
        path
        for path in LEAVES
        if path not in battery.unobservable or any(area_rules(area, [path]) for area in areas)
    ]


def _rivals(
    battery: Battery, base: Ruleset, found: Found, answers: Mapping[str, Any]
) -> list[tuple[list[str], Ruleset]]:
    """The rulesets that explain the answers as well as the one found: other fields' changes
    in place of a change (its equivalents, alone or together), or another value of a changed
    field."""
    return [*_instead_of_changes(base, found), *_other_values(battery, base, found, answers)]


def _instead_of_changes(base: Ruleset, found: Found) -> Iterator[tuple[list[str], Ruleset]]:
    """Each change's equivalents, alone and together, in its place."""
    for path in found.changes:
        sets: list[tuple[tuple[str, Any], ...]] = [
            ((other, value),) for other, value in found.equivalents.get(path, ())
        ]
        sets += found.together.get(path, [])
        rest = {p: v for p, v in found.changes.items() if p != path}
        for changes in sets:
            try:
                rival = with_values(base, {**rest, **dict(changes)}, "instead")
            except RulesetError:
                continue
            yield [path, *(other for other, _ in changes)], rival


def _other_values(
    battery: Battery, base: Ruleset, found: Found, answers: Mapping[str, Any]
) -> Iterator[tuple[list[str], Ruleset]]:
    """Another value of a changed field that leaves the same answers unexplained."""
    predictor = battery.predictor
    for path, mine in found.changes.items():
        shown = [q for q in battery.depending_on(path) if q.name in answers]

        def wrong(ruleset: Ruleset, shown: list[Question] = shown) -> set[str]:
            return {q.name for q in shown if not predictor.explains(ruleset, q, answers[q.name])}

        before = wrong(found.ruleset)
        values = [*alternatives(found.ruleset, path), *domain(found.ruleset, path)]
        for value in values[:MAX_RIVALS]:
            if same_value(value, mine):
                continue
            try:
                rival = with_values(base, {**found.changes, path: value}, "instead")
            except RulesetError:
                continue
            if wrong(rival) == before:
                yield [path], rival


def _deciding(
    battery: Battery, base: Ruleset, found: Found, answers: Mapping[str, Any]
) -> list[Question]:
    """For each ruleset that explains the answers as well as the one found, a situation in
    which the two answer differently (added to the battery), so that the engine's answer
    decides between them."""
    out: list[Question] = []
    numbered = sum(q.suite == WITNESSES for q in battery.questions)
    known = {q.key for q in battery.questions}
    for paths, rival in _rivals(battery, base, found, answers):
        question = separating(battery.predictor, found.ruleset, rival, paths, numbered + len(out))
        if question is not None and question.key not in known:
            known.add(question.key)
            out.append(question)
    include(battery, out)
    return out


def _bisect(asker: _Asker, battery: Battery, answers: dict[str, dict[str, Any]]) -> None:
    """The first meld's minimum asked between scores whose answers differ, until each change
    of minimum is known to the point."""
    for _ in range(BISECTIONS):
        asked = [
            (q.input, answers[q.name]["result"].get("minimum"))
            for q in battery.questions
            if q.op == "initial_minimum" and answers.get(q.name, {}).get("ok") is True
        ]
        known = {json.dumps(q.input, sort_keys=True) for q in battery.questions}
        more: list[Question] = []
        for op, data in bisections(asked):
            if json.dumps(data, sort_keys=True) not in known:
                template = answered(op, battery.predictor.response(battery.base, op, data))
                n = sum(q.suite == WITNESSES for q in battery.questions) + len(more) + 1
                about = "a score between two whose first meld's minimums differ"
                more.append(
                    Question(WITNESSES, f"w{n}", op, data, template, about, battery.base.id)
                )
        if not more:
            return
        include(battery, more)
        asker.ask(battery, more, answers)


def _behaviours(
    battery: Battery, ruleset: Ruleset, questions: Sequence[Question], answers: Mapping[str, Any]
) -> tuple[Behaviour, ...]:
    groups: dict[str, list[Question]] = {}
    for q in questions:
        why = compare(battery.predictor.expectation(ruleset, q), answers[q.name])
        groups.setdefault(f"{q.op}: {why}", []).append(q)
    return tuple(Behaviour(about, tuple(qs)) for about, qs in groups.items())


def _rounds(
    asker: _Asker,
    battery: Battery,
    base: Ruleset,
    answers: dict[str, dict[str, Any]],
    most: int | None = None,
    max_requests: int = MAX_REQUESTS,
) -> Found:
    """The search, then rounds of what the changes hide or show, asked and searched again,
    until nothing more is asked or the changes stay the same (none once the search needs
    more than ``most`` changes: a base already profiled needs no more)."""
    _bisect(asker, battery, answers)
    found = explain(battery, answers, most=most, max_requests=max_requests)
    for _ in range(ROUNDS if not found.beyond else 0):
        opened = _opened(battery, found.changes)
        more = extended(battery, found.ruleset, opened) if found.changes and opened else []
        more += _deciding(battery, base, found, answers)
        if not more:
            break
        asker.ask(battery, more, answers)
        before, found = found, explain(battery, answers, found.changes, most, max_requests)
        if found.beyond:
            break
        if found.changes == before.changes:
            break
    return found


def _distance(found: Found) -> tuple[int, int]:
    """How far a base is from the engine: the changes it needs, then the answers left
    unexplained (a search stopped past another base's count: the fewest it would need)."""
    return found.least if found.beyond else len(found.changes), len(found.unexplained)


def _changes(base: Ruleset, found: Found) -> tuple[Change, ...]:
    """Each change found, with the base's value, its evidence and its equivalents."""
    return tuple(
        Change(
            path,
            value,
            base.value(path),
            tuple(found.explains.get(path, ())),
            tuple(found.equivalents.get(path, ())),
            tuple(found.together.get(path, ())),
        )
        for path, value in found.changes.items()
    )


def _undetermined(battery: Battery, answers: Mapping[str, Any]) -> tuple[str, ...]:
    """The fields a question could show but no question that shows them was answered."""
    return tuple(
        path
        for path in LEAVES
        if path not in battery.unobservable
        and not any(q.name in answers for q in battery.depending_on(path))
    )


def profile_engine(
    engine: Engine,
    library: Library,
    suites: Sequence[Suite],
    *,
    name: str,
    as_id: str | None = None,
    max_questions: int = MAX_QUESTIONS,
    deadline: float | None = None,
    give_up: int | None = 3,
    max_requests: int = MAX_REQUESTS,
) -> Profile:
    """Ask the engine, search, and say what it implements."""
    start = time.monotonic()
    asker = _Asker(engine, max_questions, deadline, give_up)
    ids = _claimed(engine, library, as_id)
    answers_by: dict[str, dict[str, dict[str, Any]]] = {}
    order = _screen(asker, library, suites, ids, answers_by) if len(ids) > 1 else ids
    profiled: dict[str, tuple[Battery, Found]] = {}
    most: int | None = None  # the fewest changes a base needed so far
    for rid in order:  # each claimed ruleset as the base, the closest on the suites first
        battery = _battery(library.load(rid), suites)
        answers = answers_by.setdefault(rid, {})
        asker.ask(battery, battery.questions, answers)
        found = _rounds(asker, battery, battery.base, answers, most, max_requests)
        profiled[rid] = (battery, found)
        if not found.beyond:
            most = len(found.changes) if most is None else min(most, len(found.changes))
    distance = {rid: _distance(found) for rid, (_, found) in profiled.items()}
    chosen = min(order, key=lambda rid: distance[rid])
    battery, found = profiled[chosen]
    base, answers = battery.base, answers_by[chosen]
    screened = {rid: distance[rid] for rid in order} if len(order) > 1 else {}
    ruleset = with_values(base, found.changes, profile_id(name))
    return Profile(
        engine=name,
        asked_as=chosen,
        base=base,
        ruleset=ruleset,
        changes=_changes(base, found),
        behaviours=_behaviours(battery, found.ruleset, found.unexplained, answers),
        undetermined=_undetermined(battery, answers),
        unobservable=battery.unobservable,
        asked=asker.asked,
        answered=sum(len(a) for a in answers_by.values()),
        unanswered=asker.unanswered(),
        not_asked=asker.not_asked,
        cap=max_questions,
        screened=screened,
        ties=tuple(r for r in order if r != chosen and distance[r] == distance[chosen]),
        farther=tuple(r for r in order if profiled[r][1].beyond),
        seconds=time.monotonic() - start,
        cut=found.cut,
        search_cap=max_requests,
        stopped=asker.stopped,
    )
