"""Shared Hypothesis strategies: cards, their spellings, packs, ruleset fragments.

Tests import these and never define their own versions of them.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from bolivia.cards import RANKS, SUITS, Card, Pack
from bolivia.rules import leaf_paths
from bolivia.ruleset import shipped_library

__all__ = ["card_texts", "cards", "hands", "packs", "rank_spellings", "scalar_values"]

_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}

cards = st.sampled_from(Card.all())
hands = st.lists(cards, max_size=30)
packs = st.builds(Pack, decks=st.integers(1, 4), jokers=st.integers(0, 8))


@st.composite
def rank_spellings(draw: st.DrawFn, rank: str) -> str:
    options = [rank, rank.lower()]
    if rank == "10":
        options += ["T", "t"]
    return draw(st.sampled_from(options))


@st.composite
def card_texts(draw: st.DrawFn, card: Card | None = None) -> tuple[Card, str]:
    """A card and one of the ways the notation lets it be written."""
    card = card if card is not None else draw(cards)
    if card.is_joker:
        return card, draw(st.sampled_from(["JK", "jk", "Jk", "jK"]))
    rank = draw(rank_spellings(card.rank))
    suit = draw(st.sampled_from([card.suit, card.suit.lower(), _SYMBOLS[card.suit]]))
    return card, rank + suit


def not_a_card(text: str) -> bool:
    try:
        Card.parse(text)
    except ValueError:
        return True
    return False


bad_card_texts = st.one_of(
    st.text(max_size=5).filter(not_a_card),
    st.sampled_from(["1H", "11S", "0D", "10X", "JKS", "H10", "A", "", "ZZ", "3"]),
)

scalar_values: st.SearchStrategy[Any] = st.one_of(
    st.none(), st.booleans(), st.integers(-10, 10_000), st.text(max_size=8)
)

__all__ += ["RANKS", "SUITS", "bad_card_texts"]


SHIPPED_IDS = ["canasta", "samba", "bolivia-fr", "bolivia-da", "bolivia-zh", "bolivia-ko"]


def yaml_value(value: Any) -> Any:
    """JSON data as a ruleset file writes it: player counts as numbers."""
    if isinstance(value, dict):
        return {int(k) if k.isdigit() else k: yaml_value(v) for k, v in value.items()}
    if isinstance(value, list):
        return [yaml_value(v) for v in value]
    return value


def _pool() -> dict[str, list[Any]]:
    """Every value each leaf takes in some shipped ruleset: material for random house rules."""
    pool: dict[str, list[Any]] = {}
    for ruleset in shipped_library().all():
        for path in leaf_paths():
            value = yaml_value(ruleset.value(path))
            if value not in pool.setdefault(path, []):
                pool[path].append(value)
    return pool


POOL = _pool()


@st.composite
def house_rulesets(draw: st.DrawFn) -> tuple[str, dict[str, Any]]:
    base = draw(st.sampled_from(SHIPPED_IDS))
    paths = draw(st.lists(st.sampled_from(sorted(POOL)), min_size=1, max_size=6, unique=True))
    return base, {path: draw(st.sampled_from(POOL[path])) for path in paths}
