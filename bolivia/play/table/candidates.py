"""The actions bots choose among: a short list of legal actions, fast to build.

The complete list of legal actions (:meth:`Moves.legal <bolivia.play.table.moves.Moves.legal>`)
holds every meld a hand can make; a bot needs far fewer to play well. This list holds, in each
state: drawing; the pickups of the pile with the naturals of the top card's rank (the fewest
first) and 0 to 3 of the cheapest wild cards, or onto a meld; taking the top card; each group
of all the naturals of a rank with 0 to 3 of the cheapest wild cards, each run of a suit (the
longest, cut to the size limit), wild melds, a first meld of several melds; extensions with
all the naturals of a rank or one wild card, a sequence's next cards; joins of groups; every
discard; up to two or three ways out (:meth:`Moves.go_out_lines
<bolivia.play.table.moves.Moves.go_out_lines>`); asking the partner. Every one is legal (the ones
whose legality is more than a count are verified in full, and :meth:`Hand.apply
<bolivia.play.table.hand.Hand.apply>` verifies whatever it is given), and the list is never empty
while the hand goes on: a player who must go out is offered the ways out.

Candidate lists are kept for the state they were built in (the hand clears them on every
action); the runs a suit's ranks make are kept in a table shared by the hands of a ruleset.

>>> import random
>>> from bolivia.play.table.hand import Hand
>>> from bolivia.rules.library import shipped_library
>>> hand = Hand.deal(shipped_library().load("bolivia-da"), 4, random.Random(1))
>>> [type(action).__name__ for action in hand.choices()]
['Draw', 'TakePile', 'TakePile', 'TakePile']
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Final

from bolivia.cards import POSITION_RANK, RANKS, SUIT_INDEX, Card
from bolivia.engine.initial_meld import counted_points, holds_canasta, meld_value, minimum
from bolivia.engine.limits import limits
from bolivia.engine.melds import (
    Meld,
    canasta_kind,
    canasta_of,
    combination,
    could_join,
    extension,
    group_table,
    new_meld,
    sequence_fault,
    sequence_places,
    verify_meld,
    wild_fault,
)
from bolivia.engine.pile import card_class, frozen_when
from bolivia.kept import Kept
from bolivia.play.table.actions import (
    ASK,
    DISCARDS,
    DRAW,
    NO,
    STOP,
    YES,
    Action,
    Combine,
    Extend,
    Lay,
    TakePile,
    TakeTop,
)
from bolivia.play.table.runs import positions
from bolivia.play.table.state import RED_THREES
from bolivia.play.table.ways_out import can_go_out

if TYPE_CHECKING:
    from bolivia.play.table.verifier import Verifier

__all__ = ["Candidates"]

CARDS: Final = Card.all()
RANK_INDEX: Final = {rank: i for i, rank in enumerate(RANKS)}
KEPT_RUNS: Final = 10_000  # the most runs whose ends a hand keeps (then cleared)


class Candidates:
    """The short list of a hand's current state (see the module)."""

    def __init__(self, hand: Verifier) -> None:
        self.hand = hand
        ruleset = hand.ruleset
        self.ruleset = ruleset
        self.rules = ruleset.rules
        self.lim = limits(ruleset)
        self.keep = hand.keep
        # the runs of one suit the ranks held make, by ranks and suit: shared by the hands
        # of a ruleset (at most 4 x 2**13 entries)
        self._runs_known: dict[int, tuple[tuple[Card, ...], ...]] = ruleset.__dict__.setdefault(
            "_runs_by_suit", {}
        )
        # the positions (see cards.POSITION_RANK) a sequence's naturals may take, a bit each
        self._run_span = limits(ruleset).run_places
        # by player and suit, the positions last read and their runs (see _runs; -1: none)
        self._last_places = [-1] * (4 * hand.players)
        self._last_runs: list[tuple[tuple[Card, ...], ...]] = [()] * (4 * hand.players)
        # for the group candidates: the ranks a group may be of (not threes, not wild: the
        # limits'), and the fewest naturals of a group with at most 0, 1, 2, 3 wild cards (kept
        # with the ruleset: every hand of it reads the same)
        self._group_ranks = limits(ruleset).group_ranks
        least: tuple[int | None, ...] | None = ruleset.__dict__.get("_group_least")
        if least is None:
            allowed = group_table(ruleset)
            least = ruleset.__dict__["_group_least"] = tuple(
                min(
                    (n for n in range(len(allowed)) if any(allowed[n][: most + 1])),
                    default=None,
                )
                for most in range(4)
            )
        self._group_least = least
        self.memo: dict[str, object] = {}  # candidate lists of this state
        # each table run's ends, by the run (see _sequence_ends; kept with the run, which
        # the side's melds keep until it grows)
        self._ends: Kept[int, tuple[int, ...]] = Kept(KEPT_RUNS)

    def choices(self) -> list[Action]:
        """The actions bots choose among: legal, never empty while the hand goes on.

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
        if h.asked is True or h.committed:
            return list(h.moves.go_out_lines(limit=3))
        return self._play_actions()

    def _draw_actions(self) -> list[Action]:
        h = self.hand
        if h.asked is True:  # told yes before drawing: take the pile in a way that goes out
            return [a for a in h.moves.pickups() if h.can(a)]
        out: list[Action] = []
        if h.stock:
            out.append(DRAW)
        if h.pile:
            out.extend(action for action in self.pile_candidates() if self.can_take(action))
            lim = self.lim
            if lim.take_top:
                for i, meld in enumerate(h.melds[h.team]):
                    if meld.kind in lim.take_top_kinds and h.can(TakeTop(i)):
                        out.append(TakeTop(i))
        if not h.stock and h.can(STOP):
            out.append(STOP)
        if h.pile and h.must_ask() and self._asking_opens_the_pile():
            out.append(ASK)
        return out

    def _asking_opens_the_pile(self) -> bool:
        """Where the partner must be asked before going out: whether a pickup that leaves the
        player fewer cards than the keep-cards rule asks would let the player go out (such a
        pickup needs the question first, before drawing)."""
        h = self.hand
        given = self.pile_gives()
        for action in h.moves.pickups():
            if self.left_after(action, given) >= h.keep:  # most leave enough: not checked
                continue
            after = h.after_pickup(action)
            if (
                after is not None
                and sum(after[0]) < h.keep
                and can_go_out(self.ruleset, after[1], after[0], players=h.players)
            ):
                return True
        return False

    def pile_gives(self) -> int:
        """The cards taking the pile puts in the hand: those under the top, but red threes."""
        return sum(1 for i in self.hand.pile[:-1] if i not in RED_THREES)

    def left_after(self, action: Action, given: int) -> int:
        """The cards the hand holds after this pickup, counted without checking it (what
        :meth:`Hand.after_pickup <bolivia.play.table.hand.Hand.after_pickup>`'s counts sum to where
        it allows the pickup); ``given``: :meth:`pile_gives`."""
        left = self.hand.sizes[self.hand.current]
        if isinstance(action, TakePile):
            left += given - len(action.with_cards or ()) - sum(len(m) for m in action.also)
        return left

    def pile_candidates(self) -> Iterator[TakePile]:
        h = self.hand
        ruleset = self.ruleset
        top = CARDS[h.pile[-1]]
        if card_class(ruleset, top) in self.lim.blocked_by_top:
            return
        team = h.melds[h.team]
        ways = self._ways()
        hand = h.hands[h.current]
        base = (top.index >> 2) * 4
        # a wild top card (the joker included) is never matched by naturals
        matching = 0 if self.lim.wild[top.index] else sum(hand[base : base + 4])
        least = 2 if "natural_and_wild" not in ways else 1
        if matching >= least and ("natural_pair" in ways or "natural_and_wild" in ways):
            naturals = h.naturals(top.index >> 2)
            wilds = h.wild_cards()
            # the group the cards make with the top card must meet the group limits: a new
            # group, or the side's group of that rank grown (where there is one per rank)
            lim = self.lim
            joins = None
            if not (lim.duplicate_ranks or lim.pair_starts_new_meld):
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
            kinds = self.lim.onto_kinds
            for i, meld in enumerate(team):
                if meld.kind in kinds and could_join(ruleset, meld, top):
                    yield TakePile(None, i)

    def _ways(self) -> tuple[str, ...]:
        """The ways the pile may be taken now (frozen or not), kept for the current state."""
        found = self.memo.get("ways")
        if found is None:
            h = self.hand
            frozen = frozen_when(
                self.ruleset, h.pile_kinds(), team_has_melded=bool(h.melds[h.team])
            )
            lim = self.lim
            found = self.memo["ways"] = lim.take_frozen if frozen else lim.take_unfrozen
        return found  # type: ignore[return-value]

    def can_take(self, action: TakePile) -> bool:
        """:meth:`Hand.can <bolivia.play.table.hand.Hand.can>` for a pickup in the draw phase,
        decided on the counts with the rule modules' non-raising checks (the same checks, in the
        same terms, as :func:`~bolivia.engine.pile.verify_pickup` and the hand's verify path); where
        the pickup would bind the player to going out (fewer cards left than the keep-cards
        rule asks, black threes melded, a partner's answer) the full verify path decides. What
        this allows, :meth:`Hand.apply` verifies again in full."""
        h = self.hand
        if h.ended_by is not None or h.phase != "draw":
            return h.can(action)
        ruleset = self.ruleset
        lim = self.lim
        pile = h.pile
        if not pile:
            return False
        top_index = pile[-1]
        top = CARDS[top_index]
        if card_class(ruleset, top) in lim.blocked_by_top:
            return False
        with_cards = action.with_cards
        if with_cards is not None and action.onto is not None:
            return False
        team = h.melds[h.team]
        hand = h.hands[h.current]
        size = h.sizes[h.current]
        # the cards taken from the hand: held, as many times as named
        need: dict[int, int] = {}
        for card in with_cards or ():
            need[card.index] = need.get(card.index, 0) + 1
        for cards in action.also:
            for card in cards:
                need[card.index] = need.get(card.index, 0) + 1
        taken = 0
        for i, n in need.items():
            if hand[i] < n:
                return False
            taken += n
        if action.onto is not None and not 0 <= action.onto < len(team):
            return False
        if lim.one_card_rule and size == 1 and len(pile) == 1:
            return False
        if not lim.for_first_meld and not team:
            return False
        also: list[Meld] = []
        for cards in action.also:
            made = new_meld(ruleset, cards)
            if made is None:
                return False
            also.append(made)
        ways = self._ways()
        new: list[Meld] = list(also)
        if with_cards is not None:
            wild = lim.wild
            matching = sum(1 for c in with_cards if not wild[c.index] and c.rank == top.rank)
            wilds = sum(1 for c in with_cards if wild[c.index])
            if not (
                ("natural_pair" in ways and matching >= 2)
                or ("natural_and_wild" in ways and matching >= 1 and wilds >= 1)
            ):
                return False
            joined = False
            if not (lim.duplicate_ranks or lim.pair_starts_new_meld):
                target = next((m for m in team if m.kind == "group" and m.rank == top.rank), None)
                if target is not None:
                    if extension(ruleset, target, (*with_cards, top)) is None:
                        return False
                    joined = True
            if not joined:
                made = new_meld(ruleset, (*with_cards, top))
                if made is None or made.kind != "group":
                    return False
                if not team:
                    points = counted_points(ruleset, [made, *also], top_card=top)
                    if points < minimum(ruleset, h.team_scores[h.team]) or not holds_canasta(
                        ruleset, h.first_canasta_for(team), [made, *also]
                    ):
                        return False
                if not lim.pair_starts_new_meld:
                    new.insert(0, made)
        elif action.onto is not None:
            if action.also:  # not a pickup the candidates make: the full path
                return h.can(action)
            target = team[action.onto]
            if (
                "onto_meld" not in ways
                or target.kind not in lim.onto_kinds
                or (not lim.onto_canasta and canasta_of(ruleset, target) is not None)
                or extension(ruleset, target, [top]) is None
            ):
                return False
        else:  # some way: the full path searches
            return h.can(action)
        if not lim.duplicate_ranks:
            ranks = [m.rank for m in team if m.kind == "group"]
            for meld in new:
                if meld.kind == "group":
                    if meld.rank in ranks:
                        return False
                    ranks.append(meld.rank)
        given = self.pile_gives()
        reds = len(pile) - 1 - given
        unknown = 0
        if lim.replaced_from_pile and h.stock:
            unknown = min(len(h.stock), reds)
        remaining = size - taken + given + unknown
        if unknown and remaining - unknown < h.keep:
            return False
        threes = lim.threes_when == "going_out" and any(m.kind == "threes" for m in also)
        if remaining < h.keep or threes or h.committed or h.asked is not None:
            return h.can(action)  # what the turn then binds the player to: the full path
        return True

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
            found = self.memo["groups"] = self._groups()
        return found  # type: ignore[return-value]

    def _groups(self) -> list[tuple[str, tuple[Card, ...]]]:
        h = self.hand
        allowed = group_table(self.ruleset)
        counts = h.rank_counts[h.current]
        wilds = h.wild_cards()
        most = min(len(wilds), 3)
        least = self._group_least[most]
        out: list[tuple[str, tuple[Card, ...]]] = []
        if least is None:
            return out
        limit = len(allowed)
        for r in self._group_ranks:
            n = counts[r]
            if least <= n < limit:
                row = allowed[n]
                naturals = h.naturals(r)
                rank = RANKS[r]
                for w in range(most + 1):
                    if row[w]:
                        out.append((rank, naturals + wilds[:w]))
        return out

    def _sequence_candidates(self) -> list[tuple[Card, ...]]:
        """The runs of one suit the hand can lay (the longest, cut to the size limit)."""
        found = self.memo.get("runs")
        if found is None:
            found = self.memo["runs"] = self._runs()
        return found  # type: ignore[return-value]

    def _runs(self) -> list[tuple[Card, ...]]:
        h = self.hand
        out: list[tuple[Card, ...]] = []
        if not self.lim.sequence_allowed:
            return out
        known = self._runs_known
        span = self._run_span
        masks = h.suit_masks[h.current]
        # each suit's last positions and runs, by player (a suit's ranks held seldom change
        # from one choice to the next): read without the shared table's lookup
        last_places, last_runs = self._last_places, self._last_runs
        at = h.current * 4
        for s in range(4):
            places = positions(masks[s]) & span
            if last_places[at + s] == places:
                out.extend(last_runs[at + s])
                continue
            key = places << 2 | s
            found = known.get(key)
            if found is None:
                found = known[key] = tuple(self._suit_runs(s, places))
            last_places[at + s] = places
            last_runs[at + s] = found
            out.extend(found)
        return out

    def _suit_runs(self, s: int, mask: int) -> Iterator[tuple[Card, ...]]:
        """The runs of suit ``s`` that the positions in ``mask`` make (at most 13 cards: a run
        from ace to ace would need both aces, which the mask does not tell)."""
        lim = self.lim
        longest = min(lim.sequence_max_size or 13, lim.sequence_longest, 13)
        least = lim.sequence_min_size
        while mask.bit_count() >= least:
            start = (mask & -mask).bit_length() - 1  # the lowest rank held
            length = (~(mask >> start) & ((mask >> start) + 1)).bit_length() - 1
            mask &= ~(((1 << length) - 1) << start)  # the run of ranks from there
            if length < least:
                continue
            for first in range(start, start + max(1, length - longest + 1)):
                ranks = [POSITION_RANK[p] for p in range(first, first + min(length, longest))]
                if sequence_fault(self.ruleset, ranks, 0, new=True) is None:
                    yield tuple(sorted(CARDS[x * 4 + s] for x in ranks))

    def _wild_candidates(self) -> list[tuple[Card, ...]]:
        lim = self.lim
        out: list[tuple[Card, ...]] = []
        if not lim.wild_allowed:
            return out
        wilds = self.hand.wild_cards()
        held = len(wilds)
        least = lim.wild_min_size
        if held < least:
            return out
        most = held if lim.wild_max_size is None else min(held, lim.wild_max_size)
        for n in (least, most) if most > least else (least,):
            if wild_fault(self.rules.melds.wild, n, new=True) is None:
                out.append(tuple(wilds[:n]))
        return out

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
            need: dict[int, int] = {}
            for c in cards:
                need[c.index] = need.get(c.index, 0) + 1
            if any(available[i] < n for i, n in need.items()):
                continue
            for i, n in need.items():
                available[i] -= n
            if group:
                ranks.add(cards[0].rank)
            chosen.append(cards)
        return tuple(chosen)

    def _counts_enough(self, kind: str, cards: tuple[Card, ...], needed: int) -> bool:
        """Whether a candidate meld alone (of this kind: it met the limits) counts the points
        a first meld needs, by :func:`~bolivia.engine.initial_meld.meld_value` on its cards,
        and is the canasta it must hold where its band asks for one."""
        wild = self.ruleset.wild
        wilds = sum(1 for c in cards if wild[c.index])
        value = meld_value(self.ruleset, kind, cards, wilds)
        kinds = self.hand.first_canasta_for(())
        if kinds and canasta_kind(self.ruleset, kind, len(cards), wilds) not in kinds:
            return False
        return (0 if value is None else value) >= needed

    def _lay_candidates(self, out: list[Action]) -> None:
        """Single new melds that the keep-cards, duplicate-rank and first-meld rules allow
        (added to ``out``)."""
        h = self.hand
        team = h.melds[h.team]
        size = h.sizes[h.current]
        no_duplicates = not self.lim.duplicate_ranks
        held = {m.rank for m in team if m.kind == "group"} if no_duplicates else set()
        needed = None if team else minimum(self.ruleset, h.team_scores[h.team])
        keep = self.keep
        for rank, cards in self._group_list():
            if (
                size - len(cards) >= keep
                and rank not in held
                and (needed is None or self._counts_enough("group", cards, needed))
            ):
                out.append(Lay((cards,)))
        for kind, found in (
            ("sequence", self._sequence_candidates()),
            ("wild", self._wild_candidates()),
        ):
            for cards in found:
                if size - len(cards) >= keep and (
                    needed is None or self._counts_enough(kind, cards, needed)
                ):
                    out.append(Lay((cards,)))
        if not team:
            best = self._best_melds()
            melds = [verify_meld(self.ruleset, m) for m in best]
            if (
                len(best) > 1
                and size - sum(map(len, best)) >= self.keep
                and counted_points(self.ruleset, melds) >= (needed or 0)
                and holds_canasta(self.ruleset, h.first_canasta_for(team), melds)
            ):
                out.append(Lay(best))

    def _extend_candidates(self, out: list[Action]) -> None:
        """Extensions of the side's melds (added to ``out``)."""
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
        wild_onto_canasta = self.lim.wild_onto_canasta
        for i, meld in enumerate(h.melds[h.team]):
            if meld.kind == "group" and meld.rank is not None:
                r = RANK_INDEX[meld.rank]
                n = min(counts[r], room)  # the rank of a group is not wild
                if n and grown[meld.naturals + n][meld.wilds]:
                    out.append(Extend(i, tuple(h.naturals(r)[:n])))
                if (
                    choices
                    and grown[meld.naturals][meld.wilds + 1]
                    and (wild_onto_canasta or canasta_of(ruleset, meld) is None)
                ):
                    for card in choices:
                        out.append(Extend(i, (card,)))
            elif meld.kind == "sequence":
                for card in self._sequence_ends(meld):
                    out.append(Extend(i, (card,)))
            elif (
                meld.kind == "wild"
                and choices
                and wild_fault(rules.melds.wild, meld.size + 1, new=False) is None
            ):
                for card in choices:
                    out.append(Extend(i, (card,)))

    def _play_actions(self) -> list[Action]:
        h = self.hand
        out: list[Action] = []
        self._lay_candidates(out)
        self._extend_candidates(out)
        if h.sizes[h.current] >= 2:
            hand = h.hands[h.current]
            for i in range(53):
                if hand[i]:
                    out.append(DISCARDS[i])
        if self.lim.combine:
            self._combine_candidates(out)
        lines = h.moves.go_out_lines(limit=2)
        if not h.must_ask():
            out.extend(lines)
        if lines and self.lim.ask_partner != "never" and h.partnerships and h.asked is None:
            out.append(ASK)
        return out

    def _sequence_ends(self, meld: Meld) -> list[Card]:
        """The cards of the hand that may join the run at one end, each once."""
        hand = self.hand.hands[self.hand.current]
        return [CARDS[i] for i in self._run_ends(meld) if hand[i]]

    def _run_ends(self, meld: Meld) -> tuple[int, ...]:
        """The cards (indexes, each once, in the order of the run's placements) that may
        join the run at one end: what :func:`sequence_fault` allows beside its naturals. They
        depend on the run alone, so they are kept with it (by identity: the run is kept too)."""
        known = self._ends.find(id(meld), meld)
        if known is not None:
            return known[1]
        ranks = sorted(c.index >> 2 for c in meld.cards if not self.lim.wild[c.index])
        s = SUIT_INDEX[meld.suit or "C"]
        out: list[int] = []
        for places in sequence_places(self.ruleset, ranks, meld.wilds):
            for p in (places[0] - 1, places[-1] + 1):  # the positions beside its naturals
                r = POSITION_RANK[p] if 0 <= p < 14 else -1
                if (
                    r >= 0
                    and r * 4 + s not in out
                    and sequence_fault(self.ruleset, [*ranks, r], meld.wilds, new=False) is None
                ):
                    out.append(r * 4 + s)
        return self._ends.keep(id(meld), meld, tuple(out))

    def _combine_candidates(self, out: list[Action]) -> None:
        """Joins of the side's groups (added to ``out``)."""
        for i, j in self.hand.group_pairs(self.hand.team):
            if self.can_combine(i, j):
                out.append(Combine(i, j))

    def can_combine(self, target: int, other: int) -> bool:
        """:meth:`Hand.can <bolivia.play.table.hand.Hand.can>` for joining two of the side's melds
        in the play phase, decided with :func:`~bolivia.engine.melds.combination` (the check
        of :func:`~bolivia.engine.melds.verify_combine`, without the reason); where the turn
        binds the player to going out (fewer cards than the keep-cards rule asks, a partner's
        answer, a commitment) the full verify path decides. :meth:`Hand.apply` verifies what
        this allows again in full."""
        h = self.hand
        team = h.melds[h.team]
        if (
            h.ended_by is not None
            or h.phase != "play"
            or not (0 <= target < len(team) and 0 <= other < len(team))
            or target == other
        ):
            return h.can(Combine(target, other))
        if combination(self.ruleset, team[target], team[other]) is None:
            return False
        if h.sizes[h.current] < self.keep or h.committed or h.asked is not None:
            return h.can(Combine(target, other))  # what the turn binds the player to
        return True
