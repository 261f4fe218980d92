"""The quick bounds of the search for a way out, native (``_bounds.c``): the compiled build's;
the pure build has none and runs the Python of :mod:`bolivia.play.table.bounds`, which gives
the same answers."""

from collections.abc import Callable, Sequence

from bolivia.engine.limits import Limits
from bolivia.engine.melds import Meld

class Bounds:
    """:func:`~bolivia.play.table.bounds.could_meet` and
    :func:`~bolivia.play.table.bounds.stranded` over a ruleset's limits."""

    def __init__(
        self,
        limits: Limits,
        run_places: Callable[[Meld], tuple[tuple[int, int, int], ...]],
        rank_index: dict[str, int],
        suit_index: dict[str, int],
    ) -> None: ...
    def could_meet(self, counts: list[int], table: Sequence[Meld], players: int) -> bool: ...
    def stranded(self, counts: list[int], table: Sequence[Meld]) -> list[int]: ...
    def state(
        self, counts: list[int], table: Sequence[Meld]
    ) -> tuple[list[int], tuple[int, ...]]: ...
