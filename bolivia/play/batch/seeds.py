"""The seeds of a run's parts: one per game and hand, the same on every machine.

A run's seed and a part's place in it (game, hand) give the part's seed through SHA-256, so
a hand plays the same deal whichever worker, process or machine plays it.

>>> derive_seed(0, 1) == derive_seed(0, 1) != derive_seed(0, 2)
True

May import: the standard library and the ground floor.
"""

from __future__ import annotations

import hashlib

__all__ = ["REPORT_SEED", "derive_seed"]

from bolivia.defaults import REPORT_SEED  # every command's default seed (why: there)


def derive_seed(seed: int, *path: int) -> int:
    """A seed for a part of a run (a game, a hand), the same on every machine."""
    text = ":".join(str(part) for part in (seed, *path))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")
