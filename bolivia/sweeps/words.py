"""The sweep in words: each varied rule and its values as a player says them.

The words come from the phrase table the comparison report and the rulebook share
(:mod:`bolivia.rules.phrases`): ``going_out.requirement`` reads "what going out needs", and
its value ``{rule: canastas, count: 2, including: {escalera: 1}}`` reads "2 canastas, 1 of them
an escalera". A value is worded as the resolved ruleset holds it (every default filled in), not
as it was typed. A key inside a table (``scoring.card_points.3``) reads through its table's
phrase. The key paths and the values as written stay in the report's details layer and JSON.

>>> field_label("going_out.bonus")
'going-out bonus'
>>> value_words("going_out.bonus", 300)
'300 points'
>>> value_words("scoring.card_points.3", 5)
'black 3: 5 points'
>>> combination_words(["going_out.bonus"], [300])
'300 points'
>>> combination_words(["going_out.bonus", "game.target"], [300, 5000])
'going-out bonus: 300 points; target score: 5,000 points'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bolivia.language import N_
from bolivia.language import gettext_ as _
from bolivia.rules.phrases import PHRASES, answer, label
from bolivia.rules.tree import split_leaf

__all__ = ["AS_IT_IS", "BASE_MARK", "combination_words", "field_label", "value_words"]

#: after the base's own value: "300 points (as ...)" (a message: translated where shown)
BASE_MARK = N_("as the ruleset has it")
#: the base combination, as a noun (a message: translated where shown)
AS_IT_IS = N_("the ruleset as it is")


def _leaf(field: str) -> tuple[str, tuple[str, ...]]:
    """The phrased field a path names and the keys it goes on to inside that field's table."""
    found = split_leaf(field)
    if found is None or found[0] not in PHRASES:  # pragma: no cover - the grid refuses these
        raise KeyError(field)
    return found


def field_label(field: str) -> str:
    """The varied rule's name in words: ``going-out bonus``."""
    leaf, _ = _leaf(field)
    return label(leaf)


def value_words(field: str, value: Any) -> str:
    """A value of the varied rule in words, as the resolved ruleset holds it."""
    leaf, inside = _leaf(field)
    for key in reversed(inside):
        value = {key: value}
    return answer(leaf, value)


def combination_words(fields: Sequence[str], values: Sequence[Any], named: bool = False) -> str:
    """A combination of values in words: the value alone when one rule is varied (unless
    ``named``), else each rule's name and value (``going-out bonus: 300 points; ...``)."""
    if len(fields) == 1 and not named:
        return value_words(fields[0], values[0])
    pair = _("{rule}: {value}")
    return _("; ").join(
        pair.format(rule=field_label(f), value=value_words(f, v))
        for f, v in zip(fields, values, strict=True)
    )
