"""The store of a sweep's finished chunks: one SQLite file.

It uses the standard library's sqlite3. A chunk is kept under its key, made of:

- The resolved ruleset's digest. Equal rules give an equal digest, whatever the file or id.
- The bots, one per seat.
- The number of players, hands or games.
- The seed, and the card-conservation check.
- The first deal and the number of deals.
- The toolkit's version, since another engine may play other hands.

Each chunk is written in its own transaction as soon as it is finished. So a sweep stopped in
any way (Ctrl-C, a kill, a lost worker) keeps every chunk it finished. A sweep run again,
extended with more deals or more values, plays only what the store does not hold. The file
holds the rulesets' names and settings too, for ``bolivia sweep --status``.

The default store is ``$XDG_CACHE_HOME/bolivia/sweeps.sqlite``, or ``~/.cache/...`` when that
is not set. ``--store FILE`` names another.
"""

from __future__ import annotations

import json
import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bolivia.output import OutputError, prepare_folder
from bolivia.sweeps.jobs import Job
from bolivia.version import __version__

__all__ = ["SCHEMA_VERSION", "Store", "StoreError", "Stored", "default_store"]

SCHEMA_VERSION = 1
_SCHEMA = """
CREATE TABLE IF NOT EXISTS chunks (
    digest TEXT NOT NULL, bots TEXT NOT NULL, players INTEGER NOT NULL,
    mode TEXT NOT NULL, seed INTEGER NOT NULL, check_mode TEXT NOT NULL,
    first INTEGER NOT NULL, count INTEGER NOT NULL, engine TEXT NOT NULL,
    records TEXT NOT NULL, seconds REAL NOT NULL,
    PRIMARY KEY (digest, bots, players, mode, seed, check_mode, first, count, engine)
);
CREATE TABLE IF NOT EXISTS rulesets (
    digest TEXT PRIMARY KEY, id TEXT NOT NULL, label TEXT NOT NULL
);
"""


class StoreError(OutputError):
    """A store that cannot be opened, read or written: names the file and the reason."""


def default_store() -> Path:
    """Where sweeps keep their results unless told otherwise."""
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(cache) / "bolivia" / "sweeps.sqlite"


def _key(job: Job) -> tuple[Any, ...]:
    return (
        job.ruleset.digest,
        ",".join(job.bots),
        job.players,
        "games" if job.games else "hands",
        job.seed,
        job.check,
        job.first,
        job.count,
        __version__,
    )


@dataclass(frozen=True)
class Stored:
    """What the store holds for one ruleset, bots, players, mode and seed."""

    ruleset: str
    label: str
    bots: str
    players: int
    mode: str
    seed: int
    check: str
    deals: int
    chunks: int
    seconds: float
    engine: str


class Store:
    """The SQLite file of finished chunks."""

    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            prepare_folder(path.parent)
            self.db = sqlite3.connect(path, timeout=30)
            with self.db:
                self.db.executescript(_SCHEMA)
                found = self.db.execute("PRAGMA user_version").fetchone()[0]
                if found == 0:
                    self.db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
                elif found != SCHEMA_VERSION:
                    raise StoreError(
                        f"{path} is a sweep store of another version ({found}, not "
                        f"{SCHEMA_VERSION}): give another --store"
                    )
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"cannot use {path} as a sweep store: {exc}") from None

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def get(self, job: Job) -> list[list[int]] | None:
        """The job's records if the store holds them."""
        try:
            row = self.db.execute(
                "SELECT records FROM chunks WHERE digest=? AND bots=? AND players=? AND mode=?"
                " AND seed=? AND check_mode=? AND first=? AND count=? AND engine=?",
                _key(job),
            ).fetchone()
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"cannot read the sweep store {self.path}: {exc}") from None
        if row is None:
            return None
        records: list[list[int]] = json.loads(row[0])
        if len(records) != job.count:
            raise StoreError(f"{self.path}: a chunk holds {len(records)} deals, not {job.count}")
        return records

    def put(self, job: Job, records: list[list[int]], seconds: float, label: str) -> None:
        """Keep a finished chunk: one transaction, so it is kept whole or not at all."""
        try:
            with self.db:
                self.db.execute(
                    "INSERT OR REPLACE INTO chunks VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                    (*_key(job), json.dumps(records, separators=(",", ":")), seconds),
                )
                self.db.execute(
                    "INSERT OR IGNORE INTO rulesets VALUES (?,?,?)",
                    (job.ruleset.digest, job.ruleset.id, label),
                )
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"cannot write the sweep store {self.path}: {exc}") from None

    def status(self) -> list[Stored]:
        """What the store holds, by ruleset, bots, players, mode, seed, check and engine:
        the number of different deals (chunks of other lengths may overlap)."""
        try:
            rows = self.db.execute(
                "SELECT c.digest, COALESCE(r.id, ''), COALESCE(r.label, ''), c.bots, c.players,"
                " c.mode, c.seed, c.check_mode, c.engine, c.first, c.count, c.seconds"
                " FROM chunks c LEFT JOIN rulesets r ON r.digest = c.digest"
            ).fetchall()
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"cannot read the sweep store {self.path}: {exc}") from None
        groups: dict[tuple[Any, ...], list[tuple[int, int, float]]] = {}
        for *head, first, count, seconds in rows:
            groups.setdefault(tuple(head), []).append((first, count, seconds))
        out = []
        for head, parts in groups.items():
            digest, rid, label, bots, players, mode, seed, check, engine = head
            deals: set[int] = set()
            for first, count, _ in parts:
                deals.update(range(first, first + count))
            out.append(
                Stored(
                    rid or digest[:12],
                    label,
                    bots,
                    players,
                    mode,
                    seed,
                    check,
                    len(deals),
                    len(parts),
                    round(sum(s for _, _, s in parts), 1),
                    engine,
                )
            )
        return sorted(out, key=lambda s: (s.ruleset, s.label, s.bots, s.mode, s.seed, s.check))
