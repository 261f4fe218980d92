"""The jobs of a sweep: chunks of seeded deals played under one ruleset by one set of bots.

Deal ``i`` of a sweep is hand ``i`` (or game ``i``) of ``bolivia simulate`` with the same
seed: hand ``i`` is dealt from ``derive_seed(seed, i)`` with seat ``i mod players`` leading;
game ``i`` deals its hands from ``derive_seed(seed, i)`` as ``simulate --games`` does. So
every value of a sweep plays the same cards (as far as its rules deal the same cards), and a
chunk's result depends on nothing but the job: not on the machine, the backend, the worker or
the order the chunks run in.

A chunk's result is one record per deal, a list of whole numbers (:data:`HAND_FIELDS`, for a
game :data:`GAME_FIELDS` followed by the sums of its hands' records), which the store keeps as
JSON and the measures read.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from bolivia.play.batch.seeds import derive_seed
from bolivia.play.batch.simulate import RULE_ENDINGS, HandStats, play_deal, play_game
from bolivia.play.bots.registry import make_bot
from bolivia.rules.ruleset import Ruleset

__all__ = [
    "CANASTA_KINDS",
    "CHUNK_GAMES",
    "CHUNK_HANDS",
    "GAME_FIELDS",
    "HAND_FIELDS",
    "Job",
    "chunks",
    "hand_record",
    "run_job",
]

CANASTA_KINDS = ("natural", "mixed", "escalera", "bolivia")
# a hand's record: these, then the points of each side, then the canastas of each kind
HAND_FIELDS = ("hands", "completed", "went_out", "turns", "not_by_rule", "not_conserved")
# a game's record: these, then the sums of its hands' records (winner -1: none)
GAME_FIELDS = ("over", "winner", "draw")
CHUNK_HANDS = 100  # deals in a chunk of hands
CHUNK_GAMES = 10  # games in a chunk of games


@dataclass(frozen=True)
class Job:
    """Deals ``first`` to ``first + count - 1`` under ``ruleset``, one bot name per seat."""

    ruleset: Ruleset
    bots: tuple[str, ...]
    players: int
    games: bool
    seed: int
    check: str
    first: int
    count: int

    @property
    def deals(self) -> range:
        return range(self.first, self.first + self.count)


def chunks(total: int, size: int) -> Iterator[tuple[int, int]]:
    """(first, count) of the chunks of ``total`` deals: fixed boundaries, so that a longer
    sweep reuses every whole chunk of a shorter one (a last, shorter chunk is played again
    whole when the sweep grows past it)."""
    for first in range(0, total, size):
        yield first, min(size, total - first)


def hand_record(stats: HandStats, teams: int) -> list[int]:
    """What the measures need of one hand."""
    points = stats.points if stats.completed else [0] * teams
    return [
        1,
        int(stats.completed),
        int(stats.ended_by == "went_out"),
        stats.turns,
        int(stats.ended_by not in RULE_ENDINGS),
        int(not stats.conserved),
        *points,
        *(stats.canastas.get(kind, 0) for kind in CANASTA_KINDS),
    ]


def _sums(records: Sequence[list[int]], width: int) -> list[int]:
    return [sum(column) for column in zip(*records, strict=True)] if records else [0] * width


def run_job(job: Job) -> list[list[int]]:
    """Play the job's deals; one record per deal, in the order of the deals."""
    ruleset = job.ruleset
    teams = ruleset.rules.players.seats[job.players].teams
    width = len(HAND_FIELDS) + teams + len(CANASTA_KINDS)
    out: list[list[int]] = []
    for index in job.deals:
        bots = [make_bot(name) for name in job.bots]
        if job.games:
            seed = derive_seed(job.seed, index)
            hands, game, _lines = play_game(ruleset, job.players, seed, bots, check=job.check)
            winner = game["winner"]
            head = [int(game["over"]), -1 if winner is None else winner, int(game["draw"])]
            out.append(head + _sums([hand_record(h, teams) for h in hands], width))
        else:
            stats = play_deal(ruleset, job.players, job.seed, index, bots, check=job.check)
            out.append(hand_record(stats, teams))
    return out
