"""Running a sweep: the jobs of every combination, those the store does not hold run by a
backend and stored one by one as they finish, then every combination's records read back
from the store in the order of the deals.

Combinations whose rules resolve alike (the same digest) share their jobs, and a job the
store holds is never run again, so extending a sweep (more deals, more values) plays only what
is new. A stopped sweep (Ctrl-C, an error, a kill) keeps every chunk it finished.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bolivia.rules.ruleset import Ruleset
from bolivia.sweeps.backends import run_jobs
from bolivia.sweeps.grid import Axis, Variant
from bolivia.sweeps.jobs import CHUNK_GAMES, CHUNK_HANDS, Job, chunks
from bolivia.sweeps.store import Store
from bolivia.sweeps.words import combination_words

__all__ = ["Plan", "SweepSpec", "plan", "run_sweep"]


@dataclass(frozen=True)
class SweepSpec:
    """What a sweep plays: the base, the grid and its combinations, the bots (one per
    seat), the number of players, hands or games, how many deals, the seed, the check."""

    base: Ruleset
    axes: tuple[Axis, ...]
    variants: tuple[Variant, ...]
    bots: tuple[str, ...]
    players: int
    games: bool
    deals: int
    seed: int
    check: str = "sampled"
    chunk: int = 0  # deals in a job; 0: CHUNK_GAMES or CHUNK_HANDS

    @property
    def chunk_size(self) -> int:
        return self.chunk or (CHUNK_GAMES if self.games else CHUNK_HANDS)

    @property
    def base_index(self) -> int:
        return next(i for i, v in enumerate(self.variants) if v.is_base)

    @property
    def teams(self) -> int:
        return self.base.rules.players.seats[self.players].teams

    def jobs(self, variant: Variant) -> list[Job]:
        return [
            Job(
                variant.ruleset,
                self.bots,
                self.players,
                self.games,
                self.seed,
                self.check,
                first,
                count,
            )
            for first, count in chunks(self.deals, self.chunk_size)
        ]


@dataclass(frozen=True)
class Plan:
    """The jobs to run (each once, whatever combinations share it) and what is stored."""

    pending: tuple[Job, ...]
    stored_deals: tuple[int, ...]  # per combination, the deals the store holds already


def _key(job: Job) -> tuple[Any, ...]:
    return (job.ruleset.digest, job.first, job.count)


def plan(spec: SweepSpec, store: Store) -> Plan:
    pending: dict[tuple[Any, ...], Job] = {}
    stored = []
    for variant in spec.variants:
        held = 0
        for job in spec.jobs(variant):
            if store.get(job) is not None:
                held += job.count
            else:
                pending.setdefault(_key(job), job)
        stored.append(held)
    return Plan(tuple(pending.values()), tuple(stored))


def run_sweep(
    spec: SweepSpec,
    store: Store,
    *,
    workers: int = 1,
    cluster: Any = None,
    progress: Callable[[Job, float], None] | None = None,
) -> list[list[list[int]]]:
    """Run what the store lacks and store it chunk by chunk; every combination's records,
    read back from the store in the order of the deals (the same bytes whatever ran them)."""
    fields = [axis.field for axis in spec.axes]
    labels = {
        v.ruleset.digest: combination_words(fields, v.resolved, named=True) for v in spec.variants
    }
    store.name({v.ruleset.digest: (v.ruleset.id, labels[v.ruleset.digest]) for v in spec.variants})
    todo = plan(spec, store)
    for job, records, seconds in run_jobs(todo.pending, workers, cluster):
        store.put(job, records, seconds, labels[job.ruleset.digest])
        if progress:
            progress(job, seconds)
    return [read_back(spec, store, v) for v in spec.variants]


def read_back(spec: SweepSpec, store: Store, variant: Variant) -> list[list[int]]:
    out: list[list[int]] = []
    for job in spec.jobs(variant):
        records = store.get(job)
        if records is None:  # a job the backend did not hand back: a bug, never hidden
            raise RuntimeError(f"the store lacks deals {job.first}.. of {variant.ruleset.id}")
        out += records
    return out
