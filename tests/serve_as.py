"""A test engine: the built-in oracle answering for a shipped id with the rules of another
ruleset file (a house ruleset served in the base's place), over the oracle protocol.

    python tests/serve_as.py FILE [ID]

ID defaults to the ruleset the file extends; its hello lists only ID. The file's ``extends``
is looked up among the shipped rulesets and the file's own folder.
"""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path
from typing import Any

from bolivia.rules.library import Library
from bolivia.rules.ruleset import Ruleset
from bolivia.verify.oracle import Oracle, serve


def ask_house(ruleset: Ruleset, op: str, **fields: Any) -> dict[str, Any]:
    """The built-in oracle's result for one request about an in-memory ruleset (a house of a
    test); a refused request fails the test."""
    oracle = Oracle()
    oracle.register(ruleset)
    answer = oracle.handle({"id": 1, "op": op, "ruleset": ruleset.id, **fields})
    assert answer["ok"], answer
    result: dict[str, Any] = answer["result"]
    return result


class Serving(Oracle):
    """The oracle claiming, in its hello, only the id it serves."""

    def __init__(self, ruleset: Ruleset, as_id: str) -> None:
        super().__init__()
        self.as_id = as_id
        self.register(dataclasses.replace(ruleset, id=as_id))

    def handle(self, request: Any) -> dict[str, Any]:
        answer = super().handle(request)
        if isinstance(request, dict) and request.get("op") == "hello" and answer["ok"]:
            answer["result"]["rulesets"] = [self.as_id]
        return answer


def act_in_play(
    ruleset: Ruleset, hand: list[str], ours: list[list[str]], action: dict[str, Any]
) -> dict[str, Any]:
    """``act`` in a game of two, in the play phase: the first player holds ``hand``, the side
    has the melds ``ours``, the other a small hand and no meld."""
    position = {
        "players": 2,
        "phase": "play",
        "hands": [hand, ["4C", "4D", "5C", "5D", "6C"]],
        "melds": [ours, []],
    }
    return ask_house(ruleset, "act", position=position, action=action)


def main(argv: list[str]) -> int:
    path = Path(argv[0])
    ruleset = Library([path.resolve().parent]).load(path)
    as_id = argv[1] if len(argv) > 1 else (ruleset.extends or ruleset.id)
    return serve(sys.stdin.buffer, sys.stdout.buffer, Serving(ruleset, as_id))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
