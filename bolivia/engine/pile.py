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
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from bolivia.cards import Card
from bolivia.engine.canastas import is_canasta
from bolivia.engine.initial_meld import verify_first_melds
from bolivia.engine.limits import limits
from bolivia.engine.meld import Meld, describe
from bolivia.engine.melds import verify_extend, verify_meld
from bolivia.errors import BadRequest, Illegal
from bolivia.rules.ruleset import Ruleset
from bolivia.values import reduce_fields

__all__ = [
    "Pickup",
    "can_pickup",
    "card_class",
    "frozen_by",
    "frozen_when",
    "turn_up",
    "verify_pickup",
    "verify_take_top",
]

_CARDS: Final = Card.all()


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
        # compiles it (see COMPILED_INIT in bolivia.play.table.actions): a pickup is verified by the
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


def turn_up(ruleset: Ruleset, stock: list[int]) -> list[int]:
    """Start the pile from the stock (card indices, its top card last), taking the cards off
    it: the upcard, and while the card last turned up is of a class ``deal.upcard_covered_if``
    names, the next one on it (until the stock runs out). The pile, bottom first: empty where
    ``deal.upcard`` is false."""
    if not ruleset.rules.deal.upcard:
        return []
    covered = ruleset.rules.deal.upcard_covered_if
    pile = [stock.pop()]
    while stock and card_class(ruleset, _CARDS[pile[-1]]) in covered:
        pile.append(stock.pop())
    return pile


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


#: the class of card whose presence freezes the pile, by the condition of ``pile.frozen_when``
#: that names one
_CONTAINS: Final = {
    "contains_wild": "wild",
    "contains_black_three": "black_three",
    "contains_red_three": "red_three",
}


def _holds(cond: str, classes: Collection[str | None], team_has_melded: bool) -> bool:
    """Whether a condition of ``pile.frozen_when`` holds for this pile and side."""
    if cond == "side_not_melded":
        return not team_has_melded
    if cond == "always":
        return True
    return _CONTAINS[cond] in classes


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
    """The ways the pile may be taken, frozen or not."""
    rule = ruleset.rules.pile
    return rule.take_frozen if frozen else rule.take_unfrozen


def _ways_path(frozen: list[str]) -> str:
    """The rule that says how the pile may be taken, frozen or not."""
    return "pile.take_frozen" if frozen else "pile.take_unfrozen"


_FROZEN_WORDS: Final = {
    "side_not_melded": "the side has not melded",
    "contains_wild": "it holds a wild card",
    "contains_black_three": "it holds a black three",
    "contains_red_three": "it holds a red three",
    "always": "this ruleset always treats it so",
}


def _state_text(frozen: list[str]) -> str:
    """Whether the pile is frozen, and why, for a refusal."""
    if not frozen:
        return "the pile is not frozen"
    return "the pile is frozen (" + "; ".join(_FROZEN_WORDS[c] for c in frozen) + ")"


def _with_way(
    ruleset: Ruleset, top: Card, cards: Sequence[Card], ways: Sequence[str], frozen: list[str]
) -> str:
    """The way ``cards`` from the hand take the pile's top card, or :class:`Illegal`."""
    matching, wilds = _matching_and_wild(ruleset.wild, top, cards)
    if "natural_pair" in ways and matching >= 2:
        return "natural_pair"
    if "natural_and_wild" in ways and matching >= 1 and wilds >= 1:
        return "natural_and_wild"
    allowed = ", ".join(w.replace("_", " ") for w in ways if w != "onto_meld") or "no cards"
    path = _ways_path(frozen)
    raise Illegal(
        "pile-way",
        f"{_state_text(frozen)}: it is taken with {allowed} from the hand matching "
        f"{top!r} ({ruleset.cite(path)})",
        path,
    )


def _matching_and_wild(wild: tuple[bool, ...], top: Card, cards: Sequence[Card]) -> tuple[int, int]:
    """How many of ``cards`` are naturals of the top card's rank, and how many are wild."""
    matching = wilds = 0
    for card in cards:
        if wild[card.index]:
            wilds += 1
        elif card.rank == top.rank:
            matching += 1
    return matching, wilds


def _with_meld(
    ruleset: Ruleset, top: Card, cards: Sequence[Card], team_melds: Sequence[Meld]
) -> tuple[Meld, int | None]:
    """The meld the top card and ``cards`` make, and the side's meld it grows (if any).

    It is a new group, or (where a side holds one group of a rank) the side's group of that
    rank grown by them.
    """
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


def _check_onto(ruleset: Ruleset, target: Meld, ways: Sequence[str], frozen: list[str]) -> None:
    """:class:`Illegal` unless the pile's top card may go onto this meld of the side."""
    rule = ruleset.rules.pile
    if "onto_meld" not in ways:
        path = _ways_path(frozen)
        raise Illegal(
            "pile-way",
            f"{_state_text(frozen)}: the top card may not be taken onto a meld "
            f"({ruleset.cite(path)})",
            path,
        )
    if target.kind not in rule.onto_kinds:
        raise Illegal(
            "pile-onto-kind",
            f"the top card may not go onto {describe(target)} ({ruleset.cite('pile.onto_kinds')})",
            "pile.onto_kinds",
        )
    if not rule.onto_canasta and is_canasta(ruleset, target):
        raise Illegal(
            "pile-onto-canasta",
            f"the top card may not go onto a canasta ({ruleset.cite('pile.onto_canasta')})",
            "pile.onto_canasta",
        )


class _Taking:
    """The pile a side is about to take, and what each way of taking it needs."""

    def __init__(
        self,
        ruleset: Ruleset,
        pile: Sequence[Card],
        team_melds: Sequence[Meld],
        team_score: int,
        also_melds: list[Meld],
        classes: Collection[str | None] | None,
    ) -> None:
        self.ruleset = ruleset
        self.top = pile[-1]
        self.team_melds = team_melds
        self.team_score = team_score
        self.also_melds = also_melds
        self.melded = bool(team_melds)
        if classes is None:
            self.frozen = frozen_by(ruleset, pile, team_has_melded=self.melded)
        else:
            self.frozen = frozen_when(ruleset, classes, team_has_melded=self.melded)
        self.ways = _ways(ruleset, self.frozen)

    def with_cards(self, cards: Sequence[Card]) -> Pickup:
        """Taking the pile with these cards from the hand, which the top card joins."""
        ruleset = self.ruleset
        way = _with_way(ruleset, self.top, cards, self.ways, self.frozen)
        meld, index = _with_meld(ruleset, self.top, cards, self.team_melds)
        if not self.melded:
            verify_first_melds(ruleset, self.team_score, [meld, *self.also_melds], self.top)
        return Pickup(way, meld, index, tuple(cards), tuple(self.also_melds))

    def onto(self, index: int) -> Pickup:
        """Taking the pile with its top card onto the side's meld ``index``."""
        target = self.team_melds[index]
        _check_onto(self.ruleset, target, self.ways, self.frozen)
        return Pickup("onto_meld", verify_extend(self.ruleset, target, [self.top]), index)


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
    """How the player takes the pile this way, or :class:`Illegal` saying which rule forbids it.

    Given neither ``with_cards`` nor ``onto``, some way is found. :class:`BadRequest` says
    that the question itself is impossible (cards not in the hand, two ways at once).
    ``classes``, where the caller keeps them, are the :func:`card_class` values of the pile's
    cards (saves reading the whole pile again).
    """
    _check_request(hand, team_melds, with_cards, onto, also)
    _blocked(ruleset, pile)
    _check_allowed(ruleset, pile, hand, team_melds)
    taking = _Taking(ruleset, pile, team_melds, team_score, _also_melds(ruleset, also), classes)
    if with_cards is not None:
        return taking.with_cards(with_cards)
    if onto is not None:
        return taking.onto(onto)
    return _search(taking, _left(hand, *also))


def _check_request(
    hand: Sequence[Card],
    team_melds: Sequence[Meld],
    with_cards: Sequence[Card] | None,
    onto: int | None,
    also: Sequence[Sequence[Card]],
) -> None:
    """:class:`BadRequest` for a pickup no player could ask for."""
    if with_cards is not None and onto is not None:
        raise BadRequest("give at most one of 'with' and 'onto'")
    if onto is not None and not 0 <= onto < len(team_melds):
        raise BadRequest(f"'onto' is {onto}, but the team has {len(team_melds)} melds")
    _check_in_hand(hand, with_cards or (), *also)


def _check_allowed(
    ruleset: Ruleset, pile: Sequence[Card], hand: Sequence[Card], team_melds: Sequence[Meld]
) -> None:
    """:class:`Illegal` where the pile may not be taken at all, whatever way."""
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


def _also_melds(ruleset: Ruleset, also: Sequence[Sequence[Card]]) -> list[Meld]:
    """The new melds laid with the pickup, or the refusal of the first that is not legal."""
    melds = []
    for i, cards in enumerate(also):
        try:
            melds.append(verify_meld(ruleset, cards))
        except Illegal as exc:
            raise Illegal(
                exc.code, f"the meld {i + 1} laid with it is not legal: {exc}", exc.rule
            ) from None
    return melds


def _search(taking: _Taking, left: Counter[Card]) -> Pickup:
    """Some legal way to take the pile with what is left of the hand, or the most telling
    refusal."""
    naturals, wilds = _takers(taking.ruleset, taking.top, left)
    failures: list[Illegal] = []
    found = _first_with(taking, naturals, wilds, failures)
    if found is None:
        found = _first_onto(taking, failures)
    if found is None:
        raise _most_telling(taking, failures)
    return found


def _takers(ruleset: Ruleset, top: Card, left: Counter[Card]) -> tuple[list[Card], list[Card]]:
    """The naturals of the top card's rank left in the hand, and its wild cards, best first."""
    wild = ruleset.wild
    points = ruleset.points
    naturals = [
        c for c, n in left.items() for _ in range(n) if not wild[c.index] and c.rank == top.rank
    ]
    wilds = sorted(
        (c for c, n in left.items() for _ in range(n) if wild[c.index]),
        key=lambda c: (-points[c.index], c.index),
    )
    return naturals, wilds


def _first_with(
    taking: _Taking, naturals: list[Card], wilds: list[Card], failures: list[Illegal]
) -> Pickup | None:
    """The first pickup with naturals and then wild cards that passes, fewest first."""
    for n in range(1, len(naturals) + 1):
        for w in range(len(wilds) + 1):
            try:
                return taking.with_cards(naturals[:n] + wilds[:w])
            except Illegal as exc:
                failures.append(exc)
    return None


def _first_onto(taking: _Taking, failures: list[Illegal]) -> Pickup | None:
    """The first pickup onto one of the side's melds that passes."""
    for index in range(len(taking.team_melds)):
        try:
            return taking.onto(index)
        except Illegal as exc:
            failures.append(exc)
    return None


def _most_telling(taking: _Taking, failures: list[Illegal]) -> Illegal:
    """The refusal that tells most: the first meld's minimum, then the way, then the first."""
    for code in ("initial-minimum", "pile-way"):
        for failure in failures:
            if failure.code == code:
                return failure
    if failures:
        return failures[0]
    top = taking.top
    allowed = ", ".join(w.replace("_", " ") for w in taking.ways) or "no way at all"
    return Illegal(
        "pile-way",
        f"{_state_text(taking.frozen)}; it may be taken by {allowed}, and the hand holds no "
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
    """Whether the player may take the pile some way."""
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
