"""Fuzzing ``bolivia profile`` with hostile engines (issue 41).

An engine is the built-in oracle serving ``bolivia-da`` with a plan of hostility drawn by
Hypothesis: from a drawn question on, or at drawn questions, it answers garbage, an error of
any code, a truthful answer with one value changed, the answer to the previous question, or
dies (each kind of :class:`EngineFailure`, its message hostile text). Whatever it does, the
profile is made, never a traceback; its text and JSON, as the command prints them, carry
nothing a terminal acts on and no line of the engine's making; its ruleset validates and is
written; the headline of an engine that stopped answering says so, and ``bolivia profile``
exits 1 for it.

A quarter of the profile's examples (25 by default), two thousand under
``HYPOTHESIS_PROFILE=thorough`` (the README's command for the fuzz harnesses). An engine whose
answers follow no rule (the previous question's, from the first on) makes the search try every
value of every field until its bound on oracle requests: here the bound is lower than the
command's (:data:`SEARCH_CAP`), so such engines take seconds, not minutes, and the search's
stop at its bound is met and said more often.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bolivia.authoring.house import write_ruleset
from bolivia.engine.meld import plural
from bolivia.profiles.command import profile_status
from bolivia.profiles.report import profile_json, profile_text, profile_yaml
from bolivia.text import json_for_terminal, terminal
from bolivia.verify.conformance import EngineFailure, InProcessEngine
from tests.test_fuzz_runner import ACTIVE, hostile_text, values
from tests.test_profiles import DA, LIBRARY, profiled, serving

KINDS = ("timeout", "exit", "overflow", "answer")
SEARCH_CAP = 40_000  # oracle requests a search may make here (the command's: 400,000)
# what the engine does with one question
behaviours = st.one_of(
    st.just(("truth",)),
    st.tuples(st.just("garbage"), values),
    st.tuples(st.just("error"), values | hostile_text),
    st.tuples(st.just("changed"), st.integers(0, 10**6), values),
    st.just(("previous",)),
    st.tuples(st.just("dies"), st.sampled_from(KINDS), hostile_text),
)


@st.composite
def plans(draw: st.DrawFn) -> dict[str, Any]:
    """When the engine turns hostile and how: on some questions, and from some question on."""
    return {
        "at": draw(st.dictionaries(st.integers(0, 450), behaviours, max_size=12)),
        "from": draw(st.integers(0, 600)),
        "then": draw(behaviours),
        "hello": draw(st.booleans()),  # does its hello lie about its name (hostile text)?
        "name": draw(hostile_text),
    }


def _changed(value: Any, where: int, new: Any) -> Any:
    """``value`` with the leaf numbered ``where`` (modulo the leaves) replaced by ``new``."""
    leaves: list[tuple[Any, Any]] = []

    def walk(node: Any) -> None:
        items = node.items() if isinstance(node, dict) else enumerate(node)
        for key, child in items:
            if isinstance(child, (dict, list)) and child:
                walk(child)
            else:
                leaves.append((node, key))

    copy = json.loads(json.dumps(value))
    if not isinstance(copy, (dict, list)) or not copy:
        return new
    walk(copy)
    node, key = leaves[where % len(leaves)]
    node[key] = new
    return copy


class _Hostile(InProcessEngine):
    def __init__(self, plan: dict[str, Any]) -> None:
        self.__dict__.update(serving(DA).__dict__)
        if plan["hello"]:
            self.name = plan["name"]
        self.plan = plan
        self.asked = 0
        self.last: dict[str, Any] = {"ok": True, "result": None}
        self.dead = False

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        n, self.asked = self.asked, self.asked + 1
        if self.dead:
            raise EngineFailure("exit", "the engine exited (status 1) instead of answering")
        what = self.plan["at"].get(n, self.plan["then"] if n >= self.plan["from"] else ("truth",))
        truth = super().ask(request)
        answer: dict[str, Any] = self._answer(what, truth, request)
        self.last = truth
        return answer

    def _answer(
        self, what: tuple[Any, ...], truth: dict[str, Any], request: dict[str, Any]
    ) -> dict[str, Any]:
        wire = {"id": request.get("id")} if "id" in request else {}
        match what:
            case ("garbage", value):
                return value if isinstance(value, dict) else {**wire, "ok": True, "result": value}
            case ("error", code):
                return {**wire, "ok": False, "error": {"code": code, "message": "no"}}
            case ("changed", where, new):
                changed: dict[str, Any] = _changed(truth, where, new)  # truth is a dict
                return changed
            case ("previous",):
                return {**self.last, **wire}
            case ("dies", kind, note):
                self.dead = kind == "exit"
                raise EngineFailure(kind, note)
        return truth


def _plain(line: str) -> bool:
    return not ACTIVE & set(line)


@settings(
    max_examples=max(10, settings().max_examples // 8),  # each takes seconds: CI's time
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    deadline=None,
)
@given(plan=plans())
def test_any_engine_is_profiled_or_refused_in_words(plan: dict[str, Any], tmp_path: Path) -> None:
    engine = _Hostile(plan)
    profile = profiled(engine, max_requests=SEARCH_CAP)
    assert profile_status(profile) == (0 if profile.answered and not profile.stopped else 1)
    text = profile_text(profile)
    printed = terminal("\n".join(text), lines=True)  # as the command prints it
    assert printed.count("\n") == len(text) - 1 and _plain(printed.replace("\n", " ")), text
    shown = json_for_terminal(profile_json(profile, None), indent=2)
    assert _plain(shown.replace("\n", " "))
    json.loads(shown)
    if not profile.answered:
        assert "answered no question" in text[0] and profile.stopped in text[0], text[0]
    elif profile.stopped:  # what it implements is said of the answers it gave, and why it stopped
        assert f"stopped answering after {plural(profile.answered, 'answer')} (" in text[0]
    # a search stopped at its bound says so, with the bound it was given
    said = f"the search stopped at its bound of {SEARCH_CAP} oracle requests"
    assert profile.cut == any(said in line for line in text), text
    assert json.loads(shown)["search_cap"] == SEARCH_CAP
    # the profile is a ruleset: written, it validates (write_ruleset checks it)
    out = tmp_path / "profile.yaml"
    write_ruleset(profile_yaml(profile), out, LIBRARY, force=True)
    assert out.read_text(encoding="utf-8")
