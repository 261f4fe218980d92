"""Protocol 3 (issue 40): every answer field carries the protocol that brought it, and the
runner holds an engine to what its protocol and its hello claim.

An engine of protocol 1 (the rule questions only, no field protocol 3 made part of the answer:
a meld's bonus, a team's penalties, the first meld's canasta, the turn rules of info) passes
every case it answers and fails none; it is held to a later field its hello claims, and an
engine of the current protocol to every field. The reference oracle passes all.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from bolivia.verify.conformance import claimed, load_suite, run_suites, shipped_suites
from bolivia.verify.engines import InProcessEngine
from bolivia.verify.oracle import FIELD_PROTOCOLS, OP_PROTOCOLS, PROTOCOL, RESULT_FIELDS

SUITES = [load_suite(path) for path in shipped_suites()]


class OldEngine(InProcessEngine):
    """The built-in oracle as an engine of an earlier protocol answers: the fields of later
    protocols left out (a claimed field kept), the operations of later protocols unknown;
    ``bonus``: what it adds to every meld's bonus (a slip a claim makes visible)."""

    def __init__(self, protocol: int, fields: dict[str, frozenset[str]], bonus: int = 0) -> None:
        super().__init__()
        self.protocol = protocol
        self.fields = fields
        self.bonus = bonus

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        op = str(request.get("op"))
        if OP_PROTOCOLS.get(op, 1) > self.protocol:
            message = f"{op} is not an operation of protocol {self.protocol}"
            return {
                "id": request.get("id"),
                "ok": False,
                "error": {"code": "unknown-op", "message": message},
            }
        answer = super().ask(request)
        result = answer.get("result")
        if op == "hello" and isinstance(result, dict):
            result["protocol"] = self.protocol
        if isinstance(result, dict):
            answer["result"] = self._of_its_protocol(op, result)
        return answer

    def _answers(self, op: str, field: str) -> bool:
        version = FIELD_PROTOCOLS.get(op, {}).get(field, 1)
        return version <= self.protocol or field in self.fields.get(op, frozenset())

    def _of_its_protocol(self, op: str, result: dict[str, Any]) -> dict[str, Any]:
        out = {
            k: v
            for k, v in result.items()
            if self._answers(op, k) or k not in FIELD_PROTOCOLS.get(op, {})
        }
        if op == "info":  # the oracle's info answers more than any protocol: old engines do not
            out = {k: v for k, v in out.items() if k in FIELD_PROTOCOLS["info"]}
        if op == "score" and not self._answers(op, "teams.penalties"):
            out["teams"] = [{k: v for k, v in t.items() if k != "penalties"} for t in out["teams"]]
        if op in ("meld", "extend") and isinstance(out.get("bonus"), int):
            out["bonus"] += self.bonus
        return out


def _counts(engine: InProcessEngine) -> Counter[str]:
    return Counter(
        outcome.status for outcome in run_suites(SUITES, engine, ["bolivia-da", "canasta"])
    )


@pytest.mark.parametrize("protocol", [1, 2])
def test_an_engine_of_an_earlier_protocol_fails_nothing_it_answers(protocol: int) -> None:
    counts = _counts(OldEngine(protocol, {}))
    assert counts["failed"] == 0 and counts["passed"] > 100, counts


def test_a_field_the_hello_claims_is_compared() -> None:
    """A protocol 1 engine claiming a meld's bonus, with every bonus 1 point off: the cases
    comparing a bonus fail; unclaimed, they pass on the other fields."""
    claims = {"meld": frozenset({"bonus"}), "extend": frozenset({"bonus"})}
    assert _counts(OldEngine(1, claims, bonus=1))["failed"] > 0
    assert _counts(OldEngine(1, {}, bonus=1))["failed"] == 0


def test_the_current_protocol_is_held_to_every_field() -> None:
    engine = OldEngine(PROTOCOL, {}, bonus=1)
    assert _counts(engine)["failed"] > 0
    assert _counts(InProcessEngine())["failed"] == 0


def test_claimed_leaves_out_what_an_engine_does_not_claim() -> None:
    expected = {"teams": [{"cards": 90, "penalties": 0}, {"cards": 0, "penalties": -50}]}
    kept, left = claimed("score", expected, 2, {})
    assert kept == {"teams": [{"cards": 90}, {"cards": 0}]} and left == ["teams.penalties"]
    kept, left = claimed("score", expected, 2, {"score": frozenset({"teams.penalties"})})
    assert kept == expected and left == []
    assert claimed("meld", {"legal": True, "bonus": 500}, 1, {}) == ({"legal": True}, ["bonus"])
    assert claimed("meld", {"bonus": 500}, 3, {}) == ({"bonus": 500}, [])


def test_every_field_has_its_protocol() -> None:
    """Protocol 2's promised fields came with protocols 1 and 2; what it answered without a
    promise is of protocol 3; every op's first fields came with the op (upcard's with
    protocol 3)."""
    for op, fields in RESULT_FIELDS.items():
        versions = FIELD_PROTOCOLS[op]
        assert set(fields) <= set(versions), op
        assert {versions[f] for f in fields if f != "bonus"} <= {1, 2, OP_PROTOCOLS[op]}, op
    assert OP_PROTOCOLS["upcard"] == 3
    assert FIELD_PROTOCOLS["meld"]["bonus"] == FIELD_PROTOCOLS["score"]["teams.penalties"] == 3
    assert OP_PROTOCOLS["act"] == OP_PROTOCOLS["moves"] == 2
