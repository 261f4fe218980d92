"""Duplicate matches: two bots play the same deals (or the same games) twice, with the sides
swapped, so that the luck of the cards falls on both and what is left is the bots.

A deal is a hand's seed (``derive_seed(seed, i)`` for deal ``i``, the seeds ``simulate`` gives
its hands) and its first player (seat ``i mod players``); it is played once with bot A in every
seat of side 0 and bot B in the others, once with A in the seats of side 1. Seat ``s`` plays
for side ``s mod teams`` (the ruleset's ``players.seats``), so with four players and two sides
A holds seats 0 and 2, then 1 and 3. A match needs two sides: a seating of three or more sides
is refused. A game (``--games``) is a game seed, played to its end twice in the same way.

The jobs are seeded and their results added up in the jobs' order with integer sums, so a match
gives the same figures, to the byte, with any number of worker processes. The figures here are
counts; :mod:`bolivia.compare.matches` turns them into rates and intervals.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from bolivia.engine.game_end import target_for
from bolivia.errors import BoliviaError
from bolivia.play.batch.seeds import derive_seed
from bolivia.play.batch.simulate import (
    CHECKS,
    RULE_ENDINGS,
    HandStats,
    play_game,
    play_hand,
    pooled,
)
from bolivia.play.bots.registry import Bot, make_bot
from bolivia.rules.library import Library, LibrarySpec
from bolivia.rules.ruleset import Ruleset
from bolivia.values import reduce_fields

__all__ = [
    "MAX_MATCH",
    "MatchError",
    "MatchSpec",
    "MatchTally",
    "play_match",
    "seat_sides",
    "sides",
]

MAX_MATCH = 1_000_000  # the most deals (or games) a match plays, each twice
SEATINGS = (0, 1)  # the side bot A plays for: first side 0, then side 1


class MatchError(BoliviaError):
    """A match that cannot be played as asked (a seating of more than two sides, ...)."""


def sides(ruleset: Ruleset, players: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The seats of side 0 and of side 1 for this number of players (seat s plays for side
    s mod teams)."""
    seating = ruleset.rules.players.seats.get(players)
    if seating is None:
        allowed = ", ".join(map(str, sorted(ruleset.rules.players.seats)))
        raise MatchError(f"{ruleset.id} is played by {allowed} players, not {players}")
    if seating.teams != 2:
        raise MatchError(
            f"a match is between two sides: {players} players of {ruleset.id} play as "
            f"{seating.teams} sides"
        )
    return seat_sides(players)


def seat_sides(players: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The seats of side 0 and of side 1 when two sides sit alternately."""
    return (
        tuple(s for s in range(players) if s % 2 == 0),
        tuple(s for s in range(players) if s % 2 == 1),
    )


@dataclass(frozen=True)
class MatchSpec:
    """What to play; picklable, so worker processes can rebuild everything from it."""

    ruleset: str
    where: LibrarySpec
    players: int
    bot_a: str
    bot_b: str
    seed: int
    deals: int = 0
    games: int = 0
    check: str = "sampled"

    def __post_init__(self) -> None:
        if self.check not in CHECKS:
            raise MatchError(f"check is one of {', '.join(CHECKS)}, not {self.check!r}")
        if (self.deals > 0) == (self.games > 0):
            raise MatchError("a match plays deals or games: give one of them")
        if not 0 < max(self.deals, self.games) <= MAX_MATCH:
            raise MatchError(f"a match plays 1 to {MAX_MATCH:,} deals or games")

    def library(self) -> Library:
        return self.where.open()

    def seats(self, a_side: int) -> list[Bot]:
        """A bot for every seat, A's at the seats of ``a_side``: new ones for every hand or
        game, so nothing a bot keeps passes from one to the next."""
        a_seats = seat_sides(self.players)[a_side]
        return [
            make_bot(self.bot_a if seat in a_seats else self.bot_b) for seat in range(self.players)
        ]

    def __reduce__(self) -> tuple[type[Any], tuple[Any, ...]]:
        return reduce_fields(self)


_WORKER: dict[str, Any] = {}


def _ruleset(spec: MatchSpec) -> Ruleset:
    key = (spec.ruleset, spec.where)
    if _WORKER.get("key") != key:
        _WORKER["key"] = key
        _WORKER["ruleset"] = spec.library().load(spec.ruleset)
    ruleset: Ruleset = _WORKER["ruleset"]
    return ruleset


def _margin(points: list[int], a_side: int) -> int:
    return points[a_side] - points[1 - a_side]


def _hand_row(stats: HandStats, a_side: int) -> dict[str, Any]:
    """What a match keeps of a hand: whether and how it ended, and A's margin."""
    return {
        "completed": stats.completed,
        "ended_by": stats.ended_by.split(":")[0],
        "conserved": stats.conserved,
        "margin": _margin(stats.points, a_side) if stats.completed else 0,
    }


def deal_job(args: tuple[MatchSpec, int]) -> dict[str, Any]:
    """Deal ``index`` played in both seatings: for each, whether it ended by a rule, how,
    and A's margin (A's side's points minus B's)."""
    spec, index = args
    ruleset = _ruleset(spec)
    seed = derive_seed(spec.seed, index)
    hands = []
    for a_side in SEATINGS:
        stats, _ = play_hand(
            ruleset,
            spec.players,
            seed,
            spec.seats(a_side),
            first=index % spec.players,
            check=spec.check,
            index=index,
        )
        hands.append(_hand_row(stats, a_side))
    return {"hands": hands, "games": []}


def game_job(args: tuple[MatchSpec, int]) -> dict[str, Any]:
    """Game ``index`` played to its end in both seatings."""
    spec, index = args
    ruleset = _ruleset(spec)
    hands, games = [], []
    for a_side in SEATINGS:
        played, game, _ = play_game(
            ruleset,
            spec.players,
            derive_seed(spec.seed, index),
            spec.seats(a_side),
            check=spec.check,
        )
        hands += [_hand_row(stats, a_side) for stats in played]
        winner = game["winner"]
        games.append(
            {
                "over": game["over"],
                "won": None if winner is None else winner == a_side,
                "draw": game["draw"],
                "capped": game["over"] and not _reached_target(ruleset, spec.players, game),
                "stopped": game["stopped"],
                "hands": game["hands"],
                "margin": _margin(game["scores"], a_side),
            }
        )
    return {"hands": hands, "games": games}


def _reached_target(ruleset: Ruleset, players: int, game: dict[str, Any]) -> bool:
    """Whether a game that is over ended by the target (else the cap on hands ended it)."""
    scores = game["scores"]
    best = max(scores)
    alone = scores.count(best) == 1
    return best >= target_for(ruleset, players) and (alone or ruleset.rules.game.ties == "draw")


def _jobs(spec: MatchSpec) -> Iterator[tuple[MatchSpec, int]]:
    return ((spec, index) for index in range(spec.games or spec.deals))


def job_results(spec: MatchSpec, workers: int = 1) -> Iterator[dict[str, Any]]:
    """Every job's result, in the order of the jobs, as the workers finish them."""
    job = game_job if spec.games else deal_job
    if workers <= 1:
        _ruleset(spec)
        yield from map(job, _jobs(spec))
        return
    yield from pooled(job, _jobs(spec), spec.games or spec.deals, workers)


def _outcome(margin: int) -> str:
    return "won" if margin > 0 else "lost" if margin < 0 else "tied"


def _pair(first: str, second: str) -> str:
    """What a deal (or game) played in both seatings gave A."""
    if first == second == "won":
        return "both_won"
    if first == second == "lost":
        return "both_lost"
    if {first, second} == {"won", "lost"}:
        return "split"
    return "with_a_tie"


class MatchTally:
    """Running integer totals of a match's results (no result is kept)."""

    def __init__(self, spec: MatchSpec) -> None:
        self.spec = spec
        self.hands: Counter[str] = Counter()  # A's outcomes over the hands that ended
        self.ended: Counter[str] = Counter()
        self.hands_played = self.not_by_rule = self.conservation_failures = 0
        self.units = 0  # deals (or games) played in both seatings
        self.pairs: Counter[str] = Counter()  # over the units whose two plays both ended
        # over those units: the sum of A's two margins, and of its square
        self.margin_sum = self.margin_squares = 0
        # over every unit: the hands A won and the hands that ended, as the sums of a share
        # with the unit as the unit need them (statistics.clustered_share)
        self.won_squares = self.won_ended = self.ended_squares = 0
        self.games: Counter[str] = Counter()
        self.game_hands = 0

    def add(self, result: dict[str, Any]) -> None:
        self.units += 1
        done = [hand for hand in result["hands"] if hand["completed"]]
        won = sum(1 for hand in done if hand["margin"] > 0)
        self.won_squares += won * won
        self.won_ended += won * len(done)
        self.ended_squares += len(done) * len(done)
        for hand in result["hands"]:
            self.hands_played += 1
            self.ended[hand["ended_by"]] += 1
            self.not_by_rule += hand["ended_by"] not in RULE_ENDINGS
            self.conservation_failures += not hand["conserved"]
            if hand["completed"]:
                self.hands[_outcome(hand["margin"])] += 1
        if result["games"]:
            plays = result["games"]
            for game in plays:
                self.game_hands += game["hands"]
                self.games["played"] += 1
                self.games["draws"] += game["draw"]
                self.games["capped"] += game["capped"]
                if game["stopped"]:
                    self.games[f"stopped_{game['stopped']}"] += 1
                elif game["won"] is not None:
                    self.games["won" if game["won"] else "lost"] += 1
            ended = all(game["over"] for game in plays)
            outcomes = [
                "won" if g["won"] else "lost" if g["won"] is False else "tied" for g in plays
            ]
        else:
            plays = result["hands"]
            ended = all(hand["completed"] for hand in plays)
            outcomes = [_outcome(hand["margin"]) for hand in plays]
        if ended:
            self.pairs[_pair(*outcomes)] += 1
            margin = sum(play["margin"] for play in plays)
            self.margin_sum += margin
            self.margin_squares += margin * margin

    def summary(self) -> dict[str, Any]:
        """The match's counts and sums, in a fixed order."""
        spec = self.spec
        paired = sum(self.pairs.values())
        seats = seat_sides(spec.players)
        out: dict[str, Any] = {
            "ruleset": spec.ruleset,
            "players": spec.players,
            "bots": {"a": spec.bot_a, "b": spec.bot_b},
            "seed": spec.seed,
            "check": spec.check,
            "seatings": [{"a": list(seats[side]), "b": list(seats[1 - side])} for side in SEATINGS],
            "unit": "game" if spec.games else "deal",
            "units": self.units,
            "hands_played": self.hands_played,
            "hands": {key: self.hands.get(key, 0) for key in ("won", "lost", "tied")},
            "ended_by": dict(sorted(self.ended.items())),
            "not_ended_by_a_rule": self.not_by_rule,
            "conservation_failures": self.conservation_failures,
            "pairs": {
                key: self.pairs.get(key, 0)
                for key in ("both_won", "split", "both_lost", "with_a_tie")
            },
            "paired_units": paired,
            "sums": {
                "margin": self.margin_sum,
                "margin_squares": self.margin_squares,
                "won_squares": self.won_squares,
                "won_ended": self.won_ended,
                "ended_squares": self.ended_squares,
            },
        }
        if spec.games:
            out["games"] = {
                key: self.games.get(key, 0)
                for key in (
                    "played",
                    "won",
                    "lost",
                    "draws",
                    "capped",
                    "stopped_hand_limit",
                    "stopped_hand_not_ended",
                )
            }
            out["game_hands"] = self.game_hands
        return out


def play_match(
    spec: MatchSpec, workers: int = 1, progress: Callable[[int], None] | None = None
) -> dict[str, Any]:
    """Play the match; its counts (:meth:`MatchTally.summary`)."""
    tally = MatchTally(spec)
    for result in job_results(spec, workers):
        tally.add(result)
        if progress:
            progress(1)
    return tally.summary()
