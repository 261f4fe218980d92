"""Replays: a hand's complete record as JSON Lines, and its re-verification move by move.

A record is a ``hand`` line (ruleset id and the digest of the resolved ruleset, seed, players,
the first player, the sides' scores before the hand, the deck in dealing order, the bots), one
``action`` line per action (step, player, action), and an ``end`` line (how the hand ended and
every side's score breakdown). A file may hold several hands (a game). Verification replays
every action through the engine's one verify path and compares the end; the first discrepancy
is reported with its step, its action and the rule it breaks.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from bolivia.cards import Card
from bolivia.errors import BadRequest, BoliviaError, CardError, Illegal, RulesetError
from bolivia.play.actions import Action, parse_action
from bolivia.play.hand import Hand, HandResult
from bolivia.rules.library import Library

__all__ = ["FORMAT", "ReplayError", "hand_lines", "verify_replay", "write_hand"]

FORMAT = 1


class ReplayError(BoliviaError):
    """A replay that does not replay: names the file, line, step, action and rule."""


def result_json(result: HandResult) -> dict[str, Any]:
    return {
        "type": "end",
        "ended_by": result.ended_by,
        "went_out": result.went_out,
        "concealed": result.concealed,
        "scores": [score.as_dict() for score in result.scores],
    }


def hand_lines(
    hand: Hand, seed: int, actions: Sequence[tuple[int, Action]], bots: Sequence[str]
) -> Iterator[str]:
    """The JSON lines of a finished hand."""
    head = {
        "type": "hand",
        "format": FORMAT,
        "ruleset": hand.ruleset.id,
        "digest": hand.ruleset.digest,
        "players": hand.players,
        "seed": seed,
        "first": hand.first,
        "team_scores": list(hand.team_scores),
        "deck": [repr(Card.from_index(i)) for i in hand.deck],
        "bots": list(bots),
    }
    yield json.dumps(head, separators=(",", ":"))
    for step, (player, action) in enumerate(actions, 1):
        yield json.dumps(
            {"type": "action", "step": step, "player": player, "action": action.to_json()},
            separators=(",", ":"),
        )
    yield json.dumps(result_json(hand.result()), separators=(",", ":"))


def write_hand(stream: IO[str], lines: Iterable[str]) -> None:
    for line in lines:
        stream.write(line + "\n")


@dataclass
class _Reader:
    path: str
    number: int = 0

    def fail(self, message: str) -> ReplayError:
        return ReplayError(f"{self.path}:{self.number}: {message}")


def verify_replay(path: Path, library: Library) -> int:
    """Replay every hand of a file; the number of hands. :class:`ReplayError` on the first
    discrepancy."""
    reader = _Reader(str(path))
    hand: Hand | None = None
    hands = 0
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise ReplayError(f"{path}: cannot read: {exc}") from None
    for number, line in enumerate(lines, 1):
        reader.number = number
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except ValueError:
            raise reader.fail("not a JSON line") from None
        if not isinstance(record, dict):
            raise reader.fail("each line is a JSON object")
        kind = record.get("type")
        if kind == "hand":
            if hand is not None:
                raise reader.fail("a new hand starts before the last one ended")
            hand = _start(record, library, reader)
        elif kind == "action":
            if hand is None:
                raise reader.fail("an action before any hand line")
            _step(hand, record, reader)
        elif kind == "end":
            if hand is None:
                raise reader.fail("an end line before any hand line")
            _end(hand, record, reader)
            hand = None
            hands += 1
        else:
            raise reader.fail(f"unknown line type {kind!r}")
    if hand is not None:
        raise reader.fail("the file ends in the middle of a hand")
    if hands == 0:
        raise ReplayError(f"{path}: no hand in the file")
    return hands


def _start(record: dict[str, Any], library: Library, reader: _Reader) -> Hand:
    if record.get("format") != FORMAT:
        raise reader.fail(f"replay format {record.get('format')!r}; this toolkit reads {FORMAT}")
    rid = record.get("ruleset")
    if not isinstance(rid, str):
        raise reader.fail("the hand line names no ruleset")
    try:
        ruleset = library.load(rid)
    except RulesetError as exc:
        raise reader.fail(f"ruleset {rid!r}: {exc.problems[0].message}") from None
    if record.get("digest") != ruleset.digest:
        raise reader.fail(
            f"the hand was played under other rules than ruleset {rid!r} has "
            "now (the digests differ)"
        )
    try:
        deck = [Card.parse(text).index for text in record.get("deck", [])]
        players, first = record.get("players"), record.get("first", 0)
        scores = record.get("team_scores")
        if not isinstance(players, int) or not isinstance(first, int):
            raise BadRequest("players and first are whole numbers")
        return Hand(ruleset, players, deck, first, scores)
    except (CardError, BadRequest) as exc:
        raise reader.fail(f"the deal cannot be replayed: {exc}") from None


def _step(hand: Hand, record: dict[str, Any], reader: _Reader) -> None:
    step = record.get("step")
    text = json.dumps(record.get("action"), separators=(",", ":"))
    try:
        action = parse_action(record.get("action"))
    except BadRequest as exc:
        raise reader.fail(f"step {step}: {text}: not an action: {exc}") from None
    if record.get("player") != hand.current:
        raise reader.fail(
            f"step {step}: {text}: it is player {hand.current}'s move, not "
            f"player {record.get('player')}'s"
        )
    if step != hand.steps + 1:
        raise reader.fail(f"step {step}: steps are numbered in order; expected {hand.steps + 1}")
    try:
        hand.apply(action)
    except Illegal as exc:
        rule = f" [rule {exc.rule}]" if exc.rule else ""
        raise reader.fail(
            f"step {step} (player {hand.current}): {text}: illegal: {exc}{rule}"
        ) from None


def _end(hand: Hand, record: dict[str, Any], reader: _Reader) -> None:
    if not hand.over:
        raise reader.fail(f"the record ends the hand after step {hand.steps}, but the hand goes on")
    expected = result_json(hand.result())
    for key in ("ended_by", "went_out", "concealed", "scores"):
        if record.get(key) != expected[key]:
            raise reader.fail(
                f"the recorded {key} {json.dumps(record.get(key))} differs from "
                f"the replayed {json.dumps(expected[key])}"
            )
