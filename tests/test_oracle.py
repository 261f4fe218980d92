"""The oracle speaks the protocol exactly and survives hostile input."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bolivia.engine.scoring import SCORE_PARTS
from bolivia.verify.oracle import (
    ERROR_CODES,
    MAX_LINE,
    OPERATIONS,
    PROTOCOL,
    RESULT_FIELDS,
    UNSUPPORTED,
    Oracle,
    serve,
)

from .strategies import json_values, oracle_requests

ORACLE = Oracle()
CODES = set(ERROR_CODES) - {UNSUPPORTED}  # the oracle answers every op of the protocol


def ask(line: str | bytes) -> dict[str, Any]:
    answer: dict[str, Any] = json.loads(ORACLE.handle_line(line))
    return answer


def error_code(line: str | bytes) -> str:
    answer = ask(line)
    assert answer["ok"] is False, answer
    assert set(answer) == {"id", "ok", "error"}
    assert set(answer["error"]) == {"code", "message"}
    assert answer["error"]["message"]
    return str(answer["error"]["code"])


def test_hello() -> None:
    answer = ask('{"op": "hello", "id": [1, "x"]}')
    assert answer["id"] == [1, "x"]
    assert answer["ok"] is True
    result = answer["result"]
    assert result["protocol"] == PROTOCOL
    assert {"canasta", "samba", "bolivia-fr", "bolivia-da", "bolivia-zh", "bolivia-ko"} <= set(
        result["rulesets"]
    )
    assert result["engine"].startswith("bolivia ")


@pytest.mark.parametrize(
    ("line", "code"),
    [
        ("{", "bad-json"),
        ("nul", "bad-json"),
        ('{"op": NaN}', "bad-json"),
        ("[" * 100_000 + "]" * 100_000, "bad-json"),
        ('"just a string"', "bad-request"),
        ("[]", "bad-request"),
        ("{}", "bad-request"),
        ('{"op": 7}', "bad-request"),
        ('{"op": "fly", "ruleset": "samba"}', "unknown-op"),
        ('{"op": "meld", "cards": ["8H"]}', "bad-request"),
        ('{"op": "meld", "ruleset": 3, "cards": ["8H"]}', "bad-request"),
        ('{"op": "meld", "ruleset": "bolivia-xx", "cards": ["8H"]}', "unknown-ruleset"),
        ('{"op": "meld", "ruleset": "samba", "cards": ["8H"], "colour": "red"}', "bad-request"),
        ('{"op": "meld", "ruleset": "samba"}', "bad-request"),
        ('{"op": "meld", "ruleset": "samba", "cards": "8H"}', "bad-request"),
        ('{"op": "meld", "ruleset": "samba", "cards": ["8H", "1H"]}', "bad-card"),
        ('{"op": "meld", "ruleset": "samba", "cards": ["8H", 8]}', "bad-card"),
        ('{"op": "meld", "ruleset": "samba", "cards": ["8H"], "going_out": 1}', "bad-request"),
        ('{"op": "initial_minimum", "ruleset": "samba", "team_score": 1.5}', "bad-request"),
        ('{"op": "initial_minimum", "ruleset": "samba", "team_score": true}', "bad-request"),
        (
            '{"op": "initial_minimum", "ruleset": "samba", "team_score": 1' + "0" * 40 + "}",
            "bad-request",
        ),
        ('{"op": "meld", "ruleset": "canasta", "cards": ["8H", "8H", "8H"]}', "too-many-copies"),
        (
            '{"op": "extend", "ruleset": "canasta", "meld": ["8H", "8H", "8S"], "add": ["8H"]}',
            "too-many-copies",
        ),
        (
            '{"op": "score", "ruleset": "canasta", "teams": [{"melds": [], "red_threes": 3}, '
            '{"melds": [], "red_threes": 2}]}',
            "too-many-copies",
        ),
        (
            '{"op": "meld", "ruleset": "samba", "cards": [' + ",".join(['"8H"'] * 1001) + "]}",
            "too-large",
        ),
        ('{"op": "info", "ruleset": "bolivia-fr", "players": 2}', "bad-request"),
        (
            '{"op": "pickup", "ruleset": "samba", "pile": ["8D"], "hand": ["8H"], "with": ["8S"]}',
            "bad-request",
        ),
        (
            '{"op": "pickup", "ruleset": "samba", "pile": ["8D"], "hand": ["8H", "8S"], '
            '"with": ["8S", "8H"], "onto": 0, "team_melds": [["9H", "9S", "9D"]]}',
            "bad-request",
        ),
        (
            '{"op": "take_top", "ruleset": "bolivia-zh", "pile": ["8D"], "team_melds": [], '
            '"onto": 0}',
            "bad-request",
        ),
        ('{"op": "score", "ruleset": "samba", "teams": [{"melds": []}]}', "bad-request"),
        (
            '{"op": "score", "ruleset": "samba", "teams": [{"melds": [], "went_out": true}, '
            '{"melds": [], "went_out": true}]}',
            "bad-request",
        ),
        (
            '{"op": "score", "ruleset": "samba", "teams": [{"melds": [], "hands": [["3H"]]}, '
            '{"melds": []}]}',
            "bad-request",
        ),
        (
            '{"op": "score", "ruleset": "samba", "teams": [{"melds": [["8H", "9S", "KD"]]}, '
            '{"melds": []}]}',
            "bad-request",
        ),
        ('{"op": "game_over", "ruleset": "samba", "scores": [5]}', "bad-request"),
        (
            '{"op": "extend", "ruleset": "samba", "meld": ["8H", "8S", "8D"], "add": []}',
            "bad-request",
        ),
    ],
)
def test_error_codes(line: str, code: str) -> None:
    assert error_code(line) == code


def test_the_id_is_echoed_on_errors_too() -> None:
    answer = ask('{"op": "fly", "id": {"n": 12345678901234567890123}}')
    assert answer["id"] == {"n": 12345678901234567890123}
    assert ask("{")["id"] is None


def test_results_have_the_spec_fields() -> None:
    fields = {
        "meld": ({"cards": ["8H", "8S", "8D"]}, {"legal", "kind", "canasta", "bonus", "reason"}),
        "extend": (
            {"meld": ["8H", "8S", "8D"], "add": ["8C"]},
            {"legal", "kind", "canasta", "bonus", "reason"},
        ),
        "initial_minimum": ({"team_score": 0}, {"minimum"}),
        "initial_meld": (
            {"team_score": 0, "melds": [["AH", "AS", "AD"]]},
            {"legal", "points", "minimum", "reason"},
        ),
        "pickup": ({"pile": ["8D"], "hand": ["8H", "8S"]}, {"legal", "reason"}),
        "take_top": (
            {"pile": ["8D"], "team_melds": [["5D", "6D", "7D"]], "onto": 0},
            {"legal", "reason"},
        ),
        "go_out": ({"team_melds": []}, {"allowed", "reason"}),
        "score": ({"teams": [{"melds": []}, {"melds": []}]}, {"teams"}),
        "game_over": ({"scores": [0, 0]}, {"over", "winner", "draw"}),
        "card_points": ({"cards": ["JK"]}, {"points"}),
        "upcard": ({"stock": ["8H"]}, {"pile"}),
        "act": (
            {"position": {"hands": [["8H"], [], [], []]}, "action": {"type": "draw"}},
            {"legal", "reason", "over", "ended_by", "hand_size", "red_threes", "melds"}
            | {"turn", "phase", "going_out", "concealed"},
        ),
        "moves": ({"position": {"hands": [["8H"], [], [], []]}}, {"moves", "count"}),
        "info": (
            {},
            {"players", "partnerships", "decks", "jokers", "cards", "hand_size", "draw", "target"},
        ),
    }
    assert set(fields) | {"hello"} == set(OPERATIONS)
    for op, (payload, keys) in fields.items():
        assert RESULT_FIELDS[op] == keys
        answer = ask(json.dumps({"op": op, "ruleset": "bolivia-zh", **payload}))
        assert answer["ok"] is True, (op, answer)
        if op == "info":  # answers the turn rules too, beyond the protocol
            assert set(answer["result"]) > keys
        elif op == "initial_minimum":  # and the canasta a band asks for
            assert set(answer["result"]) == keys | {"canasta"}
        elif op in ("meld", "extend"):  # and what the ruleset calls the canasta (protocol 3)
            assert set(answer["result"]) == keys | {"name"}
        elif op == "act":  # a legal draw while the hand goes on: all but concealed, and who
            assert set(answer["result"]) == (keys - {"concealed"}) | {"to_act"}  # acts next
        elif answer["result"].get("legal", answer["result"].get("allowed")) is False:
            # a refusal carries its code and rule too
            assert set(answer["result"]) == keys | {"code", "rule"}, op
        else:
            assert set(answer["result"]) == keys, op
    team = ask(
        json.dumps({"op": "score", "ruleset": "samba", "teams": [{"melds": []}, {"melds": []}]})
    )["result"]["teams"][0]
    assert set(team) == {*SCORE_PARTS, "total"}


def _serve(data: bytes) -> list[dict[str, Any]]:
    out = io.BytesIO()
    assert serve(io.BytesIO(data), out, ORACLE) == 0
    return [json.loads(line) for line in out.getvalue().splitlines()]


def test_transport_blank_lines_order_and_long_lines() -> None:
    long_line = b'{"op": "hello", "pad": "' + b"x" * (MAX_LINE + 10) + b'"}'
    data = b'{"op":"hello","id":1}\n\n   \n' + long_line + b'\n{"op":"hello","id":2}\n\xff\xfe\n'
    answers = _serve(data)
    assert [a["id"] for a in answers] == [1, None, 2, None]
    assert answers[1]["error"]["code"] == "too-large"
    assert answers[3]["error"]["code"] == "bad-json"


def test_a_line_of_exactly_the_limit_is_read() -> None:
    head = b'{"op": "hello", "id": 3, "x": "'
    body = head + b"y" * (MAX_LINE - len(head) - 2) + b'"}'
    assert len(body) == MAX_LINE
    (answer,) = _serve(body + b"\n")
    assert answer["error"]["code"] == "bad-request"  # reached the op: 'x' is unknown


def test_last_line_without_newline_and_end_of_input() -> None:
    assert [a["id"] for a in _serve(b'{"op":"hello","id":5}')] == [5]
    assert _serve(b"") == []


@settings(max_examples=300, deadline=None)
@given(json_values)
def test_random_json_gets_an_answer_of_the_spec(value: Any) -> None:
    answer = ask(json.dumps(value))
    assert answer["ok"] in (True, False)
    if not answer["ok"]:
        assert answer["error"]["code"] in CODES


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=200))
def test_random_bytes_get_an_answer_of_the_spec(data: bytes) -> None:
    for answer in _serve(data.replace(b"\n", b" ") + b"\n"):
        assert answer["ok"] is True or answer["error"]["code"] in CODES


@settings(max_examples=400, deadline=None)
@given(oracle_requests())
def test_random_requests_get_results_or_spec_errors(request: dict[str, Any]) -> None:
    answer = ask(json.dumps(request))
    if answer["ok"]:
        assert isinstance(answer["result"], dict)
    else:
        assert answer["error"]["code"] in CODES


def test_the_oracle_command_over_a_pipe() -> None:
    lines = b'{"op":"hello","id":1}\n{"op":"meld","ruleset":"samba","cards":["8H"]}\n{\n'
    done = subprocess.run(
        [sys.executable, "-m", "bolivia", "oracle"],
        input=lines,
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert [a["ok"] for a in answers] == [True, True, False]
    assert answers[1]["result"]["legal"] is False


def test_refusals_carry_a_code_and_the_rule() -> None:
    answer = ask('{"op": "meld", "ruleset": "bolivia-da", "cards": ["8H", "8S", "2C", "2D", "JK"]}')
    result = answer["result"]
    assert result["legal"] is False
    assert result["code"] == "group-too-many-wilds"
    assert result["rule"] == "melds.group.max_wild"
    assert "(bolivia-da, from da:groups-wild-limit" in result["reason"]


@pytest.mark.parametrize(
    ("stock", "code", "words"),
    [
        ("x", "bad-request", "position.stock is a whole number, or a list of cards, top first"),
        (["ZZ"], "bad-card", "in position.stock: card 'ZZ' is not a card"),
        (["3H"] * 9, "too-many-copies", "names 3H more often than the pack"),
    ],
)
def test_a_stock_given_as_cards_is_checked_like_every_card(
    stock: object, code: str, words: str
) -> None:
    position = {"hands": [["8C"], [], [], []], "stock": stock}
    answer = ask(
        json.dumps(
            {"op": "act", "ruleset": "bolivia-da", "position": position, "action": {"type": "draw"}}
        )
    )
    assert answer["error"]["code"] == code and words in answer["error"]["message"]
