"""Brazilian Canasta ("Bolivia except ..."): the rule features it needs, each answered by the
oracle as the two published pages say, and the variant's hands played by the bots."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bolivia.authoring.lint import lint
from bolivia.cards import Card
from bolivia.compare.situations import rulings
from bolivia.engine.melds import Meld, canasta_of
from bolivia.errors import Illegal
from bolivia.play.batch.simulate import play_hand
from bolivia.play.bots.registry import make_bot
from bolivia.play.table.actions import Discard, Extend, Lay, TakePile
from bolivia.play.table.hand import Hand
from bolivia.play.table.position import hand_at
from bolivia.rules.library import Library, shipped_library
from bolivia.verify.oracle import Oracle

LIBRARY = shipped_library()
BRAZIL = "brazilian-canasta"
KINGS = ["KH", "KS", "KD", "KC", "KH", "KS", "KD"]  # a natural canasta, 70 points
NINES = ["9H", "9S", "9D"]


def ask(op: str, ruleset: str = BRAZIL, **fields: Any) -> dict[str, Any]:
    answer = Oracle().handle({"id": 1, "op": op, "ruleset": ruleset, **fields})
    assert answer["ok"], answer
    result: dict[str, Any] = answer["result"]
    return result


def red_threes(count: int, melds: list[list[str]], ruleset: str = BRAZIL) -> int:
    teams = [{"melds": melds, "red_threes": count}, {"melds": [NINES]}]
    points: int = ask("score", ruleset, teams=teams)["teams"][0]["red_threes"]
    return points


def test_the_variant_is_valid_strictly_and_lint_is_quiet() -> None:
    ruleset = LIBRARY.load(BRAZIL)
    assert ruleset.extends == "bolivia-da" and ruleset.family == "brazilian"
    assert all(prov.status != "house" for prov in ruleset.provenance.values())
    assert [f for f in lint(ruleset) if f.level != "note"] == []


@pytest.mark.parametrize(("count", "points"), [(1, 100), (2, 200), (4, 400), (5, 1000), (6, 1200)])
def test_red_threes_count_by_their_number(count: int, points: int) -> None:
    assert red_threes(count, [KINGS]) == points
    assert red_threes(count, [NINES]) == -points  # no canasta: minus


def test_one_canasta_makes_red_threes_plus_where_bolivia_needs_two() -> None:
    assert red_threes(5, [KINGS]) == 1000
    assert red_threes(5, [KINGS], "bolivia-da") == -500  # one canasta, five at 100 each


def test_the_pile_is_not_taken_for_the_first_meld() -> None:
    # aces with a joker, 80 points and more than any first meld below 7,000 needs
    request = {"pile": ["5C", "AD"], "hand": ["AH", "AS", "JK", "KC"], "team_score": 0}
    assert ask("pickup", "bolivia-da", **request)["legal"]
    refused = ask("pickup", **request)
    assert not refused["legal"] and refused["code"] == "pile-first-meld"
    melded = {**request, "team_melds": [NINES]}  # once the side has melded, it may
    assert ask("pickup", **melded)["legal"]


def test_a_sequence_of_fewer_than_five_cards_costs_a_thousand() -> None:
    short, five = ["4H", "5H", "6H", "7H"], ["4S", "5S", "6S", "7S", "8S"]
    teams = [{"melds": [short, five, KINGS]}, {"melds": [NINES]}]
    side = ask("score", teams=teams)["teams"][0]
    assert side["penalties"] == -1000  # the four-card run only: five cards are enough
    assert side["total"] == side["cards"] + side["bonuses"] - 1000
    assert ask("score", "bolivia-da", teams=teams)["teams"][0]["penalties"] == 0


def test_unfinished_canastas_with_exceptions_by_size(tmp_path: Path) -> None:
    # the other published form: a meld short of a canasta costs a fixed amount, some sizes
    # less (the first entry a meld fits decides); a canasta costs nothing
    path = tmp_path / "unfinished.yaml"
    path.write_text(
        "id: unfinished\nextends: bolivia-da\nscoring:\n  meld_penalties:\n"
        "    - {kinds: [group], fewer_than: 4, points: 0}\n"
        "    - {kinds: [group, wild], fewer_than: null, points: 300}\n"
    )
    ruleset = Library().load(path)
    oracle = Oracle()
    oracle.register(ruleset)
    wild = ["JK", "JK", "2C"]
    teams = [{"melds": [NINES, ["8H", "8S", "8D", "8C"], wild, KINGS]}, {"melds": []}]
    answer = oracle.handle({"id": 1, "op": "score", "ruleset": "unfinished", "teams": teams})
    assert answer["result"]["teams"][0]["penalties"] == -600  # four eights, the wild meld


MIXED = ["QH", "QS", "QD", "QC", "QH", "JK", "2C"]  # a mixed canasta, 120 points
ACES = ["AH", "AS", "AD", "JK", "2C"]  # 130 points, no canasta


@pytest.mark.parametrize(
    ("score", "melds", "code"),
    [
        (6995, [ACES], None),  # 130 reaches 120: points only below 7,000
        (7000, [ACES], "initial-canasta"),  # 130 points, but no canasta
        (7000, [MIXED], None),  # any canasta, whatever its points
        (8000, [KINGS], "initial-minimum"),  # a canasta of 70 points: short of 200
        (8000, [KINGS, ACES], None),  # 70 + 130 = 200 with a canasta
        (8000, [ACES, ["KH", "KS", "KD", "JK"]], "initial-canasta"),  # 210, no canasta
        (9000, [MIXED], "initial-canasta"),  # a mixed canasta is not enough from 9,000
        (9000, [KINGS], None),
    ],
)
def test_first_melds_made_of_canastas_in_the_high_bands(
    score: int, melds: list[list[str]], code: str | None
) -> None:
    result = ask("initial_meld", team_score=score, melds=melds)
    assert result["legal"] is (code is None)
    assert result.get("code") == code
    # bolivia-da asks 150 points from 7,000, whatever the melds
    da = ask("initial_meld", "bolivia-da", team_score=score, melds=melds)
    assert da["legal"] is (da["points"] >= 150 if score >= 7000 else da["points"] >= 120)


def _position(score: int, hand: list[str], phase: str = "play") -> Hand:
    others = [["4C", "5D", "6S", "7H", "8C", "9D", "10S", "JH"]] * 3
    position = {
        "players": 4,
        "turn": 0,
        "phase": phase,
        "hands": [hand, *others],
        "melds": [[], []],
        "red_threes": [0, 0],
        "pile": ["5C", "AC"],
        "stock": 40,
        "scores": [score, 0],
        "melded": [False] * 4,
        "asked": None,
    }
    return hand_at(LIBRARY.load(BRAZIL), position)


def test_the_play_layer_lays_a_first_canasta_and_nothing_less_from_7000() -> None:
    hand = _position(7000, [*KINGS, "AH", "AS", "AD", "QC", "JC"])
    kings = Lay((tuple(Card.parse(c) for c in sorted(KINGS, key=Card.parse)),))
    aces = Lay((tuple(Card.parse(c) for c in ("AH", "AS", "AD")),))
    legal = hand.legal_actions()
    lays = [a for a in legal if isinstance(a, Lay)]
    assert lays and all(hand.can(a) for a in lays)
    assert all(any(len(m) >= 7 for m in a.melds) for a in lays)  # each holds the canasta
    assert not hand.can(aces) and any(sorted(a.melds[0]) == sorted(kings.melds[0]) for a in lays)
    short = [a for a in hand.candidates.choices() if isinstance(a, Lay)]  # the bots' list
    assert short and all(hand.can(a) for a in short)
    assert all(any(len(m) >= 7 for m in a.melds) for a in short)
    # below 7,000 the aces alone are a first meld (60 points reach 50)
    assert _position(0, [*KINGS, "AH", "AS", "AD", "QC", "JC"]).can(aces)


def test_no_pickup_is_listed_for_a_side_that_has_not_melded() -> None:
    hand = _position(0, ["AH", "AS", "JK", "KC", "QC"], phase="draw")
    assert not any(isinstance(a, TakePile) for a in hand.legal_actions())
    assert not any(isinstance(a, TakePile) for a in hand.candidates.choices())


ESCALERA = ["4H", "5H", "6H", "7H", "8H", "9H", "10H"]


def _going_out_position(hand: list[str]) -> Hand:
    return hand_at(LIBRARY.load(BRAZIL), _going_out_dict(hand))


def _going_out_dict(hand: list[str]) -> dict[str, Any]:
    others = [["4C", "5D", "6S", "7C", "8C", "9D", "10S", "JC"]] * 3
    position = {
        "players": 4,
        "turn": 0,
        "phase": "play",
        "hands": [hand, *others],
        "melds": [[ESCALERA, KINGS], []],
        "red_threes": [0, 0],
        "pile": ["5C", "AC"],
        "stock": 40,
        "scores": [0, 0],
        "melded": [True, False, True, False],
        "asked": "yes",  # the partner said yes (the variant asks always)
    }
    return position


def test_an_escalera_grows_past_seven_only_in_going_out() -> None:
    jack = Card.parse("JH")
    assert ask("extend", meld=ESCALERA, add=["JH"], going_out=True)["legal"]
    assert not ask("extend", meld=ESCALERA, add=["JH"])["legal"]
    assert not ask("extend", "bolivia-da", meld=ESCALERA, add=["JH"], going_out=True)["legal"]
    # with the jack and one card to discard, the extension goes out: the search finds it
    hand = _going_out_position(["JH", "5S"])
    lines = hand.moves.go_out_lines(5)
    assert any(line.extends == ((0, (jack,)),) for line in lines)
    extend = Extend(0, (jack,))
    assert hand.can(extend)
    hand.apply(extend)
    assert hand.committed and hand.melds[0][0].size == 8  # bound to go out this turn
    hand.apply(Discard(Card.parse("5S")))
    assert hand.ended_by == "went_out"
    # with two cards left after it and no way out, the extension is refused
    stuck = _going_out_position(["JH", "5S", "9C"])
    assert not stuck.can(extend)
    assert all(not (isinstance(a, Extend) and a.cards == (jack,)) for a in stuck.legal_actions())


def test_an_extension_only_going_out_allows_is_refused_by_that_rule(tmp_path: Path) -> None:
    """Where nobody asks, the refusal of an extension past the size names the rule that
    allows it to a player going out only."""
    house = tmp_path / "no-asking.yaml"
    house.write_text(
        "id: no-asking\nextends: brazilian-canasta\ngoing_out:\n  ask_partner: never\n",
        encoding="utf-8",
    )
    ruleset = Library([tmp_path]).load(str(house))
    position = _going_out_dict(["JH", "5S", "9C"])
    del position["asked"]
    stuck = hand_at(ruleset, position)
    with pytest.raises(Illegal) as refused:
        stuck.verify(Extend(0, (Card.parse("JH"),)))
    assert refused.value.code == "threes-not-going-out"
    assert refused.value.rule == "melds.sequence.extend_going_out"


def _by_count(count: int, melds: list[Meld]) -> int:
    """The red threes' score as both pages give it, from the hand's own cards."""
    value = {5: 1000, 6: 1200}.get(count, 100 * count)
    return value if any(canasta_of(LIBRARY.load(BRAZIL), m) for m in melds) else -value


@pytest.mark.parametrize(("bot", "hands"), [("greedy", 24), ("expert", 12)])
def test_seeded_hands_end_by_a_rule_and_show_the_features(bot: str, hands: int) -> None:
    ruleset = LIBRARY.load(BRAZIL)
    high_first_melds = short_sequences = fives = 0
    for seed in range(hands):
        scores = [7000 + 1000 * (seed % 3), 1000 * (seed % 4)]  # every band, high and low
        stats, hand = play_hand(
            ruleset, 4, seed, [make_bot(bot)] * 4, team_scores=scores, check="every"
        )
        assert stats.completed and stats.conserved, (seed, stats.ended_by)
        assert stats.ended_by in ("went_out", "stock_exhausted")
        result = hand.result()
        for team, score in enumerate(result.scores):
            melds = hand.melds[team]
            if scores[team] >= 7000 and melds:  # its first meld held a canasta
                high_first_melds += 1
                assert any(canasta_of(ruleset, m) for m in melds)
            short = sum(1 for m in melds if m.kind == "sequence" and m.size < 5)
            assert score.penalties == -1000 * short
            short_sequences += short
            count = hand.red_threes[team]
            assert score.red_threes == (_by_count(count, melds) if count else 0)
            fives += count == 5  # scored 1,000 (or lost it), not 500
    assert high_first_melds > 0 and short_sequences > 0 and fives > 0


def test_the_first_meld_band_names_its_canasta_in_the_oracle_and_the_report() -> None:
    high = ask("initial_minimum", team_score=9500)
    assert high == {"minimum": 0, "canasta": ["natural", "escalera", "bolivia"]}
    low = ask("initial_minimum", "bolivia-da", team_score=9500)
    assert low == {"minimum": 150, "canasta": []}
    parts = rulings("initial_minimum", {BRAZIL: high, "bolivia-da": low})
    shown = {rid: {p.what: (p.words, p.differs) for p in ps} for rid, ps in parts.items()}
    assert shown[BRAZIL]["canasta"] == ("with a natural, escalera or bolivia canasta", True)
    assert "canasta" not in shown["bolivia-da"]
    assert shown["bolivia-da"]["minimum"] == ("150 points", True)
