"""The end of the game: the target score, ties, and a cap on the number of hands. Decided by
``game`` of the ruleset.

A table may play to another target where the ruleset offers one (``game.target_options``:
"the settings let players choose 2,500, 5,000, 7,500 or 10,000"); any other target is refused.

>>> from bolivia.rules.library import shipped_library
>>> zh = shipped_library().load("bolivia-zh")
>>> game_over(zh, [15000, 15000])
GameResult(over=True, winner=None, draw=True)
>>> game_over(zh, [100, 200], hands_played=60)
GameResult(over=True, winner=None, draw=True)
>>> game_over(zh, [5000, 200], target=5000)
GameResult(over=True, winner=0, draw=False)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bolivia.errors import BadRequest
from bolivia.rules.ruleset import Ruleset
from bolivia.values import reduce_fields

__all__ = ["GameResult", "game_over", "target_for"]


@dataclass(frozen=True)
class GameResult:
    over: bool
    winner: int | None
    draw: bool

    def __reduce__(self) -> tuple[type[Any], tuple[Any, ...]]:
        return reduce_fields(self)


def target_for(ruleset: Ruleset, players: int | None = None, chosen: int | None = None) -> int:
    """The target score for a number of players (default: the usual number), or the one a
    table chose: that target or one of ``game.target_options`` (another is a BadRequest)."""
    game = ruleset.rules.game
    count = players if players is not None else ruleset.rules.players.usual
    target = game.target_by_players.get(count, game.target)
    if chosen is None or chosen == target or chosen in game.target_options:
        return target if chosen is None else chosen
    others = ", ".join(f"{n:,}" for n in game.target_options if n != target)
    choice = f"or, by the table's choice, to one of {others}" if others else "and no other"
    raise BadRequest(f"{ruleset.id} plays to {target:,} {choice}, not {chosen:,}")


def game_over(
    ruleset: Ruleset,
    scores: Sequence[int],
    hands_played: int | None = None,
    players: int | None = None,
    target: int | None = None,
) -> GameResult:
    """Whether the game ends after a hand, given the sides' running totals.

    ``target``: the one the table chose, where the ruleset offers a choice
    (:func:`target_for`).
    """
    _check_request(scores, hands_played)
    best = max(scores)
    leaders = [i for i, score in enumerate(scores) if score == best]
    if best >= target_for(ruleset, players, target):
        reached = _target_reached(ruleset, leaders)
        if reached is not None:
            return reached
    return _capped(ruleset, leaders, hands_played)


def _check_request(scores: Sequence[int], hands_played: int | None) -> None:
    """A BadRequest unless there are two sides or more and a count of hands that can be."""
    if len(scores) < 2:
        raise BadRequest("a game has two or more sides")
    if hands_played is not None and hands_played < 0:
        raise BadRequest("hands_played cannot be negative")


def _target_reached(ruleset: Ruleset, leaders: list[int]) -> GameResult | None:
    """The end when the leaders reach the target: a win, a draw, or None to play on a tie."""
    if len(leaders) == 1:
        return GameResult(True, leaders[0], False)
    if ruleset.rules.game.ties == "draw":
        return GameResult(True, None, True)
    return None


def _capped(ruleset: Ruleset, leaders: list[int], hands_played: int | None) -> GameResult:
    """The end when the cap on hands is reached (``game.hand_cap``), else the game goes on."""
    cap = ruleset.rules.game.hand_cap
    if cap is None or hands_played is None or hands_played < cap.hands:
        return GameResult(False, None, False)
    if cap.outcome == "leader_wins" and len(leaders) == 1:
        return GameResult(True, leaders[0], False)
    return GameResult(True, None, True)
