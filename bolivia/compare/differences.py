"""Comparing rulesets: which rule values differ, and in which rule areas.

Every leaf of the rule tree belongs to one area (the areas a reader asks about: the melds,
the initial meld, the pile, going out, scoring...). Two rulesets *agree in an area* when every
leaf of that area has the same value in both.

>>> from bolivia.rules.library import shipped_library
>>> library = shipped_library()
>>> differing_areas(library.load("bolivia-zh"), library.load("bolivia-ko"))
[]
>>> differing_areas(library.load("bolivia-da"), library.load("bolivia-da-100"))
['going out bonus']
"""

from __future__ import annotations

import dataclasses
from typing import Any

from bolivia.rules.model import Record
from bolivia.rules.ruleset import Ruleset
from bolivia.rules.tree import leaf_paths

__all__ = [
    "AREAS",
    "area_of",
    "differing_areas",
    "differing_leaves",
    "play_areas",
    "with_value",
]

# area -> the key paths (prefixes) it holds; the first matching prefix decides, so the more
# specific prefixes come first
_PREFIXES: tuple[tuple[str, str], ...] = (
    ("melds.group.wild_onto_canasta", "extending"),
    ("going_out.bonus", "going out bonus"),
    ("going_out.concealed_bonus", "going out bonus"),
    ("going_out.concealed_when", "going out bonus"),
    ("stock.going_out_bonus_when_exhausted", "going out bonus"),
    ("canastas.natural.bonus", "canasta bonuses"),
    ("canastas.mixed.bonus", "canasta bonuses"),
    ("canastas.escalera.bonus", "canasta bonuses"),
    ("canastas.bolivia.bonus", "canasta bonuses"),
    ("canastas.special", "canasta bonuses"),
    ("canastas.natural.name", "names"),
    ("canastas.mixed.name", "names"),
    ("canastas.escalera.name", "names"),
    ("canastas.bolivia.name", "names"),
    ("pile.take_top", "taking the top card"),
    ("red_threes.replaced", "red threes laid out"),
    ("red_threes.replaced_from_pile", "red threes laid out"),
    ("pack", "pack and deal"),
    ("players", "pack and deal"),
    ("deal", "pack and deal"),
    ("melds", "melds"),
    ("canastas", "melds"),
    ("initial_meld", "initial meld"),
    ("pile", "pickup"),
    ("red_threes", "red threes"),
    ("going_out", "going out"),
    ("stock", "end of the stock"),
    ("scoring.card_points", "card points"),
    ("scoring", "scoring"),
    ("game", "game end"),
)
AREAS: tuple[str, ...] = tuple(dict.fromkeys(area for _, area in _PREFIXES))
# the areas whose values only change what a hand scores or when a game ends: two rulesets
# that differ only here rule every move of a hand alike (card points are not among them: they
# decide the initial meld; canasta bonuses are, unless a ruleset counts them toward it)
SCORING_AREAS = frozenset(
    {"going out bonus", "canasta bonuses", "names", "red threes", "scoring", "game end"}
)


def area_of(path: str) -> str:
    """The rule area of a key path."""
    for prefix, area in _PREFIXES:
        if path == prefix or path.startswith(prefix + "."):
            return area
    raise KeyError(path)


def differing_leaves(a: Ruleset, b: Ruleset) -> list[str]:
    """The key paths whose values differ, in the rule tree's order."""
    return [path for path in leaf_paths() if a.value(path) != b.value(path)]


def differing_areas(a: Ruleset, b: Ruleset) -> list[str]:
    """The areas in which the two rulesets do not agree, in :data:`AREAS` order."""
    found = {area_of(path) for path in differing_leaves(a, b)}
    return [area for area in AREAS if area in found]


def play_areas(a: Ruleset, b: Ruleset) -> list[str]:
    """The areas where the two rulesets differ that change which moves of a hand are legal."""
    scoring = set(SCORING_AREAS)
    if a.rules.initial_meld.counts_bonuses or b.rules.initial_meld.counts_bonuses:
        scoring.discard("canasta bonuses")
    return [area for area in differing_areas(a, b) if area not in scoring]


def with_value(ruleset: Ruleset, path: str, other: Ruleset) -> Ruleset:
    """``ruleset`` with the one rule at ``path`` taken from ``other`` (an in-memory variant, to
    see what that rule alone changes)."""
    parts = path.split(".")
    chain: list[Record] = [ruleset.rules]
    for part in parts[:-1]:
        chain.append(getattr(chain[-1], _attr(chain[-1], part)))
    source: Any = other.rules
    for part in parts:
        source = getattr(source, _attr(source, part))
    value: Any = source
    for holder, part in zip(reversed(chain), reversed(parts), strict=True):
        value = holder.model_copy(update={_attr(holder, part): value})
    return dataclasses.replace(ruleset, id=f"{ruleset.id}+{path}", rules=value)


def _attr(record: Any, key: str) -> str:
    for name, info in type(record).model_fields.items():
        if key in (name, info.alias):
            return str(name)
    raise KeyError(key)
