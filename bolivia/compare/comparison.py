"""The comparison's records: what :mod:`findings` builds and the report's modules read.

They live below both :mod:`findings` and :mod:`summary`, which each need them, so that
neither imports the other to name them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bolivia.compare.paired import HouseCheck, PairedFigure
from bolivia.compare.playing import BOTS, GameStats, PlayStats
from bolivia.compare.witnesses import Finding, Witness
from bolivia.language import Said
from bolivia.play.batch.seeds import REPORT_SEED
from bolivia.rules.ruleset import Ruleset
from bolivia.rules.sources import Sources
from bolivia.version import __version__

__all__ = [
    "Comparison",
    "Disagreement",
    "Effect",
    "GalleryEntry",
    "Play",
    "RuleRow",
    "Sizing",
]


@dataclass(frozen=True)
class Effect:
    """What one rule difference changes in points, and how that was measured.

    ``basis`` says how, in words. ``scoring`` is set when the rule only changes what a hand
    scores. ``alone`` is set when the points were measured with only this rule changed, not
    shared with the other rules on which the same rulesets differ.
    """

    points: float
    basis: Said
    scoring: bool
    alone: bool = False
    basis_play: bool = False  # the points are a pair's paired difference in play


@dataclass
class RuleRow:
    """One rule side by side: its value, standing and claims per ruleset."""

    path: str
    area: str
    values: dict[str, str]  # ruleset id -> value as text
    status: dict[str, str]  # ruleset id -> stated | assumed | house
    claims: dict[str, list[str]]
    differs: bool


@dataclass
class GalleryEntry:
    """One end-of-hand position of the gallery, scored under each ruleset."""

    name: Said
    about: Said
    request: dict[str, Any]
    results: dict[str, Any]  # ruleset id -> list of team breakdowns, or {"error": ...}
    differs: bool


@dataclass
class Disagreement:
    """A rule on which the sources give different values."""

    path: str
    values: list[tuple[str, list[str]]]  # value text, claims saying it
    holders: dict[str, list[str]] = field(default_factory=dict)  # value text -> ruleset ids


@dataclass(frozen=True)
class Sizing:
    """How many deals and games were played, and why.

    ``precision``: the half-width wanted for the corrected interval of a pair's difference,
      in points a hand. None for a fixed number.
    ``bounds``: the fewest and most deals it may choose.
    ``bound_hit``: whether the number it wanted lay outside them. ``wanted`` is that number.
    """

    deals: int
    games: int
    precision: float | None = None
    bounds: tuple[int, int] = (0, 0)
    bound_hit: bool = False
    wanted: int = 0


@dataclass
class Play:
    """The play section's data: per bot and column its figures, the games to the target, the
    paired differences (one corrected family) and, for a house ruleset and its base, the check
    of whether the deals were played alike."""

    sizing: Sizing
    columns: list[str]  # the first ruleset id of each column
    stats: list[PlayStats]
    games: list[GameStats]
    paired: list[PairedFigure]
    house: list[HouseCheck]
    bots: tuple[str, ...] = BOTS  # the deals' bots, as named (with their budgets), in order


@dataclass
class Comparison:
    """Everything the report says about the rulesets compared."""

    rulesets: list[Ruleset]
    seed: int
    hands: int
    rows: list[RuleRow]
    witnesses: list[Witness]
    findings: list[Finding]
    gallery: list[GalleryEntry]
    play: Play
    disagreements: list[Disagreement]
    silences: list[tuple[str, dict[str, str]]]  # path, ruleset id -> reason
    sources: Sources
    version: str = __version__
    base: str | None = None  # set when a house ruleset is compared with its base
    # what each differing rule changes (summary.measured_effects; paired results may replace
    # it) and, per gallery position, the rules that alone change its score
    effects: dict[str, Effect] = field(default_factory=dict)
    gallery_rules: dict[Said, list[str]] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def untuned_seed(self) -> bool:
        """Whether the run's seed is :data:`~bolivia.play.batch.seeds.REPORT_SEED`, one no bot
        was tuned or screened on (the report says so)."""
        return self.seed == REPORT_SEED

    @property
    def ids(self) -> list[str]:
        return [r.id for r in self.rulesets]

    def witness(self, key: str | None) -> Witness | None:
        if key is None:
            return None
        return next((w for w in self.witnesses if w.key == key), None)
