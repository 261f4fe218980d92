from __future__ import annotations

import pickle
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bolivia.cards import JOKER, RANKS, SUITS, Card, Pack, below, parse_cards, shuffle
from bolivia.engine.melds import verify_meld
from bolivia.errors import BadRequest, CardError, Illegal
from bolivia.rules.library import shipped_library

from .strategies import bad_card_texts, card_texts, cards, packs


@given(card_texts())
def test_every_spelling_parses_to_its_card(pair: tuple[Card, str]) -> None:
    card, text = pair
    assert Card.parse(text) is card


@given(cards)
def test_repr_round_trips(card: Card) -> None:
    assert Card.parse(repr(card)) is card
    assert repr(card) == str(card)
    assert repr(card).upper() == repr(card)


@given(cards)
def test_cards_pickle_to_the_same_card(card: Card) -> None:
    assert pickle.loads(pickle.dumps(card)) is card


@given(bad_card_texts)
def test_bad_cards_name_the_card_and_explain_the_notation(text: str) -> None:
    with pytest.raises(CardError) as info:
        Card.parse(text)
    message = str(info.value)
    assert repr(text) in message
    assert "ranks are 2-10" in message and "JK is a joker" in message


@pytest.mark.parametrize("value", [10, None, 3.5, ["AS"]])
def test_non_text_is_not_a_card(value: object) -> None:
    with pytest.raises(CardError, match="is not a card"):
        Card.parse(value)


def test_there_are_53_distinct_cards_ten_is_written_10() -> None:
    assert len(Card.all()) == 53
    assert {repr(c) for c in Card.all()} == {r + s for r in RANKS for s in SUITS} | {"JK"}
    assert Card.parse("tc") == Card("10", "C")
    assert Card("jk") is JOKER


def test_threes_by_colour() -> None:
    assert Card.parse("3H").is_red_three and Card.parse("3D").is_red_three
    assert Card.parse("3C").is_black_three and Card.parse("3S").is_black_three
    assert not Card.parse("3C").is_red_three and not JOKER.is_black_three


def test_cards_are_immutable() -> None:
    card = Card.parse("AS")
    with pytest.raises(AttributeError):
        card.rank = "K"  # type: ignore[misc]


@given(packs)
def test_a_pack_holds_decks_copies_of_each_card(pack: Pack) -> None:
    counts = pack.counter()
    assert sum(counts.values()) == pack.size == len(pack) == 52 * pack.decks + pack.jokers
    for card in Card.all():
        assert counts[card] == pack.copies(card)
    assert counts[JOKER] == pack.jokers


@given(packs, st.lists(cards, max_size=40))
def test_excess_lists_exactly_the_cards_named_too_often(pack: Pack, named: list[Card]) -> None:
    excess = dict(pack.excess(named))
    for card in set(named):
        if named.count(card) > pack.copies(card):
            assert excess[card] == named.count(card)
        else:
            assert card not in excess


def test_parse_cards_stops_at_the_first_bad_one() -> None:
    assert parse_cards(["10h", "JK"]) == (Card.parse("10H"), JOKER)
    with pytest.raises(CardError, match="'1H'"):
        parse_cards(["AS", "1H", "ZZ"])


@given(st.integers(min_value=0, max_value=2**64), st.integers(min_value=0, max_value=170))
def test_shuffle_is_the_standard_library_shuffle(seed: int, size: int) -> None:
    """The deal's shuffle gives Random.shuffle's order from the same seed (the same deals
    whichever shuffles them), and leaves the generator where Random.shuffle leaves it."""
    mine, theirs = list(range(size)), list(range(size))
    ours, standard = random.Random(seed), random.Random(seed)
    shuffle(ours, mine)
    standard.shuffle(theirs)
    assert mine == theirs
    assert ours.getrandbits(32) == standard.getrandbits(32)


@given(st.integers(min_value=0, max_value=2**64), st.integers(min_value=1, max_value=2**70))
def test_below_is_the_standard_library_randrange(seed: int, n: int) -> None:
    """The random bot's draw gives Random.randrange's number from the same seed (the same
    choices whichever draws them), and leaves the generator where randrange leaves it."""
    ours, standard = random.Random(seed), random.Random(seed)
    assert [below(ours, n) for _ in range(3)] == [standard.randrange(n) for _ in range(3)]
    assert ours.getrandbits(32) == standard.getrandbits(32)


def test_below_refuses_an_empty_range() -> None:
    with pytest.raises(ValueError, match="range\\(0\\)"):
        below(random.Random(1), 0)


def test_a_refusal_is_caught_as_a_value_error() -> None:
    """An illegal meld and a question that cannot be asked are ``ValueError``s, as a Python
    user expects (python-chess's illegal move is one)."""
    ruleset = shipped_library().load("bolivia-da")
    with pytest.raises(ValueError, match="at least 2 natural cards") as refused:
        verify_meld(ruleset, parse_cards(["5C", "2D", "JK", "2H"]))
    assert isinstance(refused.value, Illegal) and refused.value.code
    assert issubclass(BadRequest, ValueError)
