"""The moves of a hand: the legal actions of any state, and the search for a way out.

:class:`Moves` reads a :class:`~bolivia.play.hand.Hand`'s state and never writes it: it builds
the candidates of each kind of action from the hand's counts with the rule modules' own limit
functions (:mod:`bolivia.engine.melds`, :mod:`~bolivia.engine.pile`,
:mod:`~bolivia.engine.initial_meld`), so each rule is written once, and asks the hand's one
verify path (:meth:`Hand.can <bolivia.play.hand.Hand.can>`) wherever legality is more than a
count -- taking the pile, taking the top card, declining the pile, going out. The search for a
way out tries each card of the hand onto the side's melds or into a new meld, after two cheap
necessary conditions (:meth:`Moves.stranded`, :meth:`Moves.could_go_out`) that never refuse a
hand that can go out.

Candidate lists are kept for the state they were built in (the hand clears them on every
action); the runs a suit's ranks make are kept in a table shared by the hands of a ruleset.

>>> import random
>>> from bolivia.play.hand import Hand
>>> from bolivia.rules.library import shipped_library
>>> hand = Hand.deal(shipped_library().load("bolivia-da"), 4, random.Random(1))
>>> [type(action).__name__ for action in hand.moves.legal()]
['Draw', 'TakePile', 'TakePile', 'TakePile']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from itertools import compress
from typing import TYPE_CHECKING

from bolivia.cards import RANKS, SUITS, Card
from bolivia.engine.initial_meld import counted_points, minimum
from bolivia.engine.melds import (
    Meld,
    canasta_of,
    could_join,
    group_table,
    sequence_fault,
    verify_extend,
    verify_meld,
    wild_fault,
)
from bolivia.engine.pile import card_class, frozen_when
from bolivia.errors import BadRequest, Illegal
from bolivia.play.actions import (
    ASK,
    DISCARDS,
    DRAW,
    NO,
    STOP,
    YES,
    Action,
    Extend,
    GoOut,
    Lay,
    TakePile,
    TakeTop,
)

if TYPE_CHECKING:
    from bolivia.play.hand import Hand

__all__ = ["GO_OUT_BUDGET", "Moves"]

CARDS = Card.all()
RANK_INDEX = {rank: i for i, rank in enumerate(RANKS)}
# a meld that is not yet a canasta: kind, size, wild cards, rank index (a group), suit index
# and the ranks just below and above it (a sequence)
_OpenMeld = tuple[str, int, int, int, int, int, int]
GO_OUT_BUDGET = 400  # meld checks one search for a way out may spend


class Moves:
    """The legal actions of a hand's current state, and the ways out of it."""

    def __init__(self, hand: Hand) -> None:
        self.hand = hand
        ruleset = hand.ruleset
        self.ruleset = ruleset
        self.rules = ruleset.rules
        self.keep = hand.keep
        self.requirement = hand.requirement
        # the runs of one suit the ranks held make, by ranks and suit: shared by the hands
        # of a ruleset (at most 4 x 2**13 entries)
        self._runs_known: dict[int, tuple[tuple[Card, ...], ...]] = ruleset.__dict__.setdefault(
            "_runs_by_suit", {}
        )
        low, high = ruleset.sequence_span
        self._run_span = ((1 << (high + 1)) - 1) & ~((1 << low) - 1)
        # for the group candidates: the ranks a group may be of (not threes, not wild), and
        # the fewest naturals of a group with at most 0, 1, 2, 3 wild cards
        self._group_ranks = tuple(r for r in range(13) if r != 1 and not ruleset.wild[r * 4])
        allowed = group_table(ruleset)
        self._group_least = tuple(
            min(
                (n for n in range(len(allowed)) if any(allowed[n][: most + 1])),
                default=None,
            )
            for most in range(4)
        )
        self.memo: dict[str, object] = {}  # candidate lists of this state
        self._outs: tuple[tuple[int, int], list[GoOut]] = ((-1, 0), [])
        # each side's melds, summed up for the going-out bound
        self._sides: dict[int, tuple[tuple[Meld, ...], Counter[str], list[_OpenMeld]]] = {}

    def legal(self) -> list[Action]:
        """The actions the current player may take. Never empty while the hand goes on.

        Candidates are built from the hand with the rule modules' own limit checks (so each
        rule is written once); the moves whose legality is more than a count -- taking the
        pile, going out -- are verified in full. :meth:`Hand.apply` verifies whatever it is
        given.
        """
        h = self.hand
        if h.ended_by is not None:
            return []
        if h.phase == "answer":
            return [YES, NO]
        if h.phase == "draw":
            return self._draw_actions()
        if h.asked is True:
            return list(self.go_out_lines(limit=3))
        return self._play_actions()

    def _draw_actions(self) -> list[Action]:
        h = self.hand
        out: list[Action] = []
        if h.stock:
            out.append(DRAW)
        if h.pile:
            out.extend(action for action in self.pile_candidates() if h.can(action))
            take_top = self.rules.pile.take_top
            if take_top.allowed:
                for i, meld in enumerate(h.melds[h.team]):
                    if meld.kind in take_top.onto_kinds and h.can(TakeTop(i)):
                        out.append(TakeTop(i))
        if not h.stock and h.can(STOP):
            out.append(STOP)
        return out

    def pile_candidates(self) -> Iterator[TakePile]:
        h = self.hand
        ruleset = self.ruleset
        top = CARDS[h.pile[-1]]
        if card_class(ruleset, top) in self.rules.pile.blocked_by_top:
            return
        team = h.melds[h.team]
        frozen = frozen_when(ruleset, h.pile_kinds(), team_has_melded=bool(team))
        ways = self.rules.pile.take_frozen if frozen else self.rules.pile.take_unfrozen
        hand = h.hands[h.current]
        base = (top.index >> 2) * 4
        matching = hand[base] + hand[base + 1] + hand[base + 2] + hand[base + 3]
        least = 2 if "natural_and_wild" not in ways else 1
        if (
            not ruleset.wild[top.index]
            and matching >= least
            and ("natural_pair" in ways or "natural_and_wild" in ways)
        ):
            naturals = h.naturals(top.index >> 2)
            wilds = h.wild_cards()
            # the group the cards make with the top card must meet the group limits: a new
            # group, or the side's group of that rank grown (where there is one per rank)
            rules = self.rules
            joins = None
            if not (rules.melds.group.duplicate_ranks or rules.pile.pair_starts_new_meld):
                joins = next((m for m in team if m.kind == "group" and m.rank == top.rank), None)
            allowed = group_table(ruleset)
            grown = group_table(ruleset, new=False)
            also_options: list[tuple[tuple[Card, ...], ...]] | None = None
            for n in range(least, len(naturals) + 1):
                for w in range(min(len(wilds), 3) + 1):
                    if n == 1 and w == 0:
                        continue
                    if joins is None:
                        if n + 1 >= len(allowed) or not allowed[n + 1][w]:
                            continue
                    elif not grown[joins.naturals + n + 1][joins.wilds + w]:
                        continue
                    if also_options is None:
                        also_options = [()]
                        if not team:
                            also_options.append(self._best_melds(exclude=top.rank))
                    for also in also_options:
                        yield TakePile(naturals[:n] + wilds[:w], None, also)
        if "onto_meld" in ways:
            kinds = self.rules.pile.onto_kinds
            for i, meld in enumerate(team):
                if meld.kind in kinds and could_join(ruleset, meld, top):
                    yield TakePile(None, i)

    def _group_candidates(self, exclude: str | None = None) -> Iterator[tuple[Card, ...]]:
        """Groups the hand can lay, by the group limits (all the naturals of a rank, with
        0 to 3 of the cheapest wild cards)."""
        for rank, cards in self._group_list():
            if rank != exclude:
                yield cards

    def _group_list(self) -> list[tuple[str, tuple[Card, ...]]]:
        """Each group the hand can lay, with its rank; kept for the current state."""
        found = self.memo.get("groups")
        if found is None:
            found = self.memo["groups"] = list(self._groups())
        return found  # type: ignore[return-value]

    def _groups(self) -> Iterator[tuple[str, tuple[Card, ...]]]:
        h = self.hand
        allowed = group_table(self.ruleset)
        counts = h.rank_counts[h.current]
        wilds = h.wild_cards()
        most = min(len(wilds), 3)
        least = self._group_least[most]
        if least is None:
            return
        limit = len(allowed)
        for r in [r for r in self._group_ranks if least <= counts[r] < limit]:
            row = allowed[counts[r]]
            naturals = h.naturals(r)
            rank = RANKS[r]
            for w in range(most + 1):
                if row[w]:
                    yield rank, naturals + wilds[:w]

    def _sequence_candidates(self) -> list[tuple[Card, ...]]:
        """The runs of one suit the hand can lay (the longest, cut to the size limit)."""
        found = self.memo.get("runs")
        if found is None:
            found = self.memo["runs"] = list(self._runs())
        return found  # type: ignore[return-value]

    def _runs(self) -> Iterator[tuple[Card, ...]]:
        h = self.hand
        if not self.rules.melds.sequence.allowed:
            return
        known = self._runs_known
        span = self._run_span
        for s, mask in enumerate(h.suit_masks[h.current]):
            key = (mask & span) << 2 | s
            found = known.get(key)
            if found is None:
                found = known[key] = tuple(self._suit_runs(s, mask & span))
            yield from found

    def _suit_runs(self, s: int, mask: int) -> Iterator[tuple[Card, ...]]:
        """The runs of suit ``s`` that the ranks in ``mask`` make."""
        rule = self.rules.melds.sequence
        low, high = self.ruleset.sequence_span
        longest = rule.max_size or (high - low + 1)
        least = rule.min_size
        while mask.bit_count() >= least:
            start = (mask & -mask).bit_length() - 1  # the lowest rank held
            length = (~(mask >> start) & ((mask >> start) + 1)).bit_length() - 1
            mask &= ~(((1 << length) - 1) << start)  # the run of ranks from there
            if length < least:
                continue
            for first in range(start, start + max(1, length - longest + 1)):
                ranks = list(range(first, first + min(length, longest)))
                if sequence_fault(self.ruleset, ranks, 0, new=True) is None:
                    yield tuple(CARDS[x * 4 + s] for x in ranks)

    def _wild_candidates(self) -> Iterator[tuple[Card, ...]]:
        h = self.hand
        rule = self.rules.melds.wild
        if not rule.allowed:
            return
        wilds = h.wild_cards()
        for n in sorted({rule.min_size, min(len(wilds), rule.max_size or len(wilds))}):
            if n <= len(wilds) and wild_fault(rule, n, new=True) is None:
                yield tuple(wilds[:n])

    def _best_melds(self, exclude: str | None = None) -> tuple[tuple[Card, ...], ...]:
        """A set of disjoint legal melds from the hand, richest first (for a first meld)."""
        h = self.hand
        points = self.ruleset.points
        available = list(h.hands[h.current])
        chosen: list[tuple[Card, ...]] = []
        candidates = sorted(
            [*self._group_candidates(exclude), *self._sequence_candidates()],
            key=lambda m: -sum(points[c.index] for c in m),
        )
        ranks: set[str] = set()
        wild = self.ruleset.wild
        for cards in candidates:
            group = (
                len({c.rank for c in cards if not wild[c.index]}) == 1
                and cards[0].rank == cards[1].rank
            )
            if group and cards[0].rank in ranks:
                continue
            need = Counter(c.index for c in cards)
            if any(available[i] < n for i, n in need.items()):
                continue
            for i, n in need.items():
                available[i] -= n
            if group:
                ranks.add(cards[0].rank)
            chosen.append(cards)
        return tuple(chosen)

    def _meld_of(self, kind: str, cards: tuple[Card, ...]) -> Meld:
        """A candidate's meld, built from what the generator knows (it met the limits)."""
        wild = self.ruleset.wild
        wilds = sum(1 for c in cards if wild[c.index])
        if kind == "group":
            return Meld("group", cards, len(cards) - wilds, wilds, rank=cards[0].rank)
        if kind == "sequence":
            return Meld("sequence", cards, len(cards) - wilds, wilds, suit=cards[0].suit)
        return Meld("wild", cards, 0, len(cards))

    def _counts_enough(self, kind: str, cards: tuple[Card, ...], needed: int) -> bool:
        """Whether a candidate meld alone counts the points a first meld needs."""
        return counted_points(self.ruleset, [self._meld_of(kind, cards)]) >= needed

    def _lay_candidates(self) -> Iterator[Lay]:
        """Single new melds that the keep-cards, duplicate-rank and first-meld rules allow."""
        h = self.hand
        team = h.melds[h.team]
        size = h.sizes[h.current]
        no_duplicates = not self.rules.melds.group.duplicate_ranks
        held = {m.rank for m in team if m.kind == "group"} if no_duplicates else set()
        needed = None if team else minimum(self.ruleset, h.team_scores[h.team])
        keep = self.keep
        for rank, cards in self._group_list():
            if (
                size - len(cards) >= keep
                and rank not in held
                and (needed is None or self._counts_enough("group", cards, needed))
            ):
                yield Lay((cards,))
        for kind, found in (
            ("sequence", self._sequence_candidates()),
            ("wild", self._wild_candidates()),
        ):
            for cards in found:
                if size - len(cards) >= keep and (
                    needed is None or self._counts_enough(kind, cards, needed)
                ):
                    yield Lay((cards,))
        if not team:
            best = self._best_melds()
            if (
                len(best) > 1
                and size - sum(map(len, best)) >= self.keep
                and counted_points(self.ruleset, [verify_meld(self.ruleset, m) for m in best])
                >= (needed or 0)
            ):
                yield Lay(best)

    def _extend_candidates(self) -> Iterator[Extend]:
        h = self.hand
        ruleset = self.ruleset
        rules = self.rules
        room = h.sizes[h.current] - self.keep
        if room < 1:
            return
        wilds = h.wild_cards()
        choices = [wilds[0], wilds[-1]] if wilds else []
        if len(choices) == 2 and choices[0] == choices[1]:
            choices.pop()
        counts = h.rank_counts[h.current]
        grown = group_table(ruleset, new=False)
        wild_onto_canasta = rules.melds.group.wild_onto_canasta
        for i, meld in enumerate(h.melds[h.team]):
            if meld.kind == "group" and meld.rank is not None:
                r = RANK_INDEX[meld.rank]
                n = min(counts[r], room)  # the rank of a group is not wild
                if n and grown[meld.naturals + n][meld.wilds]:
                    yield Extend(i, tuple(h.naturals(r)[:n]))
                if (
                    choices
                    and grown[meld.naturals][meld.wilds + 1]
                    and (wild_onto_canasta or canasta_of(ruleset, meld) is None)
                ):
                    yield from (Extend(i, (card,)) for card in choices)
            elif meld.kind == "sequence":
                yield from (Extend(i, (card,)) for card in self._sequence_ends(meld))
            elif (
                meld.kind == "wild"
                and choices
                and wild_fault(rules.melds.wild, meld.size + 1, new=False) is None
            ):
                yield from (Extend(i, (card,)) for card in choices)

    def _play_actions(self) -> list[Action]:
        h = self.hand
        out: list[Action] = [*self._lay_candidates(), *self._extend_candidates()]
        if h.sizes[h.current] >= 2:
            out.extend(compress(DISCARDS, h.hands[h.current]))
        lines = self.go_out_lines(limit=2)
        if not h.must_ask():
            out.extend(lines)
        if (
            lines
            and self.rules.going_out.ask_partner != "never"
            and h.partnerships
            and h.asked is None
        ):
            out.append(ASK)
        return out

    def _sequence_ends(self, meld: Meld) -> list[Card]:
        h = self.hand
        hand = h.hands[h.current]
        ranks = sorted(c.index >> 2 for c in meld.cards if not self.ruleset.wild[c.index])
        s = SUITS.index(meld.suit or "C")
        out = []
        for r in (ranks[0] - 1, ranks[-1] + 1):
            if (
                0 <= r < 13
                and hand[r * 4 + s]
                and sequence_fault(self.ruleset, [*ranks, r], meld.wilds, new=False) is None
            ):
                out.append(CARDS[r * 4 + s])
        return out

    def _side_melds(self) -> tuple[Counter[str], list[_OpenMeld]]:
        """The side's canastas by kind, and its melds not yet canastas as (kind, size, wild
        cards, rank index, suit index, the rank below and above a sequence); kept while the
        side's melds stay the same."""
        h = self.hand
        melds = tuple(h.melds[h.team])
        cached = self._sides.get(h.team)
        if cached is not None and cached[0] == melds:
            return cached[1], cached[2]
        ruleset = self.ruleset
        made: Counter[str] = Counter()
        open_melds: list[_OpenMeld] = []
        for meld in melds:
            kind = canasta_of(ruleset, meld)
            if kind is not None:
                made[kind] += 1
                continue
            r = s = below = above = 0
            if meld.kind == "group" and meld.rank is not None:
                r = RANK_INDEX[meld.rank]
            elif meld.kind == "sequence" and meld.suit is not None:
                s = SUITS.index(meld.suit)
                ranks = [c.index >> 2 for c in meld.cards if not ruleset.wild[c.index]]
                below, above = min(ranks) - 1, max(ranks) + 1
            elif meld.kind != "wild":
                continue
            open_melds.append((meld.kind, meld.size, meld.wilds, r, s, below, above))
        self._sides[h.team] = (melds, made, open_melds)
        return made, open_melds

    def could_go_out(self) -> bool:
        """A quick upper bound: could the side's melds, with every card of this hand put to
        use, meet the going-out requirement? (Saves searching for a way out when not.)"""
        h = self.hand
        req = self.requirement
        ruleset = self.ruleset
        made, open_melds = self._side_melds()
        potential = Counter(made)
        if sum(potential.values()) >= req.count and all(
            potential[kind] >= n for kind, n in req.including.items()
        ):
            return True
        canastas = self.rules.canastas
        hand = h.hands[h.current]
        counts = h.rank_counts[h.current]
        wilds = len(h.wild_cards())
        low, high = ruleset.sequence_span
        max_wild = self.rules.melds.group.max_wild
        group_canasta = min(canastas.natural.size, canastas.mixed.size)
        for kind, size, meld_wilds, r, s, below, above in open_melds:
            if kind == "group":
                room = max_wild - meld_wilds if max_wild is not None else wilds
                if size + counts[r] + min(wilds, max(room, 0)) >= group_canasta:
                    potential["mixed"] += 1
            elif kind == "sequence":
                addable = 0
                while below >= low and hand[below * 4 + s]:
                    addable, below = addable + 1, below - 1
                while above <= high and hand[above * 4 + s]:
                    addable, above = addable + 1, above + 1
                extra = min(wilds, self.rules.melds.sequence.max_wild)
                if size + addable + extra >= canastas.escalera.size:
                    potential["escalera"] += 1
            elif kind == "wild" and size + wilds >= canastas.bolivia.size:
                potential["bolivia"] += 1
        wild = ruleset.wild
        mixed = canastas.mixed.size - wilds
        for r in range(13):
            if counts[r] >= mixed and r != 1 and not wild[r * 4]:
                potential["mixed"] += 1
        if self.rules.melds.sequence.allowed:
            span = ((1 << (high + 1)) - 1) & ~((1 << low) - 1)
            for mask in h.suit_masks[h.current]:
                mask &= span
                best = 0  # the longest run of ranks held
                while mask:
                    mask &= mask >> 1
                    best += 1
                if best + self.rules.melds.sequence.max_wild >= canastas.escalera.size:
                    potential["escalera"] += 1
        if self.rules.melds.wild.allowed and wilds >= canastas.bolivia.size:
            potential["bolivia"] += 1
        if sum(potential.values()) < req.count:
            return False
        return all(potential[kind] >= n for kind, n in req.including.items())

    def go_out_lines(self, limit: int = 1) -> list[GoOut]:
        """Up to ``limit`` ways for the current player to go out now (searched, not all)."""
        h = self.hand
        if h.phase != "play" or h.asked is False or h.sizes[h.current] > 12:
            return []
        key = (h.steps, limit)
        if self._outs[0] == key:
            return self._outs[1]
        stranded = self.stranded()
        lines = []
        if stranded is not None and self.could_go_out():
            lines = self.ways_out(limit, stranded)
        self._outs = (key, lines)
        return lines

    def stranded(self) -> list[int] | None:
        """The cards of the hand (by index) that have nowhere to go -- no meld of the side to
        join, no partner card to meld with -- or None if there are more than one. Going out
        needs at most one (it is then the discard). Every test is generous: a card listed can
        surely not be melded, so a hand that can go out is never refused here."""
        h = self.hand
        wild = self.ruleset.wild
        hand = h.hands[h.current]
        counts = h.rank_counts[h.current]
        masks = h.suit_masks[h.current]
        team = h.melds[h.team]
        group_ranks = {m.rank for m in team if m.kind in ("group", "threes")}
        run_suits = {SUITS.index(m.suit) for m in team if m.kind == "sequence" and m.suit}
        min_natural = self.rules.melds.group.min_natural
        wilds = len(h.wild_cards())
        sequences = self.rules.melds.sequence.allowed
        threes = self.rules.melds.black_threes
        stranded: list[int] = []
        for r in range(13):
            same = counts[r]
            if not same or wild[r * 4]:  # wild cards go anywhere
                continue
            if r == 1:  # black threes: only as a meld of their own
                black = hand[4] + hand[7]
                if threes.when == "never" or black + min(wilds, threes.max_wild) < threes.min_size:
                    stranded += [4] * hand[4] + [7] * hand[7]
            elif RANKS[r] in group_ranks or same >= min_natural or (wilds and min_natural <= 1):
                continue
            elif not sequences:
                stranded += [i for i in range(r * 4, r * 4 + 4) for _ in range(hand[i])]
            else:
                for s in range(4):
                    # a card of a run already laid, or with a card of its suit one or two
                    # ranks away (bits r-2, r-1, r+1, r+2 of the suit's mask)
                    if hand[r * 4 + s] and not (s in run_suits or ((masks[s] << 2) >> r) & 0b11011):
                        stranded += [r * 4 + s] * hand[r * 4 + s]
            if len(stranded) > 1:
                return None
        return stranded

    def ways_out(self, limit: int, stranded: Sequence[int] = ()) -> list[GoOut]:
        """Ways out, searched discard by discard (a stranded card is the only discard there
        can be)."""
        h = self.hand
        hand = h.hand_cards()
        found: list[GoOut] = []
        budget = [GO_OUT_BUDGET]
        discards: list[Card | None]
        if stranded:
            discards = [CARDS[stranded[0]]]
        else:
            discards = [CARDS[i] for i, n in enumerate(h.hands[h.current]) if n]
            if not self.rules.going_out.discard_required:
                discards = [None, *discards]
        for discard in discards:
            rest = list(hand)
            if discard is not None:
                rest.remove(discard)
            self._search_out(rest, [], [], list(h.melds[h.team]), discard, found, limit, budget)
            if len(found) >= limit or budget[0] <= 0:
                break
        return found

    def _search_out(
        self,
        rest: list[Card],
        melds: list[tuple[Card, ...]],
        extends: list[tuple[int, tuple[Card, ...]]],
        table: list[Meld],
        discard: Card | None,
        found: list[GoOut],
        limit: int,
        budget: list[int],
    ) -> None:
        if len(found) >= limit or budget[0] <= 0:
            return
        if not rest:
            action = GoOut(tuple(melds), tuple(extends), discard)
            try:
                self.hand.verify_way_out(action, asking=False)
            except (Illegal, BadRequest):
                return
            found.append(action)
            return
        card = rest[0]
        # the card onto a meld on the table (or laid in this move) that could take it
        for i, meld in enumerate(table):
            if not could_join(self.ruleset, meld, card):
                continue
            budget[0] -= 1
            try:
                grown = verify_extend(self.ruleset, meld, [card], going_out=True)
            except Illegal:
                continue
            self._search_out(
                rest[1:],
                melds,
                [*extends, (i, (card,))],
                [*table[:i], grown, *table[i + 1 :]],
                discard,
                found,
                limit,
                budget,
            )
            if len(found) >= limit:
                return
        # a new meld holding the card
        for cards in self._melds_with(card, rest):
            budget[0] -= 1
            try:
                new = verify_meld(self.ruleset, cards, going_out=True)
            except Illegal:
                continue
            left = list(rest)
            for c in cards:
                left.remove(c)
            self._search_out(
                left, [*melds, cards], extends, [*table, new], discard, found, limit, budget
            )
            if len(found) >= limit:
                return

    def _melds_with(self, card: Card, cards: list[Card]) -> Iterator[tuple[Card, ...]]:
        wild = self.ruleset.wild
        wilds = [c for c in cards if wild[c.index]]
        if wild[card.index]:
            yield tuple(wilds)
            return
        same = [c for c in cards if c.rank == card.rank and not wild[c.index]]
        for w in range(len(wilds) + 1):
            yield tuple(same + wilds[:w])
        if card.rank != "3":
            present = {
                RANKS.index(c.rank) for c in cards if c.suit == card.suit and not wild[c.index]
            }
            low = high = RANKS.index(card.rank)
            while low - 1 in present:
                low -= 1
            while high + 1 in present:
                high += 1
            if high > low:
                yield tuple(Card(RANKS[r], card.suit) for r in range(low, high + 1))
