"""Hardening of replays: a tampered or hostile replay file is refused with one line naming the
file, the line and the field, never a traceback, a hang or a read without end; what a hand line
records is checked (the seed deals the deck, the bots are known, a game's scores add up, a true
is not a 1, an action holds no field more); a replay's ruleset is looked for only where
``extends`` may look. Each test is a reproducer of a fault found."""

from __future__ import annotations

import json
import os
import resource
import shutil
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bolivia.cards import Card
from bolivia.play.batch.replay import ReplayError, verify_replay
from bolivia.play.batch.seeds import derive_seed
from bolivia.play.batch.simulate import RunSpec, play_hand, run
from bolivia.play.bots.simple import GreedyBot
from bolivia.play.table.actions import Discard, parse_action
from bolivia.play.table.hand import Hand
from bolivia.rules.library import Library, LibrarySpec, shipped_library
from bolivia.verify.oracle import Oracle

LIBRARY = shipped_library()
ROOT = Path(__file__).resolve().parent.parent
Records = list[dict[str, Any]]


@pytest.fixture(scope="module")
def hand_records() -> Records:
    """A canasta hand in which a player melds and one goes out."""
    ruleset = LIBRARY.load("canasta")
    for seed in range(40):
        stats, hand = play_hand(ruleset, 4, derive_seed(5, seed), [GreedyBot()] * 4, record=True)
        if hand.went_out is not None:
            return [json.loads(line) for line in stats.replay]
    raise AssertionError("no hand went out")


@pytest.fixture(scope="module")
def game_records(tmp_path_factory: pytest.TempPathFactory) -> Records:
    """A whole game of several hands (bolivia-zh-10000, two players)."""
    folder = tmp_path_factory.mktemp("game")
    run(
        RunSpec(
            "bolivia-zh-10000",
            LibrarySpec(),
            2,
            ("greedy", "greedy"),
            seed=1,
            games=1,
            replays=str(folder),
        )
    )
    (path,) = folder.iterdir()
    records = [json.loads(line) for line in path.read_text().splitlines()]
    assert sum(r["type"] == "hand" for r in records) >= 3
    return records


def write(folder: Path, records: Records, name: str = "hand.jsonl") -> Path:
    path = folder / name
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def refused(path: Path, library: Library = LIBRARY) -> str:
    with pytest.raises(ReplayError) as info:
        verify_replay(path, library)
    message = str(info.value)
    assert "\n" not in message and "Traceback" not in message
    return message


def changed(records: Records, index: int, **fields: Any) -> Records:
    out = [dict(r) for r in records]
    out[index].update(fields)
    return out


def first_action(records: Records, kind: str) -> int:
    return next(
        i for i, r in enumerate(records) if r["type"] == "action" and r["action"]["type"] == kind
    )


def test_an_untampered_hand_and_game_verify(
    tmp_path: Path, hand_records: Records, game_records: Records
) -> None:  # a guard: what follows refuses only what is wrong
    assert verify_replay(write(tmp_path, hand_records), LIBRARY) == 1
    hands = sum(r["type"] == "hand" for r in game_records)
    assert verify_replay(write(tmp_path, game_records, "game.jsonl"), LIBRARY) == hands


# --------------------------------------------------------------------- fields of the wrong shape


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("team_scores", 5),
        ("team_scores", [0]),
        ("team_scores", [True, 0]),
        ("team_scores", [0, "0"]),
        ("team_scores", [0, 10**12]),
        ("deck", 7),
        ("deck", ["7H", 3]),
        ("players", True),
        ("players", 7),
        ("first", 7),
        ("first", -1),
        ("first", True),
        ("format", True),
        ("format", 1.0),
        ("format", "bolivia-match"),
        ("version", True),
        ("version", 1),
        ("version", 2.0),
        ("version", "2"),
        ("seed", "12"),
        ("seed", True),
        ("bots", 5),
        ("bots", ["greedy"]),
        ("bots", ["greedy", "greedy", "greedy", "nobody"]),
        ("digest", 5),
        ("ruleset", 5),
    ],
)
def test_a_hand_line_field_of_the_wrong_shape_is_named(
    tmp_path: Path, hand_records: Records, field: str, value: Any
) -> None:
    path = write(tmp_path, changed(hand_records, 0, **{field: value}))
    assert refused(path).startswith(f"{path}:1: {field}: ")


@pytest.mark.parametrize("field", ["team_scores", "deck", "players", "format", "bots"])
def test_a_missing_hand_line_field_is_named(
    tmp_path: Path, hand_records: Records, field: str
) -> None:
    records = [dict(r) for r in hand_records]
    del records[0][field]
    path = write(tmp_path, records)
    assert refused(path).startswith(f"{path}:1: {field}: ")


@pytest.mark.parametrize("kind", ["hand", "action", "end"])
def test_a_field_more_on_any_line_is_refused(
    tmp_path: Path, hand_records: Records, kind: str
) -> None:
    index = next(i for i, r in enumerate(hand_records) if r["type"] == kind)
    path = write(tmp_path, changed(hand_records, index, note="hi"))
    assert refused(path).startswith(f"{path}:{index + 1}: note: ")


@pytest.mark.parametrize("kind", ["hand", "action", "end"])
def test_a_field_name_holding_control_characters_is_shown_escaped(
    tmp_path: Path, hand_records: Records, kind: str
) -> None:  # found by test_fuzz_replay under the thorough profile
    index = next(i for i, r in enumerate(hand_records) if r["type"] == kind)
    path = write(tmp_path, changed(hand_records, index, **{"\n\x1b[31m": 1}))
    message = refused(path)  # one line, no escape sequence
    assert "\x1b" not in message and message.startswith(f"{path}:{index + 1}: '\\n\\x1b[31m': ")


def test_an_action_field_name_holding_control_characters_is_shown_escaped() -> None:
    from bolivia.errors import BadRequest

    with pytest.raises(BadRequest) as info:  # found by test_fuzz_replay (thorough)
        parse_action({"type": "ask", "\n\x1b[31m": 0})
    assert "\n" not in str(info.value) and "\x1b" not in str(info.value)
    assert str(info.value).startswith("unknown field '\\n\\x1b[31m' of an ask action")


@pytest.mark.parametrize(("field", "value"), [("step", True), ("player", True), ("step", 1.0)])
def test_a_true_or_a_float_is_not_a_whole_number_in_an_action_line(
    tmp_path: Path, hand_records: Records, field: str, value: Any
) -> None:
    records = [dict(r) for r in hand_records]
    index = next(  # an action whose step or player is 1, so that True == 1 would pass
        i for i, r in enumerate(records) if r["type"] == "action" and r[field] == 1
    )
    records[index][field] = value
    path = write(tmp_path, records)
    assert refused(path).startswith(f"{path}:{index + 1}: {field}: ")


def test_a_true_is_not_a_1_in_the_end_line(tmp_path: Path, hand_records: Records) -> None:
    records = [dict(r) for r in hand_records]
    records[-1]["concealed"] = int(records[-1]["concealed"])
    path = write(tmp_path, records)
    assert f"{path}:{len(records)}: the recorded concealed" in refused(path)


def test_a_false_is_not_a_0_in_the_scores(tmp_path: Path, hand_records: Records) -> None:
    records = json.loads(json.dumps(hand_records))
    score = records[-1]["scores"][0]
    key = next(key for key, value in score.items() if value == 0)
    score[key] = False
    path = write(tmp_path, records)
    assert f"{path}:{len(records)}: the recorded scores" in refused(path)


def test_a_deeply_nested_line_is_refused(tmp_path: Path, hand_records: Records) -> None:
    path = tmp_path / "deep.jsonl"
    nested = "[" * 5000 + "]" * 5000
    action = '{"type":"action","step":1,"player":0,"action":' + nested + "}"
    path.write_text(json.dumps(hand_records[0]) + "\n" + action + "\n")
    assert refused(path).startswith(f"{path}:2: ")


def test_a_huge_integer_is_named_not_a_crash(tmp_path: Path, hand_records: Records) -> None:
    # a guard: an integer of more digits than Python reads is refused naming the line
    line = json.dumps(hand_records[0]).replace('"first": 0', '"first": ' + "9" * 5000, 1)
    path = tmp_path / "huge.jsonl"
    path.write_text(line + "\n")
    assert refused(path).startswith(f"{path}:1: ")


# -------------------------------------------------------------------- files that are not replays


def _limited(command: list[str], timeout: float = 60) -> subprocess.CompletedProcess[bytes]:
    """``command`` with at most 1 GiB of memory and ``timeout`` seconds."""

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))

    return subprocess.run(
        command,
        capture_output=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=timeout,
        preexec_fn=limit,
        check=False,
    )


def replay_command(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[bytes]:
    return _limited([sys.executable, "-m", "bolivia", "replay", *args], timeout)


def test_dev_zero_is_refused_not_read_without_end() -> None:
    done = replay_command("/dev/zero", timeout=30)
    assert done.returncode == 1
    (line,) = done.stderr.decode().splitlines()
    assert line.startswith("/dev/zero: ") and "not a regular file" in line


def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path: Path) -> None:
    fifo = tmp_path / "replay.jsonl"
    os.mkfifo(fifo)
    done = replay_command(str(fifo), timeout=30)
    assert done.returncode == 1
    assert "not a regular file" in done.stderr.decode()


def test_a_file_over_the_limit_is_refused_before_reading(tmp_path: Path) -> None:
    from bolivia.play.batch.replay import MAX_FILE

    path = tmp_path / "big.jsonl"
    with path.open("wb") as stream:
        stream.truncate(MAX_FILE + 1)  # sparse: no disk used
    assert f"{MAX_FILE + 1} bytes" in refused(path)


def test_a_line_over_the_limit_is_named(tmp_path: Path, hand_records: Records) -> None:
    from bolivia.play.batch.replay import MAX_LINE

    path = tmp_path / "long.jsonl"
    path.write_text(json.dumps(hand_records[0]) + "\n" + " " * (MAX_LINE + 1) + "\n")
    message = refused(path)
    assert message.startswith(f"{path}:2: ") and str(MAX_LINE) in message


def test_a_line_that_is_not_utf8_is_named(tmp_path: Path, hand_records: Records) -> None:
    path = tmp_path / "bytes.jsonl"
    path.write_bytes(json.dumps(hand_records[0]).encode() + b"\n\xff\xfe\n")
    assert refused(path).startswith(f"{path}:2: ")


# ----------------------------------------------------------------------- tampering that verified


def test_a_changed_seed_is_refused(tmp_path: Path, hand_records: Records) -> None:
    path = write(tmp_path, changed(hand_records, 0, seed=hand_records[0]["seed"] + 1))
    message = refused(path)
    assert message.startswith(f"{path}:1: seed: ") and "deck" in message


def test_a_deck_dealt_elsewhere_verifies_without_a_seed(
    tmp_path: Path, hand_records: Records
) -> None:  # a guard: a seed vouches for the deck only where one is recorded
    assert verify_replay(write(tmp_path, changed(hand_records, 0, seed=None)), LIBRARY) == 1


def test_unknown_bots_are_refused(tmp_path: Path, hand_records: Records) -> None:
    path = write(tmp_path, changed(hand_records, 0, bots=["greedy", "x", "greedy", "greedy"]))
    message = refused(path)
    assert message.startswith(f"{path}:1: bots: ") and '"x"' in message


def test_a_changed_bot_is_refused(tmp_path: Path, hand_records: Records) -> None:
    path = write(tmp_path, changed(hand_records, 0, bots=["random", *hand_records[0]["bots"][1:]]))
    message = refused(path)
    assert ": bots: player 0's bot, random, chooses " in message


def test_a_legal_action_the_bot_did_not_choose_is_refused(
    tmp_path: Path, hand_records: Records
) -> None:
    index = first_action(hand_records, "discard")
    head = hand_records[0]
    hand = Hand(
        LIBRARY.load(head["ruleset"]),
        head["players"],
        [Card.parse(text).index for text in head["deck"]],
        head["first"],
        head["team_scores"],
    )
    for record in hand_records[1:index]:
        hand.apply(parse_action(record["action"]))
    recorded = parse_action(hand_records[index]["action"])
    other = next(a for a in hand.choices() if isinstance(a, Discard) and a != recorded)
    records = [dict(r) for r in hand_records]
    records[index]["action"] = other.to_json()
    path = write(tmp_path, records[: index + 1])
    message = refused(path)
    assert message.startswith(f"{path}:{index + 1}: step ") and "bots: " in message


def test_wrong_team_scores_in_a_game_are_refused(tmp_path: Path, game_records: Records) -> None:
    heads = [i for i, r in enumerate(game_records) if r["type"] == "hand"]
    index = heads[2]
    scores = [score + 10 for score in game_records[index]["team_scores"]]
    path = write(tmp_path, changed(game_records, index, team_scores=scores))
    message = refused(path)
    assert message.startswith(f"{path}:{index + 1}: team_scores: ") and "add up" in message


@pytest.mark.parametrize(
    ("field", "value"), [("players", 3), ("bots", ["random", "greedy"]), ("ruleset", "samba")]
)
def test_a_game_changes_neither_rules_nor_players(
    tmp_path: Path, game_records: Records, field: str, value: Any
) -> None:
    index = [i for i, r in enumerate(game_records) if r["type"] == "hand"][1]
    path = write(tmp_path, changed(game_records, index, **{field: value}))
    assert refused(path).startswith(f"{path}:{index + 1}: {field}: ")


@pytest.mark.parametrize(("field", "value"), [("first", True)])
def test_true_where_1_is_recorded_is_refused(
    tmp_path: Path, game_records: Records, field: str, value: Any
) -> None:
    index = next(i for i, r in enumerate(game_records) if r["type"] == "hand" and r[field] == 1)
    path = write(tmp_path, changed(game_records, index, **{field: value}))
    assert refused(path).startswith(f"{path}:{index + 1}: {field}: ")


def test_a_replay_of_the_format_before_the_names_is_still_read(
    tmp_path: Path, game_records: Records
) -> None:
    """A head line of 0.1.0 (``"format": 1``, no version) replays as it did; ``True`` there,
    or a version beside it, is refused."""
    heads = [i for i, r in enumerate(game_records) if r["type"] == "hand"]
    old = [dict(r) for r in game_records]
    for i in heads:
        del old[i]["version"]
        old[i]["format"] = 1
    verify_replay(write(tmp_path, old), LIBRARY)
    for value, version in ((True, None), (1, 2)):
        wrong = [dict(r) for r in old]
        wrong[heads[0]]["format"] = value
        if version is not None:
            wrong[heads[0]]["version"] = version
        path = write(tmp_path, wrong)
        assert refused(path).startswith(f"{path}:{heads[0] + 1}: format: ")


def test_an_extra_field_in_an_action_is_refused(tmp_path: Path, hand_records: Records) -> None:
    index = first_action(hand_records, "discard")
    records = [dict(r) for r in hand_records]
    records[index]["action"] = {**records[index]["action"], "points": 500}
    path = write(tmp_path, records)
    message = refused(path)
    assert message.startswith(f"{path}:{index + 1}: step ") and "'points'" in message


@pytest.mark.parametrize(
    "action",
    [
        {"type": "draw", "cards": ["8H"]},
        {"type": "discard", "card": "8H", "also": []},
        {"type": "answer", "yes": True, "no": False},
        {"type": "go_out", "melds": [], "extends": [], "bonus": 1},
    ],
)
def test_parse_action_refuses_a_field_the_type_does_not_take(action: dict[str, Any]) -> None:
    from bolivia.errors import BadRequest

    with pytest.raises(BadRequest, match="unknown field"):
        parse_action(action)


def test_the_oracle_act_refuses_a_field_the_action_does_not_take() -> None:
    answer = Oracle().handle(
        {
            "op": "act",
            "ruleset": "samba",
            "position": {"hands": [["8H"], [], [], []]},
            "action": {"type": "draw", "x": 1},
        }
    )
    assert answer["ok"] is False and answer["error"]["code"] == "bad-request"
    assert "'x'" in answer["error"]["message"]


# ---------------------------------------------------------------------- where the ruleset may be


@pytest.mark.parametrize(
    "ref", ["/etc/passwd", "/etc/hostname.yaml", "../../../../../../etc/passwd", "../x.yaml"]
)
def test_a_ruleset_outside_the_allowed_folders_is_not_read(
    tmp_path: Path, hand_records: Records, ref: str
) -> None:
    folder = tmp_path / "replays"
    folder.mkdir()
    (tmp_path / "x.yaml").write_text("id: x\nsecret: do not echo me\n")
    message = refused(write(folder, changed(hand_records, 0, ruleset=ref)))
    assert ": ruleset: " in message
    assert "absolute" in message or "outside" in message
    assert "mapping" not in message and "secret" not in message


def test_a_link_out_of_the_replay_folder_is_not_followed(
    tmp_path: Path, hand_records: Records
) -> None:
    folder = tmp_path / "replays"
    folder.mkdir()
    (tmp_path / "outside.yaml").write_text("id: x\nsecret: do not echo me\n")
    (folder / "rules.yaml").symlink_to(tmp_path / "outside.yaml")
    message = refused(write(folder, changed(hand_records, 0, ruleset="rules.yaml")))
    assert "outside" in message and "secret" not in message


def test_a_ruleset_file_beside_the_replay_is_read(
    tmp_path: Path, hand_records: Records
) -> None:  # a guard: the replay's own folder is allowed
    shutil.copy(ROOT / "rulesets" / "canasta.yaml", tmp_path / "ours.yaml")
    path = write(tmp_path, changed(hand_records, 0, ruleset="ours.yaml"))
    assert verify_replay(path, LIBRARY) == 1


# ----------------------------------------------------------------------------------- the command


def test_the_command_exits_0_on_verified_and_1_on_refused(
    tmp_path: Path, hand_records: Records
) -> None:
    good = write(tmp_path, hand_records, "good.jsonl")
    bad = write(tmp_path, changed(hand_records, 0, team_scores=5), "bad.jsonl")
    done = replay_command(str(good), str(bad))
    assert done.returncode == 1
    assert done.stdout.decode() == f"{good}: 1 hand verified\n"
    (line,) = done.stderr.decode().splitlines()
    assert line.startswith(f"{bad}:1: team_scores: ")


def _popen(*args: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "bolivia", "replay", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )


def _after_first_line(process: subprocess.Popen[bytes], then: Callable[[], None]) -> bytes:
    assert process.stdout is not None and process.stderr is not None
    assert process.stdout.readline().endswith(b"verified\n")
    then()
    err = process.stderr.read()
    process.stderr.close()
    process.wait(timeout=120)
    if not process.stdout.closed:
        process.stdout.close()
    return err


def test_ctrl_c_exits_130_quietly(tmp_path: Path, hand_records: Records) -> None:
    path = str(write(tmp_path, hand_records))
    process = _popen(*[path] * 400)
    err = _after_first_line(process, lambda: process.send_signal(signal.SIGINT))
    assert process.returncode == 130
    assert err.decode().split() == ["interrupted"]  # one line, as every command says it


def test_a_reader_that_goes_away_ends_the_command_quietly(
    tmp_path: Path, hand_records: Records
) -> None:
    path = str(write(tmp_path, hand_records))
    process = _popen(*[path] * 400)
    assert process.stdout is not None
    err = _after_first_line(process, process.stdout.close)
    assert process.returncode == 141  # 128 + SIGPIPE, as for every command (bolivia.console)
    assert err == b""


def test_a_full_disk_is_one_line(tmp_path: Path, hand_records: Records) -> None:
    path = str(write(tmp_path, hand_records))
    with open("/dev/full", "wb") as full:
        done = subprocess.run(
            [sys.executable, "-m", "bolivia", "replay", path],
            stdout=full,
            stderr=subprocess.PIPE,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            timeout=60,
            check=False,
        )
    assert done.returncode == 1
    (line,) = done.stderr.decode().splitlines()
    assert "No space left on device" in line


def test_a_closed_standard_output_is_one_line(tmp_path: Path, hand_records: Records) -> None:
    path = str(write(tmp_path, hand_records))  # no result is lost unsaid
    done = subprocess.run(
        ["sh", "-c", '"$0" -m bolivia replay "$1" 1>&-', sys.executable, path],
        capture_output=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=60,
        check=False,
    )
    assert done.returncode == 1
    (line,) = done.stderr.decode().splitlines()
    assert "standard output is closed" in line
