"""The expert's valuation core, native (``_core.c``): the compiled build's; the pure build has
none and runs the Python of :mod:`bolivia.play.bots.tables` and
:mod:`bolivia.play.bots.valuation`, which give the same values bit for bit."""

from collections.abc import Sequence

class View:
    """A table as the valuation reads it (:class:`bolivia.play.bots.tables.TableView`)."""

    @property
    def value(self) -> float: ...

class Parts:
    """The parts of the hand's own value beside the side's table."""

class Shape:
    """The cards in hand as the valuation reads them."""

    @property
    def penalty(self) -> int: ...
    @property
    def by_rank(self) -> list[int]: ...
    @property
    def wilds(self) -> int: ...
    @property
    def masks(self) -> list[int]: ...

class Core:
    """The valuation's core over a :class:`bolivia.play.bots.tables.Tables`' numbers."""

    def __init__(self, tables: object, escalera: int) -> None: ...
    def grown(self, base: View | None, added: Sequence[tuple[str, int, int, int, int]]) -> View: ...
    def replaced(
        self,
        table: Sequence[tuple[str, int, int, int, int]],
        k: int,
        meld: tuple[str, int, int, int, int],
    ) -> View: ...
    def shape_value(
        self, shape: Shape, view: View, kept: Parts | None, ranks: int, suits: int, risk: float
    ) -> float: ...
    def parts(self, shape: Shape, view: View) -> Parts: ...
    def shape(self, counts: Sequence[int]) -> Shape: ...
    def own_shape(
        self, counts: Sequence[int], by_rank: Sequence[int], held: Sequence[int]
    ) -> Shape: ...
    def without(self, shape: Shape, indices: Sequence[int], counts: list[int]) -> Shape: ...
    def discarded(self, shape: Shape, index: int, count: int) -> Shape: ...
    def laying(
        self,
        own: Shape,
        view: View,
        kept: Parts | None,
        counts: list[int],
        melds: Sequence[Sequence[object]],
        risk: float,
    ) -> tuple[float, float]: ...
    def melding(
        self,
        own: Shape,
        table: Sequence[tuple[str, int, int, int, int]],
        target: int,
        cards: Sequence[object],
        counts: list[int],
        kept: Parts | None,
        risk: float,
    ) -> tuple[float, float]: ...
    def discarding(
        self, own: Shape, view: View, kept: Parts | None, index: int, count: int, risk: float
    ) -> float: ...
    def discard_scores(
        self,
        own: Shape,
        view: View,
        kept: Parts | None,
        counts: list[int],
        risk: float,
        indices: Sequence[int],
        ways: Sequence[int],
        unseen: list[int],
        total: int,
        wild: int,
        size: int,
        weight: float,
        pile: Sequence[int],
    ) -> list[float]: ...
    def unseen(
        self, counts: Sequence[int], table: Sequence[int], pile: Sequence[int]
    ) -> tuple[list[int], int, int, float]: ...
    def take_chance(
        self,
        unseen: list[int],
        total: int,
        wild: int,
        index: int,
        size: int,
        pair: bool,
        with_wild: bool,
    ) -> float: ...
