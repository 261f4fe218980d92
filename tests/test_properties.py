"""Relations that must hold between rulesets and across every request (Hypothesis)."""

from __future__ import annotations

import dataclasses
import json
from collections import Counter
from typing import Any

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from bolivia.cards import Card
from bolivia.engine.going_out import meets_requirement, verify_go_out
from bolivia.engine.melds import (
    can_meld,
    combination,
    could_join,
    extension,
    group_fault,
    group_table,
    new_meld,
    verify_combine,
    verify_extend,
    verify_meld,
)
from bolivia.engine.pile import verify_pickup, verify_take_top
from bolivia.engine.scoring import TeamHand, score_hand, score_team
from bolivia.errors import BadRequest, Illegal
from bolivia.rules.ruleset import Ruleset
from bolivia.verify.oracle import Oracle

from .strategies import meld_cards, shipped

ORACLE = Oracle()


def variant(ruleset: Ruleset, **changes: dict[str, Any]) -> Ruleset:
    """The ruleset with some sections' fields changed (a fresh object, caches empty)."""
    rules = ruleset.rules
    for section_path, values in changes.items():
        *parents, last = section_path.split(".")
        holder = rules
        chain = [rules]
        for part in parents:
            holder = getattr(holder, part)
            chain.append(holder)
        section = getattr(holder, last).model_copy(update=values)
        for part, parent in zip(reversed([*parents, last]), reversed(chain), strict=True):
            section = parent.model_copy(update={part: section})
        rules = section
    return dataclasses.replace(ruleset, id=ruleset.id + "-variant", rules=rules)


def _answer(fn: Any, *args: Any, **kwargs: Any) -> Any:
    try:
        result = fn(*args, **kwargs)
    except (Illegal, BadRequest) as exc:
        return ("refused", type(exc).__name__, getattr(exc, "code", None))
    return ("ok", repr(result))


@settings(max_examples=300, deadline=None)
@given(shipped, meld_cards(), meld_cards(), st.booleans())
def test_the_move_generators_meld_checks_agree_with_the_verify_path(
    ruleset: Ruleset, cards: list[Card], more: list[Card], going_out: bool
) -> None:
    """new_meld, extension and combination (no reasons, no exceptions: for move generators)
    give what verify_meld, verify_extend and verify_combine give, or None where they refuse."""

    def verified(check: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            return check(*args, **kwargs)
        except Illegal:
            return None

    meld = verified(verify_meld, ruleset, cards, going_out=going_out)
    assert new_meld(ruleset, cards, going_out=going_out) == meld
    other = verified(verify_meld, ruleset, more)
    if meld is not None:
        grown = verified(verify_extend, ruleset, meld, more, going_out=going_out)
        assert extension(ruleset, meld, more, going_out=going_out) == grown
        if other is not None:
            assert combination(ruleset, meld, other) == verified(
                verify_combine, ruleset, meld, other
            )


@settings(max_examples=300, deadline=None)
@given(shipped, st.lists(meld_cards(), max_size=8), st.sampled_from([None, 2, 3, 4, 6]))
def test_the_search_s_requirement_check_agrees_with_the_verify_path(
    ruleset: Ruleset, table: list[list[Card]], players: int | None
) -> None:
    """meets_requirement (read from the limits, for the search's leaves) allows going out
    exactly where verify_go_out does, for every number of players."""
    melds = []
    for cards in table:
        meld = new_meld(ruleset, cards)
        if meld is not None:
            melds.append(meld)
    try:
        verify_go_out(ruleset, melds, players)
        allowed = True
    except Illegal:
        allowed = False
    assert meets_requirement(ruleset, melds, players) == allowed


@settings(max_examples=300, deadline=None)
@given(shipped, meld_cards(), st.integers(0, 3), st.booleans())
def test_lowering_a_wild_limit_never_makes_an_illegal_meld_legal(
    ruleset: Ruleset, cards: list[Card], lower: int, going_out: bool
) -> None:
    group = ruleset.rules.melds.group
    limit = group.max_wild if group.max_wild is not None else 4
    stricter = variant(
        ruleset,
        **{"melds.group": {"max_wild": max(0, limit - lower)}},
        **{"melds.sequence": {"max_wild": 0}},
        **{"melds.black_threes": {"max_wild": 0}},
    )
    if can_meld(stricter, cards, going_out=going_out):
        assert can_meld(ruleset, cards, going_out=going_out)


@settings(max_examples=200, deadline=None)
@given(
    shipped,
    meld_cards(),
    meld_cards(),
    st.lists(meld_cards(), max_size=3),
    st.integers(0, 3000),
    st.integers(0, 5000),
)
def test_a_ruleset_changing_only_bonuses_rules_every_question_the_same(
    ruleset: Ruleset,
    first: list[Card],
    second: list[Card],
    team: list[list[Card]],
    bonus: int,
    score: int,
) -> None:
    richer = variant(
        ruleset,
        **{"canastas.natural": {"bonus": bonus}},
        **{"canastas.escalera": {"bonus": bonus + 7}},
        **{"going_out": {"bonus": bonus, "concealed_bonus": bonus * 2}},
    )
    assume(not ruleset.rules.initial_meld.counts_bonuses)
    for rs in (ruleset, richer):
        assert rs.rules.initial_meld.counts_bonuses is False

    def ask(rs: Ruleset) -> list[Any]:
        answers = [
            _answer(verify_meld, rs, first),
            _answer(verify_meld, rs, second, going_out=True),
        ]
        try:
            base = verify_meld(rs, first, going_out=True)
            answers.append(_answer(verify_extend, rs, base, second))
        except Illegal as exc:
            answers.append(exc.code)
        laid = [m for m in (_try(rs, cards) for cards in team) if m is not None]
        answers.append(meets_requirement(rs, laid))
        pile = [*second, first[0]]
        answers.append(_answer(verify_pickup, rs, pile, first + second, laid, score))
        if laid:
            answers.append(_answer(verify_take_top, rs, pile, laid, 0))
        return answers

    assert ask(ruleset) == ask(richer)


def _try(ruleset: Ruleset, cards: list[Card]) -> Any:
    try:
        return verify_meld(ruleset, cards, going_out=True)
    except Illegal:
        return None


@st.composite
def team_hands(draw: st.DrawFn, ruleset: Ruleset) -> TeamHand:
    melds = [
        m
        for m in (_try(ruleset, c) for c in draw(st.lists(meld_cards(), max_size=4)))
        if m is not None
    ]
    hands = draw(
        st.lists(
            st.lists(st.sampled_from([c for c in Card.all() if not c.is_red_three]), max_size=6),
            max_size=2,
        )
    )
    return TeamHand(tuple(melds), draw(st.integers(0, 3)), tuple(tuple(h) for h in hands))


@settings(max_examples=200, deadline=None)
@given(st.data(), shipped)
def test_scores_are_additive_over_teams_and_the_breakdown_sums(
    data: st.DataObject, ruleset: Ruleset
) -> None:
    teams = data.draw(st.lists(team_hands(ruleset), min_size=2, max_size=4))
    scores = score_hand(ruleset, teams)
    for team, score in zip(teams, scores, strict=True):
        assert score == score_team(ruleset, team)
        parts = score.as_dict()
        assert parts["total"] == sum(v for k, v in parts.items() if k != "total")
    more = data.draw(team_hands(ruleset))
    assert score_hand(ruleset, [*teams, more])[: len(teams)] == scores


@settings(max_examples=300, deadline=None)
@given(
    shipped,
    st.lists(st.sampled_from(Card.all()), max_size=40),
    st.sampled_from(["meld", "card_points", "extend", "pickup", "go_out"]),
)
def test_the_card_copy_check_holds_for_every_request(
    ruleset: Ruleset, cards: list[Card], op: str
) -> None:
    names = [repr(c) for c in cards]
    half = len(names) // 2
    body: dict[str, Any] = {
        "meld": {"cards": names},
        "card_points": {"cards": names},
        "extend": {"meld": names[:half], "add": names[half:] or ["8H"]},
        "pickup": {"pile": names[:half] or ["8H"], "hand": names[half:]},
        "go_out": {"team_melds": [names[:half], names[half:]]},
    }[op]
    named = Counter(
        Card.parse(n)
        for value in body.values()
        for n in (
            value
            if isinstance(value[0] if value else "", str)
            else [x for sub in value for x in sub]
        )
    )
    answer = json.loads(ORACLE.handle_line(json.dumps({"op": op, "ruleset": ruleset.id, **body})))
    excess = ruleset.pack.excess(named.elements()) or (
        named[Card.parse("3H")] + named[Card.parse("3D")] > 2 * ruleset.rules.pack.decks
    )
    if excess:
        assert answer["error"]["code"] == "too-many-copies"
    else:
        assert answer["ok"] is True or answer["error"]["code"] != "too-many-copies"


@settings(max_examples=60, deadline=None)
@given(shipped, st.booleans())
def test_the_move_generators_group_table_is_group_fault_tabulated(
    ruleset: Ruleset, new: bool
) -> None:
    rule = ruleset.rules.melds.group
    table = group_table(ruleset, new=new)
    assert len(table) == 4 * ruleset.rules.pack.decks + 1
    for naturals, row in enumerate(table):
        for wilds, allowed in enumerate(row):
            assert allowed == (group_fault(rule, naturals, wilds, new=new) is None)


@settings(max_examples=300, deadline=None)
@given(shipped, meld_cards(), st.integers(0, 2), st.integers(0, 2))
def test_could_join_never_turns_away_a_card_verify_extend_takes(
    ruleset: Ruleset, cards: list[Card], sequence_wilds: int, threes_wilds: int
) -> None:
    """The move generators' quick test before trying a card on a meld is only ever a
    necessary condition, whatever the wild-card limits: every card of the pack is tried."""
    ruleset = variant(
        ruleset,
        **{
            "melds.sequence": {"max_wild": sequence_wilds},
            "melds.black_threes": {"max_wild": threes_wilds},
        },
    )
    try:
        meld = verify_meld(ruleset, cards, going_out=True)
    except (Illegal, BadRequest):
        assume(False)
    for card in Card.all():
        for going_out in (False, True):
            try:
                verify_extend(ruleset, meld, [card], going_out=going_out)
            except (Illegal, BadRequest):
                continue
            assert could_join(ruleset, meld, card), (meld, card)
