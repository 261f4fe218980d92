"""Fuzzing replays, which are untrusted input: a recorded hand or game with values changed,
fields dropped or added, lines dropped, doubled, moved, cut short, or bytes of any kind put in,
is verified or refused with one line naming the file and the line, never a traceback; an
action of any JSON is parsed or refused with a reason, and what is parsed round-trips."""

from __future__ import annotations

import json
import re
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from bolivia.errors import BadRequest
from bolivia.play.batch.replay import ReplayError, verify_replay
from bolivia.play.batch.seeds import derive_seed
from bolivia.play.batch.simulate import RunSpec, play_hand, run
from bolivia.play.bots.simple import GreedyBot
from bolivia.play.table.actions import FIELDS, parse_action
from bolivia.rules.library import LibrarySpec, shipped_library

from .strategies import hostile_actions, tampered_replays

LIBRARY = shipped_library()
# what a message must not pass on raw: C0 and C1 controls (a newline, an escape sequence), bidi
_RAW = re.compile(r"[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def _hand() -> list[str]:
    """A canasta hand in which a player melds and one goes out."""
    ruleset = LIBRARY.load("canasta")
    for seed in range(40):
        stats, hand = play_hand(ruleset, 4, derive_seed(5, seed), [GreedyBot()] * 4, record=True)
        if hand.went_out is not None:
            return list(stats.replay)
    raise AssertionError("no hand went out")


def _game() -> list[str]:
    """The first two hands of a game (bolivia-zh-10000, two players)."""
    with tempfile.TemporaryDirectory() as folder:
        spec = RunSpec(
            "bolivia-zh-10000", LibrarySpec(), 2, ("greedy",) * 2, seed=1, games=1, replays=folder
        )
        run(spec)
        (path,) = Path(folder).iterdir()
        lines = path.read_text(encoding="utf-8").splitlines()
    ends = [i for i, line in enumerate(lines) if json.loads(line)["type"] == "end"]
    return lines[: ends[1] + 1]


HAND, GAME = _hand(), _game()
# the same hand with its deck dealt elsewhere: no seed, so no bot's choices bind the actions
UNSEEDED = [json.dumps({**json.loads(HAND[0]), "seed": None}), *HAND[1:]]


def check(data: bytes) -> None:
    """The replay verifies, or is refused with one line naming the file and a line of it."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "replay.jsonl"
        path.write_bytes(data)
        try:
            hands = verify_replay(path, LIBRARY)
        except ReplayError as exc:
            message = str(exc)
            assert not _RAW.search(message) and message.startswith(f"{path}:"), message
            number = re.match(rf"{re.escape(str(path))}:(\d+): ", message)
            assert number is not None, message
            assert 1 <= int(number[1]) <= data.count(b"\n") + 1, message
            return
    assert 1 <= hands <= data.count(b'"hand"')


def test_the_untampered_records_verify() -> None:  # a guard for what the fuzzing starts from
    for lines in (HAND, UNSEEDED, GAME):
        check("".join(line + "\n" for line in lines).encode())


@given(st.sampled_from([HAND, UNSEEDED]).flatmap(tampered_replays))
def test_a_tampered_hand_is_verified_or_refused_naming_its_line(data: bytes) -> None:
    check(data)


@given(tampered_replays(GAME))
def test_a_tampered_game_is_verified_or_refused_naming_its_line(data: bytes) -> None:
    check(data)


def _json(text: str) -> Any:
    try:
        return json.loads(text)
    except (ValueError, RecursionError):  # digits beyond Python's bound, nesting beyond its
        assume(False)


@given(hostile_actions())
def test_an_action_of_any_json_is_parsed_or_refused_with_a_reason(text: str) -> None:
    data = _json(text)
    try:
        action = parse_action(data)
    except BadRequest as exc:
        reason = str(exc)
        assert reason and not _RAW.search(reason), reason
        return
    assert set(data) <= {"type", *FIELDS[data["type"]]}
    assert parse_action(action.to_json()) == action


@pytest.mark.parametrize("kind", sorted(FIELDS))
def test_every_action_type_has_its_fields(kind: str) -> None:  # a guard: FIELDS is complete
    for name in FIELDS[kind]:
        with pytest.raises(BadRequest, match="unknown field") as info:
            parse_action({"type": kind, name + "s": 1})
        assert name + "s" in str(info.value)
