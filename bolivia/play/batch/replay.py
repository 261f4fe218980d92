"""Replays: a hand's complete record as JSON Lines, and its re-verification move by move.

A record is a ``hand`` line (ruleset id and the digest of the resolved ruleset, seed, players,
the first player, the sides' scores before the hand, the deck in dealing order, the bots), one
``action`` line per action (step, player, action), and an ``end`` line (how the hand ended and
every side's score breakdown). A file holds one hand, or the hands of one game. Verification
replays every action through the engine's one verify path and compares the end; the first
discrepancy is reported with its file, line and field, or its step, action and the rule it
breaks.

What a replay vouches for, each field checked strictly (a ``true`` is not a ``1``, a field not
named here is refused):

- the hand line: ``format`` ``"bolivia-replay"`` and ``version`` 2 (or, as written before the
  formats were named, ``format`` 1 and no version); ``ruleset``, an id or a relative path from
  the replay's folder (the working folder for standard input)
  that stays inside the ruleset folders or that folder (as ``extends`` may), whose ``digest``
  is the ruleset's now; ``players``, a seating of the ruleset, and ``first``, one of them;
  ``team_scores``, one whole number per side; ``deck``, the pack in dealing order -- the very
  deck that ``seed`` shuffles, where a seed is recorded (``null`` or none: a deck dealt
  elsewhere); ``bots``, one bot spec per player (a name, or ``search:playouts=8,...``);
- an action line: ``step``, ``player`` (whose move it is) and ``action`` (no field more than
  its type takes), legal where it stands, and, where a seed is recorded, the action that
  player's bot chooses with the random numbers the seed gives (as the hand was played); a
  deck dealt elsewhere vouches only that the actions are legal;
- the end line: ``ended_by``, ``went_out``, ``concealed`` and ``scores`` as replayed;
- the hands of one file are one game: the same ruleset, players and bots, and each hand's
  ``team_scores`` the running totals of the hands before it.

A replay file is a regular file of at most :data:`MAX_FILE` bytes, lines of at most
:data:`MAX_LINE` bytes and :data:`MAX_DEPTH` levels of nesting; anything else is refused
before it is read (a device, a pipe) or at the line that breaks the bound.
"""

from __future__ import annotations

import json
import os
import random
import re
import stat
import sys
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from bolivia import formats
from bolivia.cards import Card
from bolivia.errors import BadRequest, BoliviaError, CardError, Illegal, RulesetError
from bolivia.play.batch.seeds import derive_seed
from bolivia.play.bots.registry import BOTS, Bot, make_bot
from bolivia.play.table.actions import Action, parse_action
from bolivia.play.table.hand import Hand, HandResult
from bolivia.rules.library import Library
from bolivia.rules.loading import STDIN
from bolivia.rules.ruleset import Ruleset

__all__ = [
    "FORMAT",
    "MAX_DEPTH",
    "MAX_FILE",
    "MAX_LINE",
    "VERSION",
    "ReplayError",
    "hand_lines",
    "verify_replay",
    "write_hand",
]

FORMAT = formats.name("replay")
VERSION = formats.version("replay")
OLD_FORMAT = 1  # the head line's "format" before the formats were named (0.1.0), still read
MAX_FILE = 256 * 1024 * 1024  # a game of thousands of hands
MAX_LINE = 1024 * 1024  # the longest line a hand writes is its deck, or a going out
MAX_DEPTH = 16  # a line of a replay nests five deep
MAX_SCORE = 10**9
_FIELDS = {
    "hand": (
        *("format", "version", "ruleset", "digest", "players", "seed", "first", "team_scores"),
        *("deck", "bots"),
    ),
    "action": ("step", "player", "action"),
    "end": ("ended_by", "went_out", "concealed", "scores"),
}
_OPTIONAL = {"seed", "version"}


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
        **formats.head("replay"),
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
    path: Path
    number: int = 0

    def fail(self, message: str) -> ReplayError:
        return ReplayError(f"{self.path}:{self.number}: {message}")


_SHARED = ("ruleset", "digest", "players", "bots")  # what the hands of one game share


@dataclass
class _Game:
    """What the hands of one file share (as the first hand line records it), and the scores
    the next hand starts from."""

    shared: dict[str, Any]
    scores: list[int]


def verify_replay(path: Path, library: Library) -> int:
    """Replay every hand of a file (``-``: of standard input, named ``<stdin>``, its ruleset
    looked for from the working folder); the number of hands. :class:`ReplayError` on the
    first discrepancy."""
    stdin = str(path) == "-"
    if stdin:
        path = Path(STDIN)
    reader = _Reader(path)
    hand: Hand | None = None
    game: _Game | None = None
    chooser: _Chooser | None = None
    hands = 0
    for number, record in _records(path, sys.stdin.buffer if stdin else None):
        reader.number = number
        kind = record.get("type")
        if not isinstance(kind, str) or kind not in _FIELDS:
            raise reader.fail(f"type: {_shown(kind)} is not a line type (hand, action, end)")
        _check_fields(record, kind, reader)
        if kind == "hand":
            if hand is not None:
                raise reader.fail("a new hand starts before the last one ended")
            hand, game, chooser = _start(record, library, reader, game)
        elif hand is None:
            raise reader.fail(f"an {kind} line before any hand line")
        elif kind == "action":
            _step(hand, chooser, record, reader)
        else:
            _end(hand, record, reader)
            assert game is not None
            totals = [score.total for score in hand.result().scores]
            game.scores = [a + b for a, b in zip(hand.team_scores, totals, strict=True)]
            hand = None
            hands += 1
    if hand is not None:
        raise reader.fail("the file ends in the middle of a hand")
    if hands == 0:
        raise ReplayError(f"{path}: no hand in the file")
    return hands


# ---- reading


def _records(path: Path, stream: IO[bytes] | None = None) -> Iterator[tuple[int, dict[str, Any]]]:
    """The non-blank lines of the file (or of ``stream``) as JSON objects, each with its line
    number; nothing but a regular file is opened, and no line or file beyond the bounds is
    read."""
    if stream is not None:
        yield from _lines(path, stream)
        return
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(path, flags)  # non-blocking: a pipe with no writer does not hang it
    except OSError as exc:
        raise ReplayError(f"{path}: cannot read: {exc.strerror or exc}") from None
    with os.fdopen(fd, "rb") as stream:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise ReplayError(f"{path}: not a regular file; a replay is a file of JSON lines")
        if info.st_size > MAX_FILE:
            raise ReplayError(f"{path}: {info.st_size} bytes; a replay is at most {MAX_FILE} bytes")
        yield from _lines(path, stream)


def _lines(path: Path, stream: IO[bytes]) -> Iterator[tuple[int, dict[str, Any]]]:
    """The non-blank lines of a stream, bounded, as JSON objects with their numbers."""
    reader, size = _Reader(path), 0
    while True:
        reader.number += 1
        try:
            line = stream.readline(MAX_LINE + 1)
        except OSError as exc:
            raise reader.fail(f"cannot read: {exc.strerror or exc}") from None
        if not line:
            return
        size += len(line)
        if len(line) > MAX_LINE and not line.endswith(b"\n"):
            raise reader.fail(f"the line is over {MAX_LINE} bytes")
        if size > MAX_FILE:
            raise reader.fail(f"over {MAX_FILE} bytes; a replay is at most {MAX_FILE} bytes")
        if line.strip():
            yield reader.number, _record(line, reader)


def _record(line: bytes, reader: _Reader) -> dict[str, Any]:
    try:
        record = json.loads(line.decode("utf-8"), parse_constant=_not_json)
    except UnicodeDecodeError:
        raise reader.fail("the line is not UTF-8 text") from None
    except RecursionError:
        raise reader.fail(f"the line nests over {MAX_DEPTH} levels deep") from None
    except ValueError as exc:
        raise reader.fail(f"not a JSON line: {exc}") from None
    if not isinstance(record, dict):
        raise reader.fail("each line is a JSON object")
    if line.count(b"[") + line.count(b"{") > MAX_DEPTH and _depth(record) > MAX_DEPTH:
        raise reader.fail(f"the line nests over {MAX_DEPTH} levels deep")
    return record


def _not_json(text: str) -> Any:
    raise ValueError(f"{text} is not JSON")


def _depth(value: Any) -> int:
    """How many arrays and objects deep ``value`` nests (counting on to one beyond the bound)."""
    deepest, stack = 0, [(value, 1)]
    while stack and deepest <= MAX_DEPTH:
        item, depth = stack.pop()
        if isinstance(item, list | dict):
            deepest = max(deepest, depth)
            stack.extend((child, depth + 1) for child in _children(item))
    return deepest


def _children(item: list[Any] | dict[str, Any]) -> Iterable[Any]:
    return item.values() if isinstance(item, dict) else item


def _shown(value: Any, size: int = 60) -> str:
    """A value as the line has it, cut short."""
    text = json.dumps(value, separators=(",", ":"))
    return text if len(text) <= size else text[: size - 3] + "..."


# ---- the fields


def _check_fields(record: dict[str, Any], kind: str, reader: _Reader) -> None:
    fields = _FIELDS[kind]
    unknown = sorted(key for key in record if key != "type" and key not in fields)
    if unknown:
        raise reader.fail(
            f"{_key(unknown[0])}: not a field of a {kind} line (it has: {', '.join(fields)})"
        )
    for name in fields:
        if name not in record and name not in _OPTIONAL:
            raise reader.fail(f"{name}: missing")


def _key(name: str) -> str:
    """A field's name as a message shows it: as written where it is a plain word, else quoted
    with its control characters escaped (a name holding a newline stays on one line)."""
    return name if re.fullmatch(r"[A-Za-z0-9_]{1,40}", name) else repr(name[:40])


def _whole(value: Any, low: int | None = None, high: int | None = None) -> bool:
    """A whole number (not a bool, not 1.0) from ``low`` to ``high``."""
    return (
        isinstance(value, int)
        and not isinstance(value, bool)
        and (low is None or low <= value)
        and (high is None or value <= high)
    )


def _number(record: dict[str, Any], name: str, low: int, high: int, reader: _Reader) -> int:
    value = record[name]
    if not _whole(value, low, high):
        raise reader.fail(f"{name}: a whole number from {low} to {high}, not {_shown(value)}")
    assert isinstance(value, int)
    return value


def _ruleset(record: dict[str, Any], library: Library, reader: _Reader) -> Ruleset:
    ref = record["ruleset"]
    if not isinstance(ref, str):
        raise reader.fail(f"ruleset: a ruleset id or file, not {_shown(ref)}")
    folder = reader.path.parent.resolve()
    located = library.locate(ref, folder, folder, "a replay's ruleset")
    if isinstance(located, str):
        raise reader.fail(f"ruleset: {located}")
    try:
        ruleset = library.load(located)
    except RulesetError as exc:
        raise reader.fail(f"ruleset: {ref!r}: {exc.problems[0].message}") from None
    if record["digest"] != ruleset.digest:
        raise reader.fail(
            f"digest: the hand was played under other rules than ruleset {ref!r} has "
            "now (the digests differ)"
        )
    return ruleset


def _check_format(record: dict[str, Any], reader: _Reader) -> None:
    """The head line names this format and version, or is of the one before them (a bare
    ``"format": 1`` and no version)."""
    given, number = record["format"], record.get("version")
    if _whole(given, OLD_FORMAT, OLD_FORMAT) and "version" not in record:
        return
    if given != FORMAT:
        raise reader.fail(f"format: {_shown(given)} is not a replay's format ({FORMAT!r})")
    if "version" not in record:
        raise reader.fail("version: missing")
    if not _whole(number, VERSION, VERSION):
        raise reader.fail(f"version: replay version {_shown(number)}; this toolkit reads {VERSION}")


def _start(
    record: dict[str, Any], library: Library, reader: _Reader, game: _Game | None
) -> tuple[Hand, _Game, _Chooser | None]:
    if game is not None:
        _same_game(record, game, reader)
    _check_format(record, reader)
    ruleset = _ruleset(record, library, reader)
    seats = ruleset.rules.players.seats
    players = record["players"]
    if not _whole(players, 0, None) or players not in seats:
        allowed = ", ".join(map(str, sorted(seats)))
        raise reader.fail(
            f"players: {ruleset.id} is played by {allowed} players, not {_shown(players)}"
        )
    first = _number(record, "first", 0, players - 1, reader)
    teams = seats[players].teams
    scores = record["team_scores"]
    if not isinstance(scores, list) or len(scores) != teams:
        raise reader.fail(f"team_scores: {teams} whole numbers, one per side, not {_shown(scores)}")
    for i, score in enumerate(scores):
        if not _whole(score, -MAX_SCORE, MAX_SCORE):
            raise reader.fail(
                f"team_scores: [{i}] is {_shown(score)}; a score is a whole number from "
                f"{-MAX_SCORE} to {MAX_SCORE}"
            )
    bots = record["bots"]
    if not isinstance(bots, list) or len(bots) != players:
        raise reader.fail(f"bots: {players} bot names, one per player, not {_shown(bots)}")
    made: list[Bot] = []
    for i, bot in enumerate(bots):
        if not isinstance(bot, str):
            raise reader.fail(f"bots: [{i}] is {_shown(bot)}; the bots are {', '.join(BOTS)}")
        try:
            made.append(make_bot(bot))
        except ValueError as exc:
            raise reader.fail(f"bots: [{i}] is {_shown(bot)}: {exc}") from None
    hand = _deal(record, ruleset, players, first, scores, reader)
    seed = record.get("seed")
    chooser = None if seed is None else _Chooser(bots, made, seed)
    return hand, _Game({name: record[name] for name in _SHARED}, scores), chooser


def _same_game(record: dict[str, Any], game: _Game, reader: _Reader) -> None:
    """A later hand of a file plays on in the game of the hands before it."""
    for name in _SHARED:
        if _json(record[name]) != _json(game.shared[name]):
            raise reader.fail(
                f"{name}: {_shown(record[name])}, but the hands before were played with "
                f"{_shown(game.shared[name])} (a file holds one hand, or the hands of one game)"
            )
    if _json(record["team_scores"]) != _json(game.scores):
        raise reader.fail(
            f"team_scores: {_shown(record['team_scores'])}, but the game's hands before add "
            f"up to {_shown(game.scores)}"
        )


def _json(value: Any) -> str:
    """A value compared as JSON: true is not 1, 1.0 is not 1."""
    return json.dumps(value, sort_keys=True)


def _deal(
    record: dict[str, Any],
    ruleset: Ruleset,
    players: int,
    first: int,
    scores: list[int],
    reader: _Reader,
) -> Hand:
    """The hand as dealt: from the recorded seed, whose deck must be the recorded one, or
    from the recorded deck where no seed is recorded."""
    texts, seed = record["deck"], record.get("seed")
    if not isinstance(texts, list) or not all(isinstance(text, str) for text in texts):
        raise reader.fail(f'deck: a list of cards such as ["8H", "JK"], not {_shown(texts)}')
    if seed is not None and not _whole(seed):
        raise reader.fail(
            f"seed: a whole number (null where no seed is recorded), not {_shown(seed)}"
        )
    try:
        deck = [Card.parse(text).index for text in texts]
        if seed is None:
            return Hand(ruleset, players, deck, first, scores)
        hand = Hand.deal(ruleset, players, random.Random(seed), first, scores)
    except (CardError, BadRequest) as exc:
        raise reader.fail(f"deck: the deal cannot be replayed: {exc}") from None
    if list(hand.deck) != deck:
        pairs = enumerate(zip(deck, hand.deck, strict=False))
        at = next((i for i, (a, b) in pairs if a != b), min(len(deck), len(hand.deck)))
        raise reader.fail(
            f"seed: the deal cannot be replayed: seed {seed} does not shuffle the pack to the "
            f"recorded deck (card {at + 1} is {_card_at(deck, at)}; the seed deals "
            f"{_card_at(hand.deck, at)})"
        )
    return hand


def _card_at(deck: Sequence[int], at: int) -> str:
    return repr(Card.from_index(deck[at])) if at < len(deck) else "none"


# ---- the actions and the end


class _Chooser:
    """The recorded bots, given the random numbers the seed gives them as the hand was
    played (:func:`bolivia.play.batch.simulate.play_hand`): a replay with a seed vouches that its
    bots chose every action, so a changed bot or action is refused."""

    def __init__(self, names: list[str], bots: list[Bot], seed: int) -> None:

        self.names, self.bots = names, bots
        self.rng = random.Random(derive_seed(seed, 1))

    def choose(self, hand: Hand) -> Action | None:
        actions = hand.choices()
        return self.bots[hand.current].choose(hand, actions, self.rng) if actions else None


def _step(hand: Hand, chooser: _Chooser | None, record: dict[str, Any], reader: _Reader) -> None:
    step, player = record["step"], record["player"]
    text = _shown(record["action"], 200)
    if not _whole(step, 1, None):
        raise reader.fail(f"step: a whole number from 1, not {_shown(step)}")
    if not _whole(player, 0, None):
        raise reader.fail(f"player: a whole number from 0, not {_shown(player)}")
    try:
        action = parse_action(record["action"])
    except BadRequest as exc:
        raise reader.fail(f"step {step}: {text}: not an action: {exc}") from None
    if player != hand.current:
        raise reader.fail(
            f"step {step}: {text}: it is player {hand.current}'s move, not player {player}'s"
        )
    if step != hand.steps + 1:
        raise reader.fail(f"step {step}: steps are numbered in order; expected {hand.steps + 1}")
    chosen = chooser.choose(hand) if chooser else None
    try:
        hand.apply(action)
    except Illegal as exc:
        rule = f" [rule {exc.rule}]" if exc.rule else ""
        raise reader.fail(
            f"step {step} (player {hand.current}): {text}: illegal: {exc}{rule}"
        ) from None
    if chooser and chosen != action:
        shown = "nothing" if chosen is None else _shown(chosen.to_json(), 200)
        raise reader.fail(
            f"step {step}: {text}: bots: player {player}'s bot, {chooser.names[player]}, "
            f"chooses {shown} here (the seed vouches that the recorded bots chose every action)"
        )


def _end(hand: Hand, record: dict[str, Any], reader: _Reader) -> None:
    if not hand.over:
        raise reader.fail(f"the record ends the hand after step {hand.steps}, but the hand goes on")
    expected = result_json(hand.result())
    for key in _FIELDS["end"]:
        if _json(record[key]) != _json(expected[key]):
            raise reader.fail(
                f"the recorded {key} {_shown(record[key], 200)} differs from "
                f"the replayed {_shown(expected[key], 200)}"
            )
