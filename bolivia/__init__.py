"""bolivia: verify and compare rulebooks of Bolivia (Bolivian Canasta), Samba and Canasta.

Rulesets are data (YAML files resolved into frozen records), every value traced to the source
document that states it; one parameterized engine decides every rule question for every
ruleset.

>>> from bolivia import load_ruleset, Card
>>> load_ruleset("bolivia-zh").rules.melds.group.ratio
'naturals_twice_wilds'
>>> Card.parse("th")
10H
"""

from __future__ import annotations

from bolivia.cards import JOKER, Card, Pack, parse_cards
from bolivia.errors import BoliviaError, CardError, Problem, RulesetError, SourceError
from bolivia.rules.library import Library, load_ruleset, shipped_library
from bolivia.rules.model import Rules
from bolivia.rules.ruleset import Ruleset
from bolivia.rules.sources import Claim, Source, Sources, shipped_sources
from bolivia.version import __version__

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
