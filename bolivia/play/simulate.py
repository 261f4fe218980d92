"""Simulation: bots play hands or whole games under a ruleset, reproducibly, in one process or
several, and the toolkit counts what happened.

Every hand has its own seed, derived from the run's seed and the hand's number, so a run gives
the same hands, the same choices and the same figures whatever the number of worker processes.
"""

from __future__ import annotations

import hashlib
import multiprocessing
import random
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bolivia.engine.game_end import game_over
from bolivia.engine.melds import canasta_of
from bolivia.errors import BoliviaError
from bolivia.play.actions import Action
from bolivia.play.bots import Bot, make_bot
from bolivia.play.hand import Hand
from bolivia.play.replay import hand_lines
from bolivia.rules.library import Library
from bolivia.rules.ruleset import Ruleset

__all__ = [
    "GAME_HAND_LIMIT",
    "RULE_ENDINGS",
    "STEP_LIMIT",
    "HandStats",
    "RunSpec",
    "derive_seed",
    "hand_job",
    "play_hand",
    "run",
    "summarize",
]

STEP_LIMIT = 20_000  # a hand this long is an engine bug, reported, never silently cut
GAME_HAND_LIMIT = 10_000  # a game this long never ends by its rules: reported as stopped
RULE_ENDINGS = frozenset({"went_out", "stock_exhausted"})  # how a hand ends by a rule


def derive_seed(seed: int, *path: int) -> int:
    """A seed for a part of a run (a game, a hand), the same on every machine."""
    text = ":".join(str(part) for part in (seed, *path))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


@dataclass
class HandStats:
    """What one hand did."""

    index: int
    seed: int
    ended_by: str
    completed: bool
    actions: int
    turns: int
    conserved: bool
    canastas: dict[str, int]
    points: list[int]
    first_team: int
    pile_taken: list[int] = field(default_factory=list)
    replay: list[str] = field(default_factory=list)


def play_hand(
    ruleset: Ruleset,
    players: int,
    seed: int,
    bots: Sequence[Bot],
    *,
    first: int = 0,
    team_scores: Sequence[int] | None = None,
    check: bool = True,
    record: bool = False,
    index: int = 0,
) -> tuple[HandStats, Hand]:
    """Deal and play one hand to its end."""
    hand = Hand.deal(ruleset, players, random.Random(seed), first, team_scores)
    choices = random.Random(derive_seed(seed, 1))
    log: list[tuple[int, Action]] = []
    conserved = hand.conserved() if check else True
    pile_taken: list[int] = []
    ended_by = ""
    try:
        while not hand.over:
            if hand.steps >= STEP_LIMIT:
                ended_by = "step_limit"
                break
            actions = hand.choices()
            if not actions:
                ended_by = "no_legal_action"
                break
            player = hand.current
            action = bots[player].choose(hand, actions, choices)
            if type(action).__name__ == "TakePile":
                pile_taken.append(len(hand.pile))
            hand.apply(action)
            if record:
                log.append((player, action))
            if check and conserved and not hand.conserved():
                conserved = False
    except BoliviaError as exc:
        ended_by = f"engine_error: {exc}"
    completed = hand.over and not ended_by
    canastas: Counter[str] = Counter()
    points = [0] * hand.teams
    if completed:
        ended_by = hand.ended_by or ""
        for team in hand.melds:
            for meld in team:
                kind = canasta_of(ruleset, meld)
                if kind is not None:
                    canastas[kind] += 1
        points = [score.total for score in hand.result().scores]
    stats = HandStats(
        index,
        seed,
        ended_by,
        completed,
        hand.steps,
        hand.turns,
        conserved,
        dict(canastas),
        points,
        hand.team_of[first],
        pile_taken,
    )
    if record and completed:
        stats.replay = list(hand_lines(hand, seed, log, [bot.name for bot in bots]))
    return stats, hand


@dataclass(frozen=True)
class RunSpec:
    """What to simulate; picklable, so worker processes can rebuild everything from it."""

    ruleset: str
    folders: tuple[str, ...]
    players: int
    bots: tuple[str, ...]
    seed: int
    hands: int = 0
    games: int = 0
    check: bool = True
    replays: str | None = None

    def library(self) -> Library:
        return Library([Path(f) for f in self.folders])


_WORKER: dict[str, Any] = {}


def _setup(spec: RunSpec) -> tuple[Ruleset, list[Bot]]:
    key = repr(spec)
    if _WORKER.get("key") != key:
        _WORKER["key"] = key
        _WORKER["ruleset"] = spec.library().load(spec.ruleset)
    bots = [make_bot(name) for name in spec.bots]
    return _WORKER["ruleset"], bots


def _write_replay(spec: RunSpec, name: str, lines: Sequence[str]) -> None:
    if spec.replays is None or not lines:
        return
    path = Path(spec.replays) / name
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")


def hand_job(args: tuple[RunSpec, int]) -> dict[str, Any]:
    spec, index = args
    ruleset, bots = _setup(spec)
    seed = derive_seed(spec.seed, index)
    stats, _ = play_hand(
        ruleset,
        spec.players,
        seed,
        bots,
        first=index % spec.players,
        check=spec.check,
        record=spec.replays is not None,
        index=index,
    )
    _write_replay(spec, f"hand-{index:06d}.jsonl", stats.replay)
    stats.replay = []
    return {"hands": [stats], "game": None}


def _game_job(args: tuple[RunSpec, int]) -> dict[str, Any]:
    spec, index = args
    ruleset, bots = _setup(spec)
    game_seed = derive_seed(spec.seed, index)
    scores = [0] * ruleset.rules.players.seats[spec.players].teams
    hands: list[HandStats] = []
    lines: list[str] = []
    result = None
    for number in range(1, GAME_HAND_LIMIT + 1):
        stats, _hand = play_hand(
            ruleset,
            spec.players,
            derive_seed(game_seed, number),
            bots,
            first=(number - 1) % spec.players,
            team_scores=scores,
            check=spec.check,
            record=spec.replays is not None,
            index=len(hands),
        )
        hands.append(stats)
        lines.extend(stats.replay)
        stats.replay = []
        if not stats.completed:
            break
        scores = [a + b for a, b in zip(scores, stats.points, strict=True)]
        result = game_over(ruleset, scores, number, spec.players)
        if result.over:
            break
    _write_replay(spec, f"game-{index:05d}.jsonl", lines)
    over = bool(result and result.over)
    game = {
        "scores": scores,
        "hands": len(hands),
        "winner": result.winner if result else None,
        "draw": result.draw if result else False,
        "over": over,
        # why a game did not end by its rules: a hand that did not, or the cap on hands
        "stopped": None
        if over
        else "hand_not_ended"
        if hands and not hands[-1].completed
        else "hand_limit",
    }
    return {"hands": hands, "game": game}


def run(
    spec: RunSpec, workers: int = 1, progress: Callable[[int], None] | None = None
) -> dict[str, Any]:
    """Run the simulation; the summary dict of :func:`summarize`."""
    if spec.replays is not None:
        Path(spec.replays).mkdir(parents=True, exist_ok=True)
    job = _game_job if spec.games else hand_job
    count = spec.games or spec.hands
    jobs = [(spec, index) for index in range(count)]
    start = time.perf_counter()
    results: list[dict[str, Any]] = []
    if workers <= 1:
        _setup(spec)
        for item in jobs:
            results.append(job(item))
            if progress:
                progress(1)
    else:
        context = multiprocessing.get_context("spawn")
        with context.Pool(workers) as pool:
            for done in pool.imap(job, jobs, chunksize=max(1, count // (workers * 8))):
                results.append(done)
                if progress:
                    progress(1)
    seconds = time.perf_counter() - start
    return summarize(spec, results, seconds)


def _mean(values: Sequence[float]) -> float:
    return round(sum(values) / len(values), 3) if values else 0.0


def summarize(spec: RunSpec, results: Sequence[dict[str, Any]], seconds: float) -> dict[str, Any]:
    hands: list[HandStats] = [h for r in results for h in r["hands"]]
    teams = max((len(h.points) for h in hands), default=0)
    ended = Counter(h.ended_by.split(":")[0] for h in hands)
    canastas: Counter[str] = Counter()
    for h in hands:
        canastas.update(h.canastas)
    done = [h for h in hands if h.completed]
    actions = sum(h.actions for h in hands)
    not_by_rule = [h for h in hands if h.ended_by not in RULE_ENDINGS]
    summary: dict[str, Any] = {
        "ruleset": spec.ruleset,
        "players": spec.players,
        "bots": list(spec.bots),
        "seed": spec.seed,
        "hands": len(hands),
        "completed": len(done),
        "ended_by": dict(sorted(ended.items())),
        "not_ended_by_a_rule": len(not_by_rule),
        "actions": actions,
        "turns_mean": _mean([h.turns for h in done]),
        "conservation_failures": sum(1 for h in hands if not h.conserved),
        "canastas": {
            kind: canastas.get(kind, 0) for kind in ("natural", "mixed", "escalera", "bolivia")
        },
        "points_mean": [_mean([h.points[t] for h in done]) for t in range(teams)],
        "pile_taken_mean": _mean([n for h in done for n in h.pile_taken]),
        "seconds": round(seconds, 3),
        "hands_per_second": round(len(hands) / seconds, 1) if seconds else 0.0,
        "actions_per_second": round(actions / seconds, 1) if seconds else 0.0,
    }
    games = [r["game"] for r in results if r["game"] is not None]
    if games:
        wins = Counter(g["winner"] for g in games if g["winner"] is not None)
        summary["games"] = len(games)
        summary["games_over"] = sum(1 for g in games if g["over"])
        summary["wins"] = [wins.get(t, 0) for t in range(teams)]
        summary["draws"] = sum(1 for g in games if g["draw"])
        summary["hands_per_game_mean"] = _mean([g["hands"] for g in games])
        stopped = Counter(g["stopped"] for g in games if g["stopped"])
        summary["games_stopped"] = dict(sorted(stopped.items()))
        if stopped["hand_limit"]:
            summary["game_hand_limit"] = GAME_HAND_LIMIT
    return summary


def hand_stats(results: Sequence[dict[str, Any]]) -> Iterator[HandStats]:
    for result in results:
        yield from result["hands"]
