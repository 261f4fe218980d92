"""A run through its own two (issue 42): ``melds.sequence.natural_twos``.

Brazilian Canastra: twos are wild, but the two of a run's suit standing in the two's place is
a natural card, so the run may still hold its one wild card, and a run of ace to king with it
is clean. Read by the meld check (the natural reading first), the verifier, the moves and the
search for a way out (each two a kind of its own there, held to brute force on positions
built to hold such runs), the bots, lint, coherence, variants and the rulebook.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from bolivia.authoring.lint import lint
from bolivia.authoring.rulebook import render_rulebook
from bolivia.cards import Card, parse_cards
from bolivia.engine.canastas import canasta_bonus
from bolivia.engine.limits import limits
from bolivia.engine.melds import Meld, new_meld, verify_extend, verify_meld
from bolivia.errors import Illegal
from bolivia.language import gettext_, speaking
from bolivia.play.batch.seeds import derive_seed
from bolivia.play.batch.simulate import RULE_ENDINGS, play_hand
from bolivia.play.bots.registry import make_bot
from bolivia.play.table.position import hand_at
from bolivia.play.table.ways_out import can_go_out
from bolivia.rules.library import shipped_library
from bolivia.rules.ruleset import Ruleset
from bolivia.rules.variants import with_values

from . import brute
from .serve_as import ask_house
from .test_moves import _played, check_moves_and_ways_out

LIBRARY = shipped_library()
CANASTRA = LIBRARY.load("brazilian-canastra")
CARDS = Card.all()


def _counts(meld: list[str]) -> tuple[int, int]:
    found = verify_meld(CANASTRA, parse_cards(meld))
    return found.naturals, found.wilds


def test_the_runs_own_two_is_a_natural_card_in_its_place() -> None:
    assert limits(CANASTRA).natural_twos
    # the run's own two in its place: a natural card, the run clean
    assert _counts(["2S", "3S", "4S"]) == (3, 0)
    assert _counts(["AS", "2S", "3S"]) == (3, 0)
    # beside it, the run's one wild card: another two or a joker
    assert _counts(["2S", "3S", "2H", "5S"]) == (3, 1)
    assert _counts(["2S", "2S", "3S", "4S"]) == (3, 1)
    # a two of the suit away from its place is a wild card
    assert _counts(["5S", "6S", "2S"]) == (2, 1)
    # two wild cards besides it are one too many; a two of another suit is never natural
    with pytest.raises(Illegal, match="at most 1 wild card"):
        verify_meld(CANASTRA, parse_cards(["2S", "3S", "2H", "5S", "JK", "7S"]))
    assert new_meld(CANASTRA, parse_cards(["2H", "3S", "4S", "2C", "6S"])) is None


def test_a_run_of_ace_to_king_with_its_own_two_is_clean() -> None:
    ace_to_king = ["AS", "2S", *(f"{r}S" for r in "3456789"), "10S", "JS", "QS", "KS"]
    clean = verify_meld(CANASTRA, parse_cards(ace_to_king))
    assert (clean.naturals, clean.wilds) == (13, 0)
    # the thirteen-card canastra real, and with a joker the run is still one
    with_joker = verify_extend(CANASTRA, clean, parse_cards(["JK"]))
    assert (with_joker.naturals, with_joker.wilds) == (13, 1)
    assert _bonus(clean) > _bonus(with_joker) > 0


def _bonus(meld: Meld) -> int:
    return canasta_bonus(CANASTRA, "escalera", meld.cards, meld.wilds)


def test_the_own_two_joins_a_run_that_holds_its_wild_card() -> None:
    run = verify_meld(CANASTRA, parse_cards(["3S", "4S", "5S", "JK"]))
    grown = verify_extend(CANASTRA, run, parse_cards(["2S"]))
    assert (grown.naturals, grown.wilds) == (4, 1)
    with pytest.raises(Illegal) as refused:
        verify_extend(CANASTRA, run, parse_cards(["2H"]))
    assert refused.value.code == "sequence-too-many-wilds"


def test_the_oracle_reads_it_and_the_field_off_reads_every_two_as_wild() -> None:
    answer = ask_house(CANASTRA, "meld", cards=["2S", "3S", "2H", "5S"])
    assert answer["legal"] is True, answer
    off = with_values(CANASTRA, {"melds.sequence.natural_twos": False}, "off")
    refused = ask_house(off, "meld", cards=["2S", "3S", "2H", "5S"])
    assert refused["legal"] is False and refused["code"] == "sequence-too-many-wilds", refused
    assert _naturals(off, ["2S", "3S", "4S"]) == 2


def _naturals(ruleset: Ruleset, cards: list[str]) -> int:
    return verify_meld(ruleset, parse_cards(cards)).naturals


# ------------------------------------------------------------------ moves and ways out

#: the cards of the positions built: spades and hearts about their twos, other twos, a joker
_POOL = [
    *(f"{r}S" for r in ["A", "2", "2", "3", "4", "5", "6", "7"]),
    *(f"{r}H" for r in ["2", "4", "5", "6"]),
    "2C",
    "JK",
]
_RUNS = [
    ["3S", "4S", "5S"],
    ["3S", "4S", "5S", "JK"],
    ["4S", "5S", "6S", "2C"],
    ["AS", "2D", "3S", "4S"],
    ["4H", "5H", "6H"],
    ["4H", "5H", "6H", "7H", "2S"],
]


def _built(seed: int) -> dict[str, Any]:
    """A position of real play whose current player holds cards of :data:`_POOL` and whose
    side has some of :data:`_RUNS` (the other hands emptied, so the pack is not overdrawn)."""
    rng = random.Random(seed)
    position = _played(CANASTRA, seed, 30)
    turn = position["turn"]
    team = turn % 2
    position["phase"] = "play"
    position["asked"] = None
    position.pop("going_out", None)
    position["melds"][team] = [list(m) for m in rng.sample(_RUNS, rng.randint(1, 3))]
    position["melds"][1 - team] = []
    position["melded"] = [p % 2 == team for p in range(len(position["melded"]))]
    position["pile"] = [card for card in position["pile"][-2:] if card not in _POOL]
    left = Counter(dict.fromkeys(_POOL, CANASTRA.rules.pack.decks) | {"JK": 6})
    left.subtract(card for meld in position["melds"][team] for card in meld)
    held: list[str] = []
    for _ in range(rng.randint(4, 7)):
        card = rng.choice([c for c in _POOL if left[c] > 0])
        left[card] -= 1
        held.append(card)
    position["hands"] = [sorted(held) if p == turn else [] for p in range(len(position["hands"]))]
    return position


#: Canastra with no canasta needed to go out, so that small hands go out often
FREE_OUT = with_values(CANASTRA, {"going_out.requirement": {"rule": "canastas", "count": 0}}, "out")


@pytest.mark.parametrize("seed", range(120))
@pytest.mark.parametrize("ruleset", [CANASTRA, FREE_OUT], ids=["canastra", "free-out"])
def test_moves_and_ways_out_are_exact_where_a_runs_own_two_stands(
    ruleset: Ruleset, seed: int
) -> None:
    hand = hand_at(ruleset, _built(seed))
    listed = set(hand.legal_actions())
    expected = brute.legal_actions(hand)
    assert listed == expected, (listed - expected, expected - listed)
    team = hand.melds[hand.team]
    counts = hand.hands[hand.current]
    check = hand.discard_check()
    found = can_go_out(
        ruleset, team, counts, players=hand.players, first_minimum=None, discard_ok=check
    )
    assert found == brute.way_out_exists(
        ruleset,
        team,
        hand.hand_cards(),
        players=hand.players,
        first_minimum=None,
        discard_ok=check,
    ), (hand.hand_cards(), [m.cards for m in team])
    for line in hand.moves.go_out_lines(3):
        hand.verify_way_out(line, asking=False)


#: runs without wild cards (and so without the long runs' canastas, which hold one)
NO_WILD = {"melds.sequence.max_wild": 0, "canastas.special": []}


@pytest.mark.parametrize(
    ("changes", "held", "table", "out"),
    [
        # the one two of spades is the run's natural two or its wild card, never both
        ({}, ["AS", "2S", "4S", "9C"], [["4H", "5H", "6H"]], False),
        ({}, ["AS", "2S", "2S", "4S", "9C"], [["4H", "5H", "6H"]], True),
        # the two of spades not taken twice: the natural card of one choice, the wild card
        # that fills the run of another
        ({}, ["2S", "3S", "4H", "4S", "6S"], [["4H", "5H", "6H"]], True),
        # with no wild card in a run, only its own two joins it
        (NO_WILD, ["2S", "9C"], [["3S", "4S", "5S"]], True),
        (NO_WILD, ["2H", "9C"], [["3S", "4S", "5S"]], False),
    ],
)
def test_ways_out_in_positions_built_for_it(
    changes: dict[str, Any], held: list[str], table: list[list[str]], out: bool
) -> None:
    ruleset = with_values(FREE_OUT, changes, "built") if changes else FREE_OUT
    melds = [verify_meld(ruleset, parse_cards(m)) for m in table]
    counts = [0] * len(CARDS)
    for card in parse_cards(held):
        counts[card.index] += 1
    found = can_go_out(ruleset, melds, counts, players=4, first_minimum=None)
    assert found is out
    assert (
        brute.way_out_exists(
            ruleset, melds, parse_cards(held), players=4, first_minimum=None, discard_ok=None
        )
        is out
    )


def test_moves_and_ways_out_agree_with_brute_force_in_play() -> None:
    check_moves_and_ways_out(CANASTRA, deals=12)


@pytest.mark.parametrize("bot", ["greedy", "random"])
def test_hands_end_by_a_rule(bot: str) -> None:
    for n in range(6):
        bots = [make_bot(bot) for _ in range(4)]
        stats, _ = play_hand(CANASTRA, 4, derive_seed(5, n), bots, first=n % 4)
        assert stats.ended_by in RULE_ENDINGS and stats.conserved, (bot, n, stats.ended_by)


# ------------------------------------------------------------------ lint and the rulebook


@pytest.mark.parametrize(
    ("rid", "changes"),
    [
        # twos are not wild: a two is a natural card anyway
        ("brazilian-canastra", {"pack.wild_ranks": []}),
        # Samba's runs start at the four: the two's place is out of the span
        ("samba", {"melds.sequence.natural_twos": True}),
    ],
)
def test_lint_warns_where_the_field_changes_nothing(rid: str, changes: dict[str, Any]) -> None:
    ruleset = with_values(LIBRARY.load(rid), changes, "moot")
    found = [f for f in lint(ruleset) if "melds.sequence.natural_twos" in f.keys]
    assert found and "changes nothing" in found[0].message, [str(f) for f in lint(ruleset)]


@pytest.mark.parametrize("lang", ["en", "fr", "da", "zh", "ko"])
def test_the_rulebook_says_it_in_every_language(lang: str) -> None:
    text = render_rulebook(CANASTRA, lang=lang)
    with speaking(lang):
        sentence = gettext_(
            "Black threes take their place in a sequence (red threes are laid out, so a wild "
            "card fills theirs). The two's place takes a wild card, as every two is wild, or the "
            "two of the sequence's own suit as a natural card, which is not one of its wild cards."
        )
    assert sentence in text
    off = with_values(CANASTRA, {"melds.sequence.natural_twos": False}, "off")
    assert sentence not in render_rulebook(off, lang=lang)
