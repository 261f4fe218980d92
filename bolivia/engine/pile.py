"""The discard pile: what blocks it, what freezes it, and every way it may be taken (the whole
pile, or only its top card). Decided by ``pile`` of the ruleset.

>>> from bolivia.rules.library import shipped_library
>>> from bolivia.cards import parse_cards
>>> fr = shipped_library().load("bolivia-fr")
>>> frozen_by(fr, parse_cards(["3C", "9H"]), team_has_melded=True)
['contains_black_three']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from typing import Any

from bolivia.cards import Card
from bolivia.engine.initial_meld import verify_first_melds
from bolivia.engine.limits import limits
from bolivia.engine.melds import Meld, describe, is_canasta, verify_extend, verify_meld
from bolivia.errors import BadRequest, Illegal
from bolivia.rules.ruleset import Ruleset
from bolivia.values import reduce_fields

__all__ = [
    "Pickup",
    "can_pickup",
    "card_class",
    "frozen_by",
    "frozen_when",
    "verify_pickup",
    "verify_take_top",
]


@dataclass(frozen=True)
class Pickup:
    """A legal way to take the pile: the way, and the meld the top card goes into."""

    way: str  # natural_pair | natural_and_wild | onto_meld
    meld: Meld  # the new meld (with the top card), or the team meld it extends
    onto: int | None = None  # index of the team meld extended, if any
    with_cards: tuple[Card, ...] = ()
    also: tuple[Meld, ...] = field(default=())

    def __init__(
        self,
        way: str,
        meld: Meld,
        onto: int | None = None,
        with_cards: tuple[Card, ...] = (),
        also: tuple[Meld, ...] = (),
    ) -> None:
        # written out as the frozen dataclass would generate it, so that the compiled build
        # compiles it (see COMPILED_INIT in bolivia.play.actions): a pickup is verified by the
        # hundred a hand
        object.__setattr__(self, "way", way)
        object.__setattr__(self, "meld", meld)
        object.__setattr__(self, "onto", onto)
        object.__setattr__(self, "with_cards", with_cards)
        object.__setattr__(self, "also", also)

    def describe(self) -> str:
        if self.onto is not None and self.way == "onto_meld":
            return f"the top card goes onto team meld {self.onto}, making {describe(self.meld)}"
        cards = " ".join(repr(c) for c in self.with_cards)
        where = f" onto team meld {self.onto}" if self.onto is not None else ""
        return (
            f"{cards} with the top card ({self.way.replace('_', ' ')}){where}: "
            f"{describe(self.meld)}"
        )

    def __reduce__(self) -> tuple[type[Any], tuple[Any, ...]]:
        return reduce_fields(self)


def card_class(ruleset: Ruleset, card: Card) -> str | None:
    """``wild``, ``red_three``, ``black_three`` or None: what the pile rules talk about."""
    if limits(ruleset).wild[card.index]:
        return "wild"
    if card.is_red_three:
        return "red_three"
    if card.is_black_three:
        return "black_three"
    return None


def frozen_by(ruleset: Ruleset, pile: Sequence[Card], *, team_has_melded: bool) -> list[str]:
    """The conditions of ``pile.frozen_when`` that hold: the pile is frozen when any does."""
    return frozen_when(
        ruleset, {card_class(ruleset, card) for card in pile}, team_has_melded=team_has_melded
    )


def frozen_when(
    ruleset: Ruleset, classes: Collection[str | None], *, team_has_melded: bool
) -> list[str]:
    """:func:`frozen_by` for a pile known by the classes of cards in it (wild, red_three,
    black_three), as the game keeps them."""
    return [cond for cond in limits(ruleset).frozen_when if _holds(cond, classes, team_has_melded)]


def _holds(cond: str, classes: Collection[str | None], team_has_melded: bool) -> bool:
    if cond == "side_not_melded":
        return not team_has_melded
    if cond == "contains_wild":
        return "wild" in classes
    if cond == "contains_black_three":
        return "black_three" in classes
    if cond == "contains_red_three":
        return "red_three" in classes
    if cond == "always":
        return True
    raise KeyError(cond)  # pragma: no cover - the schema admits no other condition


def _blocked(ruleset: Ruleset, pile: Sequence[Card]) -> None:
    if not pile:
        raise Illegal("pile-empty", "the discard pile is empty")
    top = pile[-1]
    kind = card_class(ruleset, top)
    if kind is not None and kind in ruleset.rules.pile.blocked_by_top:
        noun = kind.replace("_", " ")
        raise Illegal(
            "pile-blocked",
            f"nobody may take the pile while a {noun} ({top!r}) is on "
            f"top ({ruleset.cite('pile.blocked_by_top')})",
            "pile.blocked_by_top",
        )


def _check_in_hand(hand: Sequence[Card], *parts: Sequence[Card]) -> None:
    """BadRequest unless ``parts`` are all in the hand (as many times as they are named)."""
    need: dict[Card, int] = {}  # (a dict: a Counter's methods run interpreted)
    for part in parts:
        for card in part:
            need[card] = need.get(card, 0) + 1
    for card, n in need.items():
        if hand.count(card) < n:
            raise BadRequest(f"{card!r} is not in the hand (or not that many times)")


def _left(hand: Sequence[Card], *parts: Sequence[Card]) -> Counter[Card]:
    """What is left of the hand once ``parts`` (known to be in it) are taken out."""
    left = Counter(hand)
    for part in parts:
        left.subtract(part)
    return left


def _ways(ruleset: Ruleset, frozen: list[str]) -> tuple[str, ...]:
    rule = ruleset.rules.pile
    return rule.take_frozen if frozen else rule.take_unfrozen


def _frozen_text(frozen: list[str]) -> str:
    words = {
        "side_not_melded": "the side has not melded",
        "contains_wild": "it holds a wild card",
        "contains_black_three": "it holds a black three",
        "contains_red_three": "it holds a red three",
        "always": "this ruleset always treats it so",
    }
    return "the pile is frozen (" + "; ".join(words[c] for c in frozen) + ")"


def _with_way(
    ruleset: Ruleset, top: Card, cards: Sequence[Card], ways: Sequence[str], frozen: list[str]
) -> str:
    wild = ruleset.wild
    matching = sum(1 for c in cards if not wild[c.index] and c.rank == top.rank)
    wilds = sum(1 for c in cards if wild[c.index])
    if "natural_pair" in ways and matching >= 2:
        return "natural_pair"
    if "natural_and_wild" in ways and matching >= 1 and wilds >= 1:
        return "natural_and_wild"
    state = _frozen_text(frozen) if frozen else "the pile is not frozen"
    allowed = ", ".join(w.replace("_", " ") for w in ways if w != "onto_meld") or "no cards"
    path = "pile.take_frozen" if frozen else "pile.take_unfrozen"
    raise Illegal(
        "pile-way",
        f"{state}: it is taken with {allowed} from the hand matching "
        f"{top!r} ({ruleset.cite(path)})",
        path,
    )


def _with_meld(
    ruleset: Ruleset, top: Card, cards: Sequence[Card], team_melds: Sequence[Meld]
) -> tuple[Meld, int | None]:
    """The meld the top card and ``cards`` make: a new group, or (where a side holds one group
    of a rank) the side's group of that rank grown by them."""
    rules = ruleset.rules
    if not (rules.melds.group.duplicate_ranks or rules.pile.pair_starts_new_meld):
        for i, meld in enumerate(team_melds):
            if meld.kind == "group" and meld.rank == top.rank:
                return verify_extend(ruleset, meld, (*cards, top)), i
    meld = verify_meld(ruleset, (*cards, top))
    if meld.kind != "group":
        raise Illegal(
            "pile-meld", f"the top card is taken into a new group of its rank, not {describe(meld)}"
        )
    return meld, None


def verify_pickup(
    ruleset: Ruleset,
    pile: Sequence[Card],
    hand: Sequence[Card],
    team_melds: Sequence[Meld] = (),
    team_score: int = 0,
    *,
    with_cards: Sequence[Card] | None = None,
    onto: int | None = None,
    also: Sequence[Sequence[Card]] = (),
    classes: Collection[str | None] | None = None,
) -> Pickup:
    """How the player takes the pile this way (or, given neither ``with_cards`` nor ``onto``,
    some way); :class:`Illegal` says which rule forbids it, :class:`BadRequest` that the
    question itself is impossible (cards not in the hand, two ways at once).

    ``classes``, where the caller keeps them, are the :func:`card_class` values of the pile's
    cards (saves reading the whole pile again)."""
    if with_cards is not None and onto is not None:
        raise BadRequest("give at most one of 'with' and 'onto'")
    if onto is not None and not 0 <= onto < len(team_melds):
        raise BadRequest(f"'onto' is {onto}, but the team has {len(team_melds)} melds")
    _check_in_hand(hand, with_cards or (), *also)
    _blocked(ruleset, pile)
    rule = ruleset.rules.pile
    if rule.one_card_rule and len(hand) == 1 and len(pile) == 1:
        raise Illegal(
            "pile-one-card",
            f"a player holding one card may not take a pile of one "
            f"card ({ruleset.cite('pile.one_card_rule')})",
            "pile.one_card_rule",
        )
    if not rule.for_first_meld and not team_melds:
        raise Illegal(
            "pile-first-meld",
            f"the pile may not be taken for the side's first meld, and the side has not "
            f"melded ({ruleset.cite('pile.for_first_meld')})",
            "pile.for_first_meld",
        )
    also_melds = []
    for i, cards in enumerate(also):
        try:
            also_melds.append(verify_meld(ruleset, cards))
        except Illegal as exc:
            raise Illegal(
                exc.code, f"the meld {i + 1} laid with it is not legal: {exc}", exc.rule
            ) from None
    top = pile[-1]
    melded = bool(team_melds)
    if classes is None:
        frozen = frozen_by(ruleset, pile, team_has_melded=melded)
    else:
        frozen = frozen_when(ruleset, classes, team_has_melded=melded)
    ways = _ways(ruleset, frozen)

    def with_pickup(cards: Sequence[Card]) -> Pickup:
        way = _with_way(ruleset, top, cards, ways, frozen)
        meld, index = _with_meld(ruleset, top, cards, team_melds)
        if not melded:
            verify_first_melds(ruleset, team_score, [meld, *also_melds], top)
        return Pickup(way, meld, index, tuple(cards), tuple(also_melds))

    def onto_pickup(index: int) -> Pickup:
        path = "pile.take_frozen" if frozen else "pile.take_unfrozen"
        if "onto_meld" not in ways:
            state = _frozen_text(frozen) if frozen else "the pile is not frozen"
            raise Illegal(
                "pile-way",
                f"{state}: the top card may not be taken onto a meld ({ruleset.cite(path)})",
                path,
            )
        target = team_melds[index]
        if target.kind not in rule.onto_kinds:
            raise Illegal(
                "pile-onto-kind",
                f"the top card may not go onto {describe(target)} "
                f"({ruleset.cite('pile.onto_kinds')})",
                "pile.onto_kinds",
            )
        if not rule.onto_canasta and is_canasta(ruleset, target):
            raise Illegal(
                "pile-onto-canasta",
                f"the top card may not go onto a canasta ({ruleset.cite('pile.onto_canasta')})",
                "pile.onto_canasta",
            )
        return Pickup("onto_meld", verify_extend(ruleset, target, [top]), index)

    if with_cards is not None:
        return with_pickup(with_cards)
    if onto is not None:
        return onto_pickup(onto)
    left = _left(hand, *also)
    return _search(ruleset, top, left, team_melds, with_pickup, onto_pickup, ways, frozen)


def _search(
    ruleset: Ruleset,
    top: Card,
    left: Counter[Card],
    team_melds: Sequence[Meld],
    with_pickup: Callable[[Sequence[Card]], Pickup],
    onto_pickup: Callable[[int], Pickup],
    ways: Sequence[str],
    frozen: list[str],
) -> Pickup:
    """Some legal way to take the pile with what is left of the hand, or the most telling
    refusal."""
    wild = ruleset.wild
    points = ruleset.points
    naturals = [
        c for c, n in left.items() for _ in range(n) if not wild[c.index] and c.rank == top.rank
    ]
    wilds = sorted(
        (c for c, n in left.items() for _ in range(n) if wild[c.index]),
        key=lambda c: (-points[c.index], c.index),
    )
    failures: list[Illegal] = []
    for n in range(1, len(naturals) + 1):
        for w in range(len(wilds) + 1):
            try:
                found = with_pickup(naturals[:n] + wilds[:w])
            except Illegal as exc:
                failures.append(exc)
                continue
            return found
    for index in range(len(team_melds)):
        try:
            found = onto_pickup(index)
        except Illegal as exc:
            failures.append(exc)
            continue
        return found
    for code in ("initial-minimum", "pile-way"):
        for failure in failures:
            if failure.code == code:
                raise failure
    if failures:
        raise failures[0]
    state = _frozen_text(frozen) if frozen else "the pile is not frozen"
    allowed = ", ".join(w.replace("_", " ") for w in ways) or "no way at all"
    raise Illegal(
        "pile-way",
        f"{state}; it may be taken by {allowed}, and the hand holds no "
        f"natural {top.rank} to take {top!r} with",
        "pile.take_unfrozen",
    )


def can_pickup(
    ruleset: Ruleset,
    pile: Sequence[Card],
    hand: Sequence[Card],
    team_melds: Sequence[Meld] = (),
    team_score: int = 0,
) -> bool:
    try:
        verify_pickup(ruleset, pile, hand, team_melds, team_score)
    except Illegal:
        return False
    return True


def verify_take_top(
    ruleset: Ruleset, pile: Sequence[Card], team_melds: Sequence[Meld], onto: int
) -> Meld:
    """The team meld after the pile's top card alone is taken onto it, instead of drawing."""
    if not 0 <= onto < len(team_melds):
        raise BadRequest(f"'onto' is {onto}, but the team has {len(team_melds)} melds")
    rule = ruleset.rules.pile.take_top
    if not rule.allowed:
        raise Illegal(
            "take-top-not-allowed",
            f"the top card alone may never be taken ({ruleset.cite('pile.take_top.allowed')})",
            "pile.take_top.allowed",
        )
    _blocked(ruleset, pile)
    target = team_melds[onto]
    if target.kind not in rule.onto_kinds:
        kinds = " or ".join(rule.onto_kinds)
        raise Illegal(
            "take-top-kind",
            f"the top card alone may extend only a {kinds}, not "
            f"{describe(target)} "
            f"({ruleset.cite('pile.take_top.onto_kinds')})",
            "pile.take_top.onto_kinds",
        )
    if rule.below_canasta and is_canasta(ruleset, target):
        raise Illegal(
            "take-top-canasta",
            f"the top card alone may not extend a canasta "
            f"({ruleset.cite('pile.take_top.below_canasta')})",
            "pile.take_top.below_canasta",
        )
    return verify_extend(ruleset, target, [pile[-1]])
