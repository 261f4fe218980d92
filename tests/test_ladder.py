"""The ladder (``bolivia ladder``): Bradley-Terry ratings that recover known strengths, a
bootstrap that is the same from the same seed, matches that give the same figures with any
number of workers, and bad input refused in one line."""

from __future__ import annotations

import json
import math
import random

import pytest

from bolivia.compare.ratings import bradley_terry, rate
from tests.test_cli import run


def _deals(p_win: float, n: int, rng: random.Random) -> list[float]:
    """A's points on ``n`` deals of two hands, each won with the chance ``p_win``."""
    return [float((rng.random() < p_win) + (rng.random() < p_win)) for _ in range(n)]


def test_the_ratings_recover_the_strengths_that_made_the_results() -> None:
    # strengths 1, 2 and 8 (0, +120 and +361 on the Elo scale from the first)
    rng = random.Random(7)
    pi = {"a": 1.0, "b": 2.0, "c": 8.0}
    matches = {
        (x, y): _deals(pi[x] / (pi[x] + pi[y]), 20_000, rng)
        for x, y in (("a", "b"), ("a", "c"), ("b", "c"))
    }
    fit = bradley_terry(["a", "b", "c"], matches, anchor="a")
    assert fit["a"] == 0.0
    assert fit["b"] == pytest.approx(400 * math.log10(2), abs=6)
    assert fit["c"] == pytest.approx(400 * math.log10(8), abs=6)


def test_a_bot_that_never_wins_keeps_a_finite_rating_and_the_intervals_hold() -> None:
    matches = {("random", "greedy"): [0.0] * 50, ("random", "expert"): [0.0] * 50}
    matches[("greedy", "expert")] = [0.0] * 20 + [1.0] * 25 + [2.0] * 5
    hands = {pair: [2] * len(s) for pair, s in matches.items()}
    ratings = rate(["random", "greedy", "expert"], matches, hands, anchor="greedy", seed=3)
    again = rate(["random", "greedy", "expert"], matches, hands, anchor="greedy", seed=3)
    assert ratings == again  # seeded: the same intervals
    by = {r.bot: r for r in ratings}
    assert by["greedy"].rating == by["greedy"].low == by["greedy"].high == 0.0
    assert math.isfinite(by["random"].rating) and by["random"].rating < -300
    assert by["expert"].rating > 0
    for r in ratings:
        assert r.low <= r.rating <= r.high


def test_a_ladder_is_the_same_with_any_number_of_workers() -> None:
    args = ["ladder", "bolivia-da", "--bots", "random,greedy", "--deals", "3"]
    code, one, _ = run(*args, "--json", "--workers", "1")
    assert code == 0
    code, two, _ = run(*args, "--json", "--workers", "2")
    assert code == 0 and one == two
    data = json.loads(one)
    assert (data["format"], data["version"], data["anchor"]) == ("bolivia-ladder", 1, "greedy")
    (entry,) = data["rulesets"]
    (match,) = entry["matches"]
    assert (match["a"], match["b"], match["deals"]) == ("random", "greedy", 3)
    assert match["hands"] + match["not_ended_by_a_rule"] == 6
    assert [r["bot"] for r in entry["ratings"]] == ["greedy", "random"]
    code, text, _ = run(*args)
    assert code == 0 and "bolivia-da (4 players)" in text and "random against greedy" in text


@pytest.mark.parametrize(
    ("args", "status", "message"),
    [
        (["--bots", "greedy"], 2, "name two bots or more, each once"),
        (["--bots", "greedy,greedy"], 2, "name two bots or more, each once"),
        (["--bots", "greedy,grumpy"], 2, "no bot 'grumpy'"),
        (["nope"], 1, "nope"),  # as every command that loads a ruleset
        (["--deals", "0"], 2, "0"),
    ],
)
def test_bad_input_is_one_line(args: list[str], status: int, message: str) -> None:
    code, out, err = run("ladder", *args)
    assert code == status and message in err and "Traceback" not in err + out
