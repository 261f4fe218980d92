"""The report's play, as data: the same deals played under every column of the report (rulesets
with identical rules play once) by four bots of one kind, for each bot asked (by default
:data:`BOTS`: the strongest, the search, and the weaker greedy bot), and whole games to the
target under :data:`GAME_BOT`.

Deal ``i`` is the hand seed ``derive_seed(derive_seed(seed, 31), i)`` with seat ``i mod
players`` first, under every column; game ``i`` is the game seed ``derive_seed(derive_seed(seed,
37), i)``. So the columns are compared on the same deals (paired, :mod:`paired`). The jobs run
in one pool of worker processes and come back in the jobs' order, so the figures are the same,
to the byte, with any number of workers. Each play keeps only what the figures need (and, when
asked, a digest of its actions, to tell whether two rulesets were played alike).
"""

from __future__ import annotations

import contextlib
import hashlib
import threading
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from bolivia.compare.statistics import (
    Estimate,
    clustered_mean_ci,
    count_mean_ci,
    mean_ci,
    proportion_ci,
)
from bolivia.engine.game_end import target_for
from bolivia.play.batch.seeds import derive_seed
from bolivia.play.batch.simulate import CHUNK_LIMIT, play_game, play_hand
from bolivia.play.batch.workers import Workers, worker_pool
from bolivia.play.bots.registry import make_bot
from bolivia.rules.library import LibrarySpec
from bolivia.rules.ruleset import Ruleset
from bolivia.values import reduce_fields

__all__ = [
    "BOTS",
    "GAME_BOT",
    "KINDS",
    "Deal",
    "GamePlayed",
    "GameStats",
    "PlayJob",
    "PlayStats",
    "Runs",
    "Stopped",
    "bot_kind",
    "game_stats",
    "play_stats",
    "run_jobs",
]

#: the report's play under each by default, four of a kind at the table: the ladder's strongest
#: bot (docs/bots.md) and a weaker one, so that a claim says whether it holds under both
BOTS = ("search:playouts=16,width=3", "greedy")
GAME_BOT = "greedy"  # whole games are played under this one
KINDS = ("natural", "mixed", "escalera", "bolivia")
DEAL_STREAM, GAME_STREAM = 31, 37  # derive_seed(seed, stream): the deals', the games' seeds


def bot_kind(bot: str) -> str:
    """A bot's kind, without its budget: ``search`` for ``search:playouts=16,width=3``."""
    return bot.partition(":")[0]


@dataclass(frozen=True)
class PlayJob:
    """One deal (or one game) of one ruleset under one bot; picklable for the workers."""

    ruleset: str  # a shipped id or a file path
    where: LibrarySpec
    players: int
    bot: str
    seed: int  # the run's seed: deals and games derive theirs from it
    index: int
    game: bool = False
    digest: bool = False  # keep a digest of the actions played

    def __reduce__(self) -> tuple[type[Any], tuple[Any, ...]]:
        return reduce_fields(self)


@dataclass(frozen=True)
class Deal:
    """What one hand did, as the figures need it."""

    completed: bool
    conserved: bool
    points: tuple[int, ...]
    first_team: int
    turns: int
    went_out: bool
    canastas: tuple[int, ...]  # per kind of KINDS
    pile_taken: tuple[int, ...]
    actions: str  # a digest of the actions played, or ""

    @property
    def first_points(self) -> int:
        return self.points[self.first_team]

    @property
    def second_points(self) -> int:
        return sum(self.points) - self.first_points

    @property
    def winner(self) -> int | None:
        """The side with the most points, None on a tie."""
        best = max(self.points)
        return self.points.index(best) if self.points.count(best) == 1 else None


@dataclass(frozen=True)
class GamePlayed:
    """What one game to the target did. The first side is the side of seat 0, which begins the
    first hand."""

    over: bool
    winner: int | None
    draw: bool
    capped: bool  # ended by the cap on hands, not by the target
    hands: int


_LOADED: dict[tuple[str, LibrarySpec], Ruleset] = {}


def preload(rulesets: Sequence[Ruleset], where: LibrarySpec) -> None:
    """Keep these rulesets as the jobs naming them and ``where`` play them: a worker's setup,
    so that it plays the rulesets the parent loaded instead of loading them again."""
    for ruleset in rulesets:
        _LOADED[ruleset.id, where] = ruleset


def _ruleset(job: PlayJob) -> Ruleset:
    key = (job.ruleset, job.where)
    if key not in _LOADED:
        _LOADED[key] = job.where.open().load(job.ruleset)
    return _LOADED[key]


def _capped(ruleset: Ruleset, players: int, game: dict[str, Any]) -> bool:
    """Whether a game that is over was ended by the cap on hands rather than by its target."""
    cap = ruleset.rules.game.hand_cap
    if not game["over"] or cap is None or game["hands"] < cap.hands:
        return False
    scores = game["scores"]
    best = max(scores)
    alone = scores.count(best) == 1
    reached = best >= target_for(ruleset, players)
    return not (reached and (alone or ruleset.rules.game.ties == "draw"))


def play_job(job: PlayJob) -> Deal | GamePlayed:
    """Play the job's deal (or game)."""
    ruleset = _ruleset(job)
    bots = [make_bot(job.bot) for _ in range(job.players)]
    if job.game:
        _hands, game, _lines = play_game(
            ruleset,
            job.players,
            derive_seed(derive_seed(job.seed, GAME_STREAM), job.index),
            bots,
            check="end",
        )
        return GamePlayed(
            game["over"],
            game["winner"],
            game["draw"],
            _capped(ruleset, job.players, game),
            game["hands"],
        )
    stats, _hand = play_hand(
        ruleset,
        job.players,
        derive_seed(derive_seed(job.seed, DEAL_STREAM), job.index),
        bots,
        first=job.index % job.players,
        check="sampled",
        record=job.digest,
        index=job.index,
    )
    actions = ""
    if job.digest and stats.replay:
        body = "\n".join(stats.replay[1:-1])  # the actions, without the head and the result
        actions = hashlib.sha256(body.encode()).hexdigest()[:16]
    return Deal(
        stats.completed,
        stats.conserved,
        tuple(stats.points),
        stats.first_team,
        stats.turns,
        stats.ended_by == "went_out",
        tuple(stats.canastas.get(kind, 0) for kind in KINDS),
        tuple(stats.pile_taken),
        actions,
    )


class Stopped(Exception):
    """The play was told to stop: the work it was started beside has failed or was
    interrupted."""


def run_jobs(
    jobs: Sequence[PlayJob],
    workers: int,
    progress: Callable[[int], None] | None = None,
    stop: threading.Event | None = None,
    pool: Workers | None = None,
) -> Iterator[Deal | GamePlayed]:
    """Every job's result, in the jobs' order (whatever the workers), played by ``pool`` (or
    by a pool of ``workers`` made for them). Once ``stop`` is set, the next result raises
    :class:`Stopped` instead."""
    if workers <= 1:
        yield from _relayed(map(play_job, jobs), progress, stop)
        return
    # small chunks: a game can take as long as a hundred deals
    chunk = max(1, min(len(jobs) // (workers * 64), CHUNK_LIMIT))
    with contextlib.ExitStack() as own:
        if pool is None:
            pool = own.enter_context(worker_pool(workers))
        yield from _relayed(pool.imap(play_job, jobs, chunksize=chunk), progress, stop)


def _relayed(
    results: Iterator[Deal | GamePlayed],
    progress: Callable[[int], None] | None,
    stop: threading.Event | None,
) -> Iterator[Deal | GamePlayed]:
    """The results as they come, each told to ``progress``; :class:`Stopped` once ``stop``
    is set."""
    for done in results:
        if stop is not None and stop.is_set():
            raise Stopped
        yield done
        if progress:
            progress(1)


class Runs:
    """The deals and games played, per (bot, ruleset id), under ``bots`` (in their order)."""

    def __init__(self, bots: Sequence[str]) -> None:
        self.bots = tuple(bots)
        self.deals: dict[tuple[str, str], list[Deal]] = {}
        self.games: dict[str, list[GamePlayed]] = {}

    def add(self, job: PlayJob, result: Deal | GamePlayed, column: str) -> None:
        if isinstance(result, GamePlayed):
            self.games.setdefault(column, []).append(result)
        else:
            self.deals.setdefault((job.bot, column), []).append(result)


# --------------------------------------------------------------------------- per column


@dataclass
class PlayStats:
    """One column's figures under one bot, each with its 95% interval."""

    ruleset: str
    bot: str
    hands: int
    completed: int
    conservation_failures: int
    turns: Estimate
    went_out: Estimate
    points_first: Estimate
    points_second: Estimate
    advantage: Estimate
    canastas: dict[str, Estimate]
    pile_taken: Estimate
    turns_histogram: dict[int, int]


def play_stats(ruleset: str, bot: str, deals: Sequence[Deal]) -> PlayStats:
    done = [d for d in deals if d.completed]
    first = [d.first_points for d in done]
    second = [d.second_points for d in done]
    return PlayStats(
        ruleset=ruleset,
        bot=bot,
        hands=len(deals),
        completed=len(done),
        conservation_failures=sum(1 for d in deals if not d.conserved),
        turns=mean_ci([d.turns for d in done], floor=1),
        went_out=proportion_ci(sum(1 for d in done if d.went_out), len(done)),
        points_first=mean_ci(first),
        points_second=mean_ci(second),
        advantage=mean_ci([a - b for a, b in zip(first, second, strict=True)]),
        canastas={
            kind: count_mean_ci([d.canastas[k] for d in done]) for k, kind in enumerate(KINDS)
        },
        # the pick-ups of one deal come together: the deal is the unit of the interval
        pile_taken=clustered_mean_ci([d.pile_taken for d in done], floor=1),
        turns_histogram=dict(sorted(Counter(d.turns for d in done).items())),
    )


@dataclass
class GameStats:
    """One column's games to the target (under :data:`GAME_BOT`)."""

    ruleset: str
    bot: str
    played: int
    over: int
    first_wins: Estimate  # the share of the games over that the first side won
    second_wins: Estimate
    draws: Estimate
    capped: Estimate
    hands: Estimate  # hands per game (games over)
    stopped: int  # games that did not end by their rules


def game_stats(ruleset: str, games: Sequence[GamePlayed]) -> GameStats:
    over = [g for g in games if g.over]
    n = len(over)
    return GameStats(
        ruleset=ruleset,
        bot=GAME_BOT,
        played=len(games),
        over=n,
        first_wins=proportion_ci(sum(1 for g in over if g.winner == 0), n),
        second_wins=proportion_ci(sum(1 for g in over if g.winner == 1), n),
        draws=proportion_ci(sum(1 for g in over if g.draw), n),
        capped=proportion_ci(sum(1 for g in over if g.capped), n),
        hands=mean_ci([g.hands for g in over], floor=1),
        stopped=len(games) - n,
    )
