"""The actions of a hand, as immutable values that round-trip through JSON.

Replays and the oracle read and write them in that form.

A turn: ``Draw`` (or ``TakePile``, or ``TakeTop`` where the ruleset has it; ``Stop`` when the
stock is exhausted and the player will not take the pile), then any ``Lay`` and ``Extend``,
then ``Discard`` -- or ``GoOut``, which empties the hand. ``Ask`` and the partner's ``Answer``
come before going out where the ruleset has the question.

>>> action = parse_action({"type": "extend", "target": 0, "cards": ["9H"]})
>>> action
Extend(target=0, cards=(9H,))
>>> parse_action(action.to_json()) == action
True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal

from bolivia.cards import Card, parse_cards
from bolivia.errors import BadRequest, CardError
from bolivia.values import reduce_fields

__all__ = [
    "ASK",
    "DISCARDS",
    "DRAW",
    "FIELDS",
    "NO",
    "STOP",
    "YES",
    "Action",
    "ActionType",
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
    "parse_action",
]


# COMPILED_INIT: the actions the move generators build by the hundred a hand (``TakePile``,
# ``TakeTop``, ``Lay``, ``Extend``, ``Combine``, ``GoOut``) write out their ``__init__`` as the
# frozen dataclass would generate it (each field set through ``object.__setattr__``, the same
# defaults): mypyc compiles a written one, while a generated one runs interpreted, at several
# times the cost.


def _cards(cards: Sequence[Card]) -> list[str]:
    return [repr(card) for card in cards]


@dataclass(frozen=True, slots=True)
class Draw:
    """Draw the ruleset's number of cards from the stock."""

    def to_json(self) -> dict[str, Any]:
        return {"type": "draw"}

    def __reduce__(self) -> tuple[type[Any], tuple[Any, ...]]:
        return reduce_fields(self)


@dataclass(frozen=True, slots=True)
class TakePile:
    """Take the whole pile, its top card melded.

    The top card is melded with ``with_cards`` from the hand, or onto the team meld ``onto``.
    ``also`` holds more melds from the hand laid at once, for the first meld.
    """

    with_cards: tuple[Card, ...] | None = None
    onto: int | None = None
    also: tuple[tuple[Card, ...], ...] = ()

    def __init__(
        self,
        with_cards: tuple[Card, ...] | None = None,
        onto: int | None = None,
        also: tuple[tuple[Card, ...], ...] = (),
    ) -> None:
        object.__setattr__(self, "with_cards", with_cards)  # compiled: see COMPILED_INIT
        object.__setattr__(self, "onto", onto)
        object.__setattr__(self, "also", also)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "take_pile"}
        if self.with_cards is not None:
            out["with"] = _cards(self.with_cards)
        if self.onto is not None:
            out["onto"] = self.onto
        if self.also:
            out["also"] = [_cards(meld) for meld in self.also]
        return out

    def __reduce__(self) -> tuple[type[Any], tuple[Any, ...]]:
        return reduce_fields(self)


@dataclass(frozen=True, slots=True)
class TakeTop:
    """Take only the pile's top card, onto the team meld ``onto``."""

    onto: int

    def __init__(self, onto: int) -> None:
        object.__setattr__(self, "onto", onto)  # compiled: see COMPILED_INIT

    def to_json(self) -> dict[str, Any]:
        return {"type": "take_top", "onto": self.onto}

    def __reduce__(self) -> tuple[type[Any], tuple[Any, ...]]:
        return reduce_fields(self)


@dataclass(frozen=True, slots=True)
class Lay:
    """Lay one or more new melds from the hand."""

    melds: tuple[tuple[Card, ...], ...]

    def __init__(self, melds: tuple[tuple[Card, ...], ...]) -> None:
        object.__setattr__(self, "melds", melds)  # compiled: see COMPILED_INIT

    def to_json(self) -> dict[str, Any]:
        return {"type": "lay", "melds": [_cards(meld) for meld in self.melds]}

    def __reduce__(self) -> tuple[type[Any], tuple[Any, ...]]:
        return reduce_fields(self)


@dataclass(frozen=True, slots=True)
class Extend:
    """Add cards from the hand to the team meld ``target``."""

    target: int
    cards: tuple[Card, ...]

    def __init__(self, target: int, cards: tuple[Card, ...]) -> None:
        object.__setattr__(self, "target", target)  # compiled: see COMPILED_INIT
        object.__setattr__(self, "cards", cards)

    def to_json(self) -> dict[str, Any]:
        return {"type": "extend", "target": self.target, "cards": _cards(self.cards)}

    def __reduce__(self) -> tuple[type[Any], tuple[Any, ...]]:
        return reduce_fields(self)


@dataclass(frozen=True, slots=True)
class Combine:
    """Join the side's group ``other`` into its group ``target`` of the same rank.

    Some rulesets let a side hold several groups of a rank and join them. ``other`` leaves the
    table's list.
    """

    target: int
    other: int

    def __init__(self, target: int, other: int) -> None:
        object.__setattr__(self, "target", target)  # compiled: see COMPILED_INIT
        object.__setattr__(self, "other", other)

    def to_json(self) -> dict[str, Any]:
        return {"type": "combine", "target": self.target, "other": self.other}

    def __reduce__(self) -> tuple[type[Any], tuple[Any, ...]]:
        return reduce_fields(self)


@dataclass(frozen=True, slots=True)
class Discard:
    """Discard a card, ending the turn."""

    card: Card

    def to_json(self) -> dict[str, Any]:
        return {"type": "discard", "card": repr(self.card)}

    def __reduce__(self) -> tuple[type[Any], tuple[Any, ...]]:
        return reduce_fields(self)


@dataclass(frozen=True, slots=True)
class GoOut:
    """Empty the hand in one move.

    It joins the side's groups ``combine`` (each a ``[target, other]`` pair, in order), lays
    ``melds``, adds ``extends`` (in order; a target counts the melds just laid after the
    side's own), and discards ``discard``.
    """

    melds: tuple[tuple[Card, ...], ...] = ()
    extends: tuple[tuple[int, tuple[Card, ...]], ...] = ()
    discard: Card | None = None
    combine: tuple[tuple[int, int], ...] = ()

    def __init__(
        self,
        melds: tuple[tuple[Card, ...], ...] = (),
        extends: tuple[tuple[int, tuple[Card, ...]], ...] = (),
        discard: Card | None = None,
        combine: tuple[tuple[int, int], ...] = (),
    ) -> None:
        object.__setattr__(self, "melds", melds)  # compiled: see COMPILED_INIT
        object.__setattr__(self, "extends", extends)
        object.__setattr__(self, "discard", discard)
        object.__setattr__(self, "combine", combine)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "type": "go_out",
            "melds": [_cards(m) for m in self.melds],
            "extends": [[t, _cards(c)] for t, c in self.extends],
        }
        if self.discard is not None:
            out["discard"] = repr(self.discard)
        if self.combine:
            out["combine"] = [[t, o] for t, o in self.combine]
        return out

    def __reduce__(self) -> tuple[type[Any], tuple[Any, ...]]:
        return reduce_fields(self)


@dataclass(frozen=True, slots=True)
class Ask:
    """Ask the partner for leave to go out."""

    def to_json(self) -> dict[str, Any]:
        return {"type": "ask"}

    def __reduce__(self) -> tuple[type[Any], tuple[Any, ...]]:
        return reduce_fields(self)


@dataclass(frozen=True, slots=True)
class Answer:
    """The partner's answer to ``Ask``: it binds the player who asked."""

    yes: bool

    def to_json(self) -> dict[str, Any]:
        return {"type": "answer", "yes": self.yes}

    def __reduce__(self) -> tuple[type[Any], tuple[Any, ...]]:
        return reduce_fields(self)


@dataclass(frozen=True, slots=True)
class Stop:
    """With the stock exhausted, decline to take the pile: the hand ends."""

    def to_json(self) -> dict[str, Any]:
        return {"type": "stop"}

    def __reduce__(self) -> tuple[type[Any], tuple[Any, ...]]:
        return reduce_fields(self)


Action = Draw | TakePile | TakeTop | Lay | Extend | Combine | Discard | GoOut | Ask | Answer | Stop


# the actions without choices, and a discard of each card (by index), shared by every state
DRAW, STOP, ASK = Draw(), Stop(), Ask()
YES, NO = Answer(True), Answer(False)
DISCARDS: Final = tuple(Discard(card) for card in Card.all())


# the types of action, as their JSON form names them
ActionType = Literal[
    "draw",
    "take_pile",
    "take_top",
    "lay",
    "extend",
    "combine",
    "discard",
    "go_out",
    "ask",
    "answer",
    "stop",
]

# the fields each type of action takes beside its ``type``; any other field is refused
FIELDS: dict[ActionType, tuple[str, ...]] = {
    "draw": (),
    "take_pile": ("with", "onto", "also"),
    "take_top": ("onto",),
    "lay": ("melds",),
    "extend": ("target", "cards"),
    "combine": ("target", "other"),
    "discard": ("card",),
    "go_out": ("melds", "extends", "discard", "combine"),
    "ask": (),
    "answer": ("yes",),
    "stop": (),
}


def _cards_of(value: Any, where: str) -> tuple[Card, ...]:
    if not isinstance(value, list):
        raise BadRequest(f"'{where}' is a list of cards")
    try:
        return parse_cards(value)
    except CardError as exc:
        raise BadRequest(f"'{where}': {exc}") from None


def _card_of(value: Any, where: str) -> Card:
    return _cards_of([value], where)[0]


def _card_list(data: Mapping[str, Any], key: str) -> tuple[Card, ...]:
    return _cards_of(data.get(key), key)


def _meld_lists(data: Mapping[str, Any], key: str) -> tuple[tuple[Card, ...], ...]:
    value = data.get(key, [])
    if not isinstance(value, list):
        raise BadRequest(f"'{key}' is a list of card lists")
    return tuple(_cards_of(item, f"{key}[{i}]") for i, item in enumerate(value))


def _whole(value: Any, where: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise BadRequest(f"'{where}' is a whole number")
    return value


def _int(data: Mapping[str, Any], key: str) -> int:
    return _whole(data.get(key), key)


def _pairs(data: Mapping[str, Any], key: str, shape: str) -> list[tuple[Any, Any]]:
    value = data.get(key, [])
    if not isinstance(value, list) or not all(
        isinstance(pair, list) and len(pair) == 2 for pair in value
    ):
        raise BadRequest(f"'{key}' is a list of {shape} pairs")
    return [(a, b) for a, b in value]


def _type(data: Any) -> str:
    """The action's type, once its fields are the type's own."""
    if not isinstance(data, Mapping):
        raise BadRequest("an action is an object with a 'type'")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in FIELDS:
        shown = repr(kind) if len(repr(kind)) <= 40 else repr(kind)[:40] + "..."
        raise BadRequest(f"{shown} is not an action type (the types: {', '.join(FIELDS)})")
    _check_fields(data, FIELDS[kind], kind)
    return kind


def _check_fields(data: Mapping[str, Any], fields: tuple[str, ...], kind: str) -> None:
    """Refuse a field that an action of this type does not take."""
    unknown = sorted(str(key) for key in data if key != "type" and key not in fields)
    if unknown:
        takes = ", ".join(fields) or "no other"
        article = "an" if kind[0] in "aeiou" else "a"
        raise BadRequest(
            f"unknown field {unknown[0][:40]!r} of {article} {kind} action (it takes: {takes})"
        )


def parse_action(data: Any) -> Action:
    """An action from its JSON form.

    :class:`BadRequest` names what is wrong, a field that the action's type does not take too.
    """
    return _PARSERS[_type(data)](data)


def _draw(data: Mapping[str, Any]) -> Action:
    return Draw()


def _take_pile(data: Mapping[str, Any]) -> Action:
    with_cards = _card_list(data, "with") if "with" in data else None
    onto = _int(data, "onto") if "onto" in data else None
    return TakePile(with_cards, onto, _meld_lists(data, "also"))


def _take_top(data: Mapping[str, Any]) -> Action:
    return TakeTop(_int(data, "onto"))


def _lay(data: Mapping[str, Any]) -> Action:
    return Lay(_meld_lists(data, "melds"))


def _extend(data: Mapping[str, Any]) -> Action:
    return Extend(_int(data, "target"), _card_list(data, "cards"))


def _combine(data: Mapping[str, Any]) -> Action:
    return Combine(_int(data, "target"), _int(data, "other"))


def _discard(data: Mapping[str, Any]) -> Action:
    return Discard(_card_of(data.get("card"), "card"))


def _go_out(data: Mapping[str, Any]) -> Action:
    extends = _pairs(data, "extends", "[target, cards]")
    combine = _pairs(data, "combine", "[target, other]")
    discard = data.get("discard")
    return GoOut(
        _meld_lists(data, "melds"),
        tuple(
            (_whole(t, f"extends[{i}][0]"), _cards_of(c, f"extends[{i}][1]"))
            for i, (t, c) in enumerate(extends)
        ),
        None if discard is None else _card_of(discard, "discard"),
        tuple(
            (_whole(t, f"combine[{i}][0]"), _whole(o, f"combine[{i}][1]"))
            for i, (t, o) in enumerate(combine)
        ),
    )


def _ask(data: Mapping[str, Any]) -> Action:
    return Ask()


def _answer(data: Mapping[str, Any]) -> Action:
    yes = data.get("yes")
    if not isinstance(yes, bool):
        raise BadRequest("'yes' is true or false")
    return Answer(yes)


def _stop(data: Mapping[str, Any]) -> Action:
    return Stop()


# each type's parser, from the JSON form its fields were checked in
_PARSERS: Final[dict[str, Callable[[Mapping[str, Any]], Action]]] = {
    "draw": _draw,
    "take_pile": _take_pile,
    "take_top": _take_top,
    "lay": _lay,
    "extend": _extend,
    "combine": _combine,
    "discard": _discard,
    "go_out": _go_out,
    "ask": _ask,
    "answer": _answer,
    "stop": _stop,
}
