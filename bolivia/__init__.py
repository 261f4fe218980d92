"""bolivia: verify and compare rulebooks of Bolivia (Bolivian Canasta), Samba and Canasta.

Rulesets are data (YAML files resolved into frozen records), every value traced to the source
document that states it; one parameterized engine decides every rule question for every
ruleset.

>>> from bolivia import load_ruleset, Card
>>> load_ruleset("bolivia-zh").rules.melds.group.ratio
'naturals_twice_wilds'
>>> Card.parse("th")
10H

The names below are imported when first used (PEP 562), so that ``import bolivia.cli`` (and
``bolivia --version``) does not build the rule models.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bolivia.cards import JOKER, Card, Pack, parse_cards
    from bolivia.errors import BoliviaError, CardError, Problem, RulesetError, SourceError
    from bolivia.rules.library import Library, load_ruleset, shipped_library
    from bolivia.rules.model import Rules
    from bolivia.rules.ruleset import Ruleset
    from bolivia.rules.sources import Claim, Source, Sources, shipped_sources
    from bolivia.version import __version__

#: each public name and the module that defines it
_HOMES = {
    "JOKER": "bolivia.cards",
    "Card": "bolivia.cards",
    "Pack": "bolivia.cards",
    "parse_cards": "bolivia.cards",
    "BoliviaError": "bolivia.errors",
    "CardError": "bolivia.errors",
    "Problem": "bolivia.errors",
    "RulesetError": "bolivia.errors",
    "SourceError": "bolivia.errors",
    "Library": "bolivia.rules.library",
    "load_ruleset": "bolivia.rules.library",
    "shipped_library": "bolivia.rules.library",
    "Rules": "bolivia.rules.model",
    "Ruleset": "bolivia.rules.ruleset",
    "Claim": "bolivia.rules.sources",
    "Source": "bolivia.rules.sources",
    "Sources": "bolivia.rules.sources",
    "shipped_sources": "bolivia.rules.sources",
    "__version__": "bolivia.version",
}

__all__ = [
    "JOKER",
    "BoliviaError",
    "Card",
    "CardError",
    "Claim",
    "Library",
    "Pack",
    "Problem",
    "Rules",
    "Ruleset",
    "RulesetError",
    "Source",
    "SourceError",
    "Sources",
    "__version__",
    "load_ruleset",
    "parse_cards",
    "shipped_library",
    "shipped_sources",
]


def __getattr__(name: str) -> Any:
    """A public name, imported from its module on first use and kept."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'bolivia' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_HOMES})
