"""Canastas paid by what they hold (``canastas.special``) and black threes never melded, in the
example rulesets of published variants (issue 17): Black Samba (a sequence canasta with one
wild card, black threes never melded) and Joker Canasta (wild canastas paid by their jokers
and twos). The oracle answers as the rulebooks say; seeded hands under each variant end by a
rule with every card accounted for, and show the features happening."""

from __future__ import annotations

from collections import Counter

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bolivia.authoring.lint import lint
from bolivia.authoring.rulebook import render_rulebook
from bolivia.cards import parse_cards
from bolivia.cli import cli
from bolivia.compare.witnesses import find_witnesses
from bolivia.compare_cli import default_compared
from bolivia.engine.initial_meld import meld_value
from bolivia.engine.melds import canasta_bonus, canasta_name, canasta_of, verify_meld
from bolivia.engine.scoring import TeamHand, score_team
from bolivia.errors import RulesetError
from bolivia.play.batch.seeds import derive_seed
from bolivia.play.batch.simulate import play_hand
from bolivia.play.bots.registry import make_bot
from bolivia.rules.library import shipped_library
from bolivia.rules.ruleset import Ruleset
from bolivia.rules.variants import alternatives, variant, with_values
from bolivia.verify.oracle import Oracle

from .test_moves import _check_perft, _check_ways_out

LIBRARY = shipped_library()
VARIANTS = ("black-samba", "joker-canasta")
ACES = {"name": "canasta of aces", "kind": "natural", "rank": "A", "bonus": 1000}


def _canasta(ruleset: Ruleset, cards: list[str]) -> tuple[str | None, int, str]:
    """(kind, bonus, name) of the meld these cards make."""
    meld = verify_meld(ruleset, parse_cards(cards), going_out=True)
    kind = canasta_of(ruleset, meld)
    if kind is None:
        return None, 0, ""
    return (
        kind,
        canasta_bonus(ruleset, kind, meld.cards, meld.wilds),
        canasta_name(ruleset, kind, meld.cards, meld.wilds),
    )


def test_the_first_special_canasta_matched_pays_else_the_kind() -> None:
    da = LIBRARY.load("bolivia-da")
    mixed_aces = {**ACES, "name": "mixed aces", "kind": "mixed", "bonus": 700}
    house = with_values(da, {"canastas.special": [ACES, mixed_aces]}, "aces")
    aces = ["AH", "AS", "AD", "AC", "AH", "AS", "AD"]
    assert _canasta(house, aces) == ("natural", 1000, "canasta of aces")
    assert _canasta(house, [*aces[:5], "2C", "JK"]) == ("mixed", 700, "mixed aces")
    assert _canasta(house, ["KH", "KS", "KD", "KC", "KH", "KS", "KD"]) == (
        "natural",
        500,
        "natural canasta",
    )
    assert _canasta(da, aces) == ("natural", 500, "natural canasta")
    # the order decides: a catch-all bolivia entry first shadows a narrower one after it
    twos = {"name": "twos", "kind": "bolivia", "max_jokers": 0, "bonus": 4000}
    anyw = {"name": "any", "kind": "bolivia", "bonus": 100}
    seven_twos = ["2C", "2C", "2D", "2D", "2H", "2H", "2S"]
    first = with_values(da, {"canastas.special": [twos, anyw]}, "first")
    assert _canasta(first, seven_twos)[1:] == (4000, "twos")
    with pytest.raises(RulesetError, match=r"canastas.special.1: .*entry 1 \(any\) first"):
        with_values(da, {"canastas.special": [anyw, twos]}, "second")  # twos: never paid


def test_scoring_and_the_first_meld_read_the_special_bonus() -> None:
    da = LIBRARY.load("bolivia-da")
    aces = ["AH", "AS", "AD", "AC", "AH", "AS", "AD"]
    plain = with_values(da, {"initial_meld.counts_bonuses": True}, "counts")
    house = with_values(plain, {"canastas.special": [ACES]}, "counts-aces")
    meld = verify_meld(house, parse_cards(aces))
    assert score_team(house, TeamHand((meld,), 0)).bonuses == 1000
    assert score_team(plain, TeamHand((meld,), 0)).bonuses == 500
    assert meld_value(house, "group", meld.cards, 0) == 140 + 1000
    assert meld_value(plain, "group", meld.cards, 0) == 140 + 500


@pytest.mark.parametrize("rid", VARIANTS)
def test_the_variants_validate_strictly_and_lint_quietly(rid: str) -> None:
    path = LIBRARY.path_of(rid)
    result = CliRunner().invoke(cli, ["validate", "--strict", str(path)])
    assert result.exit_code == 0, result.output
    found = lint(LIBRARY.load(rid))
    assert [f for f in found if f.level != "note"] == []
    ruleset = LIBRARY.load(rid)
    assert ruleset.family != "bolivia"  # not among the default comparison's columns
    assert ruleset.rules.canastas.special  # each variant uses the feature


def test_the_variants_do_not_join_the_default_comparison() -> None:
    ids = [r.id for r in default_compared(LIBRARY)]
    assert ids and not set(VARIANTS) & set(ids)
    assert all(r.family == "bolivia" for r in default_compared(LIBRARY))
    # a Bolivia variant under variants/ stays out too, whatever its family
    assert all("/variants/" not in str(r.path) for r in default_compared(LIBRARY))


def test_the_rulebooks_list_the_special_canastas() -> None:
    text = render_rulebook(LIBRARY.load("joker-canasta"))
    assert "| canasta of twos | a wild canasta with no joker | 4,000 |" in text
    assert "| canasta of four jokers | a wild canasta with at least 4 jokers | 3,000 |" in text
    text = render_rulebook(LIBRARY.load("black-samba"))
    assert "| black samba | a samba with at least 1 wild card | 1,000 |" in text
    assert "**Black threes** may never be melded" in text
    assert "Special canastas" not in render_rulebook(LIBRARY.load("samba"))


def test_a_special_name_is_escaped_in_the_rulebook() -> None:
    da = LIBRARY.load("bolivia-da")
    house = with_values(da, {"canastas.special": [{**ACES, "name": "*aces* | <b>"}]}, "esc")
    text = render_rulebook(house)
    assert "*aces* | <b>" not in text
    assert "<b>" not in render_rulebook(house, "html")


@pytest.mark.parametrize(
    ("entry", "words"),
    [
        ({"name": "x", "kind": "bolivia", "min_jokers": 7, "bonus": 1}, "the pack holds 6"),
        ({"name": "x", "kind": "escalera", "rank": "K", "bonus": 1}, "no rank of its own"),
        ({"name": "x", "kind": "natural", "rank": "2", "bonus": 1}, "no group is of 2s"),
        ({"name": "x", "kind": "natural", "min_wild": 1, "bonus": 1}, "natural canasta holds 0"),
        ({"name": "x", "kind": "escalera", "min_size": 13, "bonus": 1}, "at most 7 cards"),
    ],
)
def test_a_special_canasta_no_meld_can_be_is_refused(entry: dict[str, object], words: str) -> None:
    with pytest.raises(RulesetError) as raised:
        with_values(LIBRARY.load("bolivia-da"), {"canastas.special": [entry]}, "odd")
    (problem,) = raised.value.problems
    assert problem.path == "canastas.special.0" and words in problem.message, problem


def test_a_special_canasta_an_earlier_one_always_catches_is_refused() -> None:
    aces = {"name": "aces", "kind": "natural", "rank": "A", "bonus": 900}
    with pytest.raises(RulesetError, match=r"every canasta it matches matches entry 1 \(any\)"):
        with_values(
            LIBRARY.load("bolivia-da"),
            {"canastas.special": [{"name": "any", "kind": "natural", "bonus": 800}, aces]},
            "odd",
        )


@pytest.mark.parametrize(
    "position", range(len(alternatives(LIBRARY.load("bolivia-da"), "canastas.special")))
)
def test_every_special_canasta_added_has_a_scoring_witness(position: int) -> None:
    da = LIBRARY.load("bolivia-da")
    value = alternatives(da, "canastas.special")[position]
    if variant(da, "canastas.special", value) is None:
        # no meld can be it (here: a sequence with a wild card, which the Danish rules bar):
        # the ruleset is refused, saying so
        with pytest.raises(RulesetError, match="is never paid"):
            with_values(da, {"canastas.special": value}, "refused")
        return
    house = with_values(da, {"canastas.special": value}, f"special-{position}")
    oracle = Oracle()
    oracle.register(house)
    found, findings = find_witnesses([da, house], oracle, areas=["scoring"], search=False)
    (finding,) = [f for f in findings if f.rule == "canastas.special"]
    assert finding.witness is not None
    (witness,) = [w for w in found if w.key == finding.witness]
    bonuses = [w["teams"][0]["bonuses"] for w in witness.results.values()]
    assert len(set(bonuses)) == 2  # the witness's canasta is paid differently


def _hands(rid: str, bot: str, count: int, seed: int) -> tuple[Counter[str], Counter[str], int]:
    """How ``count`` seeded hands ended, the canastas made by name, and the black threes the
    sides melded, every card checked after every action."""
    ruleset = LIBRARY.load(rid)
    ends: Counter[str] = Counter()
    names: Counter[str] = Counter()
    threes = 0
    for i in range(count):
        stats, hand = play_hand(
            ruleset, 4, derive_seed(seed, i), [make_bot(bot) for _ in range(4)], check="every"
        )
        assert stats.completed and stats.conserved, (i, stats.ended_by)
        ends[stats.ended_by] += 1
        for team in hand.melds:
            for meld in team:
                threes += meld.kind == "threes"
                kind = canasta_of(ruleset, meld)
                if kind is not None:
                    names[canasta_name(ruleset, kind, meld.cards, meld.wilds)] += 1
        result = hand.result()
        for team, score in zip(hand.melds, result.scores, strict=True):
            paid = sum(
                canasta_bonus(ruleset, kind, m.cards, m.wilds)
                for m in team
                if (kind := canasta_of(ruleset, m)) is not None
            )
            assert score.bonuses == paid
    return ends, names, threes


@pytest.mark.parametrize("bot", ["greedy", "expert"])
def test_black_samba_hands_lay_black_sambas_and_never_meld_black_threes(bot: str) -> None:
    ends, names, threes = _hands("black-samba", bot, 30, 1)
    assert set(ends) <= {"went_out", "stock_exhausted"}
    assert names["black samba"] > 0 and names["samba"] > 0
    assert threes == 0


def test_the_same_deals_under_samba_meld_black_threes_going_out() -> None:
    # what Black Samba's rule removes happens on these deals under its base
    assert _hands("samba", "greedy", 30, 1)[2] > 0


@pytest.mark.parametrize("bot", ["greedy", "expert"])
def test_joker_canasta_hands_end_by_a_rule_and_pay_wild_canastas(bot: str) -> None:
    ends, names, _ = _hands("joker-canasta", bot, 20, 1)
    assert set(ends) <= {"went_out", "stock_exhausted"}
    assert ends["went_out"] > 0
    assert set(names) <= {
        "natural canasta",
        "mixed canasta",
        "wild canasta",
        "canasta of twos",
        "canasta of four jokers",
    }


def test_the_simulator_runs_the_variants_strictly() -> None:
    for rid in VARIANTS:
        result = CliRunner().invoke(
            cli,
            [
                "simulate",
                rid,
                "--hands",
                "6",
                "--seed",
                "3",
                "--strict",
                "--check",
                "every",
                "--json",
            ],
        )
        assert result.exit_code == 0, result.output


# ------------------------------------------------------------------ the move generator agrees

LONG = {
    "melds.sequence.max_size": None,
    "canastas.special": [
        {"name": "long escalera", "kind": "escalera", "min_size": 9, "bonus": 3000}
    ],
}


def _long() -> Ruleset:
    """Sequences past seven cards (up to the 4-to-ace span), nine or more paying 3,000."""
    return with_values(LIBRARY.load("bolivia-da"), LONG, "long-escaleras")


@pytest.mark.parametrize("rid", [*VARIANTS, "long-escaleras"])
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 200), size=st.integers(1, 5))
def test_the_generator_and_the_way_out_search_hold_under_the_variants(
    rid: str, seed: int, steps: int, size: int
) -> None:
    ruleset = _long() if rid == "long-escaleras" else LIBRARY.load(rid)
    _check_perft(ruleset, seed, steps)
    _check_ways_out(ruleset, seed, steps, size)


def test_sequences_past_seven_cards_are_laid_and_paid_their_own_bonus() -> None:
    ruleset = _long()
    assert _canasta(ruleset, [f"{r}H" for r in ("4", "5", "6", "7", "8", "9", "10", "J")]) == (
        "escalera",
        1500,
        "escalera",
    )
    nine = [f"{r}H" for r in ("4", "5", "6", "7", "8", "9", "10", "J", "Q")]
    assert _canasta(ruleset, nine) == ("escalera", 3000, "long escalera")
    sizes: Counter[int] = Counter()
    for i in range(12):
        stats, hand = play_hand(
            ruleset, 4, derive_seed(4, i), [make_bot("expert") for _ in range(4)], check="every"
        )
        assert stats.completed and stats.conserved
        sizes.update(m.size for team in hand.melds for m in team if m.kind == "sequence")
    assert sum(n for size, n in sizes.items() if size >= 9) > 0  # long escaleras were laid
