"""Brute force, for small positions only: every way out and every legal action found by trying
everything through the engine's one verify path, to hold the fast generators to.

Nothing here is clever: a way out is every split of the hand into a discard, new melds and
additions to the side's melds; the legal actions are every sub-multiset of the hand tried as
a meld, a pickup or an extension, every card as a discard, each asked of
:meth:`Hand.can <bolivia.play.table.hand.Hand.can>`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations, product

from bolivia.cards import Card
from bolivia.engine.going_out import meets_requirement
from bolivia.engine.initial_meld import counted_points
from bolivia.engine.melds import Meld, verify_combine, verify_extend, verify_meld
from bolivia.engine.wild_lock import going_out_locked
from bolivia.engine.wild_steps import step_fault
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
    Lay,
    TakePile,
    TakeTop,
)
from bolivia.play.table.hand import Hand
from bolivia.play.table.moves import canonical_melds
from bolivia.play.table.ways_out import DiscardCheck
from bolivia.rules.ruleset import Ruleset

CARDS = Card.all()


def _partitions(items: list[int]) -> Iterator[list[list[int]]]:
    """Every set partition of the positions ``items``."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for part in _partitions(rest):
        yield [[first], *part]
        for i in range(len(part)):
            yield [*part[:i], [first, *part[i]], *part[i + 1 :]]


def _joins(ruleset: Ruleset, table: list[Meld]) -> Iterator[list[Meld]]:
    """The side's melds as they may be before going out: as they are, or with groups of one
    rank joined (where the ruleset allows it), in every order."""
    yield table
    if not ruleset.rules.melds.group.combine:
        return
    for i, j in combinations(range(len(table)), 2):
        try:
            joined = verify_combine(ruleset, table[i], table[j])
        except Illegal:
            continue
        after = list(table)
        after[i] = joined
        del after[j]
        yield from _joins(ruleset, after)


def way_out_exists(
    ruleset: Ruleset,
    table: Sequence[Meld],
    cards: Sequence[Card],
    *,
    players: int,
    first_minimum: int | None,
    discard_ok: DiscardCheck | None = None,
) -> bool:
    """Whether the hand ``cards`` can go out onto ``table``: tried every way (``discard_ok``:
    whether a card may be the discard that goes out, as the search is told)."""
    rules = ruleset.rules
    before = tuple(table)
    for joined in _joins(ruleset, list(table)):
        for part in _partitions(list(range(len(cards)))):
            # each block: the discard (one card), a new meld, or onto meld t of the table
            choices = [range(-2, len(joined)) for _ in part]
            for labels in product(*choices):
                if sum(1 for label in labels if label == -2) > 1:
                    continue
                if rules.going_out.discard_required and -2 not in labels:
                    continue
                if len([t for t in labels if t >= 0]) != len({t for t in labels if t >= 0}):
                    continue
                after = list(joined)
                new: list[Meld] = []
                ok = True
                for block, label in zip(part, labels, strict=True):
                    chosen = [cards[i] for i in block]
                    try:
                        if label == -2:
                            ok = len(block) == 1
                        elif label == -1:
                            new.append(verify_meld(ruleset, chosen, going_out=True))
                        else:
                            after[label] = verify_extend(
                                ruleset, after[label], chosen, going_out=True
                            )
                    except Illegal:
                        ok = False
                    if not ok:
                        break
                if not ok:
                    continue
                if not rules.melds.group.duplicate_ranks:
                    # a new group of a rank the side holds (or two new ones of a rank)
                    held = {m.rank for m in joined if m.kind == "group"}
                    ranks = [m.rank for m in new if m.kind == "group"]
                    if len(ranks) != len(set(ranks)) or held & set(ranks):
                        continue
                if first_minimum is not None and (
                    not new or counted_points(ruleset, new) < first_minimum
                ):
                    continue
                discards = [cards[b[0]] for b, t in zip(part, labels, strict=True) if t == -2]
                final = [*after, *new]
                if discard_ok is not None and discards and not discard_ok(discards[0], final):
                    continue
                if going_out_locked(ruleset, final) or step_fault(ruleset, before, final):
                    continue  # the rules of wild cards read from the side's melds
                if meets_requirement(ruleset, final, players):
                    return True
    return False


# --------------------------------------------------------------------------- legal actions


def _sub_multisets(counts: Sequence[int]) -> Iterator[tuple[Card, ...]]:
    """Every non-empty sub-multiset of the hand ``counts``, its cards in index order."""
    held = [i for i, n in enumerate(counts) if n]
    for takes in product(*(range(counts[i] + 1) for i in held)):
        cards = tuple(CARDS[i] for i, k in zip(held, takes, strict=True) for _ in range(k))
        if cards:
            yield cards


def canonical(hand: Hand, action: Action) -> Action:
    """The action in the generator's canonical form (:func:`canonical_melds`)."""
    counts = hand.hands[hand.current]
    if isinstance(action, Lay):
        return Lay(canonical_melds(hand.ruleset, counts, action.melds))
    if isinstance(action, TakePile) and action.with_cards is not None:
        melds = canonical_melds(
            hand.ruleset, counts, [action.with_cards, *action.also], keep_first=True
        )
        return TakePile(melds[0], None, melds[1:])
    if isinstance(action, Extend):
        return Extend(action.target, canonical_melds(hand.ruleset, counts, [action.cards])[0])
    return action


def _meld_sets(
    counts: Sequence[int], melds: list[tuple[Card, ...]]
) -> Iterator[list[tuple[Card, ...]]]:
    """Every set of disjoint melds from ``melds`` the hand can hold at once (empty first)."""

    def grow(
        i: int, left: list[int], chosen: list[tuple[Card, ...]]
    ) -> Iterator[list[tuple[Card, ...]]]:
        yield chosen
        for j in range(i, len(melds)):
            need = [0] * 53
            for card in melds[j]:
                need[card.index] += 1
            if all(left[k] >= need[k] for k in range(53)):
                yield from grow(
                    j + 1, [a - b for a, b in zip(left, need, strict=True)], [*chosen, melds[j]]
                )

    yield from grow(0, list(counts), [])


def legal_actions(hand: Hand) -> set[Action]:
    """Every legal action of a small position, in the generator's canonical form: all tried."""
    counts = list(hand.hands[hand.current])
    team = hand.melds[hand.team]
    tried: list[Action] = []
    if hand.phase == "answer":
        tried = [YES, NO]
    elif hand.phase == "draw":
        tried = [DRAW, STOP, ASK]
        tried += [TakePile(None, i) for i in range(len(team))]
        tried += [TakeTop(i) for i in range(len(team))]
        for with_cards in _sub_multisets(counts):
            left = list(counts)
            for card in with_cards:
                left[card.index] -= 1
            if team:
                tried.append(TakePile(with_cards, None, ()))
            else:
                melds = list(_sub_multisets(left))
                for also in _meld_sets(left, melds):
                    tried.append(TakePile(with_cards, None, tuple(also)))
    else:
        tried = [ASK, *(Discard(CARDS[i]) for i, n in enumerate(counts) if n)]
        melds = list(_sub_multisets(counts))
        if team:
            tried += [Lay((m,)) for m in melds]
        else:
            tried += [Lay(tuple(s)) for s in _meld_sets(counts, melds) if s]
        for t in range(len(team)):
            tried += [Extend(t, (CARDS[i],)) for i, n in enumerate(counts) if n]
        tried += [Combine(i, j) for i, j in combinations(range(len(team)), 2)]
    accepted = {canonical(hand, a) for a in tried if hand.can(a)}
    return _minimal_first_melds(hand, accepted)


def _minimal_first_melds(hand: Hand, accepted: set[Action]) -> set[Action]:
    """For a side's first meld: only the sets no meld of which can be left out (the others are
    that set and more lays)."""
    if hand.melds[hand.team]:
        return accepted

    def smaller(action: Action) -> Iterator[Action]:
        if isinstance(action, Lay) and len(action.melds) > 1:
            for j in range(len(action.melds)):
                yield Lay(tuple(m for k, m in enumerate(action.melds) if k != j))
        if isinstance(action, TakePile) and action.also:
            for j in range(len(action.also)):
                also = tuple(m for k, m in enumerate(action.also) if k != j)
                yield TakePile(action.with_cards, None, also)

    return {a for a in accepted if not any(canonical(hand, s) in accepted for s in smaller(a))}
