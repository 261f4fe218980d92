"""The rule values the move generators and bounds read in their inner loops, as plain
attributes: read once from a ruleset's records (:class:`~bolivia.rules.model.Rules`) and kept
with the ruleset, so that a loop reads ``limits.escalera_size`` rather than a chain of
records (``ruleset.rules.canastas.escalera.size``). Nothing here decides a rule; the rule
modules do, from the same values.

>>> from bolivia.rules.library import shipped_library
>>> found = limits(shipped_library().load("bolivia-da"))
>>> found.escalera_size, found.group_max_wild, found.requirement(4)
(7, 2, (2, ((2, 1),)))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from bolivia.cards import POSITION_RANK, RANKS, Card
from bolivia.kept import Kept
from bolivia.rules.model import (
    MAX_CARDS,
    Band,
    CanastaRequirement,
    Canastas,
    SequenceMelds,
    SpecialCanasta,
)
from bolivia.rules.ruleset import Ruleset

__all__ = ["KINDS", "Limits", "limits"]

#: the canasta kinds, in the order of the counts the bounds keep
KINDS: Final[tuple[str, ...]] = ("natural", "mixed", "escalera", "bolivia")
KIND_INDEX: Final = {kind: i for i, kind in enumerate(KINDS)}
RUNS_KEPT: Final = 10_000  # the most table runs whose placements are kept (then cleared)


class Limits:
    """A ruleset's values for the hot path (see the module); build it with :func:`limits`."""

    def __init__(self, ruleset: Ruleset) -> None:
        # Each value is worked out by a function of the records, never of ``self``: the compiled
        # build then knows every attribute is set and reads it without a check.
        rules = ruleset.rules
        self.wild: tuple[bool, ...] = ruleset.wild
        self.wild_indices: tuple[int, ...] = ruleset.wild_indices
        self.points: tuple[int, ...] = ruleset.points
        self.pack: list[int] = _pack_indices(ruleset)  # sorted
        self.decks: int = rules.pack.decks
        canastas = rules.canastas
        self.natural_size: int = canastas.natural.size
        self.mixed_size: int = canastas.mixed.size
        self.escalera_size: int = canastas.escalera.size
        self.bolivia_size: int = canastas.bolivia.size
        self.group_canasta: int = min(self.natural_size, self.mixed_size)
        # whether a group may grow to a natural (a mixed) canasta at all: a cap on a group's
        # size below the canasta's keeps groups from ever being one
        self.natural_reachable: bool = _within(rules.melds.group.max_size, canastas.natural.size)
        self.mixed_reachable: bool = _within(rules.melds.group.max_size, canastas.mixed.size)
        self.kind_size: dict[str, int] = _by_kind(canastas, "size")
        self.kind_bonus: dict[str, int] = _by_kind(canastas, "bonus")
        self.special: tuple[tuple[str, int, int, int, int, int, int, int], ...] = _special(
            canastas.special
        )
        group = rules.melds.group
        self.group_max_wild: int | None = group.max_wild
        self.group_min_natural: int = group.min_natural
        self.duplicate_ranks: bool = group.duplicate_ranks
        self.combine: bool = group.combine
        self.wild_onto_canasta: bool = group.wild_onto_canasta
        sequence = rules.melds.sequence
        self.sequence_allowed: bool = sequence.allowed
        self.sequence_min_size: int = sequence.min_size
        self.sequence_max_size: int | None = sequence.max_size
        # the most cards of a sequence extended by a player going out (None: no limit)
        self.sequence_max_going_out: int | None = _max_going_out(sequence)
        self.sequence_max_wild: int = sequence.max_wild
        # the fewest cards of a sequence that holds a wild card (0: no more than any sequence)
        self.sequence_wild_from: int = sequence.wild_from_size or 0
        self.two_aces: bool = sequence.two_aces
        # the span of a sequence in positions (see cards.POSITION_RANK), the most positions one
        # fills, and for each rank index the positions in the span a natural of it may take
        # (none for a wild rank; the ace's 0 and 13 where the span reaches them)
        low, high = ruleset.sequence_positions
        self.span_low: int = low
        self.span_high: int = high
        self.sequence_longest: int = sequence.longest()
        self.rank_positions: tuple[tuple[int, ...], ...] = _rank_positions(low, high, self.wild)
        # the ranks a sequence's naturals may be of, and the positions they take, a bit each;
        # whether a position in the span takes only a wild card (a wild rank's)
        self.run_ranks: int = _rank_bits(self.rank_positions)
        self.run_places: int = _place_bits(self.rank_positions)
        self.wild_place: tuple[bool, ...] = _wild_places(self.wild)
        # whether the two of a sequence's suit may stand in the two's place as a natural card
        # (melds.sequence.natural_twos, where twos are wild and the span holds the place)
        self.natural_twos: bool = sequence.natural_twos and bool(self.wild[0]) and low <= 1 <= high
        # the bounds of the search for a way out (bolivia.play.table.bounds.checks), made on
        # first use: the native bounds' where the build has them, else the Python's
        self.bound_checks: object = None
        # the last deck a hand of the ruleset was dealt from, found to be its pack (a tuple:
        # the same object is the same cards; see bolivia.play.table.state), or None
        self.deck_checked: tuple[int, ...] | None = None
        # each run of a table's placements (see bolivia.play.table.bounds), kept by the run
        self.run_places_kept: Kept[int, tuple[tuple[int, int, int], ...]] = Kept(RUNS_KEPT)
        # for each suit, the card (index) at each position, -1 where only a wild card goes
        self.suit_places: tuple[tuple[int, ...], ...] = _suit_places(
            self.wild_place, self.natural_twos
        )
        # the same, every wild rank's place left out (a natural two's too: a streak passes
        # it): each suit's naturals along the span (read, never changed)
        self.suit_span: tuple[list[int], ...] = _suit_span(
            _suit_places(self.wild_place, False), low, high
        )
        threes = rules.melds.black_threes
        self.threes_when: str = threes.when
        self.threes_max_wild: int = threes.max_wild
        self.threes_min_size: int = threes.min_size
        wild_melds = rules.melds.wild
        self.wild_allowed: bool = wild_melds.allowed
        self.wild_min_size: int = wild_melds.min_size
        self.wild_max_size: int | None = wild_melds.max_size
        # group_fault of every count of naturals and wild cards the pack holds, for a group
        # grown on the table ([0]) and a new one ([1]), and whether it is None: tabulated on
        # first use by the group rules (bolivia.engine.groups), which own the check
        self.group_codes: list[list[list[str | None]]] = []
        self.group_tables: list[list[list[bool]]] = []
        self.ask_partner: str = rules.going_out.ask_partner
        # the ranks a group may be of and a canasta made of: not threes, not wild
        self.group_ranks: tuple[int, ...] = _group_ranks(self.wild)
        # the natural cards (by index): what the search for a way out places (a list, read
        # and never changed)
        self.natural_indices: list[int] = _natural_indices(self.wild)
        self.rank_index: dict[str, int] = {rank: i for i, rank in enumerate(RANKS)}
        # the size of a canasta of each kind of meld (a natural one for groups)
        self.targets: dict[str, int] = {
            "group": self.natural_size,
            "sequence": self.escalera_size,
            "wild": self.bolivia_size,
        }
        first = rules.initial_meld
        # initial_meld.bands as plain tuples: where each starts (the first: no lower bound), the
        # points its first meld must reach, the kinds of canasta one of which it must hold
        self.bands: tuple[tuple[int | None, int, tuple[str, ...]], ...] = _bands(first.bands)
        self.counts_sequences: bool = first.counts_sequences
        self.counts_wild_melds: bool = first.counts_wild_melds
        self.counts_bonuses: bool = first.counts_bonuses
        pile = rules.pile
        self.frozen_when: tuple[str, ...] = tuple(pile.frozen_when)
        self.blocked_by_top: tuple[str, ...] = tuple(pile.blocked_by_top)
        self.take_frozen: tuple[str, ...] = tuple(pile.take_frozen)
        self.take_unfrozen: tuple[str, ...] = tuple(pile.take_unfrozen)
        # whether an unfrozen pile may be taken with its top card onto a meld
        self.onto_unfrozen: bool = "onto_meld" in self.take_unfrozen
        self.onto_kinds: tuple[str, ...] = tuple(pile.onto_kinds)
        self.take_top: bool = pile.take_top.allowed  # the top card alone onto a meld
        self.take_top_kinds: tuple[str, ...] = tuple(pile.take_top.onto_kinds)
        self.onto_canasta: bool = pile.onto_canasta
        self.one_card_rule: bool = pile.one_card_rule
        self.for_first_meld: bool = pile.for_first_meld
        self.bars_discard: bool = bool(pile.discard_barred)  # pile.discard_barred has a bar
        # an unfinished wild meld locks something (melds.wild.unfinished_locks)
        self.wild_locks: bool = bool(rules.melds.wild.unfinished_locks)
        # whether a meld left unfinished or cards kept in hand may cost more than their points
        # (scoring.meld_penalties, scoring.hand_penalties): the greedy bot then weighs it
        self.penalized: bool = bool(rules.scoring.meld_penalties or rules.scoring.hand_penalties)
        self.kept_penalized: bool = bool(rules.scoring.hand_penalties)
        # the ranks whose groups never take more wild cards than their own limit
        # (melds.group.wild_by_rank, those with no first-meld freedom), by rank
        self.rank_caps: dict[str, int] = {
            rank: limit.max_wild
            for rank, limit in rules.melds.group.wild_by_rank.items()
            if not limit.first_meld
        }
        # a step is checked against the side's melds before it (bolivia.engine.wild_steps):
        # the locks, limits of wild cards by rank, a late minimum of naturals for wild cards
        self.step_rules: bool = (
            self.wild_locks
            or bool(rules.melds.group.wild_by_rank)
            or rules.melds.group.late_wild_min_natural is not None
        )
        # cards dealt aside that join a hand later (deal.foot, deal.bonus_piles): going out and
        # the keep-cards rule then read them, and the bots' lists take the full verify path
        foot = rules.deal.foot
        self.foot_cards: int = foot.cards if foot is not None else 0
        self.foot_on_canasta: bool = foot is not None and foot.taken == "canasta"
        self.bonus_piles: tuple[int, ...] = rules.deal.bonus_piles
        self.reserves: bool = foot is not None or bool(self.bonus_piles)
        # nobody melds in the hand's first round of turns (initial_meld.after_first_round)
        self.first_round_wait: bool = rules.initial_meld.after_first_round
        # whether something besides the requirement may keep a player from going out: cards
        # still to join the hand, or the first round
        self.out_barrable: bool = self.reserves or self.first_round_wait
        # the cards of a pile taken that do not go into the hand: red threes (laid out), and
        # black threes where pile.black_threes_aside sets them aside
        self.threes_aside: bool = pile.black_threes_aside is not None
        self.pile_out: frozenset[int] = _pile_out(self.threes_aside)
        self.pair_starts_new_meld: bool = pile.pair_starts_new_meld
        self.replaced_from_pile: bool = rules.red_threes.replaced_from_pile
        going_out = rules.going_out
        specials = canastas.special
        self._requirement = _counts(going_out.requirement, specials)
        self._by_players = _counts_by_players(going_out.requirement_by_players, specials)
        # whether a requirement names special canastas: then it is met as going_out counts
        # (the counts above stand for them by their kind, a bound)
        self.names_specials: bool = any(
            name not in KIND_INDEX
            for req in (going_out.requirement, *going_out.requirement_by_players.values())
            for name in req.including
        )
        self._escaleras = _asks_escaleras(self._requirement)
        self._escaleras_by_players = _escaleras_by_players(self._by_players)

    def band(self, team_score: int) -> int:
        """The index of the band of :attr:`bands` a side with this score before the hand is in
        (the last whose start the score reaches)."""
        found = 0
        bands = self.bands
        for i in range(1, len(bands)):
            start = bands[i][0]
            if start is not None and team_score >= start:
                found = i
        return found

    def requirement(self, players: int) -> tuple[int, tuple[tuple[int, int], ...]]:
        """What going out needs with this many players: the canastas, and how many of each
        kind (by index into :data:`KINDS`) must be among them (a special canasta named counted
        as one of its kind: then the requirement is met as :attr:`names_specials` says)."""
        return self._by_players.get(players, self._requirement)

    def asks_escaleras(self, players: int) -> bool:
        """Whether going out with this many players needs an escalera among its canastas."""
        return self._escaleras_by_players.get(players, self._escaleras)


# --------------------------------------------------------------------------- the values worked out


def _pile_out(black_threes: bool) -> frozenset[int]:
    """The indices of the red threes, and of the black threes too where ``black_threes``."""
    return frozenset(
        c.index for c in Card.all() if c.is_red_three or (black_threes and c.is_black_three)
    )


def _pack_indices(ruleset: Ruleset) -> list[int]:
    """Every card of the pack by its index, in order."""
    return sorted(card.index for card in ruleset.pack.cards())


def _within(most: int | None, size: int) -> bool:
    """Whether a meld capped at ``most`` cards (None: no cap) may hold ``size``."""
    return most is None or most >= size


def _by_kind(canastas: Canastas, field: str) -> dict[str, int]:
    """One value of each kind of canasta (its ``size`` or its ``bonus``), by the kind."""
    return {kind: getattr(getattr(canastas, kind), field) for kind in KINDS}


def _special(
    special: Sequence[SpecialCanasta],
) -> tuple[tuple[str, int, int, int, int, int, int, int], ...]:
    """``canastas.special`` as plain tuples.

    Each holds the kind, the rank index (-1: any), the fewest cards, the fewest and most wild
    cards, the fewest and most jokers (no limit: the pack's size), and the bonus.
    """
    return tuple(
        (
            s.kind,
            -1 if s.rank is None else RANKS.index(s.rank),
            0 if s.min_size is None else s.min_size,
            s.min_wild,
            MAX_CARDS if s.max_wild is None else s.max_wild,
            s.min_jokers,
            MAX_CARDS if s.max_jokers is None else s.max_jokers,
            s.bonus,
        )
        for s in special
    )


def _max_going_out(sequence: SequenceMelds) -> int | None:
    """The most cards of a sequence a player going out extends (None: no limit)."""
    return None if sequence.extend_going_out else sequence.max_size


def _rank_positions(low: int, high: int, wild: tuple[bool, ...]) -> tuple[tuple[int, ...], ...]:
    """For each rank index, the positions from ``low`` to ``high`` a natural of it may take."""
    return tuple(
        tuple(p for p in range(low, high + 1) if POSITION_RANK[p] == r and not wild[r * 4])
        for r in range(13)
    )


def _rank_bits(rank_positions: tuple[tuple[int, ...], ...]) -> int:
    """A bit for each rank that has a position in the span."""
    return sum(1 << r for r in range(13) if rank_positions[r])


def _place_bits(rank_positions: tuple[tuple[int, ...], ...]) -> int:
    """A bit for each position a natural may take."""
    return sum(1 << p for r in range(13) for p in rank_positions[r])


def _wild_places(wild: tuple[bool, ...]) -> tuple[bool, ...]:
    """Whether each of the 14 positions is a wild rank's, which only a wild card fills."""
    return tuple(bool(wild[POSITION_RANK[p] * 4]) for p in range(14))


def _suit_places(wild_place: tuple[bool, ...], natural_twos: bool) -> tuple[tuple[int, ...], ...]:
    """For each suit, the card (index) at each position; -1 where only a wild card goes (the
    two's place takes the suit's own two where ``natural_twos``)."""
    return tuple(
        tuple(
            -1 if wild_place[p] and not (natural_twos and p == 1) else POSITION_RANK[p] * 4 + s
            for p in range(14)
        )
        for s in range(4)
    )


def _suit_span(
    suit_places: tuple[tuple[int, ...], ...], low: int, high: int
) -> tuple[list[int], ...]:
    """For each suit, its naturals along the span from ``low`` to ``high``."""
    return tuple([i for i in cells[low : high + 1] if i >= 0] for cells in suit_places)


def _group_ranks(wild: tuple[bool, ...]) -> tuple[int, ...]:
    """The rank indexes a group may be of: not threes, not wild."""
    return tuple(r for r in range(13) if r != 1 and not wild[r * 4])


def _natural_indices(wild: tuple[bool, ...]) -> list[int]:
    """The natural cards, by index."""
    return [i for i in range(53) if not wild[i]]


def _bands(bands: Sequence[Band]) -> tuple[tuple[int | None, int, tuple[str, ...]], ...]:
    """``initial_meld.bands`` as plain tuples: the start, the minimum, the canastas needed."""
    return tuple((b.from_score, b.minimum, tuple(b.canasta)) for b in bands)


def _asks_escaleras(requirement: tuple[int, tuple[tuple[int, int], ...]]) -> bool:
    """Whether a requirement, as counts, asks for an escalera."""
    return any(kind == KIND_INDEX["escalera"] and n > 0 for kind, n in requirement[1])


def _counts(
    req: CanastaRequirement, specials: Sequence[SpecialCanasta]
) -> tuple[int, tuple[tuple[int, int], ...]]:
    """A going-out requirement as counts: the canastas, and how many of each kind by index
    (a special canasta named counts toward its kind, where all its entries are of one kind,
    else toward none: a bound, never more than it needs)."""
    kinds_of: dict[str, set[str]] = {}
    for s in specials:
        kinds_of.setdefault(s.name, set()).add(s.kind)
    by_kind: dict[int, int] = {}
    for name, n in req.including.items():
        kinds = {name} if name in KIND_INDEX else kinds_of[name]
        if len(kinds) == 1:
            k = KIND_INDEX[next(iter(kinds))]
            by_kind[k] = by_kind.get(k, 0) + n
    return req.count, tuple(by_kind.items())


def _counts_by_players(
    by_players: Mapping[int, CanastaRequirement], specials: Sequence[SpecialCanasta]
) -> dict[int, tuple[int, tuple[tuple[int, int], ...]]]:
    """:func:`_counts` of the requirement for each number of players that has its own."""
    return {players: _counts(req, specials) for players, req in by_players.items()}


def _escaleras_by_players(
    by_players: dict[int, tuple[int, tuple[tuple[int, int], ...]]],
) -> dict[int, bool]:
    """:func:`_asks_escaleras` for each number of players that has its own requirement."""
    return {players: _asks_escaleras(req) for players, req in by_players.items()}


# the ruleset last asked for and its limits, one tuple (replaced in one assignment, so that
# threads never see one ruleset's limits with another): a hand asks for one ruleset's limits
# thousands of times, and the ruleset's own attributes cost a lookup each
_last: Final[list[tuple[Ruleset, Limits] | None]] = [None]


def limits(ruleset: Ruleset) -> Limits:
    """The ruleset's :class:`Limits`, built on first use and kept with the ruleset."""
    last = _last[0]
    if last is not None and last[0] is ruleset:
        return last[1]
    found: Limits | None = ruleset.__dict__.get("_limits")
    if found is None:
        found = ruleset.__dict__["_limits"] = Limits(ruleset)
    _last[0] = (ruleset, found)
    return found
