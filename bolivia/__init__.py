"""bolivia: verify and compare rulebooks of Bolivia (Bolivian Canasta), Samba and Canasta.

Rulesets are data (YAML files resolved into frozen records), every value traced to the source
document that states it; one parameterized engine decides every rule question for every
ruleset.

>>> from bolivia import load_ruleset, Card
>>> load_ruleset("bolivia-zh").rules.melds.group.ratio
'naturals_twice_wilds'
>>> Card.parse("th")
10H

A hand is played through one verify/apply path, the one the command line, the oracle and the
bots use; an action the rules forbid raises :class:`Illegal`, naming the rule:

>>> import random
>>> from bolivia import Hand, Draw, Illegal
>>> hand = Hand.deal(load_ruleset("bolivia-da"), 4, random.Random(3))
>>> hand.choices()
[Draw()]
>>> hand.apply(Draw())
>>> try:
...     hand.apply(Draw())
... except Illegal as refused:
...     print(refused.code, "-", refused)
wrong-phase - the player has drawn already this turn

The names below are imported when first used (PEP 562), so that ``import bolivia.cli`` (and
``bolivia --version``) does not build the rule models.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bolivia.cards import JOKER, Card, Pack, parse_cards
    from bolivia.errors import BoliviaError, CardError, Illegal, Problem, RulesetError, SourceError
    from bolivia.play.table.actions import (
        Action,
        Answer,
        Ask,
        Combine,
        Discard,
        Draw,
        Extend,
        GoOut,
        Lay,
        Stop,
        TakePile,
        TakeTop,
    )
    from bolivia.play.table.hand import Hand, HandResult
    from bolivia.rules.library import Library, load_ruleset, shipped_library
    from bolivia.rules.model import Rules
    from bolivia.rules.ruleset import Ruleset
    from bolivia.rules.sources import Claim, Source, Sources, shipped_sources
    from bolivia.verify.oracle import Oracle
    from bolivia.version import __version__

#: each public name and the module that defines it
_HOMES = {
    "JOKER": "bolivia.cards",
    "Card": "bolivia.cards",
    "Pack": "bolivia.cards",
    "parse_cards": "bolivia.cards",
    "BoliviaError": "bolivia.errors",
    "CardError": "bolivia.errors",
    "Illegal": "bolivia.errors",
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
    "Hand": "bolivia.play.table.hand",
    "HandResult": "bolivia.play.table.hand",
    **dict.fromkeys(
        (
            "Action",
            "Answer",
            "Ask",
            "Combine",
            "Discard",
            "Draw",
            "Extend",
            "GoOut",
            "Lay",
            "Stop",
            "TakePile",
            "TakeTop",
        ),
        "bolivia.play.table.actions",
    ),
    "Oracle": "bolivia.verify.oracle",
}

__all__ = [
    "JOKER",
    "Action",
    "Answer",
    "Ask",
    "BoliviaError",
    "Card",
    "CardError",
    "Claim",
    "Combine",
    "Discard",
    "Draw",
    "Extend",
    "GoOut",
    "Hand",
    "HandResult",
    "Illegal",
    "Lay",
    "Library",
    "Oracle",
    "Pack",
    "Problem",
    "Rules",
    "Ruleset",
    "RulesetError",
    "Source",
    "SourceError",
    "Sources",
    "Stop",
    "TakePile",
    "TakeTop",
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
