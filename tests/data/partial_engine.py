"""A partial engine for the runner's tests, written as an engine's adapter would be: it speaks
the oracle protocol on standard input and output, claims only bolivia-da, a few ops and four
players, logs every request on standard error, and deviates on purpose:

- ``meld`` going out is ``unsupported``;
- ``info`` answers the protocol's fields only (none of the turn rules beyond them);
- ``card_points`` counts a black three left in hand 5 (bolivia-da: 100), and crashes (a
  traceback on stderr, exit status 1) when asked the points of a lone joker.

Right answers come from the built-in oracle. Run as a script (``__main__``) only.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from bolivia.verify.oracle import RESULT_FIELDS, Oracle

OPS = ["hello", "info", "meld", "card_points", "initial_minimum"]
ORACLE = Oracle()


def answer(request: dict[str, Any]) -> dict[str, Any]:
    op = request.get("op")
    if op == "hello":
        result = {
            "protocol": 2,
            "engine": "partial-engine 0.1",
            "rulesets": ["bolivia-da"],
            "ops": OPS,
            "players": [4],
        }
        return {"id": request.get("id"), "ok": True, "result": result}
    if op == "meld" and request.get("going_out") is True:
        message = "this engine does not meld going out yet"
        return {
            "id": request.get("id"),
            "ok": False,
            "error": {"code": "unsupported", "message": message},
        }
    if op == "card_points" and request.get("cards") == ["JK"]:
        raise RuntimeError("no value for the joker")
    response = ORACLE.handle(request)
    result = response.get("result")
    if op == "info" and isinstance(result, dict):
        response["result"] = {k: v for k, v in result.items() if k in RESULT_FIELDS["info"]}
    if op == "card_points" and request.get("in_hand") and isinstance(result, dict):
        black = sum(card in ("3C", "3S") for card in request.get("cards", []))
        result["points"] += 95 * black  # -5, not -100, for each
    return response


def main() -> None:
    for line in sys.stdin:
        request = json.loads(line)
        print(f"partial-engine: {request.get('op')} {request.get('id')}", file=sys.stderr)
        sys.stderr.flush()
        print(json.dumps(answer(request)), flush=True)


if __name__ == "__main__":
    main()
