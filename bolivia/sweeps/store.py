"""The store of a sweep's finished chunks: one SQLite file.

It uses the standard library's sqlite3. A chunk is kept under its key, made of:

- The resolved ruleset's digest. Equal rules give an equal digest, whatever the file or id.
- The bots, one per seat.
- The number of players, hands or games.
- The seed, and the card-conservation check.
- The first deal and the number of deals.
- The engine's fingerprint: the toolkit's version and a digest of the code that plays
  (:func:`engine_fingerprint`), since another engine may play other hands.

Each chunk is written in its own transaction as soon as it is finished. So a sweep stopped in
any way (Ctrl-C, a kill, a lost worker) keeps every chunk it finished. A sweep run again,
extended with more deals or more values, plays only what the store does not hold. The file
holds the rulesets' names and settings too, for ``bolivia sweep --status``.

A row that does not read as the chunk it should be (damaged JSON, the wrong number of deals or
fields, a value out of its range) is not used: :meth:`Store.get` counts it in
:attr:`Store.damaged` and the chunk is played again, replacing it. A store another sweep is
writing is waited for a few seconds, then refused by name; so is a store that cannot be
written, before anything is played.

The default store is ``$XDG_CACHE_HOME/bolivia/sweeps.sqlite``, or ``~/.cache/...`` when that
is not set. ``--store FILE`` names another.
"""

from __future__ import annotations

import functools
import hashlib
import json
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bolivia.output import OutputError, prepare_folder
from bolivia.resources import cache_dir
from bolivia.sweeps.jobs import CANASTA_KINDS, HAND_FIELDS, Job
from bolivia.version import __version__

__all__ = [
    "SCHEMA_VERSION",
    "Store",
    "StoreError",
    "Stored",
    "default_store",
    "engine_fingerprint",
    "valid_records",
]

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

# a ruleset's latest name: the id and the values in words the last sweep of it gave
_NAME = (
    "INSERT INTO rulesets VALUES (?,?,?)"
    " ON CONFLICT(digest) DO UPDATE SET id = excluded.id, label = excluded.label"
)

LOCK_WAIT = 5.0  # seconds a store another sweep is writing is waited for
# the parts of the package whose code decides what a deal plays as
_PLAYING = ("cards.py", "kept.py", "values.py", "engine", "play", "rules")
# a bound on any number of a record: points, turns and counts are far below it
_MAX_VALUE = 10**9


class StoreError(OutputError):
    """A store that cannot be opened, read or written: names the file and the reason."""


@functools.cache
def engine_fingerprint() -> str:
    """The version and a digest of the code that plays, as the store keys chunks.

    Chunks played by other code are not reused, even under the same version number. The
    sources are read as installed; a compiled build ships them beside its modules.
    """
    root = Path(__file__).resolve().parents[1]  # the package
    files = sorted(
        path
        for part in _PLAYING
        for path in ([root / part] if part.endswith(".py") else (root / part).rglob("*.py"))
    )
    digest = hashlib.sha256()
    for path in files:
        digest.update(path.relative_to(root).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return f"{__version__}+{digest.hexdigest()[:16]}"


def _bounds(job: Job) -> list[tuple[int, int]]:
    """Each field's range in one of the job's records (see :mod:`bolivia.sweeps.jobs`)."""
    teams = job.ruleset.rules.players.seats[job.players].teams
    flag, count, points = (0, 1), (0, _MAX_VALUE), (-_MAX_VALUE, _MAX_VALUE)
    if not job.games:
        head = [(1, 1), flag, flag, count, flag, flag]
        return head + [points] * teams + [count] * len(CANASTA_KINDS)
    sums = [count] * len(HAND_FIELDS) + [points] * teams + [count] * len(CANASTA_KINDS)
    return [flag, (-1, teams - 1), flag, *sums]


def valid_records(job: Job, records: Any) -> bool:
    """Whether ``records`` (read from JSON) are the job's: one list of whole numbers per
    deal, each field within its range."""
    bounds = _bounds(job)
    if not isinstance(records, list) or len(records) != job.count:
        return False
    return all(
        isinstance(record, list)
        and len(record) == len(bounds)
        and all(
            type(value) is int and low <= value <= high
            for value, (low, high) in zip(record, bounds, strict=True)
        )
        for record in records
    )


def _locked(exc: sqlite3.Error) -> bool:
    return "locked" in str(exc) or "busy" in str(exc)


def default_store() -> Path:
    """Where sweeps keep their results unless told otherwise."""
    return cache_dir() / "sweeps.sqlite"


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
        engine_fingerprint(),
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

    def __init__(self, path: Path, *, write: bool = True) -> None:
        """Open (or make) the store; ``write``: refuse now a store that cannot be written."""
        self.path = path
        self.damaged = 0  # rows read that were not the chunk they should be
        try:
            prepare_folder(path.parent)
            self.db = sqlite3.connect(path, timeout=LOCK_WAIT)
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
            if write:
                self._probe()
        except sqlite3.DatabaseError as exc:
            raise self._error("cannot use", exc) from None

    def _probe(self) -> None:
        """Fail now if the store cannot be written: before any deal is played for it."""
        try:
            self.db.execute("UPDATE rulesets SET label = label WHERE 0")
        finally:
            self.db.rollback()

    def _error(self, doing: str, exc: sqlite3.Error) -> StoreError:
        if _locked(exc):
            return StoreError(
                f"the sweep store {self.path} is in use by another sweep (still locked after "
                f"{LOCK_WAIT:g} s): wait for it to finish, or give another --store"
            )
        return StoreError(f"{doing} {self.path} as a sweep store: {exc}")

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
            raise self._error("cannot read", exc) from None
        if row is None:
            return None
        try:
            records = json.loads(row[0]) if isinstance(row[0], str) else None
        except (ValueError, RecursionError):
            records = None
        if not valid_records(job, records):
            self.damaged += 1  # played again, and replaced
            return None
        return records

    def put(self, job: Job, records: list[list[int]], seconds: float, label: str) -> None:
        """Keep a finished chunk: one transaction, so it is kept whole or not at all."""
        try:
            with self.db:
                self.db.execute(
                    "INSERT OR REPLACE INTO chunks VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                    (*_key(job), json.dumps(records, separators=(",", ":")), seconds),
                )
                self.db.execute(_NAME, (job.ruleset.digest, job.ruleset.id, label))
        except sqlite3.DatabaseError as exc:
            raise self._error("cannot write", exc) from None

    def name(self, names: dict[str, tuple[str, str]]) -> None:
        """Name the rulesets of a sweep by digest (``{digest: (id, label)}``), in place of
        the names an earlier sweep gave the same rules, for ``--status``. The chunks are
        keyed by the rules alone, so a new name never mixes other rules' deals in."""
        try:
            with self.db:
                self.db.executemany(
                    _NAME, [(digest, rid, label) for digest, (rid, label) in names.items()]
                )
        except sqlite3.DatabaseError as exc:
            raise self._error("cannot write", exc) from None

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
            raise self._error("cannot read", exc) from None
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
