"""Values worked out from objects that never change, kept by the objects' identity.

The play code reads the same facts of the same melds in state after state (a run's
placements, the cards that may join it, what a few cards grow it into); a meld is never
changed, only replaced, so what was read from it stays true while it lives. Each entry holds
its object, so the object's ``id`` cannot be reused by another while the entry is there, and
a lookup answers only for the very object it was kept for. The entries are bounded: past
``bound`` they are all cleared.

>>> kept: Kept[int, str] = Kept(bound=2)
>>> owner = object()
>>> kept.find(id(owner), owner) is None
True
>>> kept.keep(id(owner), owner, "read")
'read'
>>> kept.find(id(owner), owner)[1]
'read'
>>> kept.find(id(owner), object()) is None  # the same key for another object: not its entry
True
>>> for n in range(5):
...     _ = kept.keep(n, owner, str(n))
>>> sorted(kept.entries)  # cleared when past the bound, then kept again
[2, 3, 4]
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Generic, TypeVar

__all__ = ["Kept"]

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Kept(Generic[K, V]):
    """At most ``bound`` values, each kept under a key with the object it was read from."""

    def __init__(self, bound: int) -> None:
        self.bound = bound
        self.entries: dict[K, tuple[object, V]] = {}

    def find(self, key: K, owner: object) -> tuple[object, V] | None:
        """The entry ``(owner, value)`` kept under ``key`` for this very ``owner``, or None
        (an entry, not the value: a value may itself be None)."""
        entry = self.entries.get(key)
        if entry is not None and entry[0] is owner:
            return entry
        return None

    def keep(self, key: K, owner: object, value: V) -> V:
        """``value`` kept under ``key`` for ``owner`` (all entries cleared first when there are
        more than the bound); returned."""
        if len(self.entries) > self.bound:
            self.entries.clear()
        self.entries[key] = (owner, value)
        return value

    def clear(self) -> None:
        self.entries.clear()
