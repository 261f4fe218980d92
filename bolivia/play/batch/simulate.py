"""Simulation: bots play hands or whole games under a ruleset, and the toolkit counts them.

A run is reproducible, in one process or several. Every hand has its own seed, derived from
the run's seed and the hand's number, so a run gives the same hands, the same choices and the
same figures whatever the number of worker processes. The jobs are made one at a time and their
results tallied as they come, so a run of ten million hands needs no more memory than a run of
ten. Replays are written whole, each to its own file, into a folder that holds nothing else
(:func:`prepare_replays`).
"""

from __future__ import annotations

import gc
import os
import random
import re
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bolivia.engine.game_end import GameResult, game_over
from bolivia.engine.melds import canasta_of
from bolivia.errors import BoliviaError
from bolivia.output import OutputError, prepare_folder, temporary_of, write_text
from bolivia.play.batch.replay import hand_lines
from bolivia.play.batch.seeds import derive_seed
from bolivia.play.batch.workers import worker_pool
from bolivia.play.bots.registry import Bot, make_bot
from bolivia.play.table.actions import Action
from bolivia.play.table.hand import Hand
from bolivia.play.table.state import ENDINGS
from bolivia.rules.library import Library, LibrarySpec
from bolivia.rules.ruleset import Ruleset
from bolivia.values import reduce_fields

__all__ = [
    "CHECKS",
    "CHECK_SAMPLE",
    "GAME_HAND_LIMIT",
    "RULE_ENDINGS",
    "STEP_LIMIT",
    "HandStats",
    "RunSpec",
    "Tally",
    "checks_every_action",
    "hand_job",
    "job_results",
    "play_deal",
    "play_game",
    "play_hand",
    "pooled",
    "prepare_replays",
    "run",
    "summarize",
    "worker_pool",
]

CHUNK_LIMIT = 64  # jobs handed to a worker at once
REPLAY_NAME = re.compile(r"(hand-[0-9]{6,}|game-[0-9]{5,})\.jsonl")  # the files a run writes
STEP_LIMIT = 20_000  # a hand this long is an engine bug, reported, never silently cut
GAME_HAND_LIMIT = 1_000  # a game lasts tens of hands; one of a thousand has not ended by its
# rules and will not soon (its sides' scores drifting, say): it is reported as stopped
RULE_ENDINGS = frozenset(ENDINGS)  # how a hand ends by a rule
# the card-conservation check (every card of the pack accounted for, once; the figures kept
# beside the hands in step): after every action; after every action of one hand in
# CHECK_SAMPLE (chosen by the hand's seed, so the same hands whatever the workers) and at the
# deal and the end of every other; at the deal and the end only; never
CHECKS = ("every", "sampled", "end", "none")
CHECK_SAMPLE = 16


def checks_every_action(check: str, seed: int) -> bool:
    """Whether a hand of this seed is checked after every action, by ``check``."""
    if check not in CHECKS:
        raise ValueError(f"check is one of {', '.join(CHECKS)}, not {check!r}")
    return check == "every" or (check == "sampled" and seed % CHECK_SAMPLE == 0)


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


#: the cycle collector's first threshold while a hand is played (Python's default is 700)
FEWER_COLLECTIONS = 20_000


def play_hand(
    ruleset: Ruleset,
    players: int,
    seed: int,
    bots: Sequence[Bot],
    *,
    first: int = 0,
    team_scores: Sequence[int] | None = None,
    check: str = "every",
    record: bool = False,
    index: int = 0,
) -> tuple[HandStats, Hand]:
    """Deal and play one hand to its end, checking the cards as ``check`` says.

    ``check`` is one of :data:`CHECKS`.
    """
    each = checks_every_action(check, seed)
    hand = Hand.deal(ruleset, players, random.Random(seed), first, team_scores)
    choices = random.Random(derive_seed(seed, 1))
    log: list[tuple[int, Action]] = []
    conserved = hand.conserved() if check != "none" else True
    pile_taken: list[int] = []
    # play makes and drops many small lists, tuples and dicts, none in a cycle that lasts: the
    # cycle collector is run less often meanwhile (a pass costs as much as a few actions), as
    # it was after the hand
    was = gc.get_threshold()
    gc.set_threshold(max(was[0], FEWER_COLLECTIONS), was[1], was[2])
    try:
        ended_by, kept = _play_out(
            hand, bots, choices, each and conserved, log if record else None, pile_taken
        )
    finally:
        gc.set_threshold(*was)
    conserved = _counted_at_end(hand, check, each, conserved and kept)
    stats = _hand_stats(hand, index, seed, ended_by, conserved, first, pile_taken)
    if record and stats.completed:
        stats.replay = list(hand_lines(hand, seed, log, [bot.name for bot in bots]))
    return stats, hand


def _counted_at_end(hand: Hand, check: str, each: bool, conserved: bool) -> bool:
    """Whether the cards are conserved, counted at the end if not after every action."""
    if check != "none" and not each and conserved:
        return hand.conserved()
    return conserved


def _hand_stats(
    hand: Hand,
    index: int,
    seed: int,
    ended_by: str,
    conserved: bool,
    first: int,
    pile_taken: list[int],
) -> HandStats:
    """What the hand did; ``ended_by``: what stopped it, if not a rule."""
    completed = hand.over and not ended_by
    canastas: dict[str, int] = {}
    points = [0] * hand.teams
    if completed:
        ended_by = hand.ended_by or ""
        canastas = _canastas(hand)
        points = [score.total for score in hand.result().scores]
    return HandStats(
        index,
        seed,
        ended_by,
        completed,
        hand.steps,
        hand.turns,
        conserved,
        canastas,
        points,
        hand.team_of[first],
        pile_taken,
    )


def _play_out(
    hand: Hand,
    bots: Sequence[Bot],
    choices: random.Random,
    watch: bool,
    log: list[tuple[int, Action]] | None,
    pile_taken: list[int],
) -> tuple[str, bool]:
    """Play the hand out; what stopped it (if not a rule), and whether it conserved.

    With ``watch`` the cards are counted after every action, until one count fails.
    The actions go to ``log``, if any; the pile's size at each take to ``pile_taken``.
    """
    conserved = True
    try:
        while not hand.over:
            if hand.steps >= STEP_LIMIT:
                return "step_limit", conserved
            actions = hand.choices()
            if not actions:
                return "no_legal_action", conserved
            player = hand.current
            action = bots[player].choose(hand, actions, choices)
            if type(action).__name__ == "TakePile":
                pile_taken.append(len(hand.pile))
            hand.apply(action)
            if log is not None:
                log.append((player, action))
            if watch and conserved and not hand.conserved():
                conserved = False
    except BoliviaError as exc:
        return f"engine_error: {exc}", conserved
    return "", conserved


def _canastas(hand: Hand) -> dict[str, int]:
    """The canastas of each kind on the table, in the order first met."""
    canastas: dict[str, int] = {}
    for team in hand.melds:
        for meld in team:
            kind = canasta_of(hand.ruleset, meld)
            if kind is not None:
                canastas[kind] = canastas.get(kind, 0) + 1
    return canastas


@dataclass(frozen=True)
class RunSpec:
    """What to simulate; picklable, so worker processes can rebuild everything from it."""

    ruleset: str
    where: LibrarySpec
    players: int
    bots: tuple[str, ...]
    seed: int
    hands: int = 0
    games: int = 0
    check: str = "sampled"
    replays: str | None = None

    def library(self) -> Library:
        return self.where.open()

    def __reduce__(self) -> tuple[type[Any], tuple[Any, ...]]:
        return reduce_fields(self)


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
    write_text(Path(spec.replays) / name, "".join(line + "\n" for line in lines))


def play_deal(
    ruleset: Ruleset,
    players: int,
    run_seed: int,
    index: int,
    bots: Sequence[Bot],
    *,
    check: str,
    record: bool = False,
) -> HandStats:
    """Hand ``index`` of a run of hands, as simulate and a sweep play it.

    It is dealt from ``derive_seed(run_seed, index)``, seat ``index mod players`` leading.
    """
    stats, _ = play_hand(
        ruleset,
        players,
        derive_seed(run_seed, index),
        bots,
        first=index % players,
        check=check,
        record=record,
        index=index,
    )
    return stats


def hand_job(args: tuple[RunSpec, int]) -> dict[str, Any]:
    spec, index = args
    ruleset, bots = _setup(spec)
    stats = play_deal(
        ruleset,
        spec.players,
        spec.seed,
        index,
        bots,
        check=spec.check,
        record=spec.replays is not None,
    )
    _write_replay(spec, f"hand-{index:06d}.jsonl", stats.replay)
    stats.replay = []
    return {"hands": [stats], "game": None}


def play_game(
    ruleset: Ruleset,
    players: int,
    game_seed: int,
    bots: Sequence[Bot],
    *,
    check: str = "every",
    record: bool = False,
) -> tuple[list[HandStats], dict[str, Any], list[str]]:
    """Play one game to its end; its hands, the game's figures and its replay.

    It stops after :data:`GAME_HAND_LIMIT` hands. Hand ``number`` is dealt from
    ``derive_seed(game_seed, number)``.
    """
    scores = [0] * ruleset.rules.players.seats[players].teams
    hands: list[HandStats] = []
    lines: list[str] = []
    result = None
    for number in range(1, GAME_HAND_LIMIT + 1):
        stats, _hand = play_hand(
            ruleset,
            players,
            derive_seed(game_seed, number),
            bots,
            first=(number - 1) % players,
            team_scores=scores,
            check=check,
            record=record,
            index=len(hands),
        )
        hands.append(stats)
        lines.extend(stats.replay)
        stats.replay = []
        if not stats.completed:
            break
        scores = [a + b for a, b in zip(scores, stats.points, strict=True)]
        result = game_over(ruleset, scores, number, players)
        if result.over:
            break
    return hands, _game_figures(scores, hands, result), lines


def _game_figures(
    scores: list[int], hands: list[HandStats], result: GameResult | None
) -> dict[str, Any]:
    """A game's figures: its scores, its hands, who won, and why it stopped, if it did."""
    over = bool(result and result.over)
    return {
        "scores": scores,
        "hands": len(hands),
        "winner": result.winner if result else None,
        "draw": result.draw if result else False,
        "over": over,
        "stopped": None if over else _stopped(hands),
    }


def _stopped(hands: list[HandStats]) -> str:
    """Why a game did not end by its rules: a hand that did not, or the cap on hands."""
    return "hand_not_ended" if hands and not hands[-1].completed else "hand_limit"


def _game_job(args: tuple[RunSpec, int]) -> dict[str, Any]:
    spec, index = args
    ruleset, bots = _setup(spec)
    hands, game, lines = play_game(
        ruleset,
        spec.players,
        derive_seed(spec.seed, index),
        bots,
        check=spec.check,
        record=spec.replays is not None,
    )
    _write_replay(spec, f"game-{index:05d}.jsonl", lines)
    return {"hands": hands, "game": game}


def _jobs(spec: RunSpec) -> Iterator[tuple[RunSpec, int]]:
    """The run's jobs, one at a time: never a list of every job."""
    return ((spec, index) for index in range(spec.games or spec.hands))


def job_results(spec: RunSpec, workers: int = 1) -> Iterator[dict[str, Any]]:
    """Every job's result, in the order of the jobs, as the workers finish them."""
    job = _game_job if spec.games else hand_job
    if workers <= 1:
        _setup(spec)
        yield from map(job, _jobs(spec))
        return
    yield from pooled(job, _jobs(spec), spec.games or spec.hands, workers)


def pooled(
    job: Callable[[Any], Any], jobs: Iterable[Any], count: int, workers: int
) -> Iterator[Any]:
    """Each of ``count`` jobs run by ``workers`` worker processes, in the order of the jobs."""
    chunk = max(1, min(count // (workers * 8), CHUNK_LIMIT))
    with worker_pool(workers) as pool:
        # imap feeds the workers through a pipe, so the jobs are made as they are taken
        yield from pool.imap(job, jobs, chunksize=chunk)


def prepare_replays(folder: Path) -> int:
    """Make the replay folder, or empty one of an earlier run; the number of files removed.

    A folder may be emptied if it holds only replays (and temporary files) of an earlier run,
    which this run replaces. A folder holding anything else is refused (:class:`OutputError`),
    so that no stale replay stays beside the new ones and nothing else is touched.
    """
    prepare_folder(folder)
    try:
        names = sorted(entry.name for entry in os.scandir(folder))
    except OSError as exc:
        raise OutputError(f"cannot read the folder {folder}: {exc.strerror}") from None
    _refuse_other_files(folder, names)
    try:
        for name in names:
            (folder / name).unlink()
    except OSError as exc:
        raise OutputError(f"cannot remove the old replays in {folder}: {exc.strerror}") from None
    return len(names)


def _refuse_other_files(folder: Path, names: list[str]) -> None:
    """Refuse a replay folder that holds more than replays (:class:`OutputError`)."""
    other = [
        name
        for name in names
        if not REPLAY_NAME.fullmatch(temporary_of(name) or name) or not (folder / name).is_file()
    ]
    if other:
        shown = ", ".join(other[:3]) + (f" and {len(other) - 3} more" if len(other) > 3 else "")
        raise OutputError(
            f"{folder} holds files that are not replays ({shown}): give a new or empty "
            "folder, or one holding only replays (hand-*.jsonl, game-*.jsonl) of an earlier "
            "run, which the run replaces"
        )


def run(
    spec: RunSpec,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
    *,
    ruleset: Ruleset | None = None,
) -> dict[str, Any]:
    """Run the simulation; the summary dict of :func:`summarize`.

    Results are tallied as they come, so a run's memory does not grow with its number of hands
    or games. ``ruleset``: the spec's ruleset, where the caller has loaded it already. The jobs
    run here then use it rather than load it again; workers load their own.
    """
    if spec.replays is not None:
        prepare_replays(Path(spec.replays))
    if ruleset is not None:
        _WORKER["key"], _WORKER["ruleset"] = repr(spec), ruleset
    start = time.perf_counter()
    tally = Tally(spec)
    for result in job_results(spec, workers):
        tally.add(result)
        if progress:
            progress(1)
    return tally.summary(time.perf_counter() - start)


def summarize(spec: RunSpec, results: Sequence[dict[str, Any]], seconds: float) -> dict[str, Any]:
    """The figures of a run from its jobs' results."""
    tally = Tally(spec)
    for result in results:
        tally.add(result)
    return tally.summary(seconds)


def _mean(total: float, count: int) -> float:
    return round(total / count, 3) if count else 0.0


class Tally:
    """Running totals of a run's results, kept without the results themselves.

    What :func:`summarize` reports.
    """

    def __init__(self, spec: RunSpec) -> None:
        self.spec = spec
        self.hands = self.completed = self.actions = self.not_by_rule = 0
        self.teams = self.turns = self.conservation_failures = 0
        self.ended: Counter[str] = Counter()
        self.canastas: Counter[str] = Counter()
        self.points: list[int] = []
        self.pile_taken = self.pile_takes = 0
        self.games = self.games_over = self.draws = self.game_hands = 0
        self.wins: Counter[int] = Counter()
        self.stopped: Counter[str] = Counter()

    def add(self, result: dict[str, Any]) -> None:
        for h in result["hands"]:
            self._hand(h)
        game = result["game"]
        if game is not None:
            self.games += 1
            self.games_over += game["over"]
            self.draws += game["draw"]
            self.game_hands += game["hands"]
            if game["winner"] is not None:
                self.wins[game["winner"]] += 1
            if game["stopped"]:
                self.stopped[game["stopped"]] += 1

    def _hand(self, h: HandStats) -> None:
        self.hands += 1
        self.teams = max(self.teams, len(h.points))
        self.ended[h.ended_by.split(":")[0]] += 1
        self.canastas.update(h.canastas)
        self.actions += h.actions
        self.not_by_rule += h.ended_by not in RULE_ENDINGS
        self.conservation_failures += not h.conserved
        if h.completed:
            self.completed += 1
            self.turns += h.turns
            self.points += [0] * (len(h.points) - len(self.points))
            for team, points in enumerate(h.points):
                self.points[team] += points
            self.pile_taken += sum(h.pile_taken)
            self.pile_takes += len(h.pile_taken)

    def summary(self, seconds: float) -> dict[str, Any]:
        spec, done = self.spec, self.completed
        summary: dict[str, Any] = {
            "ruleset": spec.ruleset,
            "players": spec.players,
            "bots": list(spec.bots),
            "seed": spec.seed,
            "check": spec.check,
            "hands": self.hands,
            "completed": done,
            "ended_by": dict(sorted(self.ended.items())),
            "not_ended_by_a_rule": self.not_by_rule,
            "actions": self.actions,
            "turns_mean": _mean(self.turns, done),
            "conservation_failures": self.conservation_failures,
            "canastas": {
                kind: self.canastas.get(kind, 0)
                for kind in ("natural", "mixed", "escalera", "bolivia")
            },
            "points_mean": [
                _mean(self.points[t] if t < len(self.points) else 0, done)
                for t in range(self.teams)
            ],
            "pile_taken_mean": _mean(self.pile_taken, self.pile_takes),
            "seconds": round(seconds, 3),
            "hands_per_second": round(self.hands / seconds, 1) if seconds else 0.0,
            "actions_per_second": round(self.actions / seconds, 1) if seconds else 0.0,
        }
        if self.games:
            summary["games"] = self.games
            summary["games_over"] = self.games_over
            summary["wins"] = [self.wins.get(t, 0) for t in range(self.teams)]
            summary["draws"] = self.draws
            summary["hands_per_game_mean"] = _mean(self.game_hands, self.games)
            summary["games_stopped"] = dict(sorted(self.stopped.items()))
            if self.stopped["hand_limit"]:
                summary["game_hand_limit"] = GAME_HAND_LIMIT
        return summary


def hand_stats(results: Sequence[dict[str, Any]]) -> Iterator[HandStats]:
    for result in results:
        yield from result["hands"]
