"""Duplicate matches: the seats each bot takes, a bot against itself (nothing to tell them
apart, to the point), the same figures with any number of workers, and the command's output
and usage errors."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bolivia.compare.matches import FORMAT, match_json, match_text
from bolivia.compare.statistics import METHODS, correct, difference_from_sums, paired_mean
from bolivia.options import MAX_DEALS as CLI_MAX_MATCH
from bolivia.play.batch.match import MAX_MATCH, MatchError, MatchSpec, play_match, sides
from bolivia.play.batch.simulate import play_hand
from bolivia.play.table.hand import Hand
from bolivia.rules.library import LibrarySpec, shipped_library
from tests.test_cli import run

LIBRARY = shipped_library()


def _spec(a: str = "greedy", b: str = "random", **kw: int | str) -> MatchSpec:
    fields: dict[str, object] = {"players": 4, "seed": 0, "deals": 3, "ruleset": "bolivia-da"}
    fields.update(kw)
    return MatchSpec(
        str(fields["ruleset"]),
        LibrarySpec(),
        int(str(fields["players"])),
        a,
        b,
        int(str(fields["seed"])),
        deals=int(str(fields["deals"])),
        games=int(str(fields.get("games", 0))),
        check=str(fields.get("check", "end")),
    )


@pytest.mark.parametrize("players", [2, 4])
def test_the_sides_are_the_engines_teams(players: int) -> None:
    ruleset = LIBRARY.load("bolivia-da")
    hand = Hand.deal(ruleset, players, random.Random(1))
    first, second = sides(ruleset, players)
    assert [hand.team_of[s] for s in first] == [0] * len(first)
    assert [hand.team_of[s] for s in second] == [1] * len(second)
    assert sorted(first + second) == list(range(players))
    assert [bot.name for bot in _spec(players=players).seats(1)][:2] == ["random", "greedy"]


def test_a_match_needs_two_sides() -> None:
    with pytest.raises(MatchError, match="3 sides"):
        sides(LIBRARY.load("samba"), 3)
    with pytest.raises(MatchError, match="not 7"):
        sides(LIBRARY.load("samba"), 7)
    with pytest.raises(MatchError, match="deals or games"):
        _spec(deals=0)
    with pytest.raises(MatchError, match="1,000,000"):
        _spec(deals=MAX_MATCH + 1)
    assert CLI_MAX_MATCH == MAX_MATCH


@settings(max_examples=4)
@given(st.integers(0, 2**32), st.sampled_from(["random", "greedy"]))
def test_a_bot_against_itself_is_never_different(seed: int, bot: str) -> None:
    """Same cards, same bots at every seat: each deal's two plays are the same hand, seen from
    the two sides, so A's margin is exactly 0 on every deal and nothing is called different."""
    summary = match_json(play_match(_spec(bot, bot, seed=seed, deals=2)))
    margin = summary["paired"]["a_margin"]
    assert (margin["value"], margin["low"], margin["high"], margin["p"]) == (0, 0, 0, 1)
    assert summary["paired"]["both_won"] == summary["paired"]["both_lost"] == 0
    counts = play_match(_spec(bot, bot, seed=seed, deals=2))
    same = difference_from_sums(2, counts["sums"]["margin"], counts["sums"]["margin_squares"])
    family = [same, paired_mean([900, 1200, 1100])]
    for method in METHODS:
        assert not correct(family, method)[0].different


@settings(max_examples=3)
@given(st.integers(0, 2**32))
def test_the_same_rules_under_two_ids_play_the_same(seed: int) -> None:
    """bolivia-zh and bolivia-ko hold the same rules: the same deal and bots give the same
    points, so their paired difference is [0, 0]."""
    bots = _spec("greedy", "greedy").seats(0)
    points = [
        play_hand(LIBRARY.load(rid), 4, seed, bots, check="end")[0].points
        for rid in ("bolivia-zh", "bolivia-ko")
    ]
    difference = paired_mean([a - b for a, b in zip(*points, strict=True)])
    assert (difference.value, difference.interval().low, difference.interval().high) == (0, 0, 0)


def test_the_figures_add_up() -> None:
    counts = play_match(_spec(deals=4))
    summary = match_json(counts)
    assert summary["format"] == FORMAT and summary["version"] == 1
    assert summary["hands"]["played"] == 8 and summary["units"] == 4
    hands, pairs = summary["hands"], summary["paired"]
    assert hands["won"] + hands["lost"] + hands["tied"] == hands["ended"]
    assert sum(pairs[k] for k in ("both_won", "split", "both_lost", "with_a_tie")) == pairs["n"]
    assert summary["seatings"] == [{"a": [0, 2], "b": [1, 3]}, {"a": [1, 3], "b": [0, 2]}]
    text = match_text(summary)
    assert "deal as unit, t" in text and "paired, deal as unit, t, 3 df" in text


def test_games_are_played_twice_too() -> None:
    summary = match_json(play_match(_spec(deals=0, games=1)))
    games = summary["games"]
    assert games["played"] == 2
    assert games["won"] + games["lost"] + games["draws"] + games["stopped_hand_limit"] == 2
    assert summary["unit"] == "game" and "games A won" in match_text(summary)


def test_the_same_bytes_with_any_number_of_workers() -> None:
    args = ["match", "bolivia-fr", "--bots", "greedy,random", "--deals", "5", "--json"]
    one = run(*args, "--workers", "1")
    two = run(*args, "--workers", "2")
    assert one[0] == two[0] == 0
    assert one[1] == two[1]
    assert json.loads(one[1])["ruleset"] == "bolivia-fr"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["greedy", "nobody"], "no bot 'nobody'"),
        (["greedy", "random", "--deals", "0"], "0 is not in the range"),
        (["greedy", "random", "--deals", str(MAX_MATCH + 1)], "1000000"),
        (["greedy", "random", "--deals", "2", "--games", "2"], "not both"),
        (["greedy", "random", "--players", "8"], "not 8"),
    ],
)
def test_usage_errors(args: list[str], message: str) -> None:
    code, _, err = run("match", "bolivia-da", "--bots", ",".join(args[:2]), *args[2:])
    assert code == 2 and message in err


def test_three_sides_are_a_usage_error() -> None:
    code, _, err = run("match", "samba", "--bots", "greedy,random", "--players", "3")
    assert code == 2 and "a match is between two sides" in err


def test_the_help_states_the_bound() -> None:
    code, out, _ = run("match", "--help")
    assert code == 0 and "1,000,000" in out
