"""The move generator, proved like a chess engine's perft: in small positions from real play,
under every shipped ruleset and random house rules, the legal actions it lists are exactly
those a brute force accepts (every sub-multiset of the hand tried through the one verify
path); the search for a way out is exact against a brute force over every split of the hand;
the bots' short list holds only legal actions and is never empty while a hand goes on."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from bolivia.cards import POSITION_RANK, RANKS, Card, parse_cards
from bolivia.engine.initial_meld import counted_points
from bolivia.engine.limits import limits
from bolivia.engine.melds import Meld, could_join, new_meld, verify_meld
from bolivia.play.batch.simulate import RULE_ENDINGS, play_hand
from bolivia.play.bots.simple import GreedyBot, RandomBot
from bolivia.play.table import ways_out as ways_out_module
from bolivia.play.table.actions import Combine, TakePile
from bolivia.play.table.bounds import could_meet
from bolivia.play.table.hand import Hand
from bolivia.play.table.position import hand_at, position_of
from bolivia.play.table.signatures import could_take, signature
from bolivia.play.table.ways_out import can_go_out, ways_out
from bolivia.rules.library import shipped_library
from bolivia.rules.ruleset import Ruleset
from bolivia.rules.variants import variant

from . import brute
from .strategies import SHIPPED_IDS, house_rulesets, load_house

LIBRARY = shipped_library()
SMALL = 4  # cards in the current player's hand of a small position


def _played(ruleset: Ruleset, seed: int, steps: int) -> dict[str, Any]:
    """The position of a hand of bots of mixed kinds ``steps`` actions in (or the last before
    its end)."""
    players = ruleset.rules.players.usual
    hand = Hand.deal(ruleset, players, random.Random(seed), first=seed % players)
    rng = random.Random(seed + 1)
    bots = [GreedyBot(), RandomBot()]
    position = position_of(hand)
    for _ in range(steps):
        hand.apply(bots[(seed + hand.current) % 2].choose(hand, hand.choices(), rng))
        if hand.over:
            break
        position = position_of(hand)
    return position


def _small(
    ruleset: Ruleset, position: dict[str, Any], rng: random.Random, size: int = SMALL
) -> Hand:
    """The position with the current player's hand cut to ``size`` cards and the pile to its
    top three (the cards taken out are set aside)."""
    turn = position["turn"]
    cards = position["hands"][turn]
    rng.shuffle(cards)
    position["hands"][turn] = sorted(cards[:size])
    position["pile"] = position["pile"][-3:]
    position["stock"] = min(position["stock"], 20)
    return hand_at(ruleset, position)


def _check_perft(ruleset: Ruleset, seed: int, steps: int) -> None:
    small = _small(ruleset, _played(ruleset, seed, steps), random.Random(seed))
    listed = small.legal_actions()
    assert len(listed) == len(set(listed)), "an action listed twice"
    expected = brute.legal_actions(small)
    assert set(listed) == expected, (
        f"listed but refused or not canonical: {set(listed) - expected}; "
        f"legal but not listed: {expected - set(listed)}"
    )


@pytest.mark.parametrize("rid", SHIPPED_IDS)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 200))
def test_the_generator_lists_exactly_the_legal_actions(rid: str, seed: int, steps: int) -> None:
    _check_perft(LIBRARY.load(rid), seed, steps)


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(house=house_rulesets(), seed=st.integers(0, 10_000), steps=st.integers(0, 200))
def test_the_generator_lists_exactly_the_legal_actions_under_house_rules(
    house: tuple[str, dict[str, Any]], seed: int, steps: int
) -> None:
    ruleset = load_house(house)
    assume(ruleset is not None and ruleset.rules.players.usual in ruleset.rules.players.seats)
    assert ruleset is not None
    _check_perft(ruleset, seed, steps)


def check_moves_and_ways_out(ruleset: Ruleset, deals: int = 12) -> None:
    """The moves listed and the ways out found, each held to brute force, at a random moment of
    each of ``deals`` seeded hands (what a test of a new rule field asks of the bots' side)."""
    for seed in range(deals):
        rng = random.Random(seed)
        _check_perft(ruleset, seed, rng.randint(0, 200))
        _check_ways_out(ruleset, seed, rng.randint(0, 300), rng.randint(1, 5))


def _check_ways_out(ruleset: Ruleset, seed: int, steps: int, size: int) -> None:
    position = _played(ruleset, seed, steps)
    position["phase"] = "play"  # the cards after the draw, as they are
    position["asked"] = None
    position.pop("going_out", None)
    small = _small(ruleset, position, random.Random(seed), size)
    team = small.melds[small.team]
    counts = small.hands[small.current]
    minimum = small.first_minimum_for(team)
    check = small.discard_check()
    found = can_go_out(
        ruleset, team, counts, players=small.players, first_minimum=minimum, discard_ok=check
    )
    cards = small.hand_cards()
    assert found == brute.way_out_exists(
        ruleset, team, cards, players=small.players, first_minimum=minimum, discard_ok=check
    ), (cards, [m.cards for m in team])
    for line in small.moves.go_out_lines(3):
        small.verify_way_out(line, asking=False)  # every way found is legal


@pytest.mark.parametrize("rid", SHIPPED_IDS)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 300), size=st.integers(1, 5))
def test_the_search_for_a_way_out_is_exact(rid: str, seed: int, steps: int, size: int) -> None:
    _check_ways_out(LIBRARY.load(rid), seed, steps, size)


@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(
    house=house_rulesets(),
    seed=st.integers(0, 10_000),
    steps=st.integers(0, 300),
    size=st.integers(1, 5),
)
def test_the_search_for_a_way_out_is_exact_under_house_rules(
    house: tuple[str, dict[str, Any]], seed: int, steps: int, size: int
) -> None:
    ruleset = load_house(house)
    assume(ruleset is not None and ruleset.rules.players.usual in ruleset.rules.players.seats)
    assert ruleset is not None
    _check_ways_out(ruleset, seed, steps, size)


@pytest.mark.parametrize("rid", SHIPPED_IDS)
def test_the_bots_short_list_is_legal_and_never_empty(rid: str) -> None:
    """In every state of these hands: the short list is not empty while the complete list is
    not, and each of its actions verifies."""
    ruleset = LIBRARY.load(rid)
    for seed in range(4):
        hand = Hand.deal(ruleset, ruleset.rules.players.usual, random.Random(seed))
        rng = random.Random(seed)
        while not hand.over:
            choices = hand.choices()
            assert choices, (hand.steps, position_of(hand))
            for action in choices:
                hand.verify(action)
            hand.apply(RandomBot().choose(hand, choices, rng))


def test_the_brute_force_can_fail() -> None:
    """The brute force is not the generator: a listed action it refuses is told apart."""
    ruleset = LIBRARY.load("canasta")
    hand = hand_at(ruleset, {"phase": "play", "hands": [["8H", "8S", "8D", "KC"], [], [], []]})
    listed = set(hand.legal_actions())
    accepted = brute.legal_actions(hand)
    assert listed == accepted
    assert brute.canonical(hand, next(iter(listed))) in accepted
    # a first meld of 8s (30 points) does not reach canasta's 50: only discards are legal
    assert {type(a).__name__ for a in accepted} == {"Discard"}


def test_a_meld_signature_tells_apart_what_bears_on_the_search() -> None:
    """The search's one-number signature of a meld is the same for two melds exactly when their
    kind, rank or suit, natural and wild counts and (for a run) natural ranks are: a run
    holding the ace twice, low and high, is not the run holding it once."""
    ruleset = LIBRARY.load("bolivia-da")
    lim = ways_out_module.limits(ruleset)
    texts = [
        "5H 5S 5D", "5H 5S 2C", "6H 6S 6D", "5H 5S 5D 5C", "2C 2D JK", "2C 2D JK JK",
        "5H 6H 7H", "5S 6S 7S", "5H 6H 7H 8H", "6H 7H 8H",
    ]  # fmt: skip
    melds = [verify_meld(ruleset, parse_cards(t.split())) for t in texts]
    for text in ("AH 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH", "3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH"):
        cards = tuple(parse_cards(text.split()))  # as a ruleset with runs from ace to ace has them
        melds.append(Meld("sequence", cards, len(cards), 0, None, "H"))
    # and runs with wild cards in them (where a ruleset allows them), the same naturals
    for text, wilds in (("5H 2C 7H", 1), ("5H 2C 7H 2D", 2)):
        cards = tuple(parse_cards(text.split()))
        melds.append(Meld("sequence", cards, 2, wilds, None, "H"))

    def facts(m: Meld) -> tuple[object, ...]:
        ranks = sorted(c.index >> 2 for c in m.cards if not ruleset.wild[c.index])
        return (m.kind, m.rank, m.suit, m.naturals, m.wilds, tuple(ranks))

    for a in melds:
        for b in melds:
            same = signature(a, ruleset.wild, lim.rank_index) == (
                signature(b, ruleset.wild, lim.rank_index)
            )
            assert same == (facts(a) == facts(b)), (a, b)


def test_a_meld_signature_tells_which_naturals_could_join_it() -> None:
    """The search reads from a meld's signature which natural cards might join it; for every
    kind of meld and every natural card that is :func:`could_join`'s answer."""
    ruleset = LIBRARY.load("bolivia-da")
    lim = ways_out_module.limits(ruleset)
    texts = ["5H 5S 5D", "5H 5S 2C", "KC KD KH JK", "2C 2D JK", "5H 6H 7H", "9S 10S JS QS"]
    melds = [verify_meld(ruleset, parse_cards(t.split())) for t in texts]
    melds.append(verify_meld(ruleset, parse_cards(["3C", "3S", "3C"]), going_out=True))
    assert {m.kind for m in melds} == {"group", "wild", "sequence", "threes"}
    for meld in melds:
        sig = signature(meld, ruleset.wild, lim.rank_index)
        for card in Card.all():
            if not ruleset.wild[card.index] and not card.is_red_three:
                assert could_take(sig, card.index) == could_join(ruleset, meld, card), (
                    meld,
                    card,
                )


def test_the_groups_read_follow_the_melds() -> None:
    """What the hand keeps of a side's groups (the pairs of one rank, the ranks) is read again
    whenever a meld is added, replaced in place or removed, never left stale."""
    ruleset = LIBRARY.load("bolivia-da")
    hand = hand_at(ruleset, {"phase": "play", "hands": [["KC"], [], [], []]})
    team = hand.melds[hand.team]

    def group(*cards: str) -> Meld:
        return verify_meld(ruleset, parse_cards(list(cards)))

    def bits(*ranks: str) -> int:
        return sum(1 << RANKS.index(rank) for rank in ranks)

    team.extend([group("7H", "7S", "7D"), group("9H", "9S", "9D")])
    assert hand.group_pairs(hand.team) == []
    assert hand.group_ranks(hand.team) == bits("7", "9")
    team.append(group("7C", "7C", "7D"))
    assert hand.group_pairs(hand.team) == [(0, 2)]
    team[1] = group("7H", "7H", "7S")  # the same number of melds, one replaced
    assert hand.group_pairs(hand.team) == [(0, 1), (0, 2), (1, 2)]
    assert hand.group_ranks(hand.team) == bits("7")
    del team[0]
    assert hand.group_pairs(hand.team) == [(0, 1)]
    assert hand.group_pairs(1 - hand.team) == [] and hand.group_ranks(1 - hand.team) == 0


@settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(house=house_rulesets(), seed=st.integers(0, 10_000))
def test_house_rules_play_to_an_end_by_a_rule(house: tuple[str, dict[str, Any]], seed: int) -> None:
    """Random valid house rules: hands of random and greedy bots end by a rule (going out or
    the stock), never by a dead end, a cap or a crash, every card kept."""
    ruleset = load_house(house)
    assume(ruleset is not None and ruleset.rules.players.usual in ruleset.rules.players.seats)
    assert ruleset is not None
    players = ruleset.rules.players.usual
    for bot in (RandomBot(), GreedyBot()):
        stats, _ = play_hand(ruleset, players, seed, [bot] * players, check="every")
        assert stats.ended_by in RULE_ENDINGS, (house, stats.ended_by)
        assert stats.conserved


# --------------------------------------------------------------------------- runs on the table

_RUN_RULESETS = {
    "bolivia-da": LIBRARY.load("bolivia-da"),
    "samba": LIBRARY.load("samba"),
    "bolivia-da, a wild card in a run": load_house(("bolivia-da", {"melds.sequence.max_wild": 1})),
    "brazilian-canastra": LIBRARY.load("brazilian-canastra"),  # from ace to ace, threes in
}


@st.composite
def _run_positions(draw: st.DrawFn) -> tuple[Ruleset, list[Meld], list[Card]]:
    """A side with a run or two on the table (and a natural canasta, so that an escalera
    decides), and a hand of a few cards of those suits near the runs' ends, with a gap to
    bridge, and a wild card or an odd card now and then."""
    ruleset = _RUN_RULESETS[draw(st.sampled_from(sorted(_RUN_RULESETS)))]
    assert ruleset is not None
    low, high = ruleset.sequence_positions  # positions: an ace low at 0, high at 13
    wild = ruleset.wild
    table: list[Meld] = [verify_meld(ruleset, parse_cards(["9C", "9D", "9H", "9S"] * 2)[:7])]
    suits = draw(st.lists(st.sampled_from("CDHS"), min_size=1, max_size=2))
    hand: list[str] = []
    for suit in suits:
        size = draw(st.integers(3, 5))
        start = draw(st.integers(low, high - size + 1))
        ranks = [POSITION_RANK[p] for p in range(start, start + size)]
        # a wild rank's place holds no natural, and red threes are never held
        assume(not any(wild[r * 4] or (r == 1 and suit in "DH") for r in ranks))
        table.append(verify_meld(ruleset, parse_cards([f"{RANKS[r]}{suit}" for r in ranks])))
        near = [
            RANKS[POSITION_RANK[p]]
            for p in range(max(low, start - 4), min(high, start + size + 3) + 1)
            if not wild[POSITION_RANK[p] * 4] and not (POSITION_RANK[p] == 1 and suit in "DH")
        ]
        hand += draw(st.lists(st.sampled_from([f"{r}{suit}" for r in near]), max_size=4))
    hand += draw(st.lists(st.sampled_from(["2C", "JK", "5D", "KS"]), max_size=2))
    assume(1 <= len(hand) <= 5)
    return ruleset, table, parse_cards(hand)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(position=_run_positions())
def test_the_search_bridges_gaps_to_the_sides_runs(
    position: tuple[Ruleset, list[Meld], list[Card]],
) -> None:
    """Cards joining a run of the side at either end, several at once or across a gap a wild
    card fills (``8H 9H 10H`` onto ``JH QH KH AH``): the search agrees with the brute force."""
    ruleset, table, cards = position
    counts = [0] * 53
    for card in cards:
        counts[card.index] += 1
    expected = brute.way_out_exists(ruleset, table, cards, players=4, first_minimum=None)
    assert can_go_out(ruleset, table, counts, players=4) == expected, (cards, table)
    assert bool(ways_out(ruleset, table, counts, players=4, bounded=False)) == expected


def test_three_cards_onto_the_low_end_of_a_run_go_out() -> None:
    """The reproducer: an escalera made by ``8H 9H 10H`` below ``JH QH KH AH`` (a bolivia-da
    side with a natural canasta of nines), ``5C`` the discard."""
    da = LIBRARY.load("bolivia-da")
    table = [
        verify_meld(da, parse_cards(["JH", "QH", "KH", "AH"])),
        verify_meld(da, parse_cards(["9C", "9H", "9D", "9H", "9C", "9D", "9S"])),
    ]
    counts = [0] * 53
    for card in parse_cards(["8H", "9H", "10H", "5C"]):
        counts[card.index] += 1
    (way,) = ways_out(da, table, counts, players=4)
    assert way.extends == ((0, tuple(parse_cards(["8H", "9H", "10H"]))),)


def test_two_cards_that_can_only_be_the_discard_close_the_search_at_its_probe() -> None:
    """A position from greedy play (bolivia-da): each card held has an open place one step
    ahead, but every place of ``JC`` and of ``KD`` other than the discard is closed by the
    bounds, and there is one discard. The probe closes the search before its first card, and
    names the two to be tried first at the next probe; the search without bounds agrees."""
    da = LIBRARY.load("bolivia-da")
    melds = ["9D 9S 9H 9C JK", "AD AH AS 2C 2S AC", "7C 7C 7H 7H", "4C 4D 4S"]
    table = [verify_meld(da, parse_cards(m.split())) for m in melds]
    counts = [0] * 53
    for card in parse_cards(
        [
            "2S",
            "7D",
            "7H",
            "8C",
            "8D",
            "8H",
            "8S",
            "9C",
            "9D",
            "9D",
            "10D",
            "JC",
            "JD",
            "QD",
            "KD",
            "KD",
            "AH",
        ]
    ):
        counts[card.index] += 1
    search = ways_out_module._Search(da, table, counts, 4, None, 1)
    assert search.probe(search.capable_masks()) is False
    assert sorted(search.suspects) == sorted(c.index for c in parse_cards(["JC", "KD"]))
    assert ways_out(da, table, counts, players=4, bounded=False) == []
    assert ways_out(da, table, counts, players=4) == []


@pytest.mark.parametrize("quick", [0, 1, 5])
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(position=_run_positions())
def test_the_search_is_exact_when_its_first_try_runs_out(
    quick: int, position: tuple[Ruleset, list[Meld], list[Card]]
) -> None:
    """The first try in the plain order stops after a few states and the probed search takes
    over, keeping what the first try found to fail: the answer is the brute force's."""
    _exact_with_first_try(quick, *position)


def _exact_with_first_try(
    quick: int, ruleset: Ruleset, table: list[Meld], cards: list[Card]
) -> bool:
    """Assert that the search with its first try cut to ``quick`` states answers as the brute
    force does; the answer."""
    counts = [0] * 53
    for card in cards:
        counts[card.index] += 1
    expected = brute.way_out_exists(ruleset, table, cards, players=4, first_minimum=None)
    saved = ways_out_module.QUICK_TRY
    ways_out_module.QUICK_TRY = quick
    try:
        assert can_go_out(ruleset, table, counts, players=4) == expected, (cards, table)
    finally:
        ways_out_module.QUICK_TRY = saved
    return expected


# --------------------------------------------------------------------------- groups on the table

# rulesets where no wild card may go onto a finished canasta: the search tries wild cards onto
# the side's groups before the naturals (see _Search._pre_wild)
_GROUP_RULESETS = {name: LIBRARY.load(name) for name in ("bolivia-da", "samba")}


@st.composite
def _group_positions(draw: st.DrawFn) -> tuple[Ruleset, list[Meld], list[Card]]:
    """A side with a canasta (and an escalera, where going out asks for one) and one or two
    groups not yet canastas (three to six cards, a wild card in some), and a hand of a few
    naturals of those ranks, wild cards and now and then an odd card: hands where a wild card
    must go onto a group before the naturals finish it, and hands where it may go on last."""
    name = draw(st.sampled_from(sorted(_GROUP_RULESETS)))
    ruleset = _GROUP_RULESETS[name]
    table = [verify_meld(ruleset, parse_cards(["9C", "9D", "9H", "9S"] * 2)[:7])]
    if "escalera" in ruleset.rules.going_out.requirement.including:
        table.append(verify_meld(ruleset, parse_cards(["5H", "6H", "7H", "8H", "9H", "10H", "JH"])))
    hand: list[str] = []
    for rank in draw(
        st.lists(st.sampled_from(["4", "6", "Q", "K"]), min_size=1, max_size=2, unique=True)
    ):
        size = draw(st.integers(3, 6))
        wilds = draw(st.integers(0, 1))
        naturals = [f"{rank}{suit}" for suit in "CDHS" * 2][: size - wilds]
        table.append(verify_meld(ruleset, parse_cards(naturals + ["2C"] * wilds)))
        suits = draw(st.lists(st.sampled_from("CDHS"), max_size=3))
        hand += [f"{rank}{suit}" for suit in suits]
    hand += draw(st.lists(st.sampled_from(["2D", "JK"]), max_size=2))
    hand += draw(st.lists(st.sampled_from(["5D", "JS"]), max_size=1))
    assume(1 <= len(hand) <= 5)
    return ruleset, table, parse_cards(hand)


@pytest.mark.parametrize("quick", [0, ways_out_module.QUICK_TRY])
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(position=_group_positions())
def test_wild_cards_onto_groups_before_their_naturals(
    quick: int, position: tuple[Ruleset, list[Meld], list[Card]]
) -> None:
    """Where no wild card may go onto a finished canasta, a way out may need one put onto a
    group before the naturals held make it one; the search tries those, and passes over the
    groups whose naturals held could not finish them without it once the state before is
    searched through. Its answer is the brute force's (which adds each meld's cards at once),
    with the first try cut to nothing and as it is."""
    ruleset, table, cards = position
    expected = _exact_with_first_try(quick, ruleset, table, cards)
    counts = [0] * 53
    for card in cards:
        counts[card.index] += 1
    assert bool(ways_out(ruleset, table, counts, players=4, bounded=False)) == expected


def test_two_wild_cards_onto_a_group_that_one_would_finish_go_out() -> None:
    """The reproducer (found by the test above): a bolivia-da side with a natural canasta, an
    escalera and six fours; the hand ``4C 2D 2D 5D``. The four would make the group a natural
    canasta, which then takes no wild card, and one two alone makes it a mixed canasta; both
    twos go on at once, before the four, and ``5D`` is the discard."""
    da = LIBRARY.load("bolivia-da")
    melds = ["9C 9D 9H 9S 9C 9D 9H", "5H 6H 7H 8H 9H 10H JH", "4C 4D 4H 4S 4C 4D"]
    table = [verify_meld(da, parse_cards(m.split())) for m in melds]
    cards = parse_cards(["4C", "2D", "2D", "5D"])
    counts = [0] * 53
    for card in cards:
        counts[card.index] += 1
    assert brute.way_out_exists(da, table, cards, players=4, first_minimum=None)
    (way,) = ways_out(da, table, counts, players=4)
    assert way.extends == ((2, tuple(parse_cards(["2D", "2D"]))), (2, tuple(parse_cards(["4C"]))))
    assert way.discard == parse_cards(["5D"])[0]
    assert ways_out(da, table, counts, players=4, bounded=False) == [way]


def _before_the_draw(ruleset: Ruleset, seed: int, steps: int, size: int) -> Hand:
    """A played position at its turn's start, before the draw (the cards as they are), the
    player's hand cut to ``size`` cards (and the pile to three) unless ``size`` is 0."""
    position = _played(ruleset, seed, steps)
    position["phase"] = "draw"
    position["asked"] = None
    position.pop("going_out", None)
    if size:
        return _small(ruleset, position, random.Random(seed), size)
    return hand_at(ruleset, position)


def _check_pickups_on_counts(ruleset: Ruleset, seed: int, steps: int, size: int) -> None:
    hand = _before_the_draw(ruleset, seed, steps, size)
    if not hand.pile:
        return
    cands = hand.candidates
    actions = [*cands.pile_candidates()]
    actions += [a for a in hand.moves.pickups() if isinstance(a, TakePile)]
    actions += [TakePile(None, i) for i in range(len(hand.melds[hand.team]) + 1)]
    actions += [TakePile(None, 0, a.also) for a in actions if a.also]
    for action in actions:
        assert cands.can_take(action) == hand.can(action), action


@pytest.mark.parametrize("rid", SHIPPED_IDS)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 300), size=st.integers(0, 6))
def test_pickups_checked_on_the_counts_agree_with_the_verify_path(
    rid: str, seed: int, steps: int, size: int
) -> None:
    _check_pickups_on_counts(LIBRARY.load(rid), seed, steps, size)


COMBINING = [rid for rid in SHIPPED_IDS if LIBRARY.load(rid).rules.melds.group.combine]


@pytest.mark.parametrize("rid", COMBINING)
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 300), size=st.integers(0, 6))
def test_joins_checked_on_the_melds_agree_with_the_verify_path(
    rid: str, seed: int, steps: int, size: int
) -> None:
    """The candidates' check for joining two groups (on the melds, the full path only where the
    turn binds the player) answers as the hand's verify path, for every pair of indices (out
    of range and equal ones included), in every phase the bots reach, small hands included
    (fewer cards than the keep-cards rule asks)."""
    ruleset = LIBRARY.load(rid)
    position = _played(ruleset, seed, steps)
    hand = (
        _small(ruleset, position, random.Random(seed), size) if size else hand_at(ruleset, position)
    )
    melds = len(hand.melds[hand.team])
    for target in range(-1, melds + 1):
        for other in range(-1, melds + 1):
            assert hand.candidates.can_combine(target, other) == hand.can(Combine(target, other)), (
                target,
                other,
                hand.melds[hand.team],
            )


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(
    house=house_rulesets(),
    seed=st.integers(0, 10_000),
    steps=st.integers(0, 300),
    size=st.integers(0, 6),
)
def test_pickups_checked_on_the_counts_agree_under_house_rules(
    house: tuple[str, dict[str, Any]], seed: int, steps: int, size: int
) -> None:
    ruleset = load_house(house)
    assume(ruleset is not None and ruleset.rules.players.usual in ruleset.rules.players.seats)
    assert ruleset is not None
    _check_pickups_on_counts(ruleset, seed, steps, size)


def test_the_first_way_out_of_a_small_hand() -> None:
    """Three eights melded, the five discarded, onto a side holding a canasta of kings."""
    canasta = LIBRARY.load("canasta")
    kings = parse_cards(["KH"] * 2 + ["KS"] * 2 + ["KD"] * 2 + ["KC"])
    counts = [0] * 53
    for card in parse_cards(["8H", "8S", "8D", "5C"]):
        counts[card.index] += 1
    way = ways_out(canasta, [verify_meld(canasta, kings)], counts, players=4)[0]
    assert (way.melds, way.discard) == ((tuple(parse_cards(["8D", "8H", "8S"])),), Card.parse("5C"))


@pytest.mark.parametrize(("rid", "seed"), [("bolivia-fr", 3), ("bolivia-da", 5), ("canasta", 2)])
def test_the_hands_kept_meld_verdicts_list_what_a_fresh_generator_lists(
    rid: str, seed: int
) -> None:
    """The generator keeps each candidate meld's verdict for the whole hand: at every state of
    a played hand it lists the same actions, in the same order, as a generator made there."""
    from bolivia.play.table.moves import Moves

    ruleset = LIBRARY.load(rid)
    players = ruleset.rules.players.usual
    hand = Hand.deal(ruleset, players, random.Random(seed), first=0)
    rng = random.Random(seed)
    bot = GreedyBot()
    compared = 0
    while not hand.over and compared < 400:
        assert hand.moves.legal() == Moves(hand).legal()
        if hand.phase == "play" and not hand.melds[hand.team]:  # a first meld was looked for
            counts = hand.hands[hand.current]
            for cards in hand.moves.single_melds(counts):  # each kept under its own cards
                assert hand.moves._verified[cards][0] == new_meld(ruleset, cards)
        compared += 1
        hand.apply(bot.choose(hand, hand.choices(), rng))
    assert compared > 20
    kept = hand.moves._verified
    assert kept  # the verdicts were kept (the hand reached first melds)
    for cards, (meld, points) in kept.items():  # each one the verify path's
        assert meld == new_meld(ruleset, cards)
        assert points == (counted_points(ruleset, [meld]) if meld is not None else 0)


@pytest.mark.parametrize("rid", ["bolivia-da", "samba", "bolivia-fr", "canasta"])
def test_a_turn_found_without_a_way_out_is_not_searched_again_and_a_fresh_search_agrees(
    rid: str,
) -> None:
    """Once the search finds no way out in a turn's play phase, the later states of the turn
    are not searched (the melds and extensions made since would join any way out found
    there): at every play state of hands played by random and greedy bots the kept answer is
    a fresh search's, joins of groups included (bolivia-da and samba join them)."""
    from bolivia.play.table.moves import Moves

    ruleset = LIBRARY.load(rid)
    players = ruleset.rules.players.usual
    skipped = later_melds = 0
    for seed, bot in enumerate([RandomBot(), GreedyBot(), RandomBot(), GreedyBot()]):
        hand = Hand.deal(ruleset, players, random.Random(seed), first=0)
        rng = random.Random(seed)
        turn, melded = -1, False
        while not hand.over:
            if hand.phase == "play":
                if hand.turns != turn:
                    turn, melded = hand.turns, False
                kept_none = hand.moves.stuck_turn == hand.turns
                kept = hand.go_out_lines(2)
                assert kept == Moves(hand).go_out_lines(2), (seed, hand.steps)
                skipped += kept_none
                later_melds += kept_none and melded
            action = bot.choose(hand, hand.choices(), rng)
            melded = melded or type(action).__name__ in ("Lay", "Extend", "Combine")
            hand.apply(action)
    assert skipped > 20 and later_melds > 5, (skipped, later_melds)


@pytest.mark.parametrize("rid", SHIPPED_IDS)
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 300), size=st.integers(0, 4))
def test_whether_asking_opens_the_pile_counts_the_cards_left_as_the_pickup_would(
    rid: str, seed: int, steps: int, size: int
) -> None:
    """Candidates._asking_opens_the_pile skips the pickups that leave enough cards before
    checking them: each count is what the checked pickup leaves, and the answer is that of
    checking every pickup in full."""
    ruleset = shipped_library().load(rid)
    hand = _before_the_draw(ruleset, seed, steps, size)
    full = False
    given = hand.candidates.pile_gives()
    for action in hand.moves.pickups():
        after = hand.after_pickup(action)
        if after is not None:
            assert hand.candidates.left_after(action, given) == sum(after[0]), action
        if (
            after is not None
            and sum(after[0]) < hand.keep
            and can_go_out(ruleset, after[1], after[0], players=hand.players)
        ):
            full = True
            break
    assert hand.candidates._asking_opens_the_pile() == full


def test_groups_capped_below_a_canasta_count_toward_none() -> None:
    """A cap on a group's size below the canasta's keeps groups from ever being canastas: the
    quick bound knows it (a 49-card samba hand with groups of four at most took 217 s before),
    and the search still agrees with brute force on that variant."""
    capped = variant(LIBRARY.load("samba"), "melds.group.max_size", 4)
    assert capped is not None
    lim = limits(capped)
    assert not lim.natural_reachable and not lim.mixed_reachable
    groups = ["9C", "9C", "9C", "9D", "9D", "9D", "9H", "KS", "KS", "KS", "KH", "KH", "KH", "KD"]
    counts = [0] * 53
    for card in parse_cards(groups):
        counts[card.index] += 1
    assert could_meet(LIBRARY.load("samba"), counts, [], 4)  # two canastas of seven each
    assert not could_meet(capped, counts, [], 4)  # none within reach
    check_moves_and_ways_out(capped, deals=6)
