"""Generated house rulesets for the profile tests and benchmark: one to eight fields of a base
changed to alternatives of :mod:`bolivia.rules.variants`, across every rule area, each change
observable -- with the others in place, taking it back changes an answer the oracle gives to
the base's battery or to a situation of its area (a change that another hides, such as the
size of wild melds when wild melds are not allowed, cannot be seen by any engine's answers)."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from bolivia.compare.differences import area_of
from bolivia.errors import RulesetError
from bolivia.profiles.battery import Battery, tells_apart
from bolivia.rules.ruleset import Ruleset
from bolivia.rules.variants import LEAVES, alternatives, with_values


@dataclass(frozen=True)
class House:
    changes: dict[str, Any]
    ruleset: Ruleset  # under the base's id, to be served in its place


def observable(house: Ruleset, base: Ruleset, changes: dict[str, Any], battery: Battery) -> bool:
    for path in changes:
        rest = {p: v for p, v in changes.items() if p != path}
        try:
            without = with_values(base, rest, f"{base.id}~without")
        except RulesetError:
            return False
        if not tells_apart(battery.predictor, house, without, path, battery.questions):
            return False
    return True


def houses(battery: Battery, count: int, seed: int = 1) -> Iterator[House]:
    """``count`` house rulesets of the battery's base, the i-th changing ``1 + i % 8`` fields,
    the first of them in the areas taken in turn."""
    base = battery.base
    rng = random.Random(seed)
    fields = [p for p in LEAVES if p not in battery.unobservable and alternatives(base, p)]
    areas = sorted({area_of(p) for p in fields})
    for i in range(count):
        size = 1 + i % 8
        first = [p for p in fields if area_of(p) == areas[i % len(areas)]]
        yield first_observable(
            battery, size, lambda f=first, n=size: _drawn(rng, base, f, fields, n), "house ruleset"
        )


def _drawn(rng: random.Random, base: Ruleset, first: list[str], fields: list[str], size: int):
    paths = [rng.choice(first)]
    paths += rng.sample([p for p in fields if p != paths[0]], size - 1)
    return {p: rng.choice(alternatives(base, p)) for p in paths}


def first_observable(
    battery: Battery, size: int, draw: Callable[[], dict[str, Any] | None], what: str
) -> House:
    """The first of 400 drawings of changes that makes a valid house ruleset whose every change
    is observable."""
    base = battery.base
    for _ in range(400):
        changes = draw()
        if changes is None:
            continue
        try:
            house = with_values(base, changes, base.id)
        except RulesetError:
            continue
        if observable(house, base, changes, battery):
            return House({p: changes[p] for p in LEAVES if p in changes}, house)
    raise AssertionError(f"no observable {what} of {size} changes")  # pragma: no cover
