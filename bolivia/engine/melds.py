"""Melds: which cards make a legal meld, what a meld becomes when cards are added, and which
melds are canastas. Decided by ``melds`` and ``canastas`` of the ruleset only.

>>> from bolivia.rules.library import shipped_library
>>> from bolivia.cards import parse_cards
>>> da = shipped_library().load("bolivia-da")
>>> verify_meld(da, parse_cards(["8H", "8S", "2C", "JK"])).kind
'group'
>>> zh = shipped_library().load("bolivia-zh")
>>> can_meld(zh, parse_cards(["8H", "8S", "2C", "JK"]))
False
>>> canasta_of(da, verify_meld(da, parse_cards(["JK"] * 7)))
'bolivia'

Every refusal is an :class:`~bolivia.errors.Illegal` with a code and a sentence naming the rule
and where it comes from. The limits of each kind are checked by small functions on counts
(``group_fault``, ``sequence_fault``, ``wild_fault``, ``threes_fault``) that return the code
of the first limit broken: :func:`verify_meld` raises on it, and the game's move generator
asks the same functions, so each rule is written once.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from bolivia.cards import POSITION_RANK, RANKS, SUITS, Card
from bolivia.engine.limits import limits
from bolivia.errors import Illegal
from bolivia.rules.model import MAX_CARDS, BlackThreeMelds, GroupMelds, WildMelds
from bolivia.rules.ruleset import Ruleset
from bolivia.values import reduce_fields

__all__ = [
    "Meld",
    "can_extend",
    "can_meld",
    "canasta_bonus",
    "canasta_name",
    "canasta_of",
    "combination",
    "could_join",
    "describe",
    "extension",
    "group_codes",
    "group_fault",
    "group_table",
    "is_canasta",
    "new_meld",
    "sequence_fault",
    "sequence_places",
    "special_bonus",
    "special_index",
    "threes_fault",
    "verify_combine",
    "verify_extend",
    "verify_meld",
    "wild_fault",
]

_RED_THREES: Final[tuple[int, ...]] = (5, 6)  # card indices of 3D and 3H
RANK_INDEX: Final = {rank: i for i, rank in enumerate(RANKS)}
_BLACK_THREES: Final[tuple[int, ...]] = (4, 7)


@dataclass(frozen=True, slots=True)
class Meld:
    """A legal meld: its kind, its cards and what they are made of."""

    kind: str  # group | sequence | wild | threes
    cards: tuple[Card, ...]
    naturals: int
    wilds: int
    rank: str | None = None  # a group's rank ("3" for black threes)
    suit: str | None = None  # a sequence's suit

    def __init__(
        self,
        kind: str,
        cards: tuple[Card, ...],
        naturals: int,
        wilds: int,
        rank: str | None = None,
        suit: str | None = None,
    ) -> None:
        # written out, not generated: mypyc compiles this one (the dataclass's is interpreted,
        # and melds are built in the inner loops); the fields set as a frozen dataclass's are
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "cards", cards)
        object.__setattr__(self, "naturals", naturals)
        object.__setattr__(self, "wilds", wilds)
        object.__setattr__(self, "rank", rank)
        object.__setattr__(self, "suit", suit)

    @property
    def size(self) -> int:
        return len(self.cards)

    def __reduce__(self) -> tuple[type[Any], tuple[Any, ...]]:
        return reduce_fields(self)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


_SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}


def describe(meld: Meld) -> str:
    """``a 4-card group of 8s with 1 wild card``, ``a 5-card sequence in hearts`` and the
    like: the size first, so that a group's rank is never read as its size."""
    wild = f" with {_plural(meld.wilds, 'wild card')}" if meld.wilds else ""
    if meld.kind == "group":
        return f"a {meld.size}-card group of {meld.rank}s{wild}"
    if meld.kind == "sequence":
        suit = _SUIT_NAMES.get(meld.suit or "", meld.suit or "")
        return f"a {meld.size}-card sequence in {suit}{wild}"
    if meld.kind == "wild":
        return f"a meld of {_plural(meld.size, 'wild card')}"
    return f"a meld of {_plural(meld.naturals, 'black three')}{wild}"


def canasta_of(ruleset: Ruleset, meld: Meld) -> str | None:
    """The canasta the meld is (natural, mixed, escalera, bolivia), or None."""
    return canasta_kind(ruleset, meld.kind, len(meld.cards), meld.wilds)


def canasta_kind(ruleset: Ruleset, kind: str, size: int, wilds: int) -> str | None:
    """:func:`canasta_of` a meld of this kind, size and number of wild cards."""
    lim = limits(ruleset)
    if kind == "group":
        if wilds == 0:
            return "natural" if size >= lim.natural_size else None
        return "mixed" if size >= lim.mixed_size else None
    if kind == "sequence":
        return "escalera" if size >= lim.escalera_size else None
    if kind == "wild":
        return "bolivia" if size >= lim.bolivia_size else None
    return None


def canasta_bonus(
    ruleset: Ruleset, kind: str, cards: Sequence[Card], wilds: int, at_least: int = 0
) -> int:
    """What a canasta of this kind (``natural``, ...) holding these cards (``wilds`` of them
    wild) scores on top of its cards: the bonus of the first of ``canastas.special`` it
    matches, else its kind's. Everything that pays a canasta's bonus reads it here (or, from
    counts, in :func:`special_bonus`). ``at_least``: as if grown by natural cards to that many
    (what an unfinished meld would score as a canasta).

    >>> from bolivia.rules.library import shipped_library
    >>> from bolivia.cards import parse_cards
    >>> canasta_bonus(shipped_library().load("bolivia-da"), "bolivia", parse_cards(["JK"] * 7), 7)
    2500
    """
    size, jokers, rank = _composition(ruleset, cards)
    return special_bonus(ruleset, kind, max(size, at_least), wilds, jokers, rank)


def canasta_name(ruleset: Ruleset, kind: str, cards: Sequence[Card], wilds: int) -> str:
    """What the ruleset calls this canasta: the special canasta's name it matches, else its
    kind's (``canasta of aces``, ``mixed canasta``)."""
    size, jokers, rank = _composition(ruleset, cards)
    found = special_index(ruleset, kind, size, wilds, jokers, rank)
    canastas = ruleset.rules.canastas
    return canastas.special[found].name if found >= 0 else str(getattr(canastas, kind).name)


def _composition(ruleset: Ruleset, cards: Sequence[Card]) -> tuple[int, int, int]:
    """The cards' number, how many are jokers, and the rank index of a natural card (-1
    when none is natural)."""
    wild = limits(ruleset).wild
    jokers = 0
    rank = -1
    for card in cards:
        if card.is_joker:
            jokers += 1
        elif not wild[card.index]:
            rank = card.index >> 2
    return len(cards), jokers, rank


def special_bonus(
    ruleset: Ruleset, kind: str, size: int, wilds: int, jokers: int, rank: int
) -> int:
    """:func:`canasta_bonus` from counts: a canasta of ``kind`` of ``size`` cards, ``wilds``
    of them wild and ``jokers`` of those jokers (-1: not known, and then no entry that counts
    jokers matches), its group's rank index ``rank`` (-1: none)."""
    lim = limits(ruleset)
    found = special_index(ruleset, kind, size, wilds, jokers, rank) if lim.special else -1
    return lim.special[found][7] if found >= 0 else lim.kind_bonus[kind]


def special_index(
    ruleset: Ruleset, kind: str, size: int, wilds: int, jokers: int, rank: int
) -> int:
    """The position in ``canastas.special`` of the first entry such a canasta matches (see
    :func:`special_bonus`), or -1 when it matches none."""
    for i, (of, of_rank, min_size, min_wild, max_wild, min_jokers, max_jokers, _) in enumerate(
        limits(ruleset).special
    ):
        if (
            of == kind
            and (of_rank < 0 or of_rank == rank)
            and size >= min_size
            and min_wild <= wilds <= max_wild
            and (
                min_jokers <= jokers <= max_jokers
                if jokers >= 0
                else min_jokers == 0 and max_jokers >= MAX_CARDS
            )
        ):
            return i
    return -1


def is_canasta(ruleset: Ruleset, meld: Meld) -> bool:
    return canasta_of(ruleset, meld) is not None


# --------------------------------------------------------------------------- the limits


def _size_fault(kind: str, size: int, low: int, high: int | None) -> str | None:
    if size < low:
        return f"{kind}-too-small"
    if high is not None and size > high:
        return f"{kind}-too-large"
    return None


def group_fault(rule: GroupMelds, naturals: int, wilds: int, *, new: bool) -> str | None:
    """The first limit of ``melds.group`` a group of these counts breaks, or None."""
    size = naturals + wilds
    if new and size < rule.min_size:
        return "group-too-small"
    if naturals < rule.min_natural:
        return "group-too-few-naturals"
    if rule.max_wild is not None and wilds > rule.max_wild:
        return "group-too-many-wilds"
    if rule.ratio == "naturals_exceed_wilds" and naturals <= wilds:
        return "group-ratio"
    if rule.ratio == "naturals_twice_wilds" and naturals < 2 * wilds:
        return "group-ratio"
    if rule.max_size is not None and size > rule.max_size:
        return "group-too-large"
    return None


def group_codes(ruleset: Ruleset, *, new: bool = True) -> list[list[str | None]]:
    """``codes[n][w]``: :func:`group_fault` of a group of ``n`` naturals and ``w`` wild cards
    (a new group, or one grown on the table with ``new=False``), tabulated once per ruleset
    (kept with its :class:`~bolivia.engine.limits.Limits`). ``n`` runs to every natural of a
    rank in the pack, ``w`` to every wild card."""
    lim = limits(ruleset)
    if not lim.group_codes:
        rule = ruleset.rules.melds.group
        pack = ruleset.rules.pack
        naturals = 4 * pack.decks
        wilds = pack.jokers + 4 * pack.decks * len(pack.wild_ranks)
        codes = [
            [
                [group_fault(rule, n, w, new=fresh) for w in range(wilds + 1)]
                for n in range(naturals + 1)
            ]
            for fresh in (False, True)
        ]
        lim.group_tables = [[[c is None for c in row] for row in table] for table in codes]
        lim.group_codes = codes
    return lim.group_codes[1 if new else 0]


def group_table(ruleset: Ruleset, *, new: bool = True) -> list[list[bool]]:
    """``table[n][w]``: whether a group of ``n`` naturals and ``w`` wild cards meets the group
    limits (:func:`group_codes` is None), for the move generator."""
    lim = limits(ruleset)
    if not lim.group_tables:
        group_codes(ruleset)
    return lim.group_tables[1 if new else 0]


def _group_code(ruleset: Ruleset, naturals: int, wilds: int, new: bool) -> str | None:
    """:func:`group_fault`, from the table where the counts are within the pack's."""
    codes = group_codes(ruleset, new=new)
    if naturals < len(codes):
        row = codes[naturals]
        if wilds < len(row):
            return row[wilds]
    return group_fault(ruleset.rules.melds.group, naturals, wilds, new=new)


def wild_fault(rule: WildMelds, size: int, *, new: bool) -> str | None:
    """The first limit of ``melds.wild`` a meld of ``size`` wild cards breaks, or None."""
    if not rule.allowed:
        return "wild-not-allowed"
    return _size_fault("wild", size, rule.min_size if new else 1, rule.max_size)


def threes_fault(
    rule: BlackThreeMelds, size: int, wilds: int, *, going_out: bool, new: bool
) -> str | None:
    """The first limit of ``melds.black_threes`` broken, or None."""
    if rule.when == "never":
        return "threes-never"
    if rule.when == "going_out" and not going_out:
        return "threes-not-going-out"
    if wilds > rule.max_wild:
        return "threes-too-many-wilds"
    return _size_fault("threes", size, rule.min_size if new else 1, rule.max_size)


def sequence_fault(
    ruleset: Ruleset, ranks: Sequence[int], wilds: int, *, new: bool, going_out: bool = False
) -> str | None:
    """The first limit of ``melds.sequence`` broken by a sequence of naturals of these rank
    indexes (0 for a two ... 12 for an ace) and ``wilds`` wild cards, or None. ``going_out``:
    a sequence extended (not ``new``) by a player going out, who may take it past
    ``max_size`` where ``melds.sequence.extend_going_out`` says so. A natural ace stands
    where the span lets it (below the two, above the king) and the sequence is legal if one
    of its placements is (see :func:`sequence_places`)."""
    lim = limits(ruleset)
    if not lim.sequence_allowed:
        return "sequence-not-allowed"
    found = _placements(ruleset, ranks)
    if isinstance(found, str):
        return found
    if wilds > lim.sequence_max_wild:
        return "sequence-too-many-wilds"
    if not any(places[-1] - places[0] + 1 - len(places) <= wilds for places in found):
        if len(found) == 2 and _round_the_corner(found[0], wilds):
            return "sequence-rank"  # a run through the ace, from a king on to a two
        return "sequence-gap"
    size = len(ranks) + wilds
    if size > lim.sequence_longest:
        return "sequence-rank"
    # past max_size where a player going out extends it and extend_going_out allows
    most = lim.sequence_max_going_out if going_out and not new else lim.sequence_max_size
    return _size_fault("sequence", size, lim.sequence_min_size if new else 1, most)


def sequence_places(ruleset: Ruleset, ranks: Sequence[int], wilds: int) -> list[list[int]]:
    """Where the naturals of a sequence (rank indexes) stand, as positions in order
    (:data:`~bolivia.cards.POSITION_RANK`): one list for each placement of its aces that
    ``wilds`` wild cards fill without a gap (an ace low or high, where the span allows
    both); none when no placement does (or the ranks cannot make a sequence)."""
    found = _placements(ruleset, ranks)
    if isinstance(found, str):
        return []
    return [places for places in found if places[-1] - places[0] + 1 - len(places) <= wilds]


def _placements(ruleset: Ruleset, ranks: Sequence[int]) -> str | list[list[int]]:
    """The positions of these naturals in order, for each place their aces may take (the
    ace high first), or the code of the rank or duplicate they break."""
    lim = limits(ruleset)
    low, high = lim.span_low, lim.span_high
    wild = lim.wild
    places: list[int] = []
    aces = 0
    for r in ranks:
        if wild[r * 4]:
            return "sequence-rank"
        if r == 12:
            if high < 13 and low > 0:
                return "sequence-rank"
            aces += 1
            continue
        p = r + 1
        if p < low or p > high:
            return "sequence-rank"
        places.append(p)
    places.sort()
    for i in range(1, len(places)):
        if places[i] == places[i - 1]:
            return "sequence-duplicate"
    if not aces:
        return [places]
    if aces == 1:
        out: list[list[int]] = []
        if high == 13:
            out.append([*places, 13])
        if low == 0:
            out.append([0, *places])
        return out
    if aces == 2 and low == 0 and high == 13 and lim.two_aces:
        return [[0, *places, 13]]
    return "sequence-duplicate"


def _round_the_corner(places: list[int], wilds: int) -> bool:
    """Whether these positions (one ace among them, at 13) would make a run with ``wilds``
    wild cards if the ace could stand between a king and a two: a sequence round the corner."""
    widest = places[0] + 12 - places[-1]  # round from the last to the first
    for i in range(1, len(places)):
        widest = max(widest, places[i] - places[i - 1] - 1)
    return 13 - widest - len(places) <= wilds


def _span_text(ruleset: Ruleset) -> str:
    """Where a sequence runs, for a refusal: ``from 4 to A, without threes or wild ranks``."""
    rule = ruleset.rules.melds.sequence
    low, high = ruleset.sequence_positions
    inside = [POSITION_RANK[p] for p in range(low, high + 1)]
    wild_inside = sorted({RANKS[r] for r in inside if ruleset.wild[r * 4]}, key=RANKS.index)
    if low > 0 and 1 not in inside and not wild_inside:
        return f"a sequence runs from {rule.lowest} to {rule.highest}, without threes or wild ranks"
    lowest = "A (low, below the 2)" if low == 0 else rule.lowest
    highest = "A (high, above the K)" if high == 13 and low == 0 else rule.highest
    text = f"a sequence runs from {lowest} to {highest}"
    if low == 0 and high == 13:
        text += (
            ", an ace at either end or one at each" if rule.two_aces else ", an ace at one end only"
        ) + ", never between a K and a 2"
    if wild_inside:
        text += f"; the place of the {', '.join(wild_inside)} is filled by a wild card"
    if 1 not in inside:
        text += "; without threes"
    return text


# the sentence and the rule behind each code; built only when a refusal is raised
_TEXT: dict[str, tuple[str, Callable[[Ruleset, int, int], str]]] = {
    "group-too-small": (
        "melds.group.min_size",
        lambda r, n, w: f"a group needs at least {r.rules.melds.group.min_size} cards, not {n + w}",
    ),
    "group-too-few-naturals": (
        "melds.group.min_natural",
        lambda r, n, w: (
            f"a group needs at least {r.rules.melds.group.min_natural} natural cards, not {n}"
        ),
    ),
    "group-too-many-wilds": (
        "melds.group.max_wild",
        lambda r, n, w: (
            f"a group may hold at most "
            f"{_plural(r.rules.melds.group.max_wild or 0, 'wild card')}, "
            f"not {w}"
        ),
    ),
    "group-ratio": (
        "melds.group.ratio",
        lambda r, n, w: (
            (
                "natural cards must outnumber wild cards in a group"
                if r.rules.melds.group.ratio == "naturals_exceed_wilds"
                else "a group needs at least twice as many natural cards as wild cards"
            )
            + f" ({n} natural, {w} wild)"
        ),
    ),
    "group-too-large": (
        "melds.group.max_size",
        lambda r, n, w: f"a group holds at most {r.rules.melds.group.max_size} cards, not {n + w}",
    ),
    "wild-not-allowed": (
        "melds.wild.allowed",
        lambda r, n, w: "wild cards may not be melded on their own",
    ),
    "wild-too-small": (
        "melds.wild.min_size",
        lambda r, n, w: (
            f"a meld of wild cards needs at least {r.rules.melds.wild.min_size} cards, not {n + w}"
        ),
    ),
    "wild-too-large": (
        "melds.wild.max_size",
        lambda r, n, w: (
            f"a meld of wild cards holds at most {r.rules.melds.wild.max_size} cards, not {n + w}"
        ),
    ),
    "threes-never": ("melds.black_threes.when", lambda r, n, w: "black threes are never melded"),
    "threes-not-going-out": (
        "melds.black_threes.when",
        lambda r, n, w: "black threes may be melded only by a player going out",
    ),
    "threes-too-many-wilds": (
        "melds.black_threes.max_wild",
        lambda r, n, w: (
            f"a meld of black threes holds at most {r.rules.melds.black_threes.max_wild} wild cards"
        ),
    ),
    "threes-too-small": (
        "melds.black_threes.min_size",
        lambda r, n, w: (
            f"a meld of black threes needs at least "
            f"{r.rules.melds.black_threes.min_size} cards, not {n + w}"
        ),
    ),
    "threes-too-large": (
        "melds.black_threes.max_size",
        lambda r, n, w: (
            f"a meld of black threes holds at most "
            f"{r.rules.melds.black_threes.max_size} cards, not {n + w}"
        ),
    ),
    "sequence-not-allowed": (
        "melds.sequence.allowed",
        lambda r, n, w: "sequences may not be melded",
    ),
    "sequence-rank": (
        "melds.sequence.lowest",
        lambda r, n, w: _span_text(r),
    ),
    "sequence-duplicate": (
        "melds.sequence.allowed",
        lambda r, n, w: (
            "a sequence holds each rank once"
            + (", the ace once at each end" if r.rules.melds.sequence.two_aces else "")
        ),
    ),
    "sequence-too-many-wilds": (
        "melds.sequence.max_wild",
        lambda r, n, w: (
            f"a sequence may hold at most "
            f"{_plural(r.rules.melds.sequence.max_wild, 'wild card')}, "
            f"not {w}"
        ),
    ),
    "sequence-gap": (
        "melds.sequence.max_wild",
        lambda r, n, w: "the cards of a sequence must follow each other without a gap",
    ),
    "sequence-too-small": (
        "melds.sequence.min_size",
        lambda r, n, w: (
            f"a sequence needs at least {r.rules.melds.sequence.min_size} cards, not {n + w}"
        ),
    ),
    "sequence-too-large": (
        "melds.sequence.max_size",
        lambda r, n, w: (
            f"a sequence holds at most {r.rules.melds.sequence.max_size} cards, not {n + w}"
        ),
    ),
}


def _refuse(ruleset: Ruleset, code: str, naturals: int, wilds: int) -> Illegal:
    rule, text = _TEXT[code]
    return Illegal(code, f"{text(ruleset, naturals, wilds)} ({ruleset.cite(rule)})", rule)


# --------------------------------------------------------------------------- classifying


# a refusal found without raising: the code (or one of _PLAIN), and the naturals and wild
# cards of the meld it was found in; built into an Illegal only where one is raised
_Fault = tuple[str, int, int]
_PLAIN = {
    "empty": ("no-meld", "a meld needs cards"),
    "red-three": (
        "red-three",
        "red threes are never melded: they are laid out and scored on their own",
    ),
    "no-kind": (
        "no-meld",
        "these cards are neither of one rank nor a run of one suit, so they form no meld",
    ),
}


def _illegal(ruleset: Ruleset, fault: _Fault) -> Illegal:
    code, naturals, wilds = fault
    plain = _PLAIN.get(code)
    if plain is not None:
        return Illegal(*plain)
    return _refuse(ruleset, code, naturals, wilds)


def _classify(
    ruleset: Ruleset,
    cards: tuple[Card, ...],
    *,
    going_out: bool,
    new: bool,
    kind: str | None = None,
) -> Meld | _Fault:
    """The meld the cards make, or the first refusal (see :func:`_illegal`)."""
    if not cards:
        return ("empty", 0, 0)
    wild = limits(ruleset).wild
    naturals = [card.index for card in cards if not wild[card.index]]
    ranks = suits = 0  # a bit for each rank and suit of the naturals (no sets: many are made)
    for index in naturals:
        ranks, suits = ranks | 1 << (index >> 2), suits | 1 << (index & 3)
    n = len(naturals)
    w = len(cards) - n
    if ranks & 2 and (5 in naturals or 6 in naturals):
        return ("red-three", n, w)
    if not n:
        fault = wild_fault(ruleset.rules.melds.wild, w, new=new)
        if fault:
            return (fault, 0, w)
        return Meld("wild", cards, 0, w)
    if ranks == 1 << 1:  # black threes (red ones were refused)
        rule = ruleset.rules.melds.black_threes
        fault = threes_fault(rule, n + w, w, going_out=going_out, new=new)
        if fault:
            return (fault, n, w)
        return Meld("threes", cards, n, w, rank="3")
    group_error: _Fault | None = None
    if ranks & (ranks - 1) == 0 and kind in (None, "group"):  # one rank
        fault = _group_code(ruleset, n, w, new)
        if fault is None:
            return Meld("group", cards, n, w, rank=RANKS[naturals[0] >> 2])
        group_error = (fault, n, w)
        if n > 1 or kind == "group":
            return group_error
    if suits & (suits - 1) == 0 and kind in (None, "sequence"):  # one suit
        ranks_of = [index >> 2 for index in naturals]
        fault = sequence_fault(ruleset, ranks_of, w, new=new, going_out=going_out)
        if fault is None:
            return Meld("sequence", cards, n, w, suit=SUITS[naturals[0] & 3])
        return group_error if group_error is not None else (fault, n, w)
    return group_error if group_error is not None else ("no-kind", n, w)


def verify_meld(ruleset: Ruleset, cards: Sequence[Card], *, going_out: bool = False) -> Meld:
    """The meld ``cards`` make when laid as a new meld, or :class:`Illegal` saying why not."""
    found = _classify(ruleset, tuple(cards), going_out=going_out, new=True)
    if isinstance(found, Meld):
        return found
    raise _illegal(ruleset, found)


def new_meld(ruleset: Ruleset, cards: Sequence[Card], *, going_out: bool = False) -> Meld | None:
    """:func:`verify_meld` without the reason: the meld, or None (for move generators, which
    try many)."""
    found = _classify(ruleset, tuple(cards), going_out=going_out, new=True)
    return found if isinstance(found, Meld) else None


def can_meld(ruleset: Ruleset, cards: Sequence[Card], *, going_out: bool = False) -> bool:
    return new_meld(ruleset, cards, going_out=going_out) is not None


def could_join(ruleset: Ruleset, meld: Meld, card: Card) -> bool:
    """A quick necessary condition for :func:`verify_extend` with one card: False where no
    rule lets the card join the meld -- a natural card of another rank (a group), of another
    suit (a sequence), any natural (a wild meld), anything but a black three or a wild card
    (black threes), a wild card where that kind of meld takes none. True leaves the question
    to :func:`verify_extend`. For move generators, which try many cards on many melds."""
    lim = limits(ruleset)
    if lim.wild[card.index]:
        if meld.kind == "sequence":
            return lim.sequence_max_wild > 0
        if meld.kind == "threes":
            return lim.threes_max_wild > 0
        return True
    if meld.kind == "group":
        return card.rank == meld.rank
    if meld.kind == "sequence":
        return card.suit == meld.suit
    if meld.kind == "threes":
        return card.is_black_three
    return False


def wild_onto_canasta_fault(ruleset: Ruleset, meld: Meld, wilds: int) -> str | None:
    """``wild-onto-canasta`` when wild cards may not go onto this (finished) group."""
    if (
        wilds
        and meld.kind == "group"
        and not limits(ruleset).wild_onto_canasta
        and is_canasta(ruleset, meld)
    ):
        return "wild-onto-canasta"
    return None


def _extension(
    ruleset: Ruleset, meld: Meld, add: tuple[Card, ...], going_out: bool
) -> Meld | _Fault:
    """The meld after ``add`` is laid on it, or the first refusal."""
    if not add:
        return ("nothing", 0, 0)
    wild = limits(ruleset).wild
    if wild_onto_canasta_fault(ruleset, meld, sum(1 for card in add if wild[card.index])):
        return ("wild-onto-canasta", 0, 0)
    if meld.kind == "group" and meld.rank is not None:
        # a group taking wild cards and naturals of its rank: its counts decide (what
        # _classify finds for the whole, without going through every card again)
        rank = RANK_INDEX[meld.rank]
        n, w = meld.naturals, meld.wilds
        for card in add:
            i = card.index
            if wild[i]:
                w += 1
            elif i >> 2 == rank:
                n += 1
            else:
                break
        else:
            fault = _group_code(ruleset, n, w, False)
            if fault is not None:
                return (fault, n, w)
            return Meld("group", meld.cards + add, n, w, rank=meld.rank)
    result = _classify(
        ruleset,
        meld.cards + add,
        going_out=going_out,
        new=False,
        kind=meld.kind if meld.kind in ("group", "sequence") else None,
    )
    if not isinstance(result, Meld):
        return result
    if result.kind != meld.kind or (meld.rank, meld.suit) != (result.rank, result.suit):
        return ("extend-kind", 0, 0)
    return result


def verify_extend(
    ruleset: Ruleset, meld: Meld, add: Sequence[Card], *, going_out: bool = False
) -> Meld:
    """The meld after ``add`` is laid on it, or :class:`Illegal` saying why not."""
    add = tuple(add)
    found = _extension(ruleset, meld, add, going_out)
    if isinstance(found, Meld):
        return found
    code = found[0]
    if code == "nothing":
        raise Illegal("no-meld", "nothing to add")
    if code == "wild-onto-canasta":
        raise Illegal(
            "wild-onto-canasta",
            "no wild card may be added to a finished canasta "
            f"({ruleset.cite('melds.group.wild_onto_canasta')})",
            "melds.group.wild_onto_canasta",
        )
    if code == "extend-kind":
        raise Illegal(
            "extend-kind",
            f"{describe(meld)} cannot take {_cards(add)}: a meld keeps "
            "its kind (and rank or suit) as it grows",
        )
    exc = _illegal(ruleset, found)
    raise Illegal(exc.code, f"{describe(meld)} cannot take {_cards(add)}: {exc}", exc.rule)


def extension(
    ruleset: Ruleset, meld: Meld, add: Sequence[Card], *, going_out: bool = False
) -> Meld | None:
    """:func:`verify_extend` without the reason: the meld grown, or None (for move
    generators)."""
    found = _extension(ruleset, meld, tuple(add), going_out)
    return found if isinstance(found, Meld) else None


def verify_combine(ruleset: Ruleset, target: Meld, other: Meld) -> Meld:
    """The group ``target`` and ``other`` make when joined, or :class:`Illegal` saying why not:
    the ruleset must let a side join its groups (``melds.group.combine``), both must be groups
    of one rank, and one must be able to take the other's cards as an extension would (the
    group limits, and no wild card onto a finished canasta)."""
    if not ruleset.rules.melds.group.combine:
        raise Illegal(
            "no-combining",
            f"a side may not join two of its groups ({ruleset.cite('melds.group.combine')})",
            "melds.group.combine",
        )
    if target.kind != "group" or other.kind != "group" or target.rank != other.rank:
        raise Illegal(
            "combine-kind",
            f"only two groups of one rank can be joined, not {describe(target)} and "
            f"{describe(other)}",
        )
    joined = combination(ruleset, target, other)
    if joined is None:
        verify_extend(ruleset, target, other.cards)  # raises the first refusal
        raise AssertionError("unreachable")  # pragma: no cover
    return joined


def combination(ruleset: Ruleset, target: Meld, other: Meld) -> Meld | None:
    """:func:`verify_combine` without the reason: the group joined, or None."""
    if (
        not ruleset.rules.melds.group.combine
        or target.kind != "group"
        or other.kind != "group"
        or target.rank != other.rank
    ):
        return None
    grown = extension(ruleset, target, other.cards)
    if grown is None:
        grown = extension(ruleset, other, target.cards)
        if grown is None:
            return None
    return Meld("group", target.cards + other.cards, grown.naturals, grown.wilds, rank=grown.rank)


def can_extend(
    ruleset: Ruleset, meld: Meld, add: Sequence[Card], *, going_out: bool = False
) -> bool:
    return extension(ruleset, meld, add, going_out=going_out) is not None


def _cards(cards: Sequence[Card]) -> str:
    return " ".join(repr(card) for card in cards)
