"""The search for the fewest rule values that explain an engine's answers.

It starts from the base ruleset. Every answer the base does not explain is a disagreement.
For each, the candidates are the fields its answer depends on. Each field comes with the
alternatives of :mod:`bolivia.rules.variants` and the values the answers show outright
(:mod:`bolivia.profiles.readings`).

A step takes the candidate that explains the most disagreements. It checks the ruleset that
candidate makes against *every* answer, since a change may break what was explained. It keeps
the candidate only when more answers are explained than before. Only when no single field
helps are other candidates tried: first fields the base's answers do not depend on, then two
fields at once.

When no step helps any more, each change is taken back in turn. It is left out if the answers
are as well explained without it. What is still unexplained is behaviour no rule field
describes.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bolivia.compare.witnesses import AREA_OPS, area_rules
from bolivia.errors import RulesetError
from bolivia.profiles.battery import Battery, Question
from bolivia.profiles.domains import domain, number_parts, solved
from bolivia.profiles.readings import readings
from bolivia.rules.ruleset import Ruleset
from bolivia.rules.variants import LEAVES, alternatives, same_value, with_values

__all__ = ["MAX_REQUESTS", "Found", "explain"]

TOP = 12  # candidates checked against every answer in one step
SOLVED_FROM = 24  # disagreements numbers are solved from, in one step
MAX_STEPS = 60
MAX_REQUESTS = 400_000  # oracle requests one search may make; then it stops where it is
MAX_PAIRS = 4000  # rulesets of two changes tried for the disagreements no single change explains

Answered = list[tuple[Question, Mapping[str, Any]]]

#: fields a table by players overrides at its seatings: a change of one may be, at the seating
#: the questions ask, the table's entry instead (the only seating a ruleset of one has)
BY_PLAYERS = {
    "going_out.requirement": "going_out.requirement_by_players",
    "game.target": "game.target_by_players",
}


@dataclass(frozen=True)
class Found:
    """The base with the changes that explain the most answers, and the answers left over."""

    ruleset: Ruleset
    changes: dict[str, Any]  # key path -> value (JSON), in the rule tree's order
    unexplained: list[Question]
    explains: dict[str, list[Question]]  # key path -> the answers only its change explains
    # key path -> other (path, value) that, in its place, explain the answers as well
    equivalents: dict[str, list[tuple[str, Any]]]
    cut: bool = False  # the search stopped at its bound on oracle requests
    beyond: bool = False  # it stopped past the most changes it was allowed (another base is nearer)
    least: int = 0  # then: the fewest changes it would need, at least (more than it was allowed)
    # key path -> changes of several fields that, together in its place, explain them as well
    together: dict[str, list[tuple[tuple[str, Any], ...]]] = field(default_factory=dict)


@dataclass(frozen=True)
class _Step:
    changes: dict[str, Any]
    ruleset: Ruleset
    left: Answered

    def adds(self, before: Mapping[str, Any]) -> int:
        """The fields changed here that were not before."""
        return len(set(self.changes) - set(before))

    def rank(self, before: Mapping[str, Any]) -> tuple[int, int]:
        """More answers explained first, then fewer fields changed."""
        return (-len(self.left), -self.adds(before))


def _area_fields(op: str) -> list[str]:
    """The fields the rule area of an op reads (a pickup's: the pile's rules, ...)."""
    return [p for area, ops in AREA_OPS.items() if op in ops for p in area_rules(area, LEAVES)]


class _Search:
    def __init__(
        self,
        battery: Battery,
        answers: Mapping[str, Mapping[str, Any]],
        max_requests: int = MAX_REQUESTS,
    ) -> None:
        self.battery = battery
        self.predictor = battery.predictor
        self.base = battery.base
        self.asked: Answered = [
            (q, answers[q.name]) for q in battery.questions if q.name in answers
        ]
        self._built: dict[str, Ruleset | None] = {}
        self.end = self.predictor.requests + max_requests
        self.beyond = False  # stopped past the changes another base needs
        self.least = 0  # then the fewest changes the base would need

    @property
    def cut(self) -> bool:
        return self.predictor.requests >= self.end

    def build(self, changes: Mapping[str, Any]) -> Ruleset | None:
        key = json.dumps(changes, sort_keys=True)
        if key not in self._built:
            try:
                made = with_values(self.base, changes, f"{self.base.id}+profile")
            except RulesetError:
                made = None
            self._built[key] = made
        return self._built[key]

    def unexplained(self, ruleset: Ruleset, among: Answered | None = None) -> Answered:
        return [
            (q, a)
            for q, a in (self.asked if among is None else among)
            if not self.predictor.explains(ruleset, q, a)
        ]

    def changed(self, changes: Mapping[str, Any], path: str, value: Any) -> dict[str, Any]:
        out = {p: v for p, v in changes.items() if p != path}
        if not same_value(value, self.base.value(path)):
            out[path] = value
        return {p: out[p] for p in LEAVES if p in out}

    def solved(
        self, ruleset: Ruleset, paths: Sequence[str], left: Answered
    ) -> list[tuple[str, Any]]:
        """Values of the fields with a number solved, or a name read, from a disagreement's
        answer."""
        out = []
        numeric = [  # numbers, and names (read as they are answered)
            p
            for p in paths
            if isinstance(ruleset.value(p), str)
            or any(True for _ in number_parts(ruleset.value(p)))
        ]
        for question, answer in left[:SOLVED_FROM]:
            shows = self.battery.fields.get(question.name, ())
            for path in numeric:
                if path in shows:
                    predict = lambda r, q=question: self.predictor.expectation(r, q)  # noqa: E731
                    out += [(path, v) for v in solved(predict, ruleset, path, answer)]
        return out

    def candidates(
        self, ruleset: Ruleset, paths: Sequence[str], left: Answered | None = None
    ) -> list[tuple[str, Any]]:
        read = readings(self.predictor, ruleset, self.asked)
        read += self.solved(ruleset, paths, left or [])
        out = []
        for path in paths:
            values = [
                *alternatives(ruleset, path),
                *(v for p, v in read if p == path),
                *domain(ruleset, path),
            ]
            seen: list[Any] = []
            for value in values:
                if not same_value(value, ruleset.value(path)) and not any(
                    same_value(value, v) for v in seen
                ):
                    seen.append(value)
                    out.append((path, value))
        return out

    def step(self, current: _Step, paths: Sequence[str], every: bool) -> _Step | None:
        """The best single change among ``paths`` (judged on the disagreements that depend on
        the field, or on all of them when ``every``)."""
        scored = []
        wrong = {q.name for q, _ in current.left}
        for path, value in self.candidates(current.ruleset, paths, current.left):
            if self.cut:
                break
            changes = self.changed(current.changes, path, value)
            made = self.build(changes)
            if made is None:
                continue
            among = [
                (q, a)
                for q, a in current.left
                if every or path in self.battery.fields.get(q.name, ())
            ]
            fixed = len(among) - len(self.unexplained(made, among))
            if fixed:  # less what it breaks of the answers that depend on the field
                kept = [
                    (q, a)
                    for q, a in self.asked
                    if q.name not in wrong and path in self.battery.fields.get(q.name, ())
                ]
                net = fixed - len(self.unexplained(made, kept))
                if net > 0:
                    scored.append((net, fixed, changes, made))
        scored.sort(key=lambda item: (-item[0], -item[1]))
        chosen = scored[:TOP]
        if len(scored) > TOP:  # those as good as the last chosen too: a tie is not cut by order
            chosen += [item for item in scored[TOP : TOP * 4] if item[0] == scored[TOP - 1][0]]
        return self._best(current, [(c, m, n) for _, n, c, m in chosen])

    def _best(
        self, current: _Step, tried: Sequence[tuple[dict[str, Any], Ruleset, int]]
    ) -> _Step | None:
        """Of the candidates (with the disagreements each fixes, most first), the one that
        explains the most answers, then changes the fewest fields, then contradicts the fewest
        answers explained before (two values that explain as many are told apart by the one
        that breaks nothing); a candidate that cannot beat the best so far (it cannot gain
        more than it fixes) is not checked."""
        before = {q.name for q, _ in current.left}

        def key(step: _Step) -> tuple[int, int, int]:
            broken = sum(1 for q, _ in step.left if q.name not in before)
            return (*step.rank(current.changes), -broken)

        best: _Step | None = None
        for changes, made, fixed in tried:
            if best is not None:
                gain = len(current.left) - len(best.left)
                if gain > fixed or (gain == fixed and not best.adds(current.changes)):
                    break  # no candidate left explains more, or as much with fewer fields
            step = _Step(changes, made, self.unexplained(made))
            if len(step.left) < len(current.left) and (best is None or key(step) > key(best)):
                best = step
        return best

    def pairs(self, current: _Step) -> _Step | None:
        """Two fields changed at once, for the first disagreements no single change fixes."""
        tried: list[tuple[dict[str, Any], Ruleset, int]] = []
        budget = MAX_PAIRS
        for question, answer in current.left[:3]:
            paths = [p for p in LEAVES if p in self.battery.fields.get(question.name, ())]
            if len(paths) < 2:  # no field alone changes its answer: two of its area's may
                paths = [p for p in _area_fields(question.op) if p not in current.changes]
            options = self.candidates(current.ruleset, paths)
            for (p1, v1), (p2, v2) in itertools.combinations(options, 2):
                if budget <= 0 or self.cut:
                    break
                if p1 == p2:
                    continue
                budget -= 1
                changes = self.changed(self.changed(current.changes, p1, v1), p2, v2)
                made = self.build(changes)
                if made is not None and self.predictor.explains(made, question, answer):
                    tried.append((changes, made, len(current.left)))
        return self._best(current, tried[: TOP * 4])

    def run(self, start: Mapping[str, Any], most: int | None = None) -> _Step:
        """The greedy steps from ``start``; past ``most`` changes the search stops (another
        base needs no more) and :attr:`beyond` is set."""
        made = self.build(start) or self.base
        current = _Step(dict(start) if made is not self.base else {}, made, [])
        current = _Step(current.changes, made, self.unexplained(made))
        for _ in range(MAX_STEPS):
            least = len(current.changes) + self.fewest_more(current) if most is not None else 0
            if most is not None and least > most:
                self.beyond, self.least = True, least
                return current
            if not current.left or self.cut:
                break
            near = [
                p
                for p in LEAVES
                if any(p in self.battery.fields.get(q.name, ()) for q, _ in current.left)
            ]
            found = (
                self.step(current, near, every=False)
                or self.step(current, LEAVES, every=True)
                or self.pairs(current)
                or self.settled(current)
            )
            if found is None:
                break
            current = found
        return self.merge(self.prune(current))

    def settled(self, current: _Step) -> _Step | None:
        """Where no step helps: the changes pruned and merged, or one of them replaced by
        another field's change that explains more in all (a step may have taken a field that
        explained the most then, and another explains more now). Returned only when it changed
        the changes and more may be explained: the steps go on from it."""
        if not current.left:
            return None
        merged = self.merge(self.prune(current))
        if merged.changes != current.changes:
            return merged if merged.left else None
        for path in list(current.changes):
            for _, _, step, left in self.in_place(current, path, self.evidence(current, path)):
                if len(left) < len(current.left):
                    return step
        return None

    def fewest_more(self, current: _Step) -> int:
        """A bound under the changes the disagreements left still need, by the fields each
        depends on: disagreements no two of which one new change could fix each need one of
        their own (those a field already changed may fix, by another value, are not counted)."""
        taken = set(current.changes)
        count = 0
        shown = (set(self.battery.fields.get(q.name, ())) for q, _ in current.left)
        for fields in sorted(shown, key=len):
            if fields and not fields & taken:
                taken |= fields
                count += 1
        return count

    def equivalents(
        self, best: _Step, explains: Mapping[str, Sequence[Question]]
    ) -> dict[str, list[tuple[str, Any]]]:
        """For each change, the changes of another field that explain the answers as well in
        its place (the answers do not tell which of them the engine plays by)."""
        out: dict[str, list[tuple[str, Any]]] = {}
        for path, evidence in explains.items():
            found = self.in_place_of(best, path, evidence)
            if found:
                out[path] = found
        return out

    def in_place_of(
        self, best: _Step, path: str, evidence: Sequence[Question]
    ) -> list[tuple[str, Any]]:
        """The changes of other fields that explain a change's evidence as well without it,
        and no fewer answers in all."""
        return [
            (other, value)
            for other, value, _, left in self.in_place(best, path, evidence)
            if len(left) <= len(best.left)
        ]

    def in_place(
        self, best: _Step, path: str, evidence: Sequence[Question]
    ) -> Iterator[tuple[str, Any, _Step, Answered]]:
        """Each change of another field that, in place of ``path``'s, explains its evidence:
        with the step it makes and the answers that step leaves unexplained."""
        names = {q.name for q in evidence}
        among = [(q, a) for q, a in self.asked if q.name in names]
        rest = {p: v for p, v in best.changes.items() if p != path}
        without = self.build(rest)
        if not among or without is None:
            return
        for other, value in self.candidates(without, self.shown_by(evidence, best.changes)):
            changes = self.changed(rest, other, value)
            made = self.build(changes)
            if made is None or self.unexplained(made, among):
                continue
            left = self.unexplained(made)
            yield other, value, _Step(changes, made, left), left

    def evidence(self, best: _Step, path: str) -> list[Question]:
        """The answers only ``path``'s change explains (lost without it)."""
        left = {q.name for q, _ in best.left}
        without = self.build({p: v for p, v in best.changes.items() if p != path})
        lost = self.unexplained(without) if without is not None else self.asked
        return [q for q, _ in lost if q.name not in left]

    def kinds_instead(self, best: _Step) -> dict[str, list[tuple[tuple[str, Any], ...]]]:
        """For a change that adds special canastas every canasta of their kind matches (no
        condition), the kind's own name and bonus in its place, where they explain as much:
        the same canastas paid the same, no answer tells the two apart."""
        path = "canastas.special"
        if path not in best.changes:
            return {}
        mine = list(best.changes[path])
        plain = [e for e in mine if not _conditions(e) and not _conditions_in(self.base, e)]
        if not plain:
            return {}
        rest = {p: v for p, v in best.changes.items() if p != path}
        instead: list[tuple[str, Any]] = []
        for entry in plain:
            instead += [
                (f"canastas.{entry['kind']}.name", entry["name"]),
                (f"canastas.{entry['kind']}.bonus", entry["bonus"]),
            ]
        left = [e for e in mine if e not in plain]
        if not same_value(left, self.base.value(path)):
            instead.append((path, left))
        changes = dict(rest)
        for other, value in instead:
            changes = self.changed(changes, other, value)
        made = self.build(changes)
        if made is None or len(self.unexplained(made)) > len(best.left):
            return {}
        return {path: [tuple(instead)]}

    def shown_by(self, questions: Sequence[Question], changed: Collection[str] = ()) -> list[str]:
        """The fields, but those ``changed``, that any of these questions shows, and the table
        by players of each (its entry for the seating asked may say the same)."""
        shown = {p for q in questions for p in self.battery.fields.get(q.name, ())}
        shown |= {BY_PLAYERS[p] for p in shown if p in BY_PLAYERS}
        return [p for p in LEAVES if p not in changed and p in shown]

    def merge(self, current: _Step) -> _Step:
        """Two changes replaced by one that explains as much, while one does: a field the
        greedy steps reached by way of two others (a group's least size and its wild cards,
        where the engine's rule is its least count of naturals)."""
        merged = True
        while merged and len(current.changes) >= 2 and not self.cut:
            merged = False
            for p1, p2 in itertools.combinations(list(current.changes), 2):
                rest = {p: v for p, v in current.changes.items() if p not in (p1, p2)}
                without = self.build(rest)
                if without is None:
                    continue
                wrong = {q.name for q, _ in current.left}
                evidence = [(q, a) for q, a in self.unexplained(without) if q.name not in wrong]
                shown = self.shown_by([q for q, _ in evidence], rest)
                for path, value in self.candidates(without, shown):
                    made = self.build(self.changed(rest, path, value))
                    if made is None or self.unexplained(made, evidence[:8]):
                        continue  # the first answers the two explained, not explained
                    left = self.unexplained(made)
                    if len(left) <= len(current.left):
                        current = _Step(self.changed(rest, path, value), made, left)
                        merged = True
                        break
                if merged:
                    break
        return current

    def prune(self, current: _Step) -> _Step:
        """Each change taken back in turn, and left out when nothing is lost without it."""
        for path in list(current.changes):
            changes = {p: v for p, v in current.changes.items() if p != path}
            made = self.build(changes)
            if made is None:
                continue
            left = self.unexplained(made)
            if len(left) <= len(current.left):
                current = _Step(changes, made, left)
        return current


def explain(
    battery: Battery,
    answers: Mapping[str, Mapping[str, Any]],
    start: Mapping[str, Any] | None = None,
    most: int | None = None,
    max_requests: int = MAX_REQUESTS,
) -> Found:
    """The fewest changes of the base that explain the most of ``answers`` (question name ->
    the engine's response; questions without an answer are no evidence). Given ``most``, a
    search that needs more changes stops there: :attr:`Found.beyond`. Past ``max_requests``
    oracle requests it stops where it is: :attr:`Found.cut`."""
    search = _Search(battery, answers, max_requests)
    best = search.run(start or {}, most)
    if search.beyond:
        unexplained = [q for q, _ in best.left]
        return Found(
            best.ruleset, best.changes, unexplained, {}, {}, search.cut, True, search.least
        )
    explains = {path: search.evidence(best, path) for path in best.changes}
    cut = search.cut
    equivalents = {} if cut else search.equivalents(best, explains)
    together = {} if cut else search.kinds_instead(best)
    unexplained = [q for q, _ in best.left]
    return Found(
        best.ruleset, best.changes, unexplained, explains, equivalents, cut, together=together
    )


def _conditions(entry: Mapping[str, Any]) -> bool:
    """Whether a special canasta's entry sets a condition (a rank, a size, wild cards or
    jokers) beyond its kind."""
    return any(
        entry.get(key) not in (None, 0)
        for key in ("rank", "min_size", "min_wild", "max_wild", "min_jokers", "max_jokers")
    ) or (entry.get("max_wild") == 0 and entry.get("kind") != "natural")


def _conditions_in(base: Ruleset, entry: Mapping[str, Any]) -> bool:
    """Whether the base's own special canastas of the entry's kind would still take some of
    its canastas first (then the entry is not the kind's whole)."""
    return any(e["kind"] == entry["kind"] for e in base.value("canastas.special"))
