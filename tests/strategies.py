"""Shared Hypothesis strategies: cards, their spellings, packs, ruleset fragments.

Tests import these and never define their own versions of them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml
from hypothesis import strategies as st

from bolivia.cards import RANKS, SUITS, Card, Pack
from bolivia.errors import RulesetError
from bolivia.rules.library import Library, shipped_library
from bolivia.rules.ruleset import Ruleset
from bolivia.rules.tree import leaf_paths

__all__ = [
    "card_texts",
    "cards",
    "difference_families",
    "hands",
    "packs",
    "rank_spellings",
    "scalar_values",
    "unit_differences",
]

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


# --------------------------------------------------------------------------- hostile ruleset files


class YamlNumber:
    """A whole number as YAML text, however long (PyYAML cannot dump one of 4,300 digits)."""

    def __init__(self, text: str) -> None:
        self.text = text


class _HostileDumper(yaml.SafeDumper):
    pass


_HostileDumper.add_representer(
    YamlNumber, lambda dumper, n: dumper.represent_scalar("tag:yaml.org,2002:int", n.text)
)

huge_numbers: st.SearchStrategy[Any] = st.one_of(
    st.integers(),
    st.integers(-(10**60), 10**60),
    st.sampled_from([10**7 + 1, 441, 2**31, 2**63, -(2**63) - 1, 10**12, 10**39, 10**41]),
    st.integers(4_290, 4_400).map(lambda n: YamlNumber("9" * n)),
    st.integers(38, 45).map(lambda n: YamlNumber("1" + "0" * n)),
    st.sampled_from(
        [
            YamlNumber("0x" + "f" * 100),
            YamlNumber("0b" + "1" * 200),
            YamlNumber(":".join(["59"] * 40)),
            YamlNumber("1_000_000_000_000"),
            YamlNumber("-0"),
        ]
    ),
)
number_spellings = st.sampled_from(
    # 04, Arabic-Indic four, full-width four, superscript four, Roman numeral four, ...
    [
        "04",
        "\u0664",
        "\uff14",
        "\u2074",
        "\u2163",
        "+4",
        "0x4",
        "4_0",
        "1e3",
        "-0",
        "00",
        "4.0",
        " 4",
    ]
)
odd_texts: st.SearchStrategy[Any] = st.one_of(
    st.text(max_size=20),
    number_spellings,
    st.sampled_from(["a\x00b", "x" * 300, "é" * 200, "\u202e", "null", "~", "yes", "<<", "&a"]),
)
odd_keys: st.SearchStrategy[Any] = st.one_of(
    odd_texts,
    st.integers(-5, 20),
    huge_numbers,
    st.booleans(),
    st.none(),
    st.floats(),
)


def _nest(depth: int, mapping: bool) -> Any:
    value: Any = 0
    for _ in range(depth):
        value = {"a": value} if mapping else [value]
    return value


deep_values = st.builds(_nest, st.integers(20, 200) | st.integers(28, 36), st.booleans())
_bounds = [0, 1, 2, 439, 440, 441, 220, 221, 10**6, 10**6 + 1, 10**7, 10**7 + 1, -(10**7), -1]
_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.floats(),
    st.integers(-3, 500),
    st.integers(-3, 500),
    st.sampled_from(_bounds),
    st.sampled_from(_bounds),
    odd_texts,
    huge_numbers,
)
yaml_values: st.SearchStrategy[Any] = st.one_of(
    _scalars,
    st.recursive(
        _scalars,
        lambda children: (
            st.lists(children, max_size=4) | st.dictionaries(odd_keys, children, max_size=4)
        ),
        max_leaves=8,
    ),
    deep_values,
)
odd_extends: st.SearchStrategy[Any] = st.one_of(
    st.sampled_from(
        [
            "a\x00b.yaml",
            "x" * 300 + ".yaml",
            "é" * 130 + ".yaml",
            "a/" * 200 + "x.yaml",
            "../" * 40 + "x.yaml",
            "/etc/passwd",
            ".",
            "..",
            "",
            "./",
            "fuzz.yaml",
            "./fuzz.yaml",
            "bolivia-da",
            "BOLIVIA-DA",
            "bolivia-da ",
            "nope",
            "x.yml",
            "~/x.yaml",
            "C:\\x.yaml",
            "a" * 64,
            "a" * 65,
            "\n",
            "bolivia-da\n",
            "%2e%2e/x.yaml",
        ]
    ),
    odd_texts,
    yaml_values,
)

_META = ("id", "name", "extends", "family", "sources", "notes")
_TABLE_ENTRIES = [
    ("players", "seats", 4),
    ("players", "seats", 4, "hand_size"),
    ("players", "seats", 6, "teams"),
    ("scoring", "card_points", "JK"),
    ("scoring", "card_points", 10),
    ("initial_meld", "bands", 0),
    ("going_out", "requirement", "count"),
    ("going_out", "requirement_by_players", 6),
    ("game", "target_by_players", 4),
    ("red_threes", "plus_when", "count"),
]
key_paths: st.SearchStrategy[tuple[Any, ...]] = st.one_of(
    st.sampled_from([tuple(path.split(".")) for path in leaf_paths()]),
    st.sampled_from([tuple(path.split(".")[:-1]) for path in leaf_paths() if "." in path]),
    st.sampled_from(_TABLE_ENTRIES),
    st.sampled_from([(key,) for key in _META]),
    st.sampled_from([("provenance", path) for path in ("extends", *leaf_paths())]),
    st.lists(odd_keys, min_size=1, max_size=3).map(tuple),
    st.tuples(st.sampled_from([tuple(p.split(".")) for p in leaf_paths()]), odd_keys).map(
        lambda pair: (*pair[0][:-1], pair[1])
    ),
)
raw_snippets = st.sampled_from(
    [
        "\t",
        ":",
        "- ",
        "&a ",
        "*a",
        "*nope",
        "!!python/object/apply:os.system ['true'] ",
        "!!binary aGk= ",
        "<<: {x: 1}\n",
        "\x00",
        "\x07",
        "\ufeff",
        "%YAML 1.1\n",
        "---\n",
        "...\n",
        "{",
        "[",
        "'",
        '"',
        "\\",
        "[" * 1200,
        "x: " + "9" * 5000 + "\n",
        "y: &b [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]\n"
        + "".join(
            f"y{i}: &b{i} [" + ", ".join([f"*b{i - 1}" if i > 1 else "*b"] * 10) + "]\n"
            for i in range(1, 7)
        ),
    ]
)


def _document(base: str) -> dict[str, Any]:
    """A valid ruleset file to mutate: a house ruleset on a shipped one, or one standing alone
    (its provenance is added once the mutations are done)."""
    if base == "standalone":
        data: dict[str, Any] = {"id": "fuzz", "name": "fuzz"}
        data.update(yaml_value(shipped_library().load("canasta").json))
        return data
    return {
        "id": "fuzz",
        "extends": base,
        "going_out": {"bonus": 200},
        "players": {"seats": {4: {"teams": 2, "hand_size": 11, "draw": 2}}},
    }


def _with_provenance(data: dict[str, Any], standalone: bool) -> None:
    """A house (or assumed) entry for every section the file sets, beside any entries the
    mutations wrote, so that the values themselves are what gets checked."""
    entries = data.get("provenance")
    if "provenance" in data and not isinstance(entries, dict):
        return  # a mutation set provenance itself to something else: leave it so
    entry = {"assumed": "fuzz"} if standalone else {"house": "fuzz"}
    written = dict(entries or {})
    data["provenance"] = {
        **({} if standalone else {"extends": entry}),
        **{key: entry for key in data if key in POOL_SECTIONS},
        **written,
    }


POOL_SECTIONS = frozenset(path.split(".")[0] for path in leaf_paths())


def _set(data: Any, path: tuple[Any, ...], value: Any) -> None:
    for key in path[:-1]:
        if not isinstance(data.get(key), dict):
            data[key] = {}
        data = data[key]
    data[path[-1]] = value


def _pop(data: Any, path: tuple[Any, ...]) -> Any:
    for key in path[:-1]:
        data = data.get(key) if isinstance(data, dict) else None
    return data.pop(path[-1], None) if isinstance(data, dict) else None


@st.composite
def hostile_ruleset_texts(draw: st.DrawFn) -> str:
    """A ruleset file mutated: arbitrary YAML values at arbitrary key paths (huge numbers, deep
    nesting, odd keys, shared values that become aliases, odd paths in ``extends``), and now
    and then the text itself broken."""
    base = draw(st.sampled_from(["bolivia-da", "samba", "standalone"]))
    data = _document(base)
    kinds = ["known", "known", "known", "set", "set", "extends", "delete", "rename", "share"]
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(kinds))
        if kind == "known":  # a value some shipped ruleset uses: the file may well load
            leaf = draw(st.sampled_from(sorted(POOL)))
            _set(data, tuple(leaf.split(".")), draw(st.sampled_from(POOL[leaf])))
            continue
        path = draw(key_paths)
        if kind == "set":
            _set(data, path, draw(yaml_values))
        elif kind == "extends":
            data["extends"] = draw(odd_extends)
        elif kind == "delete":
            _pop(data, path)
        elif kind == "rename":
            moved = _pop(data, path)
            _set(data, (*path[:-1], draw(odd_keys)), moved)
        else:  # the same list or mapping at two places: the dumper writes an anchor and an alias
            shared = draw(st.lists(yaml_values, min_size=1, max_size=3))
            _set(data, path, shared)
            _set(data, draw(key_paths), shared)
    _with_provenance(data, base == "standalone")
    text = yaml.dump(data, Dumper=_HostileDumper, allow_unicode=True, sort_keys=False)
    if draw(st.integers(0, 3)) == 0:
        at = draw(st.integers(0, len(text)))
        text = text[:at] + draw(raw_snippets) + text[at:]
    return text


__all__ += ["YamlNumber", "hostile_ruleset_texts", "huge_numbers", "number_spellings"]


# --------------------------------------------------------------------------- hostile wire input

# JSON written as text, so that a test controls what a JSON library would not write: numbers
# of any size and spelling, escapes of half a surrogate pair, nesting deeper than a reader goes
_digits = st.text(alphabet="0123456789", min_size=1, max_size=40) | st.text(
    alphabet="0123456789", min_size=4000, max_size=5000
)
number_tokens = st.one_of(
    st.integers(-(10**20), 10**20).map(str),
    st.builds(
        lambda sign, whole, fraction, exponent: (
            sign + (whole.lstrip("0") or "0") + fraction + exponent
        ),
        st.sampled_from(["", "-"]),
        _digits,
        st.sampled_from(["", ".5", ".0", ".1000000000000000000001", ".50"]),
        st.sampled_from(["", "e400", "E-400", "e+99999", "e0", "e-1"]),
    ),
)
_odd_characters = st.characters() | st.sampled_from("\x00\u2028\x85\ufeff")
odd_texts = st.text(_odd_characters, max_size=12) | st.text(
    _odd_characters | st.characters(categories=["Cs"]), max_size=12
)  # half of them with lone surrogates
string_tokens = st.builds(
    lambda text, ascii_only: json.dumps(text, ensure_ascii=ascii_only), odd_texts, st.booleans()
) | st.sampled_from(['"\\ud800"', '"\\udfff\\ud800"', '"\\ud83d\\ude00"', '"\\u0000"'])
deep_texts = st.integers(0, 1500).map(lambda depth: "[" * depth + "]" * depth) | st.integers(
    0, 1500
).map(lambda depth: '{"a":' * depth + "1" + "}" * depth)
json_texts: st.SearchStrategy[str] = st.recursive(
    number_tokens
    | string_tokens
    | st.sampled_from(["true", "false", "null", "NaN", "Infinity", "-Infinity", "1.", "01"]),
    lambda children: (
        st.lists(children, max_size=4).map(lambda items: "[" + ",".join(items) + "]")
        | st.lists(st.tuples(string_tokens, children), max_size=4).map(
            lambda pairs: "{" + ",".join(f"{key}:{value}" for key, value in pairs) + "}"
        )
    ),
    max_leaves=12,
)
__all__ += ["deep_texts", "hostile_lines", "json_texts", "number_tokens", "odd_texts"]

_CARD_TOKENS = [json.dumps(repr(c)) for c in Card.all()]


def _array(items: list[str]) -> str:
    return "[" + ",".join(items) + "]"


_card_lists = st.lists(st.sampled_from(_CARD_TOKENS), max_size=8).map(_array)
_meld_lists = st.lists(_card_lists, max_size=3).map(_array)
_small = st.integers(-2, 30).map(str)
_bools = st.sampled_from(["true", "false"])
Plain = dict[str, st.SearchStrategy[str]]
# the shapes the protocol reads, by the kind of field (see OPERATIONS) or position field
_PLAIN: Plain = {
    "cards": _card_lists,
    "melds": _meld_lists,
    "int": _small,
    "bool": _bools,
    "ints": st.lists(_small, max_size=3).map(_array),
    "hands": st.lists(_card_lists, min_size=4, max_size=4).map(_array),
    "sides": st.lists(_meld_lists, min_size=2, max_size=2).map(_array),
    "phase": st.sampled_from(['"draw"', '"play"', '"answer"']),
    "asked": st.sampled_from(["null", '"pending"', '"yes"', '"no"']),
    "type": st.sampled_from(
        [json.dumps(kind) for kind in ("draw", "take_pile", "take_top", "stop", "lay")]
        + [json.dumps(kind) for kind in ("extend", "combine", "discard", "go_out", "ask")]
        + ['"answer"']
    ),
    "card": st.sampled_from(_CARD_TOKENS),
    "bools": st.lists(_bools, max_size=4).map(_array),
    "pairs": st.lists(st.tuples(_small, _small).map(_array), max_size=2).map(_array),
    "extends": st.lists(st.tuples(_small, _card_lists).map(_array), max_size=2).map(_array),
}
_POSITION_KINDS = {
    "hands": "hands",
    "players": "int",
    "turn": "int",
    "phase": "phase",
    "melds": "sides",
    "red_threes": "ints",
    "pile": "cards",
    "stock": "int",
    "scores": "ints",
    "melded": "bools",
    "asked": "asked",
    "going_out": "bool",
    "picked_up": "bool",
}
_ACTION_KINDS = {
    "type": "type",
    "with": "cards",
    "onto": "int",
    "also": "melds",
    "melds": "melds",
    "target": "int",
    "cards": "cards",
    "other": "int",
    "card": "card",
    "extends": "extends",
    "discard": "card",
    "combine": "pairs",
    "yes": "bool",
}


def _value(draw: st.DrawFn, kind: str, plain: Plain, depth: int = 0) -> str:
    """A field's value: mostly of the shape the protocol reads, sometimes any JSON (less
    often inside a position or an action, so that most reach the engine)."""
    roll = draw(st.integers(0, 19 if depth or kind in ("op", "ruleset") else 7))
    if roll == 0:
        return draw(json_texts if draw(st.integers(0, 3)) else deep_texts)
    if kind == "teams":
        team = {"melds": "melds", "red_threes": "int", "hands": "melds", "went_out": "bool"}
        teams = [_object(draw, team, plain, depth=1) for _ in range(draw(st.integers(0, 3)))]
        return _array(teams)
    return draw(plain[kind] if kind in plain else _PLAIN[kind])


def _object(
    draw: st.DrawFn, kinds: dict[str, str], plain: Plain, required: Any = (), depth: int = 0
) -> str:
    """An object of these fields (each there or not, the required mostly there), now and then
    one field more of any name."""
    chosen = [name for name in kinds if draw(st.integers(0, 9)) < (9 if name in required else 4)]
    pairs = [(json.dumps(name), _value(draw, kinds[name], plain, depth)) for name in chosen]
    if draw(st.integers(0, 9)) == 0:
        pairs.append((json.dumps(draw(odd_texts)), _value(draw, "int", plain)))
    order = draw(st.permutations(range(len(pairs))))
    return "{" + ",".join(f"{pairs[i][0]}:{pairs[i][1]}" for i in order) + "}"


_NO_RED_THREES = [json.dumps(repr(c)) for c in Card.all() if repr(c) not in ("3H", "3D")]


def _position(draw: st.DrawFn, plain: Plain) -> str:
    """A position of four hands that can be real (cards of one deck, no red three in a hand),
    a phase and a turn, or, a third of the time, an object of position fields of any value."""
    if draw(st.integers(0, 2)) == 0:
        return _object(draw, _POSITION_KINDS, plain, {"hands"}, depth=1)
    cards = draw(st.permutations(_NO_RED_THREES))
    sizes = [draw(st.integers(0, 6)) for _ in range(5)]
    starts = [sum(sizes[:i]) for i in range(6)]
    hands = [_array(cards[starts[i] : starts[i + 1]]) for i in range(4)]
    fields = {
        "hands": _array(hands),
        "pile": _array(cards[starts[4] : starts[5]]),
        "phase": draw(st.sampled_from(['"draw"', '"play"'])),
        "turn": str(draw(st.integers(0, 3))),
    }
    if draw(st.booleans()):
        name = draw(st.sampled_from(sorted(_POSITION_KINDS)))
        fields[name] = _value(draw, _POSITION_KINDS[name], plain)
    return "{" + ",".join(f"{json.dumps(key)}:{value}" for key, value in fields.items()) + "}"


_ACTION_TYPES = {
    "draw": (),
    "take_pile": ("with", "onto", "also"),
    "take_top": ("onto",),
    "stop": (),
    "lay": ("melds",),
    "extend": ("target", "cards"),
    "combine": ("target", "other"),
    "discard": ("card",),
    "go_out": ("melds", "extends", "discard", "combine"),
    "ask": (),
    "answer": ("yes",),
}


def _action(draw: st.DrawFn, plain: Plain) -> str:
    """An action of some type with (mostly) its own fields, or any object of action fields."""
    if draw(st.integers(0, 3)) == 0:
        return _object(draw, _ACTION_KINDS, plain, {"type"}, depth=1)
    kind = draw(st.sampled_from(sorted(_ACTION_TYPES)))
    own = {name: _ACTION_KINDS[name] for name in _ACTION_TYPES[kind]}
    body = _object(draw, own, plain, set(own), depth=1)
    return '{"type":' + json.dumps(kind) + ("," + body[1:] if body != "{}" else "}")


@st.composite
def hostile_lines(draw: st.DrawFn) -> bytes:
    """One request line: mostly a request of the protocol's shape for some op, any of whose
    op, id, ruleset, fields, position and action fields may hold anything JSON can write;
    sometimes any JSON text at all. As bytes: a lone surrogate written raw is not UTF-8."""
    from bolivia.verify.oracle import OPERATIONS

    if draw(st.integers(0, 9)) == 0:
        return draw(json_texts | deep_texts).encode("utf-8", "surrogatepass")
    op = draw(st.sampled_from(sorted(OPERATIONS)))
    spec = OPERATIONS[op]
    kinds = {"op": "op", "ruleset": "ruleset", "id": "id"}  # the id is there 4 times in 10
    kinds |= {name: name if kind == "object" else kind for name, (kind, _) in spec.items()}
    required = {"op", "ruleset", *(name for name, (_, needed) in spec.items() if needed)}
    plain: Plain = {
        "op": st.just(json.dumps(op)),
        "ruleset": st.sampled_from(['"samba"', '"bolivia-da"', '"canasta"', '"bolivia-zh"', '"x"']),
        "id": draw(st.sampled_from([_small, number_tokens, string_tokens, json_texts])),
    }
    plain["position"] = st.just(_position(draw, plain))
    plain["action"] = st.just(_action(draw, plain))
    return _object(draw, kinds, plain, required).encode("utf-8", "surrogatepass")


# --------------------------------------------------------------------------- tampered replays

__all__ += ["tampered_replays"]


def _line_text(pairs: list[tuple[str, str]]) -> str:
    return "{" + ",".join(f"{json.dumps(key)}:{value}" for key, value in pairs) + "}"


def _near(draw: st.DrawFn, value: Any) -> str:
    """A value a tamperer would try in place of ``value``: one off, of another type that
    Python holds equal (``true`` for 1, ``1.0`` for 1), or any JSON at all."""
    choices = [draw(json_texts), "null", "true", "false", "[]", "{}", '""']
    if isinstance(value, int) and not isinstance(value, bool):
        choices += [str(value + 1), str(value - 1), f"{value}.0", str(-value), "9" * 30]
    if isinstance(value, list) and value:
        items = [json.dumps(item) for item in value]
        choices += [_array(items[:-1]), _array(items[::-1]), _array([*items, items[0]])]
    if isinstance(value, str):
        choices += [json.dumps(value + "x"), json.dumps(value.upper()), json.dumps("../" + value)]
    return draw(st.sampled_from(choices))


def _tamper_line(draw: st.DrawFn, record: dict[str, Any]) -> str:
    """A line with one field's value changed, a field dropped, one added, or (for an action
    line) the action replaced by another of any fields."""
    pairs = [(key, json.dumps(value)) for key, value in record.items()]
    how = draw(st.sampled_from(["value", "value", "drop", "add", "action"]))
    at = draw(st.integers(0, len(pairs) - 1))
    key = pairs[at][0]
    if how == "value":
        pairs[at] = (key, _near(draw, record[key]))
    elif how == "drop":
        del pairs[at]
    elif how == "add":
        name = draw(st.sampled_from(["note", "type", key]) | odd_texts)
        pairs.insert(at, (name, draw(st.sampled_from(["1", "null", '"x"']))))
    elif "action" in record:
        pairs = [(k, _action(draw, {}) if k == "action" else v) for k, v in pairs]
    else:
        pairs[at] = (key, draw(deep_texts))
    return _line_text(pairs)


@st.composite
def tampered_replays(draw: st.DrawFn, lines: list[str]) -> bytes:
    """A replay (``lines``, each a JSON object) with one to three tamperings: a field's value,
    a field dropped or added, a line dropped, doubled, moved or cut short, or a line of any
    bytes put in."""
    out: list[bytes] = [line.encode("utf-8") for line in lines]
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(out) - 1))
        how = draw(
            st.sampled_from(["line", "line", "line", "drop", "double", "move", "cut", "raw"])
        )
        if how == "line":
            try:
                record = json.loads(out[at])
            except ValueError:
                continue  # a line tampered with already
            if isinstance(record, dict) and record:
                out[at] = _tamper_line(draw, record).encode("utf-8", "surrogatepass")
        elif how == "drop" and len(out) > 1:
            del out[at]
        elif how == "double":
            out.insert(at, out[at])
        elif how == "move":
            out.insert(draw(st.integers(0, len(out) - 1)), out.pop(at))
        elif how == "cut":
            out[at] = out[at][: draw(st.integers(0, len(out[at])))]
        elif how == "raw":
            out.insert(at, draw(st.binary(max_size=40)).replace(b"\n", b" "))
    return b"".join(line + b"\n" for line in out)


@st.composite
def hostile_actions(draw: st.DrawFn) -> str:
    """An action as JSON text: of some type with (mostly) its own fields, or any object of
    action fields; any value may be any JSON."""
    return _action(draw, {})


__all__ += ["hostile_actions"]


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


# paired measurements: a unit's difference (a small integer, as points differ) and families of
# them, as the statistics of matches and comparisons see them
unit_differences = st.lists(st.integers(-3000, 3000), min_size=2, max_size=60)
difference_families = st.lists(unit_differences, min_size=1, max_size=12)


@st.composite
def played_deals(draw: st.DrawFn) -> list[Any]:
    """Deals as the report's play keeps them (:class:`bolivia.compare.playing.Deal`): points of
    two sides, turns, canastas, some not ended; identical lists stand for identical columns."""
    from bolivia.compare.playing import Deal

    deal = st.builds(
        Deal,
        completed=st.sampled_from([True, True, True, False]),
        conserved=st.just(True),
        points=st.tuples(st.integers(-2000, 12000), st.integers(-2000, 12000)),
        first_team=st.integers(0, 1),
        turns=st.integers(1, 200),
        went_out=st.booleans(),
        canastas=st.tuples(*[st.integers(0, 6)] * 4),
        pile_taken=st.lists(st.integers(1, 30), max_size=4).map(tuple),
        actions=st.just(""),
    )
    return draw(st.lists(deal, min_size=2, max_size=30))


__all__ += ["played_deals"]
