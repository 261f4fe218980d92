"""A bot named with its budget (``search:playouts=16,width=3``): the spec read into the bot,
named back in one order, bad specs refused in one line with exit 2 wherever a bot is named,
and a replay of budgeted bots replaying as they played."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bolivia.play.bots.registry import make_bot, split_specs
from bolivia.play.bots.search import BUDGET, SearchBot
from tests.test_cli import run


def test_a_spec_sets_the_budget_and_names_it_back() -> None:
    bot = make_bot("search:width=3, playouts=16,depth=none,confidence=0.50,discards=1,win=200")
    assert isinstance(bot, SearchBot)
    assert (bot.playouts, bot.width, bot.depth, bot.discards) == (16, 3, None, True)
    assert (bot.confidence, bot.win) == (0.5, 200)
    assert bot.name == "search:playouts=16,width=3,depth=none,discards=1,confidence=0.5,win=200"
    again = make_bot(bot.name)
    assert again.name == bot.name
    assert isinstance(again, SearchBot)  # the same budget, key by key (compiled: no __dict__)
    assert all(getattr(again, key) == getattr(bot, key) for key in BUDGET)
    plain = make_bot("search")
    assert plain.name == "search" and isinstance(plain, SearchBot)
    assert make_bot("search:depth=12").name == "search:depth=12"


def test_the_bounds_are_the_budgets() -> None:
    for key, (low, high) in BUDGET.items():
        for value in (low, high):
            shown = f"{value:g}"
            assert make_bot(f"search:{key}={shown}").name == f"search:{key}={shown}"
        for value in (low - 1, high + 1):
            with pytest.raises(ValueError, match=f"search: {key} is a"):
                make_bot(f"search:{key}={value:g}")


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("serch", "no bot 'serch'; bots: random, greedy, expert, search"),
        ("search:", "an empty option"),
        ("search:playouts=4,", "an empty option"),
        ("search:plays=3", "no option 'plays'; options: playouts, width"),
        ("search:playouts", "playouts needs a value"),
        ("search:playouts=", "playouts needs a value"),
        ("search:playouts=0", "playouts is a whole number from 1 to 256, not '0'"),
        ("search:playouts=257", "from 1 to 256"),
        ("search:playouts=many", "not 'many'"),
        ("search:depth=1.5", "depth is a whole number from 1 to 400 or none"),
        ("search:confidence=nan", "confidence is a number from 0 to 10, not 'nan'"),
        ("search:playouts=2,playouts=3", "playouts given twice"),
        ("greedy:playouts=2", "greedy takes no options"),
        ("search:" + "x" * 300, "at most 200 characters"),
    ],
)
def test_a_bad_spec_says_what_is_wrong(spec: str, message: str) -> None:
    with pytest.raises(ValueError, match=message.split("'")[0]) as caught:
        make_bot(spec)
    assert message in str(caught.value) and "\n" not in str(caught.value)


def test_bots_are_split_with_their_budgets() -> None:
    split = split_specs("search:playouts=8, width=3,greedy")
    assert split == ["search:playouts=8,width=3", "greedy"]
    assert split_specs("greedy,random") == ["greedy", "random"]
    # a key after a bot without a budget stays a spec of its own, and is refused as a bot
    assert split_specs("greedy,playouts=3") == ["greedy", "playouts=3"]


@pytest.mark.parametrize(
    "args",
    [
        ["match", "bolivia-da", "--bots", "search:playouts=0,expert", "--deals", "1"],
        ["match", "bolivia-da", "--bots", "expert,search:wide=3", "--deals", "1"],
        ["simulate", "bolivia-da", "--hands", "1", "--bots", "search:width=x"],
        ["simulate", "bolivia-da", "--hands", "1", "--bots", "expert:width=2"],
    ],
)
def test_the_commands_refuse_a_bad_spec_in_one_line(args: list[str]) -> None:
    code, out, err = run(*args)
    assert code == 2 and not out
    said = [line for line in err.splitlines() if line.startswith("Error")]
    assert len(said) == 1 and ("search" in said[0] or "expert" in said[0]), err
    assert "Traceback" not in err


def test_a_replay_names_the_budget_and_replays_as_played(tmp_path: Path) -> None:
    spec = "search:width=2,playouts=2,depth=6"
    folder = tmp_path / "replays"
    code, out, err = run(
        *("simulate", "bolivia-da", "--hands", "1", "--seed", "5"),
        *("--bots", ",".join([spec, "expert"] * 2), "--replays", str(folder), "--json"),
    )
    assert code == 0, err
    files = sorted(folder.iterdir())
    assert len(files) == 1
    first = json.loads(files[0].read_text().splitlines()[0])
    named = "search:playouts=2,width=2,depth=6"
    assert first["bots"] == json.loads(out)["bots"] == [named, "expert", named, "expert"]
    code, _, err = run("replay", str(files[0]))
    assert code == 0, err
    # another budget, or the plain bot, chooses otherwise on this hand: the replay refuses it
    for other in ("search:playouts=3,width=2,depth=6", "search"):
        changed = tmp_path / "changed.jsonl"
        changed.write_text(files[0].read_text().replace(named, other))
        code, _, err = run("replay", str(changed))
        assert code != 0 and f"bot, {other}, chooses" in err and "Traceback" not in err
    bad = tmp_path / "bad.jsonl"
    bad.write_text(files[0].read_text().replace(named, "search:playouts=999"))
    code, _, err = run("replay", str(bad))
    assert code != 0 and 'bots: [0] is "search:playouts=999": search: playouts is a whole' in err
