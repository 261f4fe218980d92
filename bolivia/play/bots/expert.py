"""The ``expert`` bot: a heuristic player whose every weight is a value of the ruleset.

It scores a position it can see -- its side's melds, its own hand, the pile, the hand sizes,
never another player's cards -- as the points the side's melds are worth now and on their way
to canastas (each kind's bonus, the going-out requirement's kinds weighted more while the side
lacks them), plus what the cards in its hand promise (groups and runs they would grow, natural
pairs to take the pile with, wild cards for a wild canasta) less the penalty they cost if the
hand ends now. Each action is valued by the position it leads to:

- a meld, an extension or a join is made when it raises the value (it pays), the best first;
- otherwise the discard that loses least, less the danger of feeding the pile to the next
  player (the chance they hold what takes it, from the cards still unseen, times what the pile
  is worth; a card that blocks or freezes the pile is safe);
- taking the pile (or its top card) when the position after it beats drawing;
- going out (and answering the partner yes) when the side is then ahead by an estimate of the
  cards still held, or when the hand is nearly over.

>>> import random
>>> from bolivia.play.table.hand import Hand
>>> from bolivia.rules.library import shipped_library
>>> hand = Hand.deal(shipped_library().load("bolivia-da"), 4, random.Random(3))
>>> ExpertBot().choose(hand, hand.choices(), random.Random(0))
Draw()
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from bolivia.cards import Card
from bolivia.engine.limits import KIND_INDEX, limits
from bolivia.engine.melds import Meld, special_bonus
from bolivia.engine.pile import card_class, frozen_when
from bolivia.engine.scoring import TeamHand, score_team
from bolivia.play.table.actions import (
    Action,
    Answer,
    Ask,
    Combine,
    Discard,
    Draw,
    Extend,
    GoOut,
    Lay,
    TakePile,
    TakeTop,
)
from bolivia.play.table.hand import Hand
from bolivia.play.table.runs import positions
from bolivia.play.table.state import BLACK_THREES, CARDS, RED_THREES

__all__ = ["ExpertBot", "Weights"]

# a meld as the valuation sees it: kind, size, wild cards, and the rank (group) or the suit
# with a bit per natural rank (sequence)
_Summary = tuple[str, int, int, int, int]


class Weights:
    """The few weights that are not the ruleset's values: how much of a promise the cards in
    hand are worth, against the same on the table."""

    __slots__ = ("draw", "hand", "pair", "pile", "risk", "run", "second_run", "wild")

    def __init__(self) -> None:
        self.hand = 0.5  # a group or wild meld the hand could make or grow, of its value
        self.run = 0.45  # a run the hand holds toward an escalera, of its value
        self.second_run = 0.25  # an unfinished run beside another of the suit, of its value
        self.pair = 30.0  # a natural pair to take the pile with
        self.pile = 1.0  # the danger of feeding the pile
        self.risk = 0.35  # the chance, early on, that the cards in hand are counted
        self.draw = 14.0  # a card drawn from the stock, in points
        self.wild = 25.0  # a wild card kept for a canasta


def _track(size: int, target: int, bonus: float) -> float:
    """A meld's way to a canasta of ``target`` cards worth ``bonus``: its share, squared."""
    if size >= target:
        return bonus
    share = size / target
    return bonus * share * share


class _TableView:
    """A table as the valuation reads it: its value, and the unfinished melds the hand's cards
    could grow (the biggest group of each rank, the wild meld, the longest run of each suit)."""

    __slots__ = ("groups", "open_runs", "value", "wild_meld")

    def __init__(
        self,
        value: float,
        groups: dict[int, tuple[int, int]],
        wild_meld: int,
        open_runs: dict[int, int],
    ) -> None:
        self.value = value
        self.groups = groups
        self.wild_meld = wild_meld
        self.open_runs = open_runs


class _Shape:
    """The cards in hand as the valuation reads them: their penalty, the cards of each rank,
    the wild cards, and a bit per rank held of each suit (within the sequences' span)."""

    __slots__ = ("by_rank", "masks", "penalty", "wilds")

    def __init__(self, penalty: int, by_rank: list[int], wilds: int, masks: list[int]) -> None:
        self.penalty = penalty
        self.by_rank = by_rank
        self.wilds = wilds
        self.masks = masks


class _Position:
    """What the bot knows and values once per choice."""

    def __init__(self, hand: Hand, weights: Weights) -> None:
        self.hand = hand
        self.w = weights
        ruleset = hand.ruleset
        self.ruleset = ruleset
        self.rules = rules = ruleset.rules
        lim = limits(ruleset)
        self.lim = lim
        self.wild = lim.wild
        self.points = lim.points
        self.penalties = ruleset.penalties
        self.player = hand.current
        self.team = hand.team
        self.counts = hand.hands[self.player]
        count, including = lim.requirement(hand.players)
        self.req_count = count
        self.req_kinds = dict(including)
        # what the side gains by meeting the requirement: it may go out (the bonus, and the
        # opponents' cards counted against them)
        self.req_value = float(rules.going_out.bonus) + 150.0
        stock = len(hand.stock)
        dealt = len(hand.deck)
        self.stock = stock
        self.late = 1.0 - stock / dealt if dealt else 1.0
        self.risk = weights.risk + (1.0 - weights.risk) * self.late * self.late
        self.table = [self.summary(m) for m in hand.melds[self.team]]
        self._unseen()
        # what one choice's candidates share, kept while they are valued: most of them change
        # one suit or one rank of the hand and leave the table as it is
        self._views: dict[tuple[_Summary, ...], _TableView] = {}
        # keyed by one int each (no tuple built per lookup): see shape_value and _runs_value
        self._suits: dict[int, float | None] = {}
        self._ranks: dict[int, tuple[float, ...]] = {}
        self.own = self.shape(self.counts)
        self._own_view: _TableView | None = None  # the view of the side's table as it is

    # ------------------------------------------------------------------ what is known

    def _unseen(self) -> None:
        """The cards the player cannot see: the pack less its hand, the melds, the pile."""
        hand = self.hand
        decks = self.lim.decks
        unseen = [decks] * 52 + [hand.ruleset.pack.jokers]
        for i, n in enumerate(self.counts):
            unseen[i] -= n
        for team in hand.melds:
            for meld in team:
                for card in meld.cards:
                    unseen[card.index] -= 1
        for i in hand.pile:
            unseen[i] -= 1
        for i in RED_THREES:
            unseen[i] = 0
        self.unseen = [max(n, 0) for n in unseen]
        self.unseen_total = max(sum(self.unseen), 1)
        self.mean_penalty = (
            sum(n * self.penalties[i] for i, n in enumerate(self.unseen)) / self.unseen_total
        )

    def summary(self, meld: Meld) -> _Summary:
        if meld.kind == "group":
            rank = meld.cards[0].index >> 2
            for card in meld.cards:
                if not self.wild[card.index]:
                    rank = card.index >> 2
                    break
            return ("group", meld.size, meld.wilds, rank, 0)
        if meld.kind == "sequence":
            mask = 0
            suit = 0
            for card in meld.cards:
                if not self.wild[card.index]:
                    mask |= 1 << (card.index >> 2)
                    suit = card.index & 3
            return ("sequence", meld.size, meld.wilds, suit, mask)
        return (meld.kind, meld.size, meld.wilds, -1, 0)

    def cards_summary(self, cards: Sequence[int]) -> _Summary:
        """A new meld of these cards (legal: the engine offered it)."""
        wilds = sum(1 for i in cards if self.wild[i])
        naturals = [i for i in cards if not self.wild[i]]
        if not naturals:
            return ("wild", len(cards), wilds, -1, 0)
        ranks = {i >> 2 for i in naturals}
        if len(ranks) == 1:
            r = naturals[0] >> 2
            return ("threes" if r == 1 else "group", len(cards), wilds, r, 0)
        mask = 0
        for i in naturals:
            mask |= 1 << (i >> 2)
        return ("sequence", len(cards), wilds, naturals[0] & 3, mask)

    # ------------------------------------------------------------------ the valuation

    def bonus(self, kind: str, size: int, wilds: int, rank: int) -> float:
        """The bonus of the canasta of ``kind`` a meld would make as it stands (``wilds`` wild
        cards, jokers among them not known, of rank index ``rank`` or -1)."""
        return float(special_bonus(self.ruleset, kind, size, wilds, 0 if wilds == 0 else -1, rank))

    def meld_value(self, s: _Summary) -> float:
        kind, size, wilds, rank, _ = s
        lim = self.lim
        if kind == "group":
            mixed = self.bonus("mixed", lim.mixed_size, max(wilds, 1), rank)
            if wilds == 0:
                return max(
                    _track(
                        size, lim.natural_size, self.bonus("natural", lim.natural_size, 0, rank)
                    ),
                    _track(size, lim.mixed_size, mixed) * 0.8,
                )
            return _track(size, lim.mixed_size, mixed)
        if kind == "sequence":
            bonus = self.bonus("escalera", max(size, lim.escalera_size), wilds, -1)
            return _track(size, lim.escalera_size, bonus)
        if kind == "wild":
            bonus = self.bonus("bolivia", lim.bolivia_size, lim.bolivia_size, -1)
            return _track(size, lim.bolivia_size, bonus)
        return 0.0

    def canasta_kind(self, s: _Summary) -> int | None:
        kind, size, wilds, _, _ = s
        lim = self.lim
        if kind == "group":
            if wilds == 0:
                return KIND_INDEX["natural"] if size >= lim.natural_size else None
            return KIND_INDEX["mixed"] if size >= lim.mixed_size else None
        if kind == "sequence":
            return KIND_INDEX["escalera"] if size >= lim.escalera_size else None
        if kind == "wild":
            return KIND_INDEX["bolivia"] if size >= lim.bolivia_size else None
        return None

    def view(self, table: Sequence[_Summary]) -> _TableView:
        """What the valuation reads off a table, once per table a choice's candidates lead to."""
        if table is self.table and self._own_view is not None:
            return self._own_view
        key = tuple(table)
        found = self._views.get(key)
        if found is None:
            found = self._views[key] = self._table_view(table)
        if table is self.table:
            self._own_view = found
        return found

    def _table_view(self, table: Sequence[_Summary]) -> _TableView:
        # the side's biggest unfinished group of each rank, its wild meld, its longest
        # unfinished run of each suit
        groups: dict[int, tuple[int, int]] = {}
        wild_meld = 0
        open_runs: dict[int, int] = {}
        for s in table:
            if self.canasta_kind(s) is not None:
                continue
            if s[0] == "group":
                held = groups.get(s[3])
                if held is None or s[1] > held[0]:
                    groups[s[3]] = (s[1], s[2])
            elif s[0] == "wild":
                wild_meld = max(wild_meld, s[1])
            elif s[0] == "sequence":
                run = open_runs.get(s[3])
                if run is None or bin(s[4]).count("1") > bin(run).count("1"):
                    open_runs[s[3]] = s[4]
        return _TableView(self.table_value(table), groups, wild_meld, open_runs)

    def table_value(self, table: Sequence[_Summary]) -> float:
        value = 0.0
        done = [0, 0, 0, 0]
        runs: dict[int, list[float]] = {}
        for s in table:
            kind_done = self.canasta_kind(s)
            if kind_done is not None:
                done[kind_done] += 1
            v = self.meld_value(s)
            if s[0] == "sequence" and kind_done is None:
                runs.setdefault(s[3], []).append(v)
            else:
                value += v
        # one unfinished run a suit is worth its way; another beside it less
        for found in runs.values():
            found.sort(reverse=True)
            value += found[0] + self.w.second_run * sum(found[1:])
        # the requirement: each canasta toward it, and each of the kinds it names
        total = sum(done)
        value += self.req_value * min(total, self.req_count) / max(self.req_count, 1)
        for kind, n in self.req_kinds.items():
            value += self.req_value * min(done[kind], n) / n
            if done[kind] < n and kind == KIND_INDEX["escalera"]:
                # the runs toward the escalera still missing count more
                longest = max(
                    (s[1] for s in table if s[0] == "sequence" and self.canasta_kind(s) is None),
                    default=0,
                )
                value += self.req_value * (longest / self.lim.escalera_size) ** 2
        return value

    def shape(self, counts: Sequence[int]) -> _Shape:
        """What the valuation reads off the cards in hand."""
        lim = self.lim
        penalties = self.penalties
        penalty = 0
        for i, n in enumerate(counts):
            if n:
                penalty += n * penalties[i]
        by_rank = [
            counts[b] + counts[b + 1] + counts[b + 2] + counts[b + 3] for b in range(0, 52, 4)
        ]
        wilds = 0
        for i in lim.wild_indices:
            wilds += counts[i]
        masks = [0, 0, 0, 0]
        if lim.sequence_allowed:
            runs = lim.run_ranks  # the ranks a run may hold
            for suit in range(4):
                mask = 0
                for r in range(13):
                    if runs >> r & 1 and counts[r * 4 + suit]:
                        mask |= 1 << r
                masks[suit] = mask
        return _Shape(penalty, by_rank, wilds, masks)

    def discarded(self, index: int) -> _Shape:
        """The hand's shape without one card of ``index`` (held), from the hand's own."""
        was = self.own
        by_rank = list(was.by_rank)
        masks = list(was.masks)
        wilds = was.wilds - 1 if self.wild[index] else was.wilds
        if index < 52:
            r = index >> 2
            by_rank[r] -= 1
            if self.counts[index] == 1 and self.lim.run_ranks >> r & 1:
                masks[index & 3] &= ~(1 << r)
        return _Shape(was.penalty - self.penalties[index], by_rank, wilds, masks)

    def shape_value(self, shape: _Shape, view: _TableView) -> float:
        w = self.w
        lim = self.lim
        value = 0.0
        value -= self.risk * shape.penalty
        # groups: the side's biggest unfinished group of each rank, grown by the hand's cards
        groups = view.groups
        ranks = self._ranks
        by_rank = shape.by_rank
        for r in lim.group_ranks:
            c = by_rank[r]
            if not c:
                continue
            on = groups.get(r)
            # rank (4 bits), count and the group's size + 1 (10 bits each: MAX_CARDS < 1024),
            # then its wild cards
            key = r | c << 4 if on is None else r | c << 4 | (on[0] + 1) << 14 | on[1] << 24
            terms = ranks.get(key)
            if terms is None:
                terms = ranks[key] = self._rank_terms(r, c, on)
            for term in terms:
                value += term
        # wild cards: toward a wild canasta, or to finish another
        wilds = shape.wilds
        if wilds:
            value += w.wild * wilds
            if lim.wild_allowed:
                wild_meld = view.wild_meld
                grown = self.meld_value(("wild", wild_meld + wilds, 0, -1, 0))
                value += w.hand * (grown - self.meld_value(("wild", wild_meld, 0, -1, 0)))
        # runs: the best window of an escalera's length in each suit
        if lim.sequence_allowed:
            value += self._runs_value(shape.masks, view)
        return value

    def _rank_terms(self, r: int, c: int, on: tuple[int, int] | None) -> tuple[float, ...]:
        """What ``c`` cards of rank ``r`` in hand add, term by term (added in this order)."""
        w = self.w
        terms: list[float] = []
        if c >= 2:
            terms.append(w.pair)
        if on is not None:
            s0: _Summary = ("group", on[0], on[1], r, 0)
            s1: _Summary = ("group", on[0] + c, on[1], r, 0)
            terms.append(w.hand * (self.meld_value(s1) - self.meld_value(s0)))
        elif c >= 2:
            terms.append(w.hand * self.meld_value(("group", c + (1 if c == 2 else 0), 0, r, 0)))
        terms.append(w.hand * c * self.points[r * 4])
        return tuple(terms)

    def _runs_value(self, masks: Sequence[int], view: _TableView) -> float:
        open_runs = view.open_runs
        suits = self._suits
        value = 0.0
        for suit in range(4):
            mask = masks[suit]
            if not mask:
                continue
            on = open_runs.get(suit, 0)
            key = suit | mask << 2 | on << 16  # a rank mask has 13 bits
            if key in suits:
                gain = suits[key]
            else:
                gain = suits[key] = self._run_gain(suit, mask, on)
            if gain is not None:
                value += gain
        return value

    def _run_gain(self, suit: int, mask: int, on: int) -> float | None:
        """What the hand's cards of a suit (``mask``) add to the side's run of it (``on``),
        weighted; None when they add nothing."""
        lim = self.lim
        span = lim.escalera_size
        low, high = lim.span_low, lim.span_high  # by position: an ace low or high
        places = positions(mask) & lim.run_places
        laid = positions(on) & lim.run_places
        # the side's run with its ace low or high, where it holds one the span has at both ends
        ons = [laid & ~1, laid & ~(1 << 13)] if laid & 1 and laid >> 13 & 1 else [laid]
        best = 0
        for start in range(low, max(high - span + 2, low + 1)):
            window = ((1 << span) - 1) << start
            for at in ons:
                if not at & ~window:
                    best = max(best, bin((places | at) & window).count("1"))
        have = bin(on).count("1")
        if best <= have:
            return None
        gain = self.meld_value(("sequence", best, 0, suit, 0)) - self.meld_value(
            ("sequence", have, 0, suit, 0)
        )
        weight = self.w.run if on else self.w.run * 0.7
        needs = self.req_kinds.get(KIND_INDEX["escalera"], 0)
        if needs:
            gain += self.req_value * ((best / span) ** 2 - (have / span) ** 2)
        return weight * gain

    def value(self, counts: Sequence[int], table: Sequence[_Summary]) -> float:
        view = self.view(table)
        return view.value + self.shape_value(self.shape(counts), view)

    def value_discarding(self, index: int) -> float:
        """The position's value once the card of ``index`` is discarded."""
        view = self.view(self.table)
        return view.value + self.shape_value(self.discarded(index), view)

    # ------------------------------------------------------------------ danger

    def danger(self, index: int) -> float:
        """What discarding the card may give the next player: the chance they take the pile,
        times the pile's worth."""
        hand = self.hand
        rules = self.rules
        card = CARDS[index]
        kind = card_class(self.ruleset, card)
        if kind in rules.pile.blocked_by_top:
            return 0.0
        nxt = (self.player + 1) % hand.players
        their = hand.team_of[nxt]
        if their == self.team:
            return 0.0
        classes = [*hand.pile_kinds(), kind]
        melds = hand.melds[their]
        frozen = frozen_when(self.ruleset, classes, team_has_melded=bool(melds))
        ways = rules.pile.take_frozen if frozen else rules.pile.take_unfrozen
        if not ways:
            return 0.0
        size = hand.sizes[nxt]
        chance = 0.0
        if "onto_meld" in ways and not self.wild[index]:
            r = index >> 2
            for meld in melds:
                if meld.kind in rules.pile.onto_kinds and (
                    (meld.kind == "group" and meld.rank == card.rank)
                    or (meld.kind == "sequence" and meld.suit == card.suit and self._ends(meld, r))
                ):
                    chance = 1.0
                    break
        if chance < 1.0 and not self.wild[index]:
            base = (index >> 2) * 4
            left = sum(self.unseen[base : base + 4])
            p = min(left / self.unseen_total, 1.0)
            miss = (1 - p) ** size
            one = size * p * (1 - p) ** max(size - 1, 0)
            pair = 1 - miss - one
            if "natural_pair" in ways:
                chance = max(chance, pair)
            if "natural_and_wild" in ways:
                wilds = sum(self.unseen[i] for i in self.lim.wild_indices) / self.unseen_total
                has_wild = 1 - (1 - wilds) ** size
                chance = max(chance, (1 - miss) * has_wild)
        if chance <= 0.0:
            return 0.0
        worth = 60.0
        for i in [*hand.pile, index]:
            if i in BLACK_THREES:
                worth -= self.penalties[i] * 0.5
            else:
                worth += 12.0 + self.points[i]
        return self.w.pile * chance * max(worth, 0.0)

    @staticmethod
    def _ends(meld: Meld, r: int) -> bool:
        ranks = [c.index >> 2 for c in meld.cards if c.index < 52]
        return bool(ranks) and r in (min(ranks) - 1, max(ranks) + 1)

    # ------------------------------------------------------------------ going out

    def team_score(self, team: int, melds: Sequence[Meld], *, went_out: bool) -> float:
        """The side's points on the table (melds, bonuses, red threes, going out)."""
        hand = self.hand
        score = score_team(
            self.ruleset,
            TeamHand(
                melds=tuple(melds),
                red_threes=hand.red_threes[team],
                went_out=went_out and not (not hand.stock and not self._bonus_when_dry()),
            ),
        )
        return float(score.total)

    def _bonus_when_dry(self) -> bool:
        return self.rules.stock.going_out_bonus_when_exhausted

    def held(self, player: int) -> float:
        """The penalty of a player's cards: known for the bot's own, estimated otherwise."""
        if player == self.player:
            return float(sum(n * self.penalties[i] for i, n in enumerate(self.counts)))
        return self.hand.sizes[player] * self.mean_penalty

    def margin_going_out(self, after: Sequence[Meld], goer: int) -> float:
        """The side's margin if ``goer`` (of the side) goes out leaving its melds ``after``."""
        hand = self.hand
        margin = 0.0
        for team in range(hand.teams):
            if team == self.team:
                points = self.team_score(team, after, went_out=True)
            else:
                points = self.team_score(team, hand.melds[team], went_out=False)
            for p in range(hand.players):
                if hand.team_of[p] == team and p != goer:
                    points -= self.held(p)
            margin += points if team == self.team else -points / (hand.teams - 1)
        return margin

    def wants_out(self, margin: float) -> bool:
        return margin > 0 or self.stock <= 2 * self.hand.draw_count * self.hand.players


class ExpertBot:
    """A heuristic player that reads the ruleset's values (see the module)."""

    name = "expert"

    def __init__(self, weights: Weights | None = None) -> None:
        self.weights = weights if weights is not None else Weights()

    def choose(self, hand: Hand, actions: Sequence[Action], rng: random.Random) -> Action:
        if len(actions) == 1:
            return actions[0]
        return self.consider(hand, actions)[0]

    def consider(self, hand: Hand, actions: Sequence[Action]) -> list[Action]:
        """The bot's choice among ``actions`` first, then the alternatives it weighed, the
        better first: the other discards, drawing or taking the pile, not going out, holding
        a meld back (the discards after it)."""
        if len(actions) == 1:
            return [actions[0]]
        pos = _Position(hand, self.weights)
        if hand.phase == "answer":
            return self._answer(pos, actions)
        if hand.phase == "draw":
            return self._draw(pos, actions)
        return self._play(pos, actions)

    # ------------------------------------------------------------------ the phases

    def _answer(self, pos: _Position, actions: Sequence[Action]) -> list[Action]:
        hand = pos.hand
        asker = hand.asker if hand.asker is not None else hand.partner(pos.player)
        # the asker's cards go onto the side's melds: their points estimated, no canasta more
        margin = pos.margin_going_out(hand.melds[pos.team], asker)
        margin += hand.sizes[asker] * 10
        yes = pos.wants_out(margin)
        return sorted(actions, key=lambda a: not (isinstance(a, Answer) and a.yes == yes))

    def _go_out_value(self, pos: _Position, action: GoOut) -> float:
        after = pos.hand.verify(action)
        assert isinstance(after, list)
        margin = pos.margin_going_out(after, pos.player)
        return 1e6 + margin if pos.wants_out(margin) else float("-inf")

    def _draw(self, pos: _Position, actions: Sequence[Action]) -> list[Action]:
        hand = pos.hand
        now = pos.value(pos.counts, pos.table)
        valued: list[tuple[float, int]] = []
        for i, action in enumerate(actions):
            if isinstance(action, Draw):
                value = now + hand.draw_count * pos.w.draw
            elif isinstance(action, TakePile | TakeTop):
                value = self._pickup_value(pos, action, now)
            elif isinstance(action, Ask):
                value = now + 50.0  # asked only where taking the pile may go out
            else:
                value = now
            valued.append((-value, i))
        valued.sort()
        return [actions[i] for _, i in valued]

    def _pickup_value(self, pos: _Position, action: TakePile | TakeTop, now: float) -> float:
        hand = pos.hand
        after = hand.after_pickup(action)
        if after is None:
            # the pile's red threes are replaced from the stock: value the rest as if drawn
            if isinstance(action, TakeTop):
                return now
            counts = list(pos.counts)
            for card in [*(action.with_cards or ()), *(c for m in action.also for c in m)]:
                counts[card.index] -= 1
            for i in hand.pile[:-1]:
                if i not in RED_THREES:
                    counts[i] += 1
            table = list(pos.table)
            top = hand.pile[-1]
            if action.onto is not None:
                kind, size, wilds, key, mask = table[action.onto]
                table[action.onto] = (kind, size + 1, wilds, key, mask | (1 << (top >> 2)))
            else:
                cards = [top, *(c.index for c in action.with_cards or ())]
                table.append(pos.cards_summary(cards))
            for meld in action.also:
                table.append(pos.cards_summary([c.index for c in meld]))
            return pos.value(counts, table) + pos.w.draw
        counts, melds = after
        return pos.value(counts, [pos.summary(m) for m in melds])

    def _play(self, pos: _Position, actions: Sequence[Action]) -> list[Action]:
        hand = pos.hand
        counts = pos.counts
        table = pos.table
        now = pos.value(counts, table)
        best_meld: Action | None = None
        best_gain = 0.0
        discards: list[tuple[float, int]] = []
        going_out: Action | None = None
        going_out_value = float("-inf")
        ask: Action | None = None
        for n, action in enumerate(actions):
            if type(action) is Discard:
                index = action.card.index
                discards.append((pos.danger(index) - pos.value_discarding(index), n))
            elif type(action) is Lay:
                after = list(counts)
                new = list(table)
                for meld in action.melds:
                    for card in meld:
                        after[card.index] -= 1
                    new.append(pos.cards_summary([c.index for c in meld]))
                gain = pos.value(after, new) - now + self._melded_points(pos, action.melds)
                if gain > best_gain:
                    best_meld, best_gain = action, gain
            elif type(action) is Extend:
                after = list(counts)
                kind, size, wilds, key, mask = table[action.target]
                for card in action.cards:
                    after[card.index] -= 1
                    if pos.wild[card.index]:
                        wilds += 1
                    elif kind == "sequence":
                        mask |= 1 << (card.index >> 2)
                new = list(table)
                new[action.target] = (kind, size + len(action.cards), wilds, key, mask)
                gain = pos.value(after, new) - now + self._melded_points(pos, (action.cards,))
                if gain > best_gain:
                    best_meld, best_gain = action, gain
            elif type(action) is Combine:
                a, b = table[action.target], table[action.other]
                new = [s for i, s in enumerate(table) if i != action.other]
                at = action.target if action.target < action.other else action.target - 1
                new[at] = (a[0], a[1] + b[1], a[2] + b[2], a[3], 0)
                gain = pos.value(counts, new) - now
                if gain > best_gain:
                    best_meld, best_gain = action, gain
            elif isinstance(action, GoOut):
                value = self._go_out_value(pos, action)
                if value > going_out_value:
                    going_out, going_out_value = action, value
            elif isinstance(action, Ask):
                ask = action
        discards.sort()
        ranked = [actions[n] for _, n in discards]
        if best_meld is not None:
            ranked.insert(0, best_meld)
        if going_out is not None and going_out_value > float("-inf"):
            return [going_out, *ranked[:1]]
        if ask is not None and hand.must_ask():
            lines = hand.moves.go_out_lines(1)
            if lines:
                melds = hand.verify_way_out(lines[0], asking=False)
                if pos.wants_out(pos.margin_going_out(melds, pos.player)):
                    return [ask, *ranked[:1]]
        if ranked:
            return ranked
        return [next((a for a in actions if not isinstance(a, Ask)), actions[0])]

    @staticmethod
    def _melded_points(pos: _Position, melds: Sequence[Sequence[Card]]) -> float:
        """The cards' points once on the table."""
        return float(sum(pos.points[card.index] for meld in melds for card in meld))
