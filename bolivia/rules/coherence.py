"""Checks that a ruleset's rules make sense together.

Each field may be valid on its own and the whole still impossible: a deal larger than the pack,
a going-out requirement the meld rules never let a side meet, a band table out of order. These
are errors (the ruleset is refused). Rules that are merely odd -- unreachable limits, values no
source uses -- are the linter's business, not this module's.

>>> from bolivia.rules.library import shipped_library
>>> check(shipped_library().load("bolivia-da").rules)
[]
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Mapping

from bolivia.cards import POSITION_RANK, RANKS
from bolivia.rules.model import (
    CANASTA_KINDS,
    POINT_KEYS,
    PlusWhenCanastas,
    Requirement,
    Rules,
    SequenceMelds,
    SpecialCanasta,
)

__all__ = [
    "BY_PLAYERS",
    "Contradiction",
    "achievable_canastas",
    "check",
    "covers",
    "special_canasta_impossible",
    "unseated_entries",
    "wild_cards_in_pack",
]


# A contradiction: the key paths involved (where it shows first), and the message.
Contradiction = tuple[tuple[str, ...], str]


def wild_cards_in_pack(rules: Rules) -> int:
    """Jokers plus every copy of every wild rank."""
    return rules.pack.jokers + 4 * rules.pack.decks * len(set(rules.pack.wild_ranks))


def _natural_ranks(rules: Rules) -> list[str]:
    return [r for r in RANKS if r not in rules.pack.wild_ranks and r != "3"]


def _pack_size(rules: Rules) -> int:
    return 52 * rules.pack.decks + rules.pack.jokers


# Whether so many naturals and wild cards meet melds.group.ratio, by the ratio's name.
_RATIOS: dict[str, Callable[[int, int], bool]] = {
    "any": lambda naturals, wilds: True,
    "naturals_exceed_wilds": lambda naturals, wilds: naturals > wilds,
    "naturals_twice_wilds": lambda naturals, wilds: naturals >= 2 * wilds,
}


def _group_allows(rules: Rules, naturals: int, wilds: int) -> bool:
    group = rules.melds.group
    if naturals < group.min_natural:
        return False
    if group.max_wild is not None and wilds > group.max_wild:
        return False
    if not _RATIOS[group.ratio](naturals, wilds):
        return False
    return not (group.max_size is not None and naturals + wilds > group.max_size)


def _sequence_span(rules: Rules) -> int:
    """The most positions one sequence can fill; 0 when there is none.

    That is the longest stretch of its span (at most ``melds.sequence.longest()``) that holds a
    natural. A place of a wild rank takes a wild card, so a stretch holds no more of them than
    ``max_wild``.
    """
    seq = rules.melds.sequence
    low, high = seq.span()
    wild = [RANKS[POSITION_RANK[p]] in rules.pack.wild_ranks for p in range(14)]
    best = 0
    for a in range(low, high + 1):
        places = 0
        natural = False
        for b in range(a, min(high, a + seq.longest() - 1) + 1):
            places += wild[b]
            natural = natural or not wild[b]
            if places > seq.max_wild:
                break
            if natural:
                best = max(best, b - a + 1)
    return best


def _span_ranks(seq: SequenceMelds) -> list[str]:
    low, high = seq.span()
    return [RANKS[POSITION_RANK[p]] for p in range(low, high + 1)]


# --------------------------------------------------------------------------- canastas


def _natural_unmade(rules: Rules) -> str | None:
    """Why no natural canasta can be made, or None."""
    size = rules.canastas.natural.size
    copies = 4 * rules.pack.decks
    if size <= copies and _group_allows(rules, size, 0):
        return None
    return (
        f"a natural group of {size} cards is impossible (at most {copies} of a rank, "
        "and the group rules)"
    )


def _mixed_unmade(rules: Rules) -> str | None:
    """Why no mixed canasta can be made, or None."""
    size = rules.canastas.mixed.size
    copies = 4 * rules.pack.decks
    wilds = wild_cards_in_pack(rules)
    if any(
        _group_allows(rules, size - w, w) and size - w <= copies
        for w in range(1, min(size, wilds + 1))
    ):
        return None
    return f"no group of {size} cards with a wild card meets melds.group's limits"


def _escalera_unmade(rules: Rules) -> str | None:
    """Why no escalera can be made, or None."""
    seq = rules.melds.sequence
    size = rules.canastas.escalera.size
    if not seq.allowed:
        return "sequences are not allowed (melds.sequence.allowed: false)"
    if size > _sequence_span(rules) + seq.max_wild or (
        seq.max_size is not None and size > seq.max_size
    ):
        return f"no sequence can reach {size} cards under melds.sequence"
    return None


def _bolivia_unmade(rules: Rules) -> str | None:
    """Why no bolivia (a canasta of wild cards) can be made, or None."""
    wild = rules.melds.wild
    size = rules.canastas.bolivia.size
    if not wild.allowed:
        return "wild cards may not be melded alone (melds.wild.allowed: false)"
    if size > wild_cards_in_pack(rules) or (wild.max_size is not None and size > wild.max_size):
        return f"no wild meld can reach {size} cards"
    return None


# Why a canasta of each kind cannot be made, in the order of the kinds.
_UNMADE: dict[str, Callable[[Rules], str | None]] = {
    "natural": _natural_unmade,
    "mixed": _mixed_unmade,
    "escalera": _escalera_unmade,
    "bolivia": _bolivia_unmade,
}


def achievable_canastas(rules: Rules) -> dict[str, str | None]:
    """For each canasta kind, None when the rules let a side make one, else why not."""
    return {kind: unmade(rules) for kind, unmade in _UNMADE.items()}


def _kind_limits(rules: Rules, kind: str) -> tuple[int | None, int | None]:
    """The most cards and the most wild cards a canasta of this kind may hold.

    None is no limit.
    """
    melds = rules.melds
    if kind in ("natural", "mixed"):
        return melds.group.max_size, 0 if kind == "natural" else melds.group.max_wild
    if kind == "escalera":
        seq = melds.sequence
        span = _sequence_span(rules) + seq.max_wild
        return (span if seq.max_size is None else min(span, seq.max_size)), seq.max_wild
    wilds = wild_cards_in_pack(rules)
    most = wilds if melds.wild.max_size is None else min(wilds, melds.wild.max_size)
    return most, most


def _a(kind: str) -> str:
    return f"{'an' if kind[0] in 'aeiou' else 'a'} {kind}"


def _kind_fault(rules: Rules, entry: SpecialCanasta) -> str | None:
    """Why a special canasta's kind or rank cannot be, or None."""
    kind = entry.kind
    why = achievable_canastas(rules)[kind]
    if why is not None:
        return f"no {kind} canasta can be made: {why}"
    if entry.rank is not None and kind not in ("natural", "mixed"):
        return f"{_a(kind)} canasta has no rank of its own (rank: {entry.rank})"
    if entry.rank is not None and entry.rank not in _natural_ranks(rules):
        return f"no group is of {entry.rank}s (a wild rank or the threes)"
    return None


def _wild_range(rules: Rules, entry: SpecialCanasta) -> tuple[int, int | None]:
    """The fewest wild cards a special canasta asks for, and the most it may hold.

    A mixed canasta holds one wild card at least; a bolivia is wild cards only.
    """
    kind = entry.kind
    _, most_wild = _kind_limits(rules, kind)
    least = entry.min_wild + (1 if kind == "mixed" and entry.min_wild == 0 else 0)
    top = entry.max_wild if entry.max_wild is not None else most_wild
    if most_wild is not None:
        top = most_wild if top is None else min(top, most_wild)
    if kind == "bolivia":
        least = max(least, entry.min_size or rules.canastas.bolivia.size)
    return least, top


def _size_fault(rules: Rules, entry: SpecialCanasta) -> str | None:
    """Why no canasta of the kind holds the cards a special canasta asks for, or None."""
    kind = entry.kind
    most_cards, _ = _kind_limits(rules, kind)
    if entry.min_size is not None and most_cards is not None and entry.min_size > most_cards:
        return f"{_a(kind)} canasta holds at most {most_cards} cards, not {entry.min_size}"
    least_wild, top = _wild_range(rules, entry)
    if top is not None and least_wild > top:
        return f"it asks for {least_wild} wild cards or more, and {_a(kind)} canasta holds {top}"
    return None


def _joker_fault(rules: Rules, entry: SpecialCanasta) -> str | None:
    """Why the jokers a special canasta asks for cannot be, or None."""
    least_wild, top = _wild_range(rules, entry)
    jokers = rules.pack.jokers
    if entry.min_jokers > jokers:
        return f"it asks for {entry.min_jokers} jokers, and the pack holds {jokers}"
    if entry.min_jokers > (top if top is not None else entry.min_jokers):
        return f"it asks for {entry.min_jokers} jokers, more than the {top} wild cards it may hold"
    if entry.max_jokers is not None and entry.max_jokers < entry.min_jokers:
        return f"it asks for {entry.min_jokers} jokers or more and at most {entry.max_jokers}"
    if entry.kind == "bolivia" and entry.max_jokers is not None:
        others = 4 * rules.pack.decks * len(set(rules.pack.wild_ranks))
        if least_wild - entry.max_jokers > others:
            return (
                f"{least_wild} wild cards with at most {entry.max_jokers} jokers need more "
                f"wild cards than the pack's {others} besides its jokers"
            )
    return None


def special_canasta_impossible(rules: Rules, position: int) -> str | None:
    """Why no meld can be the special canasta at this position, or None.

    Its kind may be impossible, or no canasta of that kind may have the composition it asks.
    """
    entry = rules.canastas.special[position]
    return _kind_fault(rules, entry) or _size_fault(rules, entry) or _joker_fault(rules, entry)


def _at_most(limit: int | None, within: int | None) -> bool:
    """Whether a limit lies within another (None: no limit)."""
    return within is None or (limit is not None and limit <= within)


def covers(earlier: SpecialCanasta, later: SpecialCanasta) -> bool:
    """Whether ``earlier`` matches every canasta that ``later`` matches.

    Then ``later``, listed after it, never applies.
    """
    return (
        earlier.kind == later.kind
        and (earlier.rank is None or earlier.rank == later.rank)
        and (earlier.min_size or 0) <= (later.min_size or 0)
        and earlier.min_wild <= later.min_wild
        and _at_most(later.max_wild, earlier.max_wild)
        and earlier.min_jokers <= later.min_jokers
        and _at_most(later.max_jokers, earlier.max_jokers)
    )


_KIND_FIELDS = {
    "natural": ("melds.group", "canastas.natural.size", "pack.decks"),
    "mixed": ("melds.group", "canastas.mixed.size", "pack"),
    "escalera": ("melds.sequence", "canastas.escalera.size"),
    "bolivia": ("melds.wild", "canastas.bolivia.size", "pack"),
}


BY_PLAYERS = ("going_out.requirement_by_players", "game.target_by_players")


def unseated_entries(rules: Rules) -> list[Contradiction]:
    """Entries of the tables by number of players for numbers who may not play.

    The tables are :data:`BY_PLAYERS`. Such an entry never applies. It is a slip in the file
    that writes it, but nothing wrong in a base's table seen from a ruleset that seats fewer:
    limiting play to four players leaves the base's entry for two in place, unused.
    """
    seats = rules.players.seats
    found: list[Contradiction] = []
    for table in BY_PLAYERS:
        section, name = table.split(".")
        for count in sorted(getattr(getattr(rules, section), name)):
            if count not in seats:
                message = (
                    f"an entry for {count} players, who are not allowed "
                    f"(players.seats has {sorted(seats)})"
                )
                found.append(((table, "players.seats"), message))
    return found


# --------------------------------------------------------------------------- the checks


def _bad(path: str, message: str, *related: str) -> Contradiction:
    return (path, *related), message


def _pack_problems(rules: Rules) -> Iterator[Contradiction]:
    if "3" in rules.pack.wild_ranks:
        yield _bad(
            "pack.wild_ranks", "threes cannot be wild: red and black threes have rules of their own"
        )


def _seating_problems(rules: Rules) -> Iterator[Contradiction]:
    players = rules.players
    if players.usual not in players.seats:
        yield _bad(
            "players.usual",
            f"{players.usual} players is not among the seatings "
            f"(players.seats has {sorted(players.seats)})",
            "players.seats",
        )
    pack_size = _pack_size(rules)
    for count, seating in sorted(players.seats.items()):
        here = f"players.seats.{count}"
        if seating.teams > count or count % seating.teams:
            yield _bad(
                f"{here}.teams", f"{count} players cannot sit as {seating.teams} equal sides"
            )
        foot = rules.deal.foot.cards if rules.deal.foot is not None else 0
        aside = sum(rules.deal.bonus_piles)
        dealt = count * (seating.hand_size + foot) + aside + int(rules.deal.upcard)
        if dealt > pack_size:
            also = [
                *([f"a foot of {foot} to each"] if foot else []),
                *([f"{aside} in bonus piles"] if aside else []),
                *(["turning up one"] if rules.deal.upcard else []),
            ]
            yield _bad(
                f"{here}.hand_size",
                f"dealing {seating.hand_size} cards to {count} players"
                + "".join(f", {a}" for a in also[:-1])
                + (f" and {also[-1]}" if also else "")
                + f" needs {dealt} cards; the pack has {pack_size}",
                "players.seats",
                "pack",
                *(["deal.foot"] if foot else []),
                *(["deal.bonus_piles"] if aside else []),
            )


def _group_problems(rules: Rules) -> Iterator[Contradiction]:
    group = rules.melds.group
    copies = 4 * rules.pack.decks
    if group.min_natural > copies:
        yield _bad(
            "melds.group.min_natural",
            f"a group needs {group.min_natural} natural cards of one rank; the pack holds {copies}",
        )
    if group.max_size is not None and group.max_size < group.min_size:
        yield _bad("melds.group.max_size", f"smaller than melds.group.min_size ({group.min_size})")
    # the fewest wild cards that make n naturals a new group: more wilds never help a group
    if not any(_group_allows(rules, n, max(0, group.min_size - n)) for n in range(1, copies + 1)):
        yield _bad("melds.group", "no group at all meets these limits")


def _sequence_fit(rules: Rules) -> Contradiction | None:
    """The sequence's span against its least size: too short, or out of order."""
    seq = rules.melds.sequence
    low, high = seq.span()
    if low >= high:
        return _bad(
            "melds.sequence.highest",
            f"{seq.highest} is not above melds.sequence.lowest ({seq.lowest})",
        )
    if seq.min_size <= _sequence_span(rules) + seq.max_wild:
        return None
    # threes take their place in a span through them, a wild rank's place takes a wild card:
    # only a span no sequence of min_size fits in is impossible
    wild_place = any(r in rules.pack.wild_ranks for r in _span_ranks(seq))
    return _bad(
        "melds.sequence.min_size",
        f"{seq.min_size} cards cannot fit between {seq.lowest} and {seq.highest}"
        + (
            f" (the place of a wild rank takes one of at most {seq.max_wild} wild cards)"
            if wild_place
            else ""
        ),
    )


def _sequence_problems(rules: Rules) -> Iterator[Contradiction]:
    seq = rules.melds.sequence
    if not seq.allowed:
        return
    fit = _sequence_fit(rules)
    if fit is not None:
        yield fit
    if seq.two_aces and (seq.lowest, seq.highest) != ("A", "A"):
        yield _bad(
            "melds.sequence.two_aces",
            "an ace at each end needs melds.sequence.lowest and highest both A, not "
            f"{seq.lowest} and {seq.highest}",
        )
    if seq.max_size is not None and seq.max_size < seq.min_size:
        yield _bad(
            "melds.sequence.max_size", f"smaller than melds.sequence.min_size ({seq.min_size})"
        )
    longest = _sequence_span(rules) + seq.max_wild
    if seq.max_size is not None:
        longest = min(longest, seq.max_size)
    if seq.max_wild and seq.wild_from_size is not None and seq.wild_from_size > longest:
        yield _bad(
            "melds.sequence.wild_from_size",
            f"{seq.wild_from_size} cards is more than a sequence may hold ({longest}): no "
            "sequence could hold a wild card (melds.sequence.max_wild: 0 says that)",
        )


def _wild_meld_problems(rules: Rules) -> Iterator[Contradiction]:
    wild = rules.melds.wild
    if not wild.allowed:
        return
    if wild.max_size is not None and wild.max_size < wild.min_size:
        yield _bad("melds.wild.max_size", f"smaller than melds.wild.min_size ({wild.min_size})")
    wilds = wild_cards_in_pack(rules)
    if wild.min_size > wilds:
        yield _bad("melds.wild.min_size", f"the pack holds only {wilds} wild cards")


def _black_three_problems(rules: Rules) -> Iterator[Contradiction]:
    threes = rules.melds.black_threes
    if threes.when == "never":
        return
    decks = rules.pack.decks
    if threes.min_size > 2 * decks + threes.max_wild:
        yield _bad("melds.black_threes.min_size", f"the pack holds only {2 * decks} black threes")
    if threes.max_size is not None and threes.max_size < threes.min_size:
        yield _bad("melds.black_threes.max_size", "smaller than melds.black_threes.min_size")


def _band_problems(rules: Rules) -> Iterator[Contradiction]:
    bands = rules.initial_meld.bands
    if bands[0].from_score is not None:
        yield _bad(
            "initial_meld.bands",
            "the first band starts at 'from: null' (every score below the next band)",
        )
    starts = [band.from_score for band in bands[1:]]
    if any(start is None for start in starts):
        yield _bad("initial_meld.bands", "only the first band has 'from: null'")
        return
    numbers = [s for s in starts if s is not None]
    # the first band out of order is named: the list itself may be long
    wrong = next(
        (i for i, (a, b) in enumerate(itertools.pairwise(numbers), start=1) if b <= a), None
    )
    if wrong is not None:
        yield _bad(
            "initial_meld.bands",
            f"bands out of order: bands[{wrong + 1}] starts at {numbers[wrong]}, not above "
            f"bands[{wrong}] ({numbers[wrong - 1]}); each band starts above the one before",
        )


def _pile_problems(rules: Rules) -> Iterator[Contradiction]:
    pile = rules.pile
    if pile.take_top.allowed and not pile.take_top.onto_kinds:
        yield _bad(
            "pile.take_top.onto_kinds", "taking the top card is allowed but onto no kind of meld"
        )
    if "onto_meld" in (*pile.take_frozen, *pile.take_unfrozen) and not pile.onto_kinds:
        yield _bad("pile.onto_kinds", "the pile may be taken onto a meld, but onto no kind of meld")
    melds = rules.melds
    allowed_kinds = {"group": True, "sequence": melds.sequence.allowed, "wild": melds.wild.allowed}
    used = [("pile.onto_kinds", pile.onto_kinds)]
    if pile.take_top.allowed:
        used.append(("pile.take_top.onto_kinds", pile.take_top.onto_kinds))
    for path, kinds in used:
        for kind in kinds:
            if not allowed_kinds[kind]:
                yield _bad(
                    path,
                    f"{kind} melds are not allowed (melds.{kind}.allowed: false)",
                    f"melds.{kind}.allowed",
                )


def _requirement_problems(
    rules: Rules, path: str, requirement: Requirement, reachable: dict[str, str | None]
) -> Iterator[Contradiction]:
    """What keeps one going-out requirement from ever being met."""
    needed = sum(requirement.including.values())
    if needed > requirement.count:
        yield _bad(path, f"{needed} canastas of named kinds, but only {requirement.count} in all")
    yield from _unknown_names(rules, f"{path}.including", requirement.including)
    yield from _unmade_kinds(path, requirement, reachable)
    if requirement.count and all(reason is not None for reason in reachable.values()):
        yield _bad(
            path,
            "requires canastas, and no kind of canasta can be made",
            *(f for fields in _KIND_FIELDS.values() for f in fields),
        )
    smallest = min(getattr(rules.canastas, kind).size for kind in reachable)
    if requirement.count * smallest > _pack_size(rules):
        yield _bad(path, f"{requirement.count} canastas need more cards than the pack holds")


def _unmade_kinds(
    path: str, requirement: Requirement, reachable: dict[str, str | None]
) -> Iterator[Contradiction]:
    """The kinds of canasta a requirement names that cannot be made."""
    for canasta in requirement.including:
        reason = reachable.get(canasta)  # a special canasta's name: said of canastas.special
        if reason is not None:
            yield _bad(
                path,
                f"requires {_a(canasta)} canasta, which cannot be made: {reason}",
                *_KIND_FIELDS[canasta],
            )


def _going_out_problems(rules: Rules) -> Iterator[Contradiction]:
    reachable = achievable_canastas(rules)
    going_out = rules.going_out
    yield from _requirement_problems(
        rules, "going_out.requirement", going_out.requirement, reachable
    )
    for n, requirement in sorted(going_out.requirement_by_players.items()):
        path = f"going_out.requirement_by_players.{n}"
        yield from _requirement_problems(rules, path, requirement, reachable)


def _unknown_names(rules: Rules, key: str, including: Mapping[str, int]) -> Iterator[Contradiction]:
    """The canastas ``including`` names that are neither a kind nor a special canasta (at the
    key path ``key``)."""
    specials = {entry.name for entry in rules.canastas.special}
    for name in including:
        if name not in CANASTA_KINDS and name not in specials:
            known = ", ".join([*CANASTA_KINDS, *(repr(s) for s in sorted(specials))])
            yield _bad(
                key,
                f"{name!r} is neither a kind of canasta nor a special canasta of "
                f"canastas.special (known: {known})",
                "canastas.special",
            )


def _red_three_problems(rules: Rules) -> Iterator[Contradiction]:
    when = rules.red_threes.plus_when
    if isinstance(when, PlusWhenCanastas):
        path = "red_threes.plus_when"
        yield from _unknown_names(rules, f"{path}.including", when.including)
        needed = sum(when.including.values())
        if needed > when.count:
            yield _bad(path, f"{needed} canastas of named kinds, but only {when.count} in all")


def _discard_problems(rules: Rules) -> Iterator[Contradiction]:
    """Bars on the discard whose condition names no canasta, or one the rules do not have."""
    for i, bar in enumerate(rules.pile.discard_barred):
        path = f"pile.discard_barred.{i}"
        if bar.until in ("never", "first_round") and bar.canasta is not None:
            lifts = "never lifts" if bar.until == "never" else "lifts after the first round"
            yield _bad(path, f"names a canasta, but the bar {lifts} (until: {bar.until})")
        elif bar.until not in ("never", "first_round") and bar.canasta is None:
            yield _bad(path, f"lifts once a side has a canasta ({bar.until}), but names none")
        if bar.canasta is not None:
            yield from _unknown_names(rules, f"{path}.canasta", {bar.canasta: 1})


def _card_point_problems(rules: Rules) -> Iterator[Contradiction]:
    missing = [key for key in POINT_KEYS if key not in rules.scoring.card_points]
    if missing:
        yield _bad("scoring.card_points", f"no points given for {', '.join(missing)}")


# Each part of the rules checked, in the order its problems are told.
def _special_problems(rules: Rules) -> Iterator[Contradiction]:
    """Special canastas no canasta is ever paid as: none can be made, or an earlier entry
    matches every canasta it matches."""
    specials = rules.canastas.special
    for i, entry in enumerate(specials):
        why = special_canasta_impossible(rules, i)
        related = _KIND_FIELDS[entry.kind] if why is not None else ()
        shadow = next((j for j in range(i) if covers(specials[j], entry)), None)
        if why is None and shadow is not None:
            why = (
                f"every canasta it matches matches entry {shadow + 1} "
                f"({specials[shadow].name}) first"
            )
        if why is not None:
            yield _bad(
                f"canastas.special.{i}",
                f"the special canasta {entry.name!r} (entry {i + 1}) is never paid: {why}",
                *related,
            )


_CHECKS: tuple[Callable[[Rules], Iterator[Contradiction]], ...] = (
    _pack_problems,
    _seating_problems,
    _group_problems,
    _sequence_problems,
    _wild_meld_problems,
    _black_three_problems,
    _band_problems,
    _pile_problems,
    _going_out_problems,
    _red_three_problems,
    _discard_problems,
    _card_point_problems,
    _special_problems,
)


def check(rules: Rules) -> list[Contradiction]:
    """Every way the rules contradict each other: (key paths involved, message).

    The first key path is where the problem shows. The others are the rules that make it one:
    a report names the one the file being checked has changed.
    """
    return [found for step in _CHECKS for found in step(rules)]
