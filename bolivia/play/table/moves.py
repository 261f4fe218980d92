"""The moves of a hand: every legal action of a state, and the ways out.

:meth:`Moves.legal` lists every action the current player may take, each checked by the
hand's one verify path (:meth:`Hand.can <bolivia.play.table.hand.Hand.can>`), in the canonical form
the oracle protocol's ``moves`` defines (``docs/oracle-protocol.md``):

- a lay holds one meld, except a side's first meld, listed as each *minimal* set of melds
  that reaches the minimum (no meld of it can be left out); laying more at once is legal and
  is the same as laying them one after another;
- an extension adds one card (any legal extension by several cards is the same as adding them
  one at a time, naturals first);
- wild cards of one rank are interchangeable (the same points, the same rules): a lay, a
  pickup or an extension names the lowest copies held of each wild rank, but every mix of
  wild ranks (twos, jokers) is listed;
- a pickup with cards from the hand lists each choice of the top card's naturals and wild
  cards, with, for a side's first meld, each minimal set of further melds;
- going out is reached by these steps (the last discard, or the last meld where no discard is
  required); the one-move :class:`~bolivia.play.table.actions.GoOut` is legal too but not listed.

:meth:`Moves.go_out_lines` finds ways out for the bots (:mod:`bolivia.play.table.ways_out`, an exact
search); the bots' short list of actions is :mod:`bolivia.play.table.candidates`.

>>> import random
>>> from bolivia.play.table.hand import Hand
>>> from bolivia.rules.library import shipped_library
>>> hand = Hand.deal(shipped_library().load("bolivia-da"), 4, random.Random(1))
>>> from collections import Counter
>>> Counter(type(action).__name__ for action in hand.moves.legal())
Counter({'TakePile': 12, 'Draw': 1})
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Final

from bolivia.cards import POSITION_RANK, Card
from bolivia.engine.initial_meld import counted_points, holds_canasta
from bolivia.engine.limits import limits
from bolivia.engine.melds import Meld, could_join, new_meld, verify_meld
from bolivia.errors import Illegal
from bolivia.play.table.actions import (
    ASK,
    DRAW,
    NO,
    STOP,
    YES,
    Action,
    Combine,
    Discard,
    Extend,
    GoOut,
    Lay,
    TakePile,
    TakeTop,
)
from bolivia.play.table.multisets import mixes, sub_multisets, wild_ranks
from bolivia.play.table.ways_out import can_go_out, ways_out
from bolivia.rules.ruleset import Ruleset

if TYPE_CHECKING:
    from bolivia.play.table.state import HandState

__all__ = ["Moves", "TooManyMoves", "canonical_melds"]

CARDS: Final = Card.all()


def canonical_melds(
    ruleset: Ruleset,
    counts: Sequence[int],
    melds: Sequence[Sequence[Card]],
    *,
    keep_first: bool = False,
) -> tuple[tuple[Card, ...], ...]:
    """Melds an action lays, in canonical form.

    The melds go in order of their natural cards, then of how many wild cards of each rank
    they hold; ``keep_first`` leaves the first first (a pickup's meld). Each wild card is
    renamed to the lowest copy of its rank that the hand ``counts`` holds and an earlier meld
    has not taken (of its card, where each two is a kind of its own: see
    :func:`~bolivia.play.table.multisets.wild_ranks`). Each meld's cards are in index order.
    """
    wild = ruleset.wild
    kind_of = {i: k for k, kind in enumerate(wild_ranks(ruleset)) for i in kind}
    copies: dict[int, list[int]] = {}
    for i in ruleset.wild_indices:
        copies.setdefault(kind_of[i], []).extend([i] * counts[i])
    kinds = sorted(copies)

    def key(meld: Sequence[Card]) -> tuple[object, ...]:
        naturals = tuple(sorted(c.index for c in meld if not wild[c.index]))
        return naturals, tuple(
            sum(1 for c in meld if wild[c.index] and kind_of[c.index] == k) for k in kinds
        )

    order = list(melds)
    order = order[:1] + sorted(order[1:], key=key) if keep_first else sorted(order, key=key)
    used = dict.fromkeys(kinds, 0)
    out = []
    for meld in order:
        cards = [c.index for c in meld if not wild[c.index]]
        for card in meld:
            if wild[card.index]:
                k = kind_of[card.index]
                pool = copies.get(k, [])
                cards.append(pool[used[k]] if used[k] < len(pool) else card.index)
                used[k] = used[k] + 1
        out.append(tuple(CARDS[i] for i in sorted(cards)))
    return tuple(out)


class TooManyMoves(Exception):
    """:meth:`Moves.legal` would check more candidate actions than its ``cap``."""


class Moves:
    """The legal actions of a hand's current state, and the ways out of it."""

    def __init__(self, hand: HandState) -> None:
        self.hand = hand
        self.ruleset = hand.ruleset
        self.rules = hand.ruleset.rules
        self.memo: dict[str, object] = {}  # what is kept for the current state
        self._outs: tuple[tuple[int, int], list[GoOut]] = ((-1, 0), [])
        # the turn (its number) in whose play phase the search found no way out, or -1: see
        # go_out_lines. A way out from a later state of the turn would then be one from that
        # state too, the melds and extensions made since joined to its own (the hand only
        # loses cards to the side's melds in a play phase); not where a way out may join two
        # groups (GoOut.combine joins the side's melds before its new ones are laid: the hand
        # clears this on a join, and a state with two groups of one rank is searched), nor
        # where more melds may count less toward a first meld (a card worth less than 0)
        self.stuck_turn = -1
        self._turn_memo = min(self.ruleset.points) >= 0
        wild = self.ruleset.wild
        self._wild_ranks = wild_ranks(self.ruleset)
        self._naturals = [i for i in range(53) if not wild[i]]
        # each candidate meld's verdict and first-meld points, by its cards: the same cards
        # come back in every choice of a pickup's cards and every turn (the ruleset is the
        # hand's, so nothing here goes stale)
        self._verified: dict[tuple[Card, ...], tuple[Meld | None, int]] = {}
        # the most candidate actions legal() may check (None: no bound; the oracle sets one)
        self.cap: int | None = None

    # ------------------------------------------------------------------ every legal action

    def legal(self) -> list[Action]:
        """Every legal action of the current player, in canonical form (see the module).

        :class:`TooManyMoves` where more candidates than :attr:`cap` would be checked.
        """
        h = self.hand
        if h.ended_by is not None:
            return []
        if h.phase == "answer":
            return [YES, NO]
        out: list[Action] = []
        if h.phase == "draw":
            candidates: list[Action] = [DRAW, *self.pickups(), STOP, ASK]
        else:
            candidates = [
                *self._lays(),
                *self._extensions(),
                *self._combines(),
                *(Discard(CARDS[i]) for i, n in enumerate(h.hands[h.current]) if n),
                ASK,
            ]
        if self.cap is not None and len(candidates) > self.cap:
            raise TooManyMoves
        seen: set[Action] = set()
        for action in candidates:
            if action not in seen and h.can(action):
                seen.add(action)
                out.append(action)
        return out

    def pickups(self) -> list[Action]:
        """Every way to take the pile or its top card, to be verified.

        The top card's naturals of the hand (each choice) with wild cards (each mix of wild
        ranks), with each minimal set of further melds for a side's first meld; onto each meld;
        the top card alone onto each meld.
        """
        h = self.hand
        if not h.pile:
            return []
        team = h.melds[h.team]
        if not team and not self.rules.pile.for_first_meld:
            return []  # no pile for a first meld, and the top card alone needs a meld
        top = h.pile[-1]
        out: list[Action] = []
        if not self.ruleset.wild[top] and top < 52:
            self._pair_pickups(out, list(h.hands[h.current]), top, bool(team))
        out.extend(TakePile(None, i) for i in range(len(team)))
        out.extend(TakeTop(i) for i in range(len(team)))
        return out

    def _pair_pickups(self, out: list[Action], counts: list[int], top: int, melded: bool) -> None:
        """Add each pickup with the top card's naturals and wild cards.

        Each choice of the naturals, with each mix of wild cards. Before the side has melded,
        with each minimal set of further melds.
        """
        base = (top >> 2) * 4
        same = _copies(counts, range(base, base + 4))
        for k in range(1, len(same) + 1):
            for naturals in sub_multisets(same, k):
                for w in range(self._wilds_held(counts) + 1):
                    for wilds in self._wild_mixes(counts, w):
                        cards = [*naturals, *wilds]
                        with_cards = tuple(CARDS[i] for i in sorted(cards))
                        if melded:
                            out.append(TakePile(with_cards, None, ()))
                        else:
                            self._first_pickups(out, counts, cards, with_cards, top)
                        if self.cap is not None and len(out) > self.cap:
                            raise TooManyMoves

    def _first_pickups(
        self,
        out: list[Action],
        counts: list[int],
        cards: list[int],
        with_cards: tuple[Card, ...],
        top: int,
    ) -> None:
        """Add a first meld's pickups with these cards: each minimal set of melds."""
        left = list(counts)
        for i in cards:
            left[i] = left[i] - 1
        for also in self._first_sets(left, with_cards, top):
            melds = canonical_melds(self.ruleset, counts, [with_cards, *also], keep_first=True)
            out.append(TakePile(melds[0], None, melds[1:]))

    def pickups_out(self) -> bool:
        """Whether some pickup of the pile lets the player go out this turn.

        This makes asking the partner before drawing worth it.
        """
        h = self.hand
        if h.lim.out_barrable and h.out_barred(h.melds[h.team]):
            return False  # cards dealt aside join the hand before the player may go out
        for action in self.pickups():
            after = h.after_pickup(action)
            if after is not None and can_go_out(
                self.ruleset, after[1], after[0], players=h.players
            ):  # (counts, table) after the pickup
                return True
        return False

    # ------------------------------------------------------------------ melds from the hand

    def _wilds_held(self, counts: Sequence[int]) -> int:
        return sum(counts[i] for kind in self._wild_ranks for i in kind)

    def _wild_mixes(self, counts: Sequence[int], n: int) -> Iterator[list[int]]:
        """Each mix of ``n`` wild cards by rank, the lowest copies of each rank."""
        held = [[i for i in kind for _ in range(counts[i])] for kind in self._wild_ranks]
        if sum(map(len, held)) >= n:
            yield from mixes(held, n, cheapest=False)

    def single_melds(self, counts: Sequence[int]) -> list[tuple[Card, ...]]:
        """Every meld the cards ``counts`` could make alone, to be verified.

        Groups of each choice of a rank's naturals, sequences of each choice of a suit's
        ranks, wild melds and black threes, each with each mix of wild cards.
        """
        rules = self.rules.melds
        found: list[tuple[Card, ...]] = []
        # each mix of w wild cards of these counts, made once for every meld it may join
        by_count = [list(self._wild_mixes(counts, w)) for w in range(self._wilds_held(counts) + 1)]
        self._group_melds(counts, by_count, found)
        if rules.black_threes.when != "never":
            most = rules.black_threes.max_wild
            _each_choice(found, _copies(counts, (4, 7)), by_count, most, most)
        if rules.sequence.allowed:
            self._sequence_melds(counts, by_count, found)
        if rules.wild.allowed:
            for mixes_of_w in by_count[1:]:
                for mix in mixes_of_w:
                    found.append(tuple(CARDS[i] for i in mix))
        return list(dict.fromkeys(found))

    def _group_melds(
        self, counts: Sequence[int], by_count: list[list[list[int]]], found: list[tuple[Card, ...]]
    ) -> None:
        """Add each choice of a rank's naturals with each mix of wild cards.

        Up to the wild cards a group allows. One natural alone may be a run's too, with the
        wild cards a run allows.
        """
        rules = self.rules.melds
        wild = self.ruleset.wild
        group_wild = rules.group.max_wild
        if group_wild is None:
            group_wild = len(by_count) - 1
        alone_wild = max(group_wild, rules.sequence.max_wild)
        for r in range(13):
            base = r * 4
            if not wild[base] and r != 1:  # black threes are read apart
                same = _copies(counts, range(base, base + 4))
                _each_choice(found, same, by_count, group_wild, alone_wild)

    def _sequence_melds(
        self, counts: Sequence[int], by_count: list[list[list[int]]], found: list[tuple[Card, ...]]
    ) -> None:
        """Add each run of a suit's naturals, its gaps filled by wild cards (the suit's own
        two among the naturals where it may stand in its place)."""
        lim = limits(self.ruleset)
        low, high = lim.span_low, lim.span_high
        gaps = lim.sequence_max_wild
        most = min(len(by_count) - 1, gaps)
        for s in range(4):
            cells = lim.suit_places[s]  # -1 where only a wild card stands
            # by position (an ace low at 0, high at 13), the naturals held
            present = [p for p in range(low, high + 1) if cells[p] >= 0 and counts[cells[p]]]
            for places in _runs(present, gaps):
                # two places at least; an ace both low and high needs two aces
                if len(places) >= 2 and (
                    places[0] > 0 or places[-1] < 13 or counts[12 * 4 + s] > 1
                ):
                    # its own two, where it stands as a natural card: no wild card of it too
                    # beyond the copies held
                    two = s if lim.natural_twos and 1 in places else -1
                    _run_with_wilds(found, places, s, by_count, most, two, counts)

    def _first_sets(
        self, counts: Sequence[int], with_cards: tuple[Card, ...] | None = None, top: int = -1
    ) -> Iterator[tuple[tuple[Card, ...], ...]]:
        """Each minimal set of legal melds from ``counts`` that makes a first meld.

        No meld of a minimal set can be left out. With the pickup's meld where there is one, it
        may reach the minimum; for a pickup, the empty set comes first (the pile's meld alone).
        """
        h = self.hand
        minimum = h.first_minimum_for(())
        assert minimum is not None
        melds = self._legal_melds(counts)
        kinds = h.first_canasta_for(())  # a canasta the first meld must hold, if any
        canasta = [
            int(bool(kinds) and holds_canasta(self.ruleset, kinds, [m])) for _, m, _ in melds
        ]
        start = 0
        pile_canasta = not kinds  # the pickup's meld holds the canasta needed (or none is)
        if with_cards is not None:
            start, pile_canasta = self._pile_meld(with_cards, top, kinds)
            yield ()
            if start >= minimum and pile_canasta:
                return

        def complete(points: int, canastas: int) -> bool:
            return points >= minimum and (pile_canasta or canastas > 0)

        several = self.rules.initial_meld.several_melds
        wild = self.ruleset.wild
        chosen: list[int] = []
        # what is left to take: each natural card, and each wild rank's copies together
        left: dict[int, int] = {}
        for i, n in enumerate(counts):
            if n:
                slot = -1 - (i >> 2) if wild[i] else i
                left[slot] = left.get(slot, 0) + n

        def needs(cards: Sequence[Card]) -> dict[int, int]:
            out: dict[int, int] = {}
            for c in cards:
                slot = -1 - (c.index >> 2) if wild[c.index] else c.index
                out[slot] = out.get(slot, 0) + 1
            return out

        def minimal(total: int, canastas: int) -> bool:
            """Whether no chosen meld can be left out (the rest would still do)."""
            return (
                not several
                or len(chosen) == 1
                or not any(complete(total - melds[k][2], canastas - canasta[k]) for k in chosen)
            )

        later = [sum(canasta[j:]) for j in range(len(melds) + 1)]  # canastas from j on

        def grow(i: int, points: int, canastas: int) -> Iterator[tuple[tuple[Card, ...], ...]]:
            # the points met but a canasta still wanting: only a canasta may join (any other
            # meld could be left out again)
            only_canastas = points >= minimum and not complete(points, canastas)
            for j in range(i, len(melds)):
                if not complete(minimum, canastas) and later[j] == 0:
                    break  # no canasta is left to make the set whole
                if only_canastas and not canasta[j]:
                    continue
                cards, _, value = melds[j]
                need = needs(cards)
                if (value <= 0 and canasta[j] == 0) or any(
                    left.get(s, 0) < n for s, n in need.items()
                ):
                    continue
                total = (points + value) if several else max(points, value)
                held = canastas + canasta[j]
                for s, n in need.items():
                    left[s] = left[s] - n
                chosen.append(j)
                if complete(total, held):
                    if minimal(total, held):
                        yield tuple(melds[k][0] for k in chosen)
                elif several:
                    yield from grow(j + 1, total, held)
                chosen.pop()
                for s, n in need.items():
                    left[s] = left[s] + n

        yield from grow(0, start, 0)

    def _legal_melds(self, counts: Sequence[int]) -> list[tuple[tuple[Card, ...], Meld, int]]:
        """Each legal meld the cards could make alone, with its first-meld points."""
        melds: list[tuple[tuple[Card, ...], Meld, int]] = []
        for cards in self.single_melds(counts):
            known = self._verified.get(cards)
            if known is None:
                found = new_meld(self.ruleset, cards)
                points = counted_points(self.ruleset, [found]) if found is not None else 0
                known = self._verified[cards] = (found, points)
            if known[0] is not None:
                melds.append((cards, known[0], known[1]))
        return melds

    def _pile_meld(
        self, with_cards: tuple[Card, ...], top: int, kinds: tuple[str, ...]
    ) -> tuple[int, bool]:
        """A pickup's meld: its first-meld points, and whether it holds the canasta.

        A meld that is not legal counts 0.
        """
        try:
            pile_meld = verify_meld(self.ruleset, (*with_cards, CARDS[top]))
            start = counted_points(self.ruleset, [pile_meld], top_card=CARDS[top])
            return start, holds_canasta(self.ruleset, kinds, [pile_meld])
        except Illegal:
            return 0, not kinds

    def _lays(self) -> Iterator[Lay]:
        h = self.hand
        counts = h.hands[h.current]
        if h.melds[h.team]:
            for cards in self.single_melds(counts):
                yield Lay((cards,))
        else:
            for melds in self._first_sets(counts):
                yield Lay(canonical_melds(self.ruleset, counts, melds))

    def _extensions(self) -> Iterator[Extend]:
        h = self.hand
        counts = h.hands[h.current]
        held = [i for i in self._naturals if counts[i]]
        for kind in self._wild_ranks:  # the lowest copy held of each wild rank
            held.extend(next(([i] for i in kind if counts[i]), []))
        for t, meld in enumerate(h.melds[h.team]):
            for i in held:
                card = CARDS[i]
                if could_join(self.ruleset, meld, card):
                    yield Extend(t, (card,))

    def _combines(self) -> Iterator[Combine]:
        if not self.rules.melds.group.combine:
            return
        team = self.hand.melds[self.hand.team]
        for i, a in enumerate(team):
            for j in range(i + 1, len(team)):
                if a.kind == "group" and team[j].kind == "group" and a.rank == team[j].rank:
                    yield Combine(i, j)

    # ------------------------------------------------------------------ going out

    def go_out_lines(self, limit: int = 1) -> list[GoOut]:
        """Up to ``limit`` ways for the current player to go out now in one move.

        An exact search: none only when there is no way. The question to the partner is left
        out.
        """
        h = self.hand
        if (
            h.phase != "play"
            or h.asked is False
            or (h.lim.out_barrable and h.out_barred(h.melds[h.team]))
        ):
            return []
        key = (h.steps, limit)
        if self._outs[0] == key:
            return self._outs[1]
        team = h.melds[h.team]
        lines: list[GoOut] = []
        if self.stuck_turn == h.turns and not h.group_pairs(h.team):  # no join to try
            self._outs = (key, lines)
            return lines
        for line in ways_out(
            self.ruleset,
            team,
            h.hands[h.current],
            players=h.players,
            first_minimum=h.first_minimum_for(team),
            first_canasta=h.first_canasta_for(team),
            limit=limit,
            discard_ok=h.discard_check(),
        ):
            try:
                h.verify_way_out(line, asking=False)
            except Illegal:  # pragma: no cover - the search and the verify path agree (tests)
                continue
            lines.append(line)
        if not lines and self._turn_memo:
            self.stuck_turn = h.turns
        self._outs = (key, lines)
        return lines


def _copies(counts: Sequence[int], indices: Sequence[int]) -> list[int]:
    """The cards of these ``indices`` the ``counts`` hold, once a copy."""
    return [i for i in indices for _ in range(counts[i])]


def _each_choice(
    found: list[tuple[Card, ...]],
    same: list[int],
    by_count: list[list[list[int]]],
    most_wild: int,
    alone_wild: int,
) -> None:
    """Add each choice of the cards ``same``, with each mix of wild cards.

    A mix holds up to ``most_wild`` wild cards; ``alone_wild`` with one card alone.
    """
    for k in range(1, len(same) + 1):
        most = most_wild if k > 1 else alone_wild
        for naturals in sub_multisets(same, k):
            _with_wilds(found, naturals, by_count, most)


def _with_wilds(
    found: list[tuple[Card, ...]],
    naturals: Sequence[int],
    by_count: list[list[list[int]]],
    most_wild: int,
) -> None:
    """Add these naturals with each mix of up to ``most_wild`` wild cards."""
    for w in range(min(len(by_count) - 1, most_wild) + 1):
        for mix in by_count[w]:
            cards = sorted([*naturals, *mix])
            if cards:
                found.append(tuple(CARDS[i] for i in cards))


def _run_with_wilds(
    found: list[tuple[Card, ...]],
    places: list[int],
    s: int,
    by_count: list[list[list[int]]],
    most: int,
    own_two: int,
    counts: Sequence[int],
) -> None:
    """Add the run of suit ``s`` at these places, with each mix that fills it.

    Each mix of wild cards, up to ``most``, that fills its gaps; where the run holds its own
    two (``own_two``, its index; -1: none) as a natural card, not the mixes that would take
    that two again beyond the copies ``counts`` holds.
    """
    naturals = [POSITION_RANK[p] * 4 + s for p in places]
    for w in range(places[-1] - places[0] + 1 - len(places), most + 1):
        for mix in by_count[w]:
            if own_two >= 0 and mix.count(own_two) >= counts[own_two]:
                continue
            cards = sorted([*naturals, *mix])
            found.append(tuple(CARDS[i] for i in cards))


def _runs(present: Sequence[int], gaps: int) -> Iterator[list[int]]:
    """Each set of the ``present`` positions whose span leaves out ``gaps`` at most.

    The positions are ranks in a sequence, in order: a sequence's naturals, its gaps for wild
    cards.
    """
    for i, first in enumerate(present):

        def extend(j: int, chosen: list[int], missing: int) -> Iterator[list[int]]:
            yield chosen
            for k in range(j, len(present)):
                step = present[k] - chosen[-1] - 1
                if missing + step > gaps:
                    break
                yield from extend(k + 1, [*chosen, present[k]], missing + step)

        yield from extend(i + 1, [first], 0)
