"""Shared Hypothesis strategies: cards, their spellings, packs, ruleset fragments.

Tests import these and never define their own versions of them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from bolivia.cards import RANKS, SUITS, Card, Pack
from bolivia.errors import RulesetError
from bolivia.rules.library import Library, shipped_library
from bolivia.rules.model import leaf_paths
from bolivia.rules.ruleset import Ruleset

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


# --------------------------------------------------------------------------- oracle requests

json_values: st.SearchStrategy[Any] = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=10),
    lambda children: (
        st.lists(children, max_size=5)
        | st.dictionaries(
            st.sampled_from(
                ["op", "ruleset", "id", "cards", "melds", "pile", "hand", "teams", "scores", "x"]
            )
            | st.text(max_size=5),
            children,
            max_size=5,
        )
    ),
    max_leaves=20,
)

card_names = st.one_of(
    st.sampled_from([repr(c) for c in Card.all()]),
    st.sampled_from(["1H", "th", "♥A", "", "JKS", "10", "ZZ"]),
    st.integers(0, 20),
)
card_name_lists = st.lists(card_names, max_size=12)
good_card_lists = st.lists(st.sampled_from([repr(c) for c in Card.all()]), max_size=12)
meld_lists = st.lists(good_card_lists, max_size=4)


@st.composite
def oracle_requests(draw: st.DrawFn) -> dict[str, Any]:
    """Requests for every op, mostly well formed, sometimes not."""
    op = draw(
        st.sampled_from(
            [
                "hello",
                "info",
                "meld",
                "extend",
                "initial_minimum",
                "initial_meld",
                "pickup",
                "take_top",
                "go_out",
                "score",
                "game_over",
                "card_points",
                "nope",
            ]
        )
    )
    cards = card_name_lists if draw(st.integers(0, 9)) == 0 else good_card_lists
    ints = st.integers(-100, 20_000)
    fields: dict[str, st.SearchStrategy[Any]] = {
        "info": st.fixed_dictionaries({}, optional={"players": st.integers(0, 9)}),
        "meld": st.fixed_dictionaries({"cards": cards}, optional={"going_out": st.booleans()}),
        "extend": st.fixed_dictionaries(
            {"meld": cards, "add": cards}, optional={"going_out": st.booleans()}
        ),
        "initial_minimum": st.fixed_dictionaries({"team_score": ints}),
        "initial_meld": st.fixed_dictionaries({"team_score": ints, "melds": meld_lists}),
        "pickup": st.fixed_dictionaries(
            {"pile": cards, "hand": cards},
            optional={
                "team_melds": meld_lists,
                "team_score": ints,
                "with": cards,
                "onto": st.integers(-1, 4),
                "also": meld_lists,
            },
        ),
        "take_top": st.fixed_dictionaries(
            {"pile": cards, "team_melds": meld_lists, "onto": st.integers(-1, 4)}
        ),
        "go_out": st.fixed_dictionaries({"team_melds": meld_lists}),
        "score": st.fixed_dictionaries(
            {
                "teams": st.lists(
                    st.fixed_dictionaries(
                        {"melds": meld_lists},
                        optional={
                            "red_threes": st.integers(-1, 7),
                            "hands": meld_lists,
                            "went_out": st.booleans(),
                            "concealed": st.booleans(),
                        },
                    ),
                    max_size=4,
                )
            }
        ),
        "game_over": st.fixed_dictionaries(
            {"scores": st.lists(ints, max_size=4)}, optional={"hands_played": st.integers(-1, 80)}
        ),
        "card_points": st.fixed_dictionaries({"cards": cards}, optional={"in_hand": st.booleans()}),
    }
    body = draw(fields.get(op, st.just({})))
    request = {
        "op": op,
        "id": draw(st.integers(0, 10**6)),
        "ruleset": draw(st.sampled_from([*SHIPPED_IDS, "bolivia-da-100", "nope"])),
        **body,
    }
    if draw(st.integers(0, 19)) == 0:
        request[draw(st.sampled_from(["x", "cards", "ruleset", "op"]))] = draw(json_values)
    return request


# --------------------------------------------------------------------------- melds and positions

WILD_CARDS = [Card.parse("JK"), *(Card.parse("2" + suit) for suit in SUITS)]
NATURAL_RANKS = [r for r in RANKS if r not in ("2", "3")]


@st.composite
def meld_cards(draw: st.DrawFn) -> list[Card]:
    """Cards shaped like a meld -- a group, a run, wild cards, black threes -- or near one."""
    kind = draw(st.sampled_from(["group", "group", "sequence", "wild", "threes", "any"]))
    wilds = draw(st.lists(st.sampled_from(WILD_CARDS), max_size=4))
    if kind == "group":
        rank = draw(st.sampled_from(NATURAL_RANKS))
        suits = draw(st.lists(st.sampled_from(SUITS), min_size=1, max_size=9))
        cards = [Card(rank, suit) for suit in suits] + wilds
    elif kind == "sequence":
        suit = draw(st.sampled_from(SUITS))
        start = draw(st.integers(0, len(NATURAL_RANKS) - 1))
        length = draw(st.integers(1, 9))
        cards = [Card(rank, suit) for rank in NATURAL_RANKS[start : start + length]]
        cards += wilds[: draw(st.integers(0, 1))]
    elif kind == "wild":
        cards = draw(st.lists(st.sampled_from(WILD_CARDS), min_size=1, max_size=9))
    elif kind == "threes":
        cards = [Card("3", draw(st.sampled_from("CS"))) for _ in range(draw(st.integers(1, 6)))]
        cards += wilds[: draw(st.integers(0, 1))]
    else:
        cards = draw(st.lists(cards_strategy, min_size=1, max_size=8))
    return draw(st.permutations(cards))


cards_strategy = cards
shipped = st.sampled_from(SHIPPED_IDS).map(lambda rid: shipped_library().load(rid))
__all__ += ["WILD_CARDS", "meld_cards", "shipped"]


def load_house(house: tuple[str, dict[str, Any]]) -> Ruleset | None:
    """The house ruleset a :func:`house_rulesets` example makes, or None where its values do
    not work together (validation refuses it)."""
    import tempfile

    import yaml

    from bolivia.authoring.house import nest_paths

    base, overrides = house
    data = {
        "id": "house",
        "extends": base,
        **nest_paths(overrides),
        "provenance": {"extends": {"house": "test"}, **{p: {"house": "test"} for p in overrides}},
    }
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "house.yaml"
        path.write_text(yaml.safe_dump(data), encoding="utf-8")
        try:
            return Library().load(path)
        except RulesetError:
            return None


# --------------------------------------------------------------------------- hostile text

# pieces of text that mean something to a Markdown renderer, a browser or a terminal
HOSTILE_PIECES = [
    *("\\", "\\\\", "[", "]", "(", ")", "![", "](", "|", "\\|", "`", "*", "_", "~~", "#", "# "),
    *("- ", "+ ", "1. ", "2) ", "> ", "    ", "\t", "\n", "\n\n", "\r\n", "===", "---", "[TOC]"),
    *("javascript:alert(1)", "JaVaScRiPt:", "data:text/html,x", "vbscript:x", "http://x.org"),
    *("https://x.org/a_b", "www.x.org", "a@b.org", "mailto:a@b.org", "<https://x.org>"),
    *("<script>alert(1)</script>", "<img src=x onerror=alert(1)>", "<a href='javascript:x'>"),
    *("<!--", "-->", "<![CDATA[", "&", "&amp;", "&#106;", "&lt;", "{#id}", '"', "'"),
    *("\x1b]0;owned\x07", "\x1b]8;;http://x.org\x1b\\", "\x1b[31m", "\x9b31m", "\x00", "\x7f"),
    *("\x85", "\u2028", "\u2029", "\u202e", "\u2066", "\ufeff", "\u200b"),
]


def hostile_texts(max_size: int = 200, min_size: int = 0) -> st.SearchStrategy[str]:
    """Text a ruleset's author could write as a name, notes or a reason: any characters,
    mostly pieces that mean something to Markdown, HTML or a terminal."""
    piece = st.one_of(st.sampled_from(HOSTILE_PIECES), st.text(max_size=6))
    return (
        st.lists(piece, min_size=1 if min_size else 0, max_size=8)
        .map(lambda pieces: "".join(pieces)[:max_size])
        .filter(lambda text: len(text) >= min_size)
    )


__all__ += ["HOSTILE_PIECES", "hostile_texts"]
