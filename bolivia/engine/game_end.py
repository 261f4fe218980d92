"""The end of the game: the target score, ties, and a cap on the number of hands. Decided by
``game`` of the ruleset.

>>> from bolivia.rules.library import shipped_library
>>> zh = shipped_library().load("bolivia-zh")
>>> game_over(zh, [15000, 15000])
GameResult(over=True, winner=None, draw=True)
>>> game_over(zh, [100, 200], hands_played=60)
GameResult(over=True, winner=None, draw=True)
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


def target_for(ruleset: Ruleset, players: int | None = None) -> int:
    """The target score for a number of players (default: the usual number)."""
    game = ruleset.rules.game
    count = players if players is not None else ruleset.rules.players.usual
    return game.target_by_players.get(count, game.target)


def game_over(
    ruleset: Ruleset,
    scores: Sequence[int],
    hands_played: int | None = None,
    players: int | None = None,
) -> GameResult:
    """Whether the game ends after a hand, given the sides' running totals."""
    if len(scores) < 2:
        raise BadRequest("a game has two or more sides")
    if hands_played is not None and hands_played < 0:
        raise BadRequest("hands_played cannot be negative")
    game = ruleset.rules.game
    best = max(scores)
    leaders = [i for i, score in enumerate(scores) if score == best]
    if best >= target_for(ruleset, players):
        if len(leaders) == 1:
            return GameResult(True, leaders[0], False)
        if game.ties == "draw":
            return GameResult(True, None, True)
    cap = game.hand_cap
    if cap is not None and hands_played is not None and hands_played >= cap.hands:
        if cap.outcome == "leader_wins" and len(leaders) == 1:
            return GameResult(True, leaders[0], False)
        return GameResult(True, None, True)
    return GameResult(False, None, False)
