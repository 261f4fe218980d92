"""The value types of the rule tree's fields (:mod:`bolivia.rules.model`): the base record,
ranks and card classes, the ranges of counts, points and scores, and the checks of keys and
lists (a table's keys each given once, a list that is a set).

The ranges are the model's: see its docstring for what each bounds.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Annotated, Any, Literal, get_args

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field

from bolivia.cards import RANKS, normalize_rank
from bolivia.rules.loading import plain_digits

__all__ = [
    "CANASTA_KINDS",
    "CARD_CLASSES",
    "MAX_CANASTAS",
    "MAX_CARDS",
    "MAX_DECKS",
    "MAX_HANDS",
    "MAX_JOKERS",
    "MAX_POINTS",
    "MAX_SCORE",
    "MELD_KINDS",
    "POINT_KEYS",
    "ByPlayers",
    "CanastaCount",
    "CanastaKindName",
    "CanastaNamed",
    "CardClass",
    "CardCount",
    "CardPoints",
    "MeldKind",
    "MeldSize",
    "PlayerCount",
    "PointKey",
    "Points",
    "PositiveCanastaCount",
    "PositiveCardCount",
    "Rank",
    "RankName",
    "Record",
    "Score",
    "Suggested",
    "Target",
    "distinct_keys",
    "no_repeats",
    "number_key",
    "rank_or_key",
]


class Record(BaseModel):
    """Base of every rule record: frozen, strict, no unknown keys."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True, populate_by_name=True)


def rank_or_key(value: Any) -> Any:
    """Let YAML's ``10:`` or ``2`` stand for the rank strings ``"10"`` and ``"2"``."""
    if isinstance(value, int) and not isinstance(value, bool):
        value = str(value)
    if isinstance(value, str) and value.upper() != "JK":
        try:
            return normalize_rank(value)
        except ValueError:
            return value
    return value.upper() if isinstance(value, str) else value


RankName = Literal["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
Rank = Annotated[RankName, BeforeValidator(rank_or_key)]
PointKey = Annotated[
    Literal["JK", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"],
    BeforeValidator(rank_or_key),
]
POINT_KEYS: tuple[str, ...] = ("JK", *RANKS)

CardClass = Literal["wild", "red_three", "black_three"]
CARD_CLASSES: tuple[str, ...] = get_args(CardClass)
MeldKind = Literal["group", "sequence", "wild"]
MELD_KINDS: tuple[str, ...] = ("group", "sequence", "wild", "threes")
CanastaKindName = Literal["natural", "mixed", "escalera", "bolivia"]
CANASTA_KINDS: tuple[str, ...] = get_args(CanastaKindName)


@dataclass(frozen=True)
class Suggested:
    """The values a text field is most often given (proposed by :mod:`bolivia.rules.variants`),
    and what else it may be, in words."""

    values: tuple[str, ...]
    more: str


# a kind of canasta, or a special canasta by its name (checked against canastas.special)
CanastaNamed = Annotated[
    str, Field(min_length=1, max_length=40), Suggested(CANASTA_KINDS, "a special canasta's name")
]

MAX_DECKS = 8
MAX_JOKERS = 24
MAX_CARDS = 52 * MAX_DECKS + MAX_JOKERS  # 440: the largest pack pack.decks and pack.jokers allow
MAX_CANASTAS = MAX_CARDS // 2  # a canasta holds two cards at the least
MAX_POINTS = 1_000_000  # a card's points, a bonus, a first meld's minimum
MAX_SCORE = 10_000_000  # a side's score: where a band starts, a target
MAX_HANDS = 10_000  # a cap on the hands of a game

CardCount = Annotated[int, Field(ge=0, le=MAX_CARDS)]
PositiveCardCount = Annotated[int, Field(ge=1, le=MAX_CARDS)]
MeldSize = Annotated[int, Field(ge=2, le=MAX_CARDS)]
CanastaCount = Annotated[int, Field(ge=0, le=MAX_CANASTAS)]
PositiveCanastaCount = Annotated[int, Field(ge=1, le=MAX_CANASTAS)]
Points = Annotated[int, Field(ge=0, le=MAX_POINTS)]
CardPoints = Annotated[int, Field(ge=-MAX_POINTS, le=MAX_POINTS)]
Score = Annotated[int, Field(ge=-MAX_SCORE, le=MAX_SCORE)]
Target = Annotated[int, Field(ge=1, le=MAX_SCORE)]


def _reads_as_number(text: str) -> bool:
    """Whether Python or YAML would read the text as a whole number (``04``, ``+4``, ``٤``,
    ``0x4``, ``4_``)."""
    for base in (10, 0):
        try:
            int(text.replace("_", ""), base)
        except ValueError:
            continue
        return True
    return False


def number_key(what: str) -> Callable[[Any], Any]:
    """A count (of ``what``) written as a quoted key (``"4":``, as JSON writes it) is a
    number; any other spelling of a number (``04``, ``٤``, ``+4``) is refused, not read as 4."""

    def key(value: Any) -> Any:
        if isinstance(value, str) and plain_digits(value):
            return int(value)
        if isinstance(value, str) and _reads_as_number(value):
            raise ValueError(f"write {what} in plain ASCII digits (such as 4), not {value!r}")
        return value

    return key


_count_key = number_key("a number of players")
PlayerCount = Annotated[int, BeforeValidator(_count_key), Field(ge=2, le=8)]


def distinct_keys(key: Callable[[Any], Any]) -> BeforeValidator:
    """A table whose keys, read as ``key`` reads them, are all different: ``4`` and ``"4"``,
    or ``T`` and ``10``, are one key given twice, not a silent overwrite."""

    def check(table: Any) -> Any:
        if not isinstance(table, Mapping):
            return table
        seen: dict[Any, Any] = {}
        for written in table:
            try:
                read = key(written)
            except ValueError:
                continue  # the key's own check says what is wrong with it
            if read in seen:
                raise ValueError(f"{seen[read]!r} and {written!r} are the same key, given twice")
            seen[read] = written
        return table

    return BeforeValidator(check)


ByPlayers = distinct_keys(_count_key)


def no_repeats(items: tuple[Any, ...]) -> tuple[Any, ...]:
    """A list that is a set: an item given twice is refused (it would count twice)."""
    repeated = sorted(str(item) for item, n in Counter(items).items() if n > 1)
    if repeated:
        raise ValueError(f"given more than once: {', '.join(repeated)}")
    return items
