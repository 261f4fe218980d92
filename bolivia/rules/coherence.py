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

from bolivia.cards import POSITION_RANK, RANKS
from bolivia.rules.model import POINT_KEYS, Rules, SequenceMelds, SpecialCanasta

__all__ = [
    "BY_PLAYERS",
    "achievable_canastas",
    "check",
    "covers",
    "special_canasta_impossible",
    "unseated_entries",
    "wild_cards_in_pack",
]


def wild_cards_in_pack(rules: Rules) -> int:
    """Jokers plus every copy of every wild rank."""
    return rules.pack.jokers + 4 * rules.pack.decks * len(set(rules.pack.wild_ranks))


def _natural_ranks(rules: Rules) -> list[str]:
    return [r for r in RANKS if r not in rules.pack.wild_ranks and r != "3"]


def _group_allows(rules: Rules, naturals: int, wilds: int) -> bool:
    group = rules.melds.group
    if naturals < group.min_natural:
        return False
    if group.max_wild is not None and wilds > group.max_wild:
        return False
    if group.ratio == "naturals_exceed_wilds" and naturals <= wilds:
        return False
    if group.ratio == "naturals_twice_wilds" and naturals < 2 * wilds:
        return False
    return not (group.max_size is not None and naturals + wilds > group.max_size)


def _sequence_span(rules: Rules) -> int:
    """The most positions one sequence can fill: the longest stretch of its span (at most
    ``melds.sequence.longest()``) holding a natural and no more places of a wild rank (which
    only a wild card fills) than ``max_wild``; 0 when there is none."""
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


def achievable_canastas(rules: Rules) -> dict[str, str | None]:
    """For each canasta kind, None when the rules let a side make one, else why not."""
    canastas = rules.canastas
    copies = 4 * rules.pack.decks
    wilds = wild_cards_in_pack(rules)
    out: dict[str, str | None] = {}

    size = canastas.natural.size
    out["natural"] = (
        None
        if size <= copies and _group_allows(rules, size, 0)
        else (
            f"a natural group of {size} cards is impossible (at most {copies} of a rank, "
            "and the group rules)"
        )
    )
    size = canastas.mixed.size
    mixed_possible = any(
        _group_allows(rules, size - w, w) and size - w <= copies
        for w in range(1, min(size, wilds + 1))
    )
    out["mixed"] = (
        None
        if mixed_possible
        else (f"no group of {size} cards with a wild card meets melds.group's limits")
    )
    seq = rules.melds.sequence
    size = canastas.escalera.size
    if not seq.allowed:
        out["escalera"] = "sequences are not allowed (melds.sequence.allowed: false)"
    elif size > _sequence_span(rules) + seq.max_wild or (
        seq.max_size is not None and size > seq.max_size
    ):
        out["escalera"] = f"no sequence can reach {size} cards under melds.sequence"
    else:
        out["escalera"] = None
    wild = rules.melds.wild
    size = canastas.bolivia.size
    if not wild.allowed:
        out["bolivia"] = "wild cards may not be melded alone (melds.wild.allowed: false)"
    elif size > wilds or (wild.max_size is not None and size > wild.max_size):
        out["bolivia"] = f"no wild meld can reach {size} cards"
    else:
        out["bolivia"] = None
    return out


def _kind_limits(rules: Rules, kind: str) -> tuple[int | None, int | None]:
    """The most cards and the most wild cards a meld that is a canasta of this kind may hold
    (None: no limit)."""
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


def special_canasta_impossible(rules: Rules, position: int) -> str | None:
    """Why no meld can be the special canasta at this position of ``canastas.special`` (its
    kind cannot be made, or no canasta of that kind has the composition it asks), or None."""
    entry = rules.canastas.special[position]
    kind = entry.kind
    why = achievable_canastas(rules)[kind]
    if why is not None:
        return f"no {kind} canasta can be made: {why}"
    if entry.rank is not None and kind not in ("natural", "mixed"):
        return f"{_a(kind)} canasta has no rank of its own (rank: {entry.rank})"
    if entry.rank is not None and entry.rank not in _natural_ranks(rules):
        return f"no group is of {entry.rank}s (a wild rank or the threes)"
    size = rules.canastas.model_dump()[kind]["size"]
    most_cards, most_wild = _kind_limits(rules, kind)
    if entry.min_size is not None and most_cards is not None and entry.min_size > most_cards:
        return f"{_a(kind)} canasta holds at most {most_cards} cards, not {entry.min_size}"
    least_wild = entry.min_wild + (1 if kind == "mixed" and entry.min_wild == 0 else 0)
    top = entry.max_wild if entry.max_wild is not None else most_wild
    if most_wild is not None:
        top = most_wild if top is None else min(top, most_wild)
    if kind == "bolivia":
        least_wild = max(least_wild, entry.min_size or size)
    if top is not None and least_wild > top:
        return f"it asks for {least_wild} wild cards or more, and {_a(kind)} canasta holds {top}"
    jokers = rules.pack.jokers
    if entry.min_jokers > jokers:
        return f"it asks for {entry.min_jokers} jokers, and the pack holds {jokers}"
    if entry.min_jokers > (top if top is not None else entry.min_jokers):
        return f"it asks for {entry.min_jokers} jokers, more than the {top} wild cards it may hold"
    if entry.max_jokers is not None and entry.max_jokers < entry.min_jokers:
        return f"it asks for {entry.min_jokers} jokers or more and at most {entry.max_jokers}"
    if kind == "bolivia" and entry.max_jokers is not None:
        others = 4 * rules.pack.decks * len(set(rules.pack.wild_ranks))
        if least_wild - entry.max_jokers > others:
            return (
                f"{least_wild} wild cards with at most {entry.max_jokers} jokers need more "
                f"wild cards than the pack's {others} besides its jokers"
            )
    return None


def covers(earlier: SpecialCanasta, later: SpecialCanasta) -> bool:
    """Whether every canasta the special canasta ``later`` matches is matched by ``earlier``
    (so ``later``, listed after it, never applies)."""
    return (
        earlier.kind == later.kind
        and (earlier.rank is None or earlier.rank == later.rank)
        and (earlier.min_size or 0) <= (later.min_size or 0)
        and earlier.min_wild <= later.min_wild
        and (
            earlier.max_wild is None
            or (later.max_wild is not None and later.max_wild <= earlier.max_wild)
        )
        and earlier.min_jokers <= later.min_jokers
        and (
            earlier.max_jokers is None
            or (later.max_jokers is not None and later.max_jokers <= earlier.max_jokers)
        )
    )


_KIND_FIELDS = {
    "natural": ("melds.group", "canastas.natural.size", "pack.decks"),
    "mixed": ("melds.group", "canastas.mixed.size", "pack"),
    "escalera": ("melds.sequence", "canastas.escalera.size"),
    "bolivia": ("melds.wild", "canastas.bolivia.size", "pack"),
}


BY_PLAYERS = ("going_out.requirement_by_players", "game.target_by_players")


def unseated_entries(rules: Rules) -> list[tuple[tuple[str, ...], str]]:
    """Entries of the tables by number of players (:data:`BY_PLAYERS`) for numbers who may not
    play. Such an entry never applies: a slip in the file that writes it, but nothing wrong in
    a base's table seen from a ruleset that seats fewer (limiting play to four players leaves
    the base's entry for two in place, unused)."""
    seats = rules.players.seats
    found: list[tuple[tuple[str, ...], str]] = []
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


def check(rules: Rules) -> list[tuple[tuple[str, ...], str]]:
    """Every way the rules contradict each other: (key paths involved, message).

    The first key path is where the problem shows; the others are the rules that make it one
    (a report names the one the file being checked has changed).
    """
    problems: list[tuple[tuple[str, ...], str]] = []

    def bad(path: str, message: str, *related: str) -> None:
        problems.append(((path, *related), message))

    pack = rules.pack
    pack_size = 52 * pack.decks + pack.jokers
    if "3" in pack.wild_ranks:
        bad(
            "pack.wild_ranks", "threes cannot be wild: red and black threes have rules of their own"
        )

    players = rules.players
    if players.usual not in players.seats:
        bad(
            "players.usual",
            f"{players.usual} players is not among the seatings "
            f"(players.seats has {sorted(players.seats)})",
            "players.seats",
        )
    for count, seating in sorted(players.seats.items()):
        here = f"players.seats.{count}"
        if seating.teams > count or count % seating.teams:
            bad(f"{here}.teams", f"{count} players cannot sit as {seating.teams} equal sides")
        dealt = count * seating.hand_size + 1
        if dealt > pack_size:
            bad(
                f"{here}.hand_size",
                f"dealing {seating.hand_size} cards to {count} players and "
                f"turning up one needs {dealt} cards; the pack has "
                f"{pack_size}",
                "players.seats",
                "pack",
            )
    group = rules.melds.group
    copies = 4 * pack.decks
    if group.min_natural > copies:
        bad(
            "melds.group.min_natural",
            f"a group needs {group.min_natural} natural cards of one rank; the pack holds {copies}",
        )
    if group.max_size is not None and group.max_size < group.min_size:
        bad("melds.group.max_size", f"smaller than melds.group.min_size ({group.min_size})")
    # the fewest wild cards that make n naturals a new group: more wilds never help a group
    if not any(_group_allows(rules, n, max(0, group.min_size - n)) for n in range(1, copies + 1)):
        bad("melds.group", "no group at all meets these limits")

    seq = rules.melds.sequence
    if seq.allowed:
        low, high = seq.span()
        if low >= high:
            bad(
                "melds.sequence.highest",
                f"{seq.highest} is not above melds.sequence.lowest ({seq.lowest})",
            )
        elif seq.min_size > _sequence_span(rules) + seq.max_wild:
            # threes take their place in a span through them, a wild rank's place takes a
            # wild card: only a span no sequence of min_size fits in is impossible
            bad(
                "melds.sequence.min_size",
                f"{seq.min_size} cards cannot fit between {seq.lowest} and {seq.highest}"
                + (
                    f" (the place of a wild rank takes one of at most {seq.max_wild} wild cards)"
                    if any(r in pack.wild_ranks for r in _span_ranks(seq))
                    else ""
                ),
            )
        if seq.two_aces and (seq.lowest, seq.highest) != ("A", "A"):
            bad(
                "melds.sequence.two_aces",
                "an ace at each end needs melds.sequence.lowest and highest both A, not "
                f"{seq.lowest} and {seq.highest}",
            )
        if seq.max_size is not None and seq.max_size < seq.min_size:
            bad("melds.sequence.max_size", f"smaller than melds.sequence.min_size ({seq.min_size})")

    wild = rules.melds.wild
    wilds = wild_cards_in_pack(rules)
    if wild.allowed:
        if wild.max_size is not None and wild.max_size < wild.min_size:
            bad("melds.wild.max_size", f"smaller than melds.wild.min_size ({wild.min_size})")
        if wild.min_size > wilds:
            bad("melds.wild.min_size", f"the pack holds only {wilds} wild cards")

    threes = rules.melds.black_threes
    if threes.when != "never":
        if threes.min_size > 2 * pack.decks + threes.max_wild:
            bad("melds.black_threes.min_size", f"the pack holds only {2 * pack.decks} black threes")
        if threes.max_size is not None and threes.max_size < threes.min_size:
            bad("melds.black_threes.max_size", "smaller than melds.black_threes.min_size")

    bands = rules.initial_meld.bands
    if bands[0].from_score is not None:
        bad(
            "initial_meld.bands",
            "the first band starts at 'from: null' (every score below the next band)",
        )
    starts = [band.from_score for band in bands[1:]]
    if any(start is None for start in starts):
        bad("initial_meld.bands", "only the first band has 'from: null'")
    else:
        numbers = [s for s in starts if s is not None]
        # the first band out of order is named: the list itself may be long
        wrong = next(
            (i for i, (a, b) in enumerate(itertools.pairwise(numbers), start=1) if b <= a), None
        )
        if wrong is not None:
            bad(
                "initial_meld.bands",
                f"bands out of order: bands[{wrong + 1}] starts at {numbers[wrong]}, not above "
                f"bands[{wrong}] ({numbers[wrong - 1]}); each band starts above the one before",
            )

    pile = rules.pile
    if pile.take_top.allowed and not pile.take_top.onto_kinds:
        bad("pile.take_top.onto_kinds", "taking the top card is allowed but onto no kind of meld")
    if "onto_meld" in (*pile.take_frozen, *pile.take_unfrozen) and not pile.onto_kinds:
        bad("pile.onto_kinds", "the pile may be taken onto a meld, but onto no kind of meld")
    allowed_kinds = {"group": True, "sequence": seq.allowed, "wild": wild.allowed}
    for path, kinds in (
        ("pile.onto_kinds", pile.onto_kinds),
        ("pile.take_top.onto_kinds", pile.take_top.onto_kinds),
    ):
        used = path == "pile.onto_kinds" or pile.take_top.allowed
        for kind in kinds:
            if used and not allowed_kinds[kind]:
                bad(
                    path,
                    f"{kind} melds are not allowed (melds.{kind}.allowed: false)",
                    f"melds.{kind}.allowed",
                )

    reachable = achievable_canastas(rules)
    requirements = [("going_out.requirement", rules.going_out.requirement)] + [
        (f"going_out.requirement_by_players.{n}", r)
        for n, r in sorted(rules.going_out.requirement_by_players.items())
    ]
    for path, requirement in requirements:
        needed = sum(requirement.including.values())
        if needed > requirement.count:
            bad(path, f"{needed} canastas of named kinds, but only {requirement.count} in all")
        for canasta in requirement.including:
            reason = reachable.get(canasta)
            if reason is not None:
                article = "an" if canasta[0] in "aeiou" else "a"
                bad(
                    path,
                    f"requires {article} {canasta} canasta, which cannot be made: {reason}",
                    *_KIND_FIELDS[canasta],
                )
        if requirement.count and all(reason is not None for reason in reachable.values()):
            bad(
                path,
                "requires canastas, and no kind of canasta can be made",
                *(f for fields in _KIND_FIELDS.values() for f in fields),
            )
        smallest = min(getattr(rules.canastas, kind).size for kind in reachable)
        if requirement.count * smallest > pack_size:
            bad(path, f"{requirement.count} canastas need more cards than the pack holds")

    missing = [key for key in POINT_KEYS if key not in rules.scoring.card_points]
    if missing:
        bad("scoring.card_points", f"no points given for {', '.join(missing)}")
    return problems
