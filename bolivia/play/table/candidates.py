"""The actions bots choose among: a short list of legal actions, fast to build.

The complete list of legal actions (:meth:`Moves.legal <bolivia.play.table.moves.Moves.legal>`)
holds every meld a hand can make; a bot needs far fewer to play well. In each state this list
holds:

- drawing, and taking the top card alone;
- the pickups of the pile with the naturals of the top card's rank (the fewest first) and 0 to
  3 of the cheapest wild cards, or onto a meld;
- each group of all the naturals of a rank with 0 to 3 of the cheapest wild cards, each run of
  a suit (the longest, cut to the size limit), wild melds, a first meld of several melds;
- extensions with all the naturals of a rank or one wild card, a sequence's next cards; joins
  of groups;
- every discard; up to two or three ways out (:meth:`Moves.go_out_lines
  <bolivia.play.table.moves.Moves.go_out_lines>`); asking the partner.

Every one is legal. The ones whose legality is more than a count are verified in full, and
:meth:`Hand.apply <bolivia.play.table.hand.Hand.apply>` verifies whatever it is given. The list
is never empty while the hand goes on: a player who must go out is offered the ways out.

Candidate lists are kept for the state they were built in; the hand clears them on every
action. The runs a suit's ranks make are kept in a table shared by the hands of a ruleset.

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

from bolivia.cards import RANKS, Card
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
    verify_meld,
    wild_fault,
)
from bolivia.engine.pile import card_class, frozen_when
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
from bolivia.play.table.suit_runs import SuitRuns
from bolivia.play.table.ways_out import can_go_out

if TYPE_CHECKING:
    from bolivia.play.table.verifier import Verifier

__all__ = ["Candidates"]

CARDS: Final = Card.all()
RANK_INDEX: Final = {rank: i for i, rank in enumerate(RANKS)}


class Candidates:
    """The short list of a hand's current state (see the module)."""

    def __init__(self, hand: Verifier) -> None:
        self.hand = hand
        ruleset = hand.ruleset
        self.ruleset = ruleset
        self.rules = ruleset.rules
        self.lim = limits(ruleset)
        self.keep = hand.keep
        # whether each candidate takes the full verify path: the side's melds may limit wild
        # cards, or cards dealt aside may join the hand; and in the first round, where nobody
        # melds in it
        self.full_path = self.lim.step_rules or self.lim.reserves
        self.first_round_wait = self.lim.first_round_wait
        self.suit_runs = SuitRuns(ruleset, hand.players)  # the runs it can lay, a run's ends
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

    def choices(self) -> list[Action]:
        """The actions bots choose among: legal, never empty while the hand goes on.

        Candidates are built with the rule modules' own limit checks, so each rule is written
        once. The moves whose legality is more than a count (taking the pile, going out) are
        verified in full. :meth:`Hand.apply` verifies whatever it is given.
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
            self._pile_actions(out)
        if not h.stock and h.can(STOP):
            out.append(STOP)
        if h.pile and h.must_ask() and self._asking_opens_the_pile():
            out.append(ASK)
        return out

    def _pile_actions(self, out: list[Action]) -> None:
        """Add the legal pickups of the pile and of its top card."""
        h = self.hand
        out.extend(action for action in self.pile_candidates() if self.can_take(action))
        if not self.lim.take_top:
            return
        kinds = self.lim.take_top_kinds
        for i, meld in enumerate(h.melds[h.team]):
            if meld.kind in kinds and h.can(TakeTop(i)):
                out.append(TakeTop(i))

    def _asking_opens_the_pile(self) -> bool:
        """Whether asking the partner first would open a way out by the pile.

        Where the partner must be asked before going out, a pickup that leaves the player
        fewer cards than the keep-cards rule asks needs the question first, before drawing.
        """
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
        """The cards taking the pile puts in the hand: all but the top and red threes (and
        black threes, where they are set aside)."""
        out = self.lim.pile_out
        return sum(1 for i in self.hand.pile[:-1] if i not in out)

    def left_after(self, action: Action, given: int) -> int:
        """The cards the hand holds after this pickup, counted without checking it.

        Where :meth:`Hand.after_pickup <bolivia.play.table.hand.Hand.after_pickup>` allows the
        pickup, its counts sum to this. ``given``: :meth:`pile_gives`.
        """
        left = self.hand.sizes[self.hand.current]
        if isinstance(action, TakePile):
            left += given - len(action.with_cards or ()) - sum(len(m) for m in action.also)
        return left

    def pile_candidates(self) -> Iterator[TakePile]:
        """The pickups bots consider: the top card with naturals, or onto a meld.

        With naturals of its rank, the fewest first, and 0 to 3 of the cheapest wild cards.
        """
        top = self._open_top()
        if top is None:
            return
        h = self.hand
        team = h.melds[h.team]
        ways = self._ways()
        least = self._least_naturals(top, ways)
        if least:
            yield from self._pair_pickups(top, team, least)
        if "onto_meld" in ways:
            kinds = self.lim.onto_kinds
            for i, meld in enumerate(team):
                if meld.kind in kinds and could_join(self.ruleset, meld, top):
                    yield TakePile(None, i)

    def _least_naturals(self, top: Card, ways: tuple[str, ...]) -> int:
        """The fewest naturals a pickup with cards takes; 0 where none may."""
        if self.lim.wild[top.index]:  # a wild top card (the joker too) is never matched
            return 0
        h = self.hand
        hand = h.hands[h.current]
        base = (top.index >> 2) * 4
        least = 2 if "natural_and_wild" not in ways else 1
        if sum(hand[base : base + 4]) >= least and (
            "natural_pair" in ways or "natural_and_wild" in ways
        ):
            return least
        return 0

    def _pair_pickups(self, top: Card, team: list[Meld], least: int) -> Iterator[TakePile]:
        """The pickups with the top card's naturals and 0 to 3 wild cards.

        The group they make with the top card is a new one, or the side's group of that rank
        grown (where there is one per rank).
        """
        h = self.hand
        naturals = h.naturals(top.index >> 2)
        wilds = h.wild_cards()
        joins = self._joined_group(team, top)
        allowed = group_table(self.ruleset)
        grown = group_table(self.ruleset, new=False)
        also_options: list[tuple[tuple[Card, ...], ...]] | None = None
        for n in range(least, len(naturals) + 1):
            for w in range(min(len(wilds), 3) + 1):
                if not _pair_fits(allowed, grown, joins, n, w):
                    continue
                if also_options is None:
                    also_options = self._also_options(team, top)
                for also in also_options:
                    yield TakePile(naturals[:n] + wilds[:w], None, also)

    def _also_options(self, team: list[Meld], top: Card) -> list[tuple[tuple[Card, ...], ...]]:
        """The further melds a pickup may lay: none, or a first meld's best set."""
        if team:
            return [()]
        return [(), self._best_melds(exclude=top.rank)]

    def _ways(self) -> tuple[str, ...]:
        """The ways the pile may be taken now, kept for the current state."""
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
        """Whether the hand may take the pile this way, decided on the counts.

        This is :meth:`Hand.can <bolivia.play.table.hand.Hand.can>` for a pickup in the draw
        phase, with the rule modules' non-raising checks (those of
        :func:`~bolivia.engine.pile.verify_pickup`). Where the pickup would bind the player to
        going out, the full verify path decides. :meth:`Hand.apply` verifies it again.
        """
        h = self.hand
        if (
            h.ended_by is not None
            or h.phase != "draw"
            or self.full_path
            or (self.first_round_wait and h.first_round > 0)
        ):
            return h.can(action)
        top = self._open_top()
        if top is None or not self._pile_open_to(action):
            return False
        taken = _taken(h.hands[h.current], action)
        if taken < 0:
            return False
        also = self._also_melds(action.also)
        if also is None:
            return False
        team = h.melds[h.team]
        if action.with_cards is not None:
            fits = self._pair_allowed(action.with_cards, top, team, also)
        elif action.onto is not None and not action.also:
            fits = self._onto_fits(team[action.onto], top)
        else:  # some way the candidates do not make: the full path searches
            return h.can(action)
        return fits and self._leaves_enough(action, taken, also)

    def _also_melds(self, also: tuple[tuple[Card, ...], ...]) -> list[Meld] | None:
        """The further melds a pickup lays, or None where one is not a meld."""
        out: list[Meld] = []
        for cards in also:
            made = new_meld(self.ruleset, cards)
            if made is None:
                return None
            out.append(made)
        return out

    def _open_top(self) -> Card | None:
        """The pile's top card; None where there is none or it blocks the pile."""
        pile = self.hand.pile
        if not pile:
            return None
        top = CARDS[pile[-1]]
        if card_class(self.ruleset, top) in self.lim.blocked_by_top:
            return None
        return top

    def _pile_open_to(self, action: TakePile) -> bool:
        """Whether the pile's rules allow this pickup, the melds aside."""
        h = self.hand
        lim = self.lim
        team = h.melds[h.team]
        onto = action.onto
        if onto is not None and (action.with_cards is not None or not 0 <= onto < len(team)):
            return False
        if lim.one_card_rule and h.sizes[h.current] == 1 and len(h.pile) == 1:
            return False
        return lim.for_first_meld or bool(team)

    def _pair_matches(self, with_cards: tuple[Card, ...], top: Card) -> bool:
        """Whether the cards from the hand match the top card as a way allows."""
        wild = self.lim.wild
        matching = sum(1 for c in with_cards if not wild[c.index] and c.rank == top.rank)
        wilds = sum(1 for c in with_cards if wild[c.index])
        ways = self._ways()
        return ("natural_pair" in ways and matching >= 2) or (
            "natural_and_wild" in ways and matching >= 1 and wilds >= 1
        )

    def _joined_group(self, team: list[Meld], top: Card) -> Meld | None:
        """The side's group a pickup grows, where a rank has one group only."""
        lim = self.lim
        if lim.duplicate_ranks or lim.pair_starts_new_meld:
            return None
        return _group_of(team, top.rank)

    def _pair_allowed(
        self, with_cards: tuple[Card, ...], top: Card, team: list[Meld], also: list[Meld]
    ) -> bool:
        """Whether a pickup with cards from the hand makes legal melds.

        The top card's group grows the side's group of its rank, or is a new group.
        """
        if not self._pair_matches(with_cards, top):
            return False
        ruleset = self.ruleset
        cards = (*with_cards, top)
        target = self._joined_group(team, top)
        if target is not None:
            return extension(ruleset, target, cards) is not None and self._ranks_apart(team, also)
        made = new_meld(ruleset, cards)
        if made is None or made.kind != "group":
            return False
        if not team and not self._opens(made, also, top):
            return False
        return self._ranks_apart(team, also if self.lim.pair_starts_new_meld else [made, *also])

    def _ranks_apart(self, team: list[Meld], new: list[Meld]) -> bool:
        """Whether the new groups keep to one group a rank, where the rules ask it."""
        return self.lim.duplicate_ranks or not _repeats_a_rank(team, new)

    def _opens(self, made: Meld, also: list[Meld], top: Card) -> bool:
        """Whether a pickup's melds make the side's first meld."""
        h = self.hand
        ruleset = self.ruleset
        points = counted_points(ruleset, [made, *also], top_card=top)
        return points >= minimum(ruleset, h.team_scores[h.team]) and holds_canasta(
            ruleset, h.first_canasta_for(h.melds[h.team]), [made, *also]
        )

    def _onto_fits(self, target: Meld, top: Card) -> bool:
        """Whether the top card may go onto this meld, taking the pile."""
        lim = self.lim
        return (
            "onto_meld" in self._ways()
            and target.kind in lim.onto_kinds
            and (lim.onto_canasta or canasta_of(self.ruleset, target) is None)
            and extension(self.ruleset, target, [top]) is not None
        )

    def _leaves_enough(self, action: TakePile, taken: int, also: list[Meld]) -> bool:
        """Whether the pickup leaves the cards the turn needs, by the counts.

        Where it binds the player to going out, the full verify path decides.
        """
        h = self.hand
        lim = self.lim
        given = self.pile_gives()
        reds = len(h.pile) - 1 - given
        unknown = min(len(h.stock), reds) if lim.replaced_from_pile and h.stock else 0
        remaining = h.sizes[h.current] - taken + given + unknown
        if unknown and remaining - unknown < h.keep:
            return False
        threes = lim.threes_when == "going_out" and any(m.kind == "threes" for m in also)
        if remaining < h.keep or threes or h.committed or h.asked is not None:
            return h.can(action)  # what the turn then binds the player to: the full path
        return True

    def _group_candidates(self, exclude: str | None = None) -> Iterator[tuple[Card, ...]]:
        """Groups the hand can lay, by the group limits.

        Each holds all the naturals of a rank, with 0 to 3 of the cheapest wild cards.
        """
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
        caps = self.lim.rank_caps  # ranks with a limit of their own (melds.group.wild_by_rank)
        for r in self._group_ranks:
            n = counts[r]
            if least <= n < limit:
                row = allowed[n]
                naturals = h.naturals(r)
                rank = RANKS[r]
                for w in range((min(most, caps.get(rank, most)) if caps else most) + 1):
                    if row[w]:
                        out.append((rank, naturals + wilds[:w]))
        return out

    def _sequence_candidates(self) -> list[tuple[Card, ...]]:
        """The runs the hand can lay: the longest, cut to the size limit."""
        found = self.memo.get("runs")
        if found is None:
            found = self.memo["runs"] = self._runs()
        return found  # type: ignore[return-value]

    def _runs(self) -> list[tuple[Card, ...]]:
        if not self.lim.sequence_allowed:
            return []
        h = self.hand
        return self.suit_runs.runs(h.suit_masks[h.current], h.current)

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
        """Disjoint legal melds from the hand, richest first, for a first meld."""
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
            group = _is_group(cards, wild)
            if (group and cards[0].rank in ranks) or not _take_from(available, cards):
                continue
            if group:
                ranks.add(cards[0].rank)
            chosen.append(cards)
        return tuple(chosen)

    def _counts_enough(self, kind: str, cards: tuple[Card, ...], needed: int) -> bool:
        """Whether a candidate meld alone makes the side's first meld.

        The meld met the limits of its kind. It counts the points needed by
        :func:`~bolivia.engine.initial_meld.meld_value`, and is the canasta the band asks for,
        if any.
        """
        wild = self.ruleset.wild
        wilds = sum(1 for c in cards if wild[c.index])
        value = meld_value(self.ruleset, kind, cards, wilds)
        kinds = self.hand.first_canasta_for(())
        if kinds and canasta_kind(self.ruleset, kind, len(cards), wilds) not in kinds:
            return False
        return (0 if value is None else value) >= needed

    def _lay_candidates(self, out: list[Action]) -> None:
        """Add the single new melds the rules allow, and a first meld's set.

        The rules: the keep-cards rule, one group a rank, the first meld's minimum.
        """
        h = self.hand
        team = h.melds[h.team]
        size = h.sizes[h.current]
        needed = None if team else minimum(self.ruleset, h.team_scores[h.team])
        held = self._group_ranks_held(team)
        for rank, cards in self._group_list():
            if rank not in held and self._may_lay("group", cards, size, needed):
                out.append(Lay((cards,)))
        self._lays_of("sequence", self._sequence_candidates(), out, size, needed)
        self._lays_of("wild", self._wild_candidates(), out, size, needed)
        if not team:
            self._first_set_candidate(out, size, needed or 0)

    def _group_ranks_held(self, team: list[Meld]) -> set[str | None]:
        """The ranks of the side's groups, where a rank has one group only."""
        if self.lim.duplicate_ranks:
            return set()
        return {m.rank for m in team if m.kind == "group"}

    def _lays_of(
        self,
        kind: str,
        found: list[tuple[Card, ...]],
        out: list[Action],
        size: int,
        needed: int | None,
    ) -> None:
        """Add a lay of each of these melds that the rules allow alone."""
        for cards in found:
            if self._may_lay(kind, cards, size, needed):
                out.append(Lay((cards,)))

    def _may_lay(self, kind: str, cards: tuple[Card, ...], size: int, needed: int | None) -> bool:
        """Whether a meld alone may be laid: the cards kept, the first meld made."""
        return size - len(cards) >= self.keep and (
            needed is None or self._counts_enough(kind, cards, needed)
        )

    def _first_set_candidate(self, out: list[Action], size: int, needed: int) -> None:
        """Add the best set of several melds, where it makes a first meld."""
        h = self.hand
        best = self._best_melds()
        melds = [verify_meld(self.ruleset, m) for m in best]
        if (
            len(best) > 1
            and size - sum(map(len, best)) >= self.keep
            and counted_points(self.ruleset, melds) >= needed
            and holds_canasta(self.ruleset, h.first_canasta_for(h.melds[h.team]), melds)
        ):
            out.append(Lay(best))

    def _extend_candidates(self, out: list[Action]) -> None:
        """Add the extensions of the side's melds."""
        h = self.hand
        room = h.sizes[h.current] - self.keep
        if room < 1:
            return
        choices = self._wild_choices()
        grown = group_table(self.ruleset, new=False)
        for i, meld in enumerate(h.melds[h.team]):
            kind = meld.kind
            if kind == "group" and meld.rank is not None:
                self._group_extensions(out, i, meld, RANK_INDEX[meld.rank], room, choices, grown)
            elif kind == "sequence":
                for card in self._sequence_ends(meld):
                    out.append(Extend(i, (card,)))
            elif (
                kind == "wild"
                and choices
                and wild_fault(self.rules.melds.wild, meld.size + 1, new=False) is None
            ):
                _extend_each(out, i, choices)

    def _wild_choices(self) -> list[Card]:
        """The wild cards an extension may add: the cheapest and dearest held."""
        wilds = self.hand.wild_cards()
        if not wilds:
            return []
        if wilds[0] == wilds[-1]:
            return [wilds[0]]
        return [wilds[0], wilds[-1]]

    def _group_extensions(
        self,
        out: list[Action],
        i: int,
        meld: Meld,
        r: int,
        room: int,
        choices: list[Card],
        grown: list[list[bool]],
    ) -> None:
        """Add a group's extensions: its rank's naturals that fit, or a wild card."""
        h = self.hand
        n = min(h.rank_counts[h.current][r], room)  # the rank of a group is not wild
        if n and grown[meld.naturals + n][meld.wilds]:
            out.append(Extend(i, tuple(h.naturals(r)[:n])))
        if (
            choices
            and grown[meld.naturals][meld.wilds + 1]
            and (self.lim.wild_onto_canasta or canasta_of(self.ruleset, meld) is None)
        ):
            _extend_each(out, i, choices)

    def _play_actions(self) -> list[Action]:
        h = self.hand
        out: list[Action] = []
        self._lay_candidates(out)
        self._extend_candidates(out)
        if self.full_path or (self.first_round_wait and h.first_round > 0):
            out = [action for action in out if h.can(action)]
        if h.sizes[h.current] >= 2 or (h.feet[h.current] and not self.lim.foot_on_canasta):
            # (a foot taken when the hand is played out: the last card's discard takes it up)
            hand = h.hands[h.current]
            barring = self.lim.bars_discard  # then each discard is verified
            for i in range(53):
                if hand[i] and (not barring or h.can(DISCARDS[i])):
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
        return [CARDS[i] for i in self.suit_runs.ends(meld) if hand[i]]

    def _combine_candidates(self, out: list[Action]) -> None:
        """Add the joins of the side's groups."""
        for i, j in self.hand.group_pairs(self.hand.team):
            if self.can_combine(i, j):
                out.append(Combine(i, j))

    def can_combine(self, target: int, other: int) -> bool:
        """Whether the side may join these two melds, decided on the melds.

        This is :meth:`Hand.can <bolivia.play.table.hand.Hand.can>` in the play phase, with
        :func:`~bolivia.engine.melds.combination` (the check of
        :func:`~bolivia.engine.melds.verify_combine`, without the reason). Where the turn binds
        the player to going out, the full verify path decides. :meth:`Hand.apply` verifies it
        again.
        """
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


def _taken(hand: list[int], action: TakePile) -> int:
    """How many cards a pickup takes from the hand; -1 where some are not held."""
    need: dict[int, int] = {}
    for card in action.with_cards or ():
        need[card.index] = need.get(card.index, 0) + 1
    for cards in action.also:
        for card in cards:
            need[card.index] = need.get(card.index, 0) + 1
    taken = 0
    for i, n in need.items():
        if hand[i] < n:
            return -1
        taken += n
    return taken


def _group_of(team: list[Meld], rank: str) -> Meld | None:
    """The side's first group of this rank, if any."""
    for meld in team:
        if meld.kind == "group" and meld.rank == rank:
            return meld
    return None


def _repeats_a_rank(team: list[Meld], new: list[Meld]) -> bool:
    """Whether a new group has the rank of another group, old or new."""
    ranks = [m.rank for m in team if m.kind == "group"]
    for meld in new:
        if meld.kind == "group":
            if meld.rank in ranks:
                return True
            ranks.append(meld.rank)
    return False


def _pair_fits(
    allowed: list[list[bool]], grown: list[list[bool]], joins: Meld | None, n: int, w: int
) -> bool:
    """Whether ``n`` naturals, ``w`` wild cards and the top card make a group.

    ``joins``: the side's group they grow, or None for a new group.
    """
    if n == 1 and w == 0:
        return False
    if joins is None:
        return n + 1 < len(allowed) and allowed[n + 1][w]
    return grown[joins.naturals + n + 1][joins.wilds + w]


def _extend_each(out: list[Action], i: int, cards: list[Card]) -> None:
    """Add an extension of meld ``i`` by each of these cards, alone."""
    for card in cards:
        out.append(Extend(i, (card,)))


def _is_group(cards: tuple[Card, ...], wild: tuple[bool, ...]) -> bool:
    """Whether a candidate meld is a group: its naturals all of one rank."""
    return len({c.rank for c in cards if not wild[c.index]}) == 1 and cards[0].rank == cards[1].rank


def _take_from(available: list[int], cards: tuple[Card, ...]) -> bool:
    """Take the cards from ``available``, if it holds them all."""
    need: dict[int, int] = {}
    for c in cards:
        need[c.index] = need.get(c.index, 0) + 1
    if any(available[i] < n for i, n in need.items()):
        return False
    for i, n in need.items():
        available[i] = available[i] - n
    return True
