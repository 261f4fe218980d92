"""Brazilian Canastra: runs beyond the 4-to-ace span (issue 17's last rule feature) -- an ace
low or high, from ace to ace, threes in their place, a wild card in the two's -- answered by
the oracle as the three Brazilian pages say, and laid by the bots in simulated hands."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from bolivia.authoring.lint import lint
from bolivia.authoring.rulebook import render_rulebook
from bolivia.cards import POSITION_RANK, Card, parse_cards
from bolivia.compare.witnesses import find_witnesses
from bolivia.engine.melds import sequence_fault, verify_meld
from bolivia.errors import Illegal, RulesetError
from bolivia.play.batch.simulate import play_hand
from bolivia.play.bots.registry import make_bot
from bolivia.play.table.actions import Extend, Lay
from bolivia.play.table.hand import Hand
from bolivia.play.table.position import hand_at
from bolivia.rules.library import Library, shipped_library
from bolivia.rules.ruleset import Ruleset
from bolivia.verify.oracle import Oracle

from .strategies import load_house

LIBRARY = shipped_library()
CANASTRA = "brazilian-canastra"
SPADES = ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS", "QS", "KS"]


def ask(op: str, ruleset: str = CANASTRA, **fields: Any) -> dict[str, Any]:
    answer = Oracle().handle({"id": 1, "op": op, "ruleset": ruleset, **fields})
    assert answer["ok"], answer
    result: dict[str, Any] = answer["result"]
    return result


def test_the_variant_is_valid_strictly_and_lint_is_quiet() -> None:
    ruleset = LIBRARY.load(CANASTRA)
    assert ruleset.extends == "samba" and ruleset.sequence_positions == (0, 13)
    assert all(prov.status != "house" for prov in ruleset.provenance.values())
    assert [f for f in lint(ruleset) if f.level != "note"] == []


@pytest.mark.parametrize(
    "cards",
    [
        ["AS", "2S", "3S"],  # ace low, the wild two in its own place
        ["AS", "2H", "3S"],  # any two stands there: it is wild
        ["3S", "4S", "5S"],  # a black three in its place
        ["QS", "KS", "AS"],  # ace high
        ["KS", "AS", "2H"],  # ace high, the two wild as the queen
    ],
)
def test_runs_at_both_ends_of_the_span(cards: list[str]) -> None:
    assert ask("meld", cards=cards)["kind"] == "sequence"
    assert not ask("meld", "samba", cards=cards)["legal"] or cards == ["QS", "KS", "AS"]


def test_an_ace_between_a_king_and_a_two_is_refused_by_the_span() -> None:
    refused = ask("meld", cards=["QS", "KS", "AS", "2C", "3S"])
    assert not refused["legal"] and refused["code"] == "sequence-rank"
    assert refused["rule"] == "melds.sequence.lowest"
    assert "never between a K and a 2" in refused["reason"]
    assert "A (low, below the 2) to A (high, above the K)" in refused["reason"]
    # Samba words its span as it always has
    samba = ask("meld", "samba", cards=["3S", "4S", "5S"])
    assert samba["reason"].startswith("a sequence runs from 4 to A, without threes or wild ranks")


def _one_ace(tmp_path: Path) -> Library:
    (tmp_path / "one-ace.yaml").write_text(
        "id: one-ace\nextends: brazilian-canastra\nmelds:\n  sequence:\n    two_aces: false\n",
        encoding="utf-8",
    )
    return Library([tmp_path])


def test_fourteen_cards_ace_to_ace_only_with_two_aces(tmp_path: Path) -> None:
    ace_to_ace = [*SPADES, "AS"]
    made = ask("meld", cards=ace_to_ace)
    assert made["legal"] and made["canasta"] == "escalera" and made["bonus"] == 1000
    one = _one_ace(tmp_path).load(str(tmp_path / "one-ace.yaml"))
    with pytest.raises(Illegal) as refused:
        verify_meld(one, parse_cards(ace_to_ace))
    assert refused.value.code == "sequence-duplicate"
    # one ace, at either end, is still a run (thirteen cards at most)
    assert verify_meld(one, parse_cards(SPADES)).size == 13
    assert verify_meld(one, parse_cards([*SPADES[1:], "AS"])).size == 13


def test_lint_warns_of_ace_to_ace_under_a_size_limit(tmp_path: Path) -> None:
    path = tmp_path / "short.yaml"
    text = "id: short\nextends: brazilian-canastra\nmelds:\n  sequence:\n    max_size: 13\n"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(RulesetError, match=r"'canastra de ás' \(entry 1\) is never paid"):
        Library([tmp_path]).load(str(path))  # the fourteen-card canastra left no room
    path.write_text(text + "canastas:\n  special: []\n", encoding="utf-8")
    found = [f for f in lint(Library([tmp_path]).load(str(path))) if f.level == "warning"]
    assert any("melds.sequence.two_aces" in f.keys for f in found), found


def test_two_aces_needs_an_ace_at_each_end(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(
        "id: bad\nextends: samba\nmelds:\n  sequence:\n    two_aces: true\n", encoding="utf-8"
    )
    with pytest.raises(RulesetError) as failed:
        Library([tmp_path]).load(str(path))
    assert "melds.sequence.two_aces" in str(failed.value)
    assert "lowest and highest both A" in str(failed.value)


def test_the_long_runs_score_their_own_bonus() -> None:
    royal = {"melds": [SPADES]}
    teams = [royal, {"melds": [["8C", "8D", "8H"]]}]
    assert ask("score", teams=teams)["teams"][0]["bonuses"] == 500
    with_joker = {"melds": [["AS", "JK", *SPADES[2:]]]}  # dirty: a joker in the two's place
    teams = [with_joker, {"melds": [["8C", "8D", "8H"]]}]
    assert ask("score", teams=teams)["teams"][0]["bonuses"] == 100
    clean = ask("meld", cards=SPADES[3:10])
    assert clean["bonus"] == 200


def test_a_low_ace_is_placed_where_it_makes_the_run() -> None:
    ruleset = LIBRARY.load(CANASTRA)
    # ranks: 12 the ace, 1 the three; a wild card fills the two's place
    assert sequence_fault(ruleset, [12, 1], 1, new=True) is None
    assert sequence_fault(ruleset, [12, 11, 10], 0, new=True) is None
    assert sequence_fault(ruleset, [12, 1, 11], 1, new=True) == "sequence-rank"
    assert sequence_fault(ruleset, [12, 12, 1], 0, new=True) == "sequence-gap"
    samba = LIBRARY.load("samba")
    assert sequence_fault(samba, [12, 1], 1, new=True) == "sequence-rank"


_SPANS = {
    "ace to ace": LIBRARY.load(CANASTRA),
    "one ace, either end": load_house((CANASTRA, {"melds.sequence.two_aces": False})),
    "ace low only": load_house(
        (CANASTRA, {"melds.sequence.highest": "K", "melds.sequence.two_aces": False})
    ),
    "4 to A": LIBRARY.load("black-samba"),  # one wild card a run, as Canastra
}


def _placed(ruleset: Ruleset, ranks: list[int], wilds: int) -> bool:
    """By brute force: some placement of the naturals on distinct positions of the span (an
    ace at 0 or 13, none on a wild rank's place) lies within a window of ``len + wilds``
    positions of the span, no longer than one sequence may be, under the size and wild
    limits."""
    rule = ruleset.rules.melds.sequence
    low, high = ruleset.sequence_positions
    size = len(ranks) + wilds
    if wilds > rule.max_wild or size < rule.min_size:
        return False
    if rule.max_size is not None and size > rule.max_size:
        return False
    if size > min(high - low + 1, 14 if rule.two_aces else 13):
        return False
    options = [
        [p for p in ((0, 13) if r == 12 else (r + 1,)) if low <= p <= high]
        if not ruleset.wild[r * 4]
        else []
        for r in ranks
    ]
    for places in itertools.product(*options):
        if len(set(places)) == len(places) and max(places) - min(places) + 1 <= size:
            return True
    return False


@settings(max_examples=300, deadline=None)
@given(
    span=st.sampled_from(sorted(_SPANS)),
    ranks=st.one_of(
        st.lists(st.integers(0, 12), min_size=1, max_size=5),
        # a run of positions (the ace at 0 or 13) with a card or two left out
        st.tuples(
            st.integers(0, 13), st.integers(2, 14), st.sets(st.integers(0, 13), max_size=2)
        ).map(
            lambda t: (
                [POSITION_RANK[p] for p in range(t[0], min(14, t[0] + t[1])) if p not in t[2]]
                or [POSITION_RANK[t[0]]]
            )
        ),
    ),
    wilds=st.integers(0, 2),
)
def test_sequence_fault_agrees_with_every_placement(
    span: str, ranks: list[int], wilds: int
) -> None:
    """A sequence is legal exactly when some placement of its aces (low or high) fits."""
    ruleset = _SPANS[span]
    assert ruleset is not None
    ranks = [r for r in ranks if not ruleset.wild[r * 4]]  # naturals only, as melds pass them
    assume(ranks)
    legal = sequence_fault(ruleset, ranks, wilds, new=True) is None
    assert legal == _placed(ruleset, ranks, wilds), (span, ranks, wilds)


def _position(hand: list[str], melds: list[list[str]]) -> Hand:
    others = [["4C", "5D", "6S", "7H", "8C", "9D", "10S", "JH"]] * 3
    return hand_at(
        LIBRARY.load(CANASTRA),
        {
            "players": 4,
            "turn": 0,
            "phase": "play",
            "hands": [hand, *others],
            "melds": [melds, []],
            "red_threes": [0, 0],
            "pile": ["5C", "KC"],
            "stock": 40,
            "scores": [0, 0],
            "melded": [True, False, True, False],
        },
    )


def test_the_move_generator_lists_the_new_runs() -> None:
    hand = _position(["AS", "2H", "3S", "QD", "KD", "9C", "7C"], [["8H", "8D", "8S"]])
    lays = {a.melds[0] for a in hand.legal_actions() if isinstance(a, Lay)}
    cards = {tuple(sorted(Card.parse(c) for c in m)) for m in (["AS", "2H", "3S"],)}
    assert cards <= lays
    # the bots' short list lays the black three with its neighbours
    hand = _position(["3S", "4S", "5S", "9H", "9C", "KD"], [["8H", "8D", "8S"]])
    short = {a.melds[0] for a in hand.candidates.choices() if isinstance(a, Lay)}
    assert tuple(parse_cards(["3S", "4S", "5S"])) in short


def test_a_run_grows_at_both_ends_in_the_move_generator() -> None:
    hand = _position(["AS", "KS", "9H", "9C", "KD"], [["QS", "KS", "JS"], ["2S", "3S", "4S"]])
    extends = {(a.target, a.cards) for a in hand.legal_actions() if isinstance(a, Extend)}
    ace = (Card.parse("AS"),)
    assert (0, ace) in extends and (1, ace) in extends  # above the king, below the wild two


def test_compare_finds_what_tells_an_ace_at_either_end_from_ace_high(tmp_path: Path) -> None:
    path = tmp_path / "ace-high.yaml"
    path.write_text(
        "id: ace-high\nextends: brazilian-canastra\nmelds:\n  sequence:\n"
        "    lowest: '4'\n    two_aces: false\ncanastas:\n  special: []\n",
        encoding="utf-8",
    )
    high = Library([tmp_path]).load(str(path))
    oracle = Oracle()
    oracle.register(high)
    found, _ = find_witnesses([LIBRARY.load(CANASTRA), high], oracle, ["melds"], search=False)
    told = {tuple(w.input["cards"]): w.results for w in found}
    assert told[("3S", "4S", "5S")]["ace-high"]["legal"] is False  # below the span
    assert told[("3S", "4S", "5S")][CANASTRA]["legal"] is True
    ace_to_ace = [cards for cards in told if cards[0] == "AS" and cards[-1] == "AS"]
    assert ace_to_ace and told[ace_to_ace[0]][CANASTRA]["canasta"] == "escalera"


def test_rulebook_words_the_span() -> None:
    text = render_rulebook(LIBRARY.load(CANASTRA))
    assert "at one end of a sequence or at each end (ace to ace)" in text
    assert "never between a king and a two" in text and "Black threes take their place" in text
    assert "never between a king" not in render_rulebook(LIBRARY.load("samba"))


@pytest.mark.parametrize(("bot", "hands"), [("greedy", 30), ("random", 10)])
def test_simulated_hands_lay_low_aces_and_threes_in_runs(bot: str, hands: int) -> None:
    ruleset = LIBRARY.load(CANASTRA)
    low_aces = threes = 0
    for seed in range(hands):
        stats, hand = play_hand(ruleset, 4, seed, [make_bot(bot)] * 4, check="every")
        assert stats.completed and stats.conserved, (seed, stats.ended_by)
        assert stats.ended_by in ("went_out", "stock_exhausted")
        for melds in hand.melds:
            for m in melds:
                if m.kind != "sequence":
                    continue
                ranks = {c.rank for c in m.cards if not ruleset.wild[c.index]}
                low_aces += "A" in ranks and ranks & {"3", "4"} != set()
                threes += "3" in ranks
    assert low_aces + threes > 0
