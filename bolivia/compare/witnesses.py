"""Witnesses: concrete situations in which two rulesets rule differently.

For each rule area there is a systematic enumeration of small situations, smallest first (the
fewest cards, then the plainest), each written as an oracle request. Every request is asked of
the built-in oracle under every ruleset compared; the first request on which two rulesets give
different answers is the witness of their difference in that area, already as small as the
enumeration goes. Where the enumeration finds nothing although the rule values of the area
differ, a seeded random search over requests of the area looks further, and shrinks what it
finds.

A witness is data: the area, the op, the request (without ``ruleset``), and each ruleset's
result -- exactly what ``bolivia oracle`` answers, so every witness can be re-asked.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import json
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from bolivia.cards import Card
from bolivia.compare.differences import differing_leaves, with_value
from bolivia.rules.ruleset import Ruleset
from bolivia.verify.oracle import RESULT_FIELDS, TURN_RULES, Oracle

__all__ = [
    "AREA_OPS",
    "Finding",
    "Witness",
    "area_rules",
    "compared_keys",
    "find_witnesses",
    "requests_for",
]

# the areas behaviour is compared in, and the ops that show each
AREA_OPS: dict[str, tuple[str, ...]] = {
    "melds": ("meld",),
    "extending": ("extend",),
    "initial meld": ("initial_minimum", "initial_meld"),
    "pickup": ("pickup",),
    "taking the top card": ("take_top",),
    "going out": ("go_out",),
    "card points": ("card_points",),
    "scoring": ("score",),
    "game end": ("game_over",),
    "turn rules": ("info",),
}
# the rules (key-path prefixes) each behaviour area reads; a difference in a rule is looked for
# in every area that reads it
_MELD_RULES = (
    "melds.group.min_size",
    "melds.group.min_natural",
    "melds.group.max_wild",
    "melds.group.ratio",
    "melds.group.max_size",
    "melds.sequence",
    "melds.wild",
    "melds.black_threes",
    "canastas.natural.size",
    "canastas.mixed.size",
    "canastas.escalera.size",
    "canastas.bolivia.size",
    "pack.wild_ranks",
)
_AREA_RULES: dict[str, tuple[str, ...]] = {
    "melds": _MELD_RULES,
    "extending": (*_MELD_RULES, "melds.group.wild_onto_canasta"),
    "initial meld": ("initial_meld", "scoring.card_points"),
    "pickup": (
        "pile.frozen_when",
        "pile.take_frozen",
        "pile.take_unfrozen",
        "pile.onto_kinds",
        "pile.onto_canasta",
        "pile.blocked_by_top",
        "pile.pair_starts_new_meld",
        "pile.one_card_rule",
        "pile.for_first_meld",
        "melds.group.duplicate_ranks",
        "initial_meld",
    ),
    "taking the top card": ("pile.take_top", "pile.blocked_by_top"),
    "going out": ("going_out.requirement", "going_out.requirement_by_players"),
    "card points": ("scoring", "red_threes.value"),
    "scoring": (
        "scoring",
        "canastas.natural.bonus",
        "canastas.mixed.bonus",
        "canastas.escalera.bonus",
        "canastas.bolivia.bonus",
        "canastas.special",
        "going_out.bonus",
        "going_out.concealed_bonus",
        "red_threes.value",
        "red_threes.all_value",
        "red_threes.value_by_count",
        "red_threes.plus_when",
    ),
    "game end": ("game",),
    "turn rules": (
        "pack.decks",
        "pack.jokers",
        "players",
        "going_out.ask_partner",
        "going_out.keep_cards",
        "going_out.discard_required",
        "pile.take_top.allowed",
        "stock.exhausted",
        "stock.going_out_bonus_when_exhausted",
        "game.target",
    ),
}


def area_rules(area: str, paths: Sequence[str]) -> list[str]:
    """Of these key paths, the rules a behaviour area reads."""
    prefixes = _AREA_RULES[area]
    return [p for p in paths if any(p == x or p.startswith(x + ".") for x in prefixes)]


# what a behaviour difference is: the result keys compared (reasons are wording)
_KEYS: dict[str, tuple[str, ...]] = {
    "meld": ("legal", "kind", "canasta"),
    "extend": ("legal", "kind", "canasta"),
    "initial_minimum": ("minimum", "canasta"),
    "initial_meld": ("legal", "points", "minimum"),
    "pickup": ("legal",),
    "take_top": ("legal",),
    "go_out": ("allowed",),
    "score": ("teams",),
    "game_over": ("over", "winner", "draw"),
    "card_points": ("points",),
    "act": ("legal", "ended_by"),  # a profile's positions (no area of the comparison asks it)
    "info": (
        "players",
        "partnerships",
        "decks",
        "jokers",
        "cards",
        "hand_size",
        "draw",
        "target",
        *TURN_RULES,
    ),
}


def compared_keys(op: str) -> tuple[str, ...]:
    return _KEYS[op]


@dataclass(frozen=True)
class Witness:
    """A request on which some of the compared rulesets answer differently."""

    area: str
    op: str
    input: dict[str, Any]
    results: dict[str, dict[str, Any]]  # ruleset id -> the oracle's response result or error

    @property
    def key(self) -> str:
        return json.dumps({"op": self.op, **self.input}, sort_keys=True)

    def verdict(self, ruleset: str) -> Any:
        """What is compared of one ruleset's answer."""
        return _verdict(self.op, self.results[ruleset])

    def separates(self, a: str, b: str) -> bool:
        return bool(self.verdict(a) != self.verdict(b))

    def as_json(self) -> dict[str, Any]:
        return {"area": self.area, "op": self.op, "input": self.input, "results": self.results}


def _verdict(op: str, answer: dict[str, Any]) -> Any:
    if "error" in answer:
        return ("error", answer["error"]["code"])
    return tuple(json.dumps(answer.get(key), sort_keys=True) for key in _KEYS[op])


# --------------------------------------------------------------------------- enumeration


_SUITS = "HSDC"
_NATURAL = ["8", "K", "A", "5"]  # ranks used for groups, plain to wild-worth


def _group(rank: str, naturals: int, jokers: int = 0, twos: int = 0) -> list[str]:
    cards = [f"{rank}{_SUITS[i % 4]}" for i in range(naturals)]
    return cards + ["JK"] * jokers + [f"2{_SUITS[i % 4]}" for i in range(twos)]


def _run(start: str, length: int, suit: str = "H") -> list[str]:
    ranks = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
    i = ranks.index(start)
    return [f"{rank}{suit}" for rank in ranks[i : i + length]]


def _meld_requests() -> Iterator[dict[str, Any]]:
    for size in range(1, 10):
        for naturals in range(size, -1, -1):
            wilds = size - naturals
            for jokers in range(wilds + 1):
                if naturals:
                    yield {"cards": _group("8", naturals, jokers, wilds - jokers)}
                elif jokers <= 6:
                    yield {"cards": _group("8", 0, jokers, wilds - jokers)}
        yield {"cards": _run("4", size)}
        yield {"cards": _run("3", size)}
        yield {"cards": _run("J", min(size, 4))}
        yield {"cards": ["3C", "3S"] * (size // 2) + ["3C"] * (size % 2), "going_out": True}
        yield {"cards": ["3C", "3S"] * (size // 2) + ["3C"] * (size % 2)}
        if size >= 2:
            yield {"cards": [*_run("5", size - 1), "JK"]}
    yield {"cards": ["3H", "3D", "3H"]}
    # runs beyond the 4-to-ace span (refused under every span from 4 to A, so they change no
    # witness found between such rulesets): a black three in its place, an ace below the two
    # (the two's place taken by a two, wild where twos are), an ace at each end of a run
    for size in range(3, 8):
        yield {"cards": _run("3", size, "S")}
        yield {"cards": ["AS", *_run("2", size - 1, "S")]}
    yield {"cards": ["AS", *_run("2", 12, "S"), "AS"]}


def _extend_requests() -> Iterator[dict[str, Any]]:
    for size in range(3, 9):
        for wilds in range(0, 3):
            base = _group("8", size - wilds, 0, wilds)
            yield {"meld": base, "add": ["8D"]}
            yield {"meld": base, "add": ["JK"]}
            yield {"meld": base, "add": ["2C"]}
        yield {"meld": _run("4", size), "add": [_run("4", size + 1)[-1]]}
        if size >= 7:  # past an escalera's size: in going out only, where a ruleset allows
            yield {"meld": _run("4", size), "add": [_run("4", size + 1)[-1]], "going_out": True}
        yield {"meld": _group("8", 0, 0, size), "add": ["JK"]}
        yield {"meld": ["3C", "3S", "3C"], "add": ["3S"], "going_out": True}


def _initial_requests() -> Iterator[dict[str, Any]]:
    for score in (-10, 0, 1495, 1500, 2995, 3000, 4995, 5000, 6995, 7000, 9995, 10000):
        yield {"op": "initial_minimum", "team_score": score}
    melds = [
        [["KH", "KS", "KD"]],  # 30
        [["AH", "AS", "AD"]],  # 60
        [["KH", "KS", "KD", "JK"]],  # 80
        [["AH", "AS", "AD", "JK"]],  # 110
        [["AH", "AS", "AD", "JK", "2C"]],  # 130
        [["4H", "5H", "6H", "7H"], ["KH", "KS", "KD"]],  # sequence + group
        [["JK", "JK", "2C"]],  # a wild meld
        [["JK", "JK", "2C"], ["AH", "AS", "AD"]],
        [["KH", "KS", "KD", "KC", "KH", "KS", "KD"]],  # a natural canasta, 70
    ]
    for score in (0, 3000, 7000):
        for meld in melds:
            yield {"op": "initial_meld", "team_score": score, "melds": meld}


def _pickup_requests() -> Iterator[dict[str, Any]]:
    tops = ["8D", "JK", "3C", "3H"]
    unders = [[], ["5C"], ["2C"], ["3S"], ["3D"]]
    hands = [
        ["8H", "8S", "KC"],
        ["8H", "JK", "KC"],
        ["8H", "KC", "QD"],
        ["8H", "8S", "JK", "KC"],
        ["8H", "8S", "JK", "2C", "KC"],
    ]
    team_melds: list[list[list[str]]] = [
        [],
        [["9H", "9S", "9C"]],
        [["8C", "8C", "8S"]],
        [["5D", "6D", "7D"]],
    ]
    for top, under, hand, melds in itertools.product(tops, unders, hands, team_melds):
        request: dict[str, Any] = {
            "pile": [*under, top],
            "hand": hand,
            "team_melds": melds,
            "team_score": 0,
        }
        yield request
        if melds:
            yield {**request, "onto": 0}
    yield {"pile": ["8D"], "hand": ["8H"], "team_melds": [["8C", "8S", "8H"]], "onto": 0}
    for score in (0, 1500, 3000, 7000):
        yield {"pile": ["5C", "AD"], "hand": ["AH", "AS", "JK", "KC"], "team_score": score}


def _take_top_requests() -> Iterator[dict[str, Any]]:
    for size in (3, 6, 7):
        run = _run("4", size)
        yield {"pile": ["5C", _run("4", size + 1)[-1]], "team_melds": [run], "onto": 0}
        yield {"pile": ["5C", "3H"], "team_melds": [_run("4", size)], "onto": 0}
    yield {"pile": ["5C", "8D"], "team_melds": [["8H", "8S", "8C"]], "onto": 0}


_CANASTAS = {
    "natural": ["KH", "KS", "KD", "KC", "KH", "KS", "KD"],
    "mixed": ["QH", "QS", "QD", "QC", "QH", "JK", "2C"],
    "escalera": _run("4", 7, "S"),
    "bolivia": ["JK", "JK", "JK", "2D", "2D", "2H", "2H"],
    "escalera2": _run("4", 7, "C"),
}


def _go_out_requests() -> Iterator[dict[str, Any]]:
    names = list(_CANASTAS)
    for count in range(0, 3):
        for combo in itertools.combinations(names, count):
            yield {"team_melds": [_CANASTAS[name] for name in combo]}


def _card_points_requests() -> Iterator[dict[str, Any]]:
    for text in ("JK", "2C", "AS", "KS", "8S", "7S", "4S", "3C", "3H"):
        yield {"cards": [text]}
        yield {"cards": [text], "in_hand": True}


def _score_requests() -> Iterator[dict[str, Any]]:
    other = {"melds": [["9H", "9S", "9D"]]}
    layouts = [
        [],
        [_CANASTAS["natural"]],
        [_CANASTAS["natural"], _CANASTAS["mixed"]],
        [_CANASTAS["escalera"], _CANASTAS["mixed"]],
        [_CANASTAS["escalera"]],
        [_CANASTAS["bolivia"], _CANASTAS["escalera"]],
    ]
    layouts.append([_run("4", 4), _group("9", 6)])  # a short sequence, an unfinished group
    for melds in layouts:
        for reds in (0, 1, 4, 6, 5):  # six: all of a three-deck pack's; five: by count
            yield {"teams": [{"melds": melds, "red_threes": reds}, other]}
        yield {"teams": [{"melds": melds, "went_out": True}, other]}
        yield {"teams": [{"melds": melds, "concealed": True}, other]}
    yield {"teams": [{"melds": [], "hands": [["3C"]]}, other]}
    yield {"teams": [{"melds": [], "hands": [["JK", "AS"]]}, other]}
    for canasta in _SPECIAL_CANASTAS:  # last: the witnesses above stay as they were
        yield {"teams": [{"melds": [canasta]}, other]}


# canastas of the compositions special canastas pay for (canastas.special): of aces, natural
# and mixed; of twos only, of four jokers and three twos, of seven jokers; sequences with a
# wild card, and long ones
_SPECIAL_CANASTAS = (
    _group("A", 7),
    _group("A", 5, 1, 1),
    _group("8", 5, 1, 1),
    _group("8", 0, 0, 7),
    _group("8", 0, 4, 3),
    _group("8", 0, 7, 0),
    [*_run("4", 6, "S"), "JK"],
    [*_run("4", 6, "S"), "2C"],
    _run("4", 11, "S"),
    [*_run("4", 11, "S"), "2C"],
)


def _info_requests() -> Iterator[dict[str, Any]]:
    yield {}
    for players in (2, 3, 4, 5, 6):
        yield {"players": players}


def _game_over_requests() -> Iterator[dict[str, Any]]:
    for target in (2500, 5000, 7500, 10000, 15000):
        yield {"scores": [target, target - 100]}
        yield {"scores": [target - 5, 0]}
        yield {"scores": [target, target]}
    yield {"scores": [100, 50], "hands_played": 60}
    yield {"scores": [100, 100], "hands_played": 60}


_ENUMERATIONS: dict[str, Callable[[], Iterator[dict[str, Any]]]] = {
    "meld": _meld_requests,
    "extend": _extend_requests,
    "initial meld": _initial_requests,
    "pickup": _pickup_requests,
    "take_top": _take_top_requests,
    "go_out": _go_out_requests,
    "card_points": _card_points_requests,
    "score": _score_requests,
    "game_over": _game_over_requests,
    "info": _info_requests,
}


def requests_for(area: str) -> Iterator[tuple[str, dict[str, Any]]]:
    """(op, input) for every situation the enumeration of an area holds, smallest first."""
    ops = AREA_OPS[area]
    if area == "initial meld":
        for request in _initial_requests():
            op = request.pop("op")
            yield op, request
        return
    (op,) = ops
    for request in _ENUMERATIONS[op]():
        yield op, request


# --------------------------------------------------------------------------- searching


def _cards_named(value: Any) -> int:
    """How many cards a request names (the smallest witness names the fewest)."""
    if isinstance(value, dict):
        return sum(_cards_named(v) for v in value.values())
    if isinstance(value, list):
        return sum(_cards_named(v) for v in value)
    return 1 if isinstance(value, str) else 0


_KEPT: dict[str, frozenset[str]] = {}  # by op: the fields of an answer the search keeps


def _ask_all(
    oracle: Oracle, rulesets: Sequence[Ruleset], op: str, request: dict[str, Any]
) -> dict[str, dict[str, Any]]:
    results: dict[str, dict[str, Any]] = {}
    keep = _KEPT.get(op)
    if keep is None:
        keep = _KEPT[op] = RESULT_FIELDS[op] | set(_KEYS[op]) | {"code", "rule"}
    for ruleset in rulesets:
        answer = oracle.handle({"op": op, "ruleset": ruleset.id, **request})
        if answer["ok"]:
            results[ruleset.id] = {k: v for k, v in answer["result"].items() if k in keep}
        else:
            results[ruleset.id] = {"error": answer["error"]}
    return results


def _both_answer(op: str, results: dict[str, dict[str, Any]], a: str, b: str) -> bool:
    """Whether both rulesets answered the question. For ``info``, refusing a number of players
    is an answer too: the rulesets allow different numbers of players."""
    return all(
        "error" not in results[r] or (op == "info" and results[r]["error"]["code"] == "bad-request")
        for r in (a, b)
    )


_CARDS = tuple(repr(c) for c in Card.all() if not c.is_red_three)
RANDOM_TRIES = 150  # random situations tried per differing rule the enumeration leaves open


def _hand(rng: random.Random, low: int = 1, high: int = 8) -> list[str]:
    """A random hand of ``low`` to ``high`` cards, no red three."""
    return [rng.choice(_CARDS) for _ in range(rng.randint(low, high))]


def _melds(rng: random.Random, low: int = 0) -> list[list[str]]:
    """``low`` to three random melds."""
    return [_hand(rng) for _ in range(rng.randint(low, 3))]


def _random_info(rng: random.Random) -> dict[str, Any]:
    return {"players": rng.randint(2, 6)} if rng.random() < 0.5 else {}


# an op -> a random situation for it (the keys drawn in their order: the draws stay the same)
_RANDOM: dict[str, Callable[[random.Random], dict[str, Any]]] = {
    "meld": lambda rng: {"cards": _hand(rng), "going_out": rng.random() < 0.5},
    "extend": lambda rng: {"meld": _hand(rng), "add": _hand(rng, 1, 3)},
    "initial_meld": lambda rng: {
        "team_score": rng.randint(-100, 12000),
        "melds": [_hand(rng) for _ in range(rng.randint(1, 2))],
    },
    "initial_minimum": lambda rng: {"team_score": rng.randint(-100, 20000)},
    "pickup": lambda rng: {
        "pile": _hand(rng),
        "hand": _hand(rng),
        "team_melds": _melds(rng),
        "team_score": rng.randint(0, 9000),
    },
    "take_top": lambda rng: {"pile": _hand(rng), "team_melds": _melds(rng, 1), "onto": 0},
    "go_out": lambda rng: {"team_melds": _melds(rng)},
    "card_points": lambda rng: {"cards": _hand(rng), "in_hand": rng.random() < 0.5},
    "score": lambda rng: {
        "teams": [{"melds": _melds(rng), "red_threes": rng.randint(0, 3)} for _ in range(2)]
    },
    "game_over": lambda rng: {
        "scores": [rng.randint(0, 20000), rng.randint(0, 20000)],
        "hands_played": rng.randint(1, 80),
    },
}


def _random_request(rng: random.Random, op: str) -> dict[str, Any]:
    """A random situation for ``op``: hands of one to eight cards (no red three), up to three
    melds, scores in the ranges rulesets use; any other op is read as info."""
    return _RANDOM.get(op, _random_info)(rng)


def _smaller(value: Any) -> Iterator[Any]:
    """Each value one step smaller than ``value``: one list element dropped, at any depth."""
    if isinstance(value, list):
        for index in range(len(value)):
            yield value[:index] + value[index + 1 :]
        for index, item in enumerate(value):
            for less in _smaller(item):
                yield [*value[:index], less, *value[index + 1 :]]
    elif isinstance(value, dict):
        for key, item in value.items():
            for less in _smaller(item):
                yield {**value, key: less}


def _shrink(
    item: tuple[str, dict[str, Any]], keeps: Callable[[tuple[str, dict[str, Any]]], bool]
) -> tuple[str, dict[str, Any]]:
    """The item made as small as dropping cards and melds goes while ``keeps`` holds: the first
    smaller one that keeps it is taken, until none does (deterministic)."""
    op, request = item
    shrunk = True
    while shrunk:
        shrunk = False
        for less in _smaller(request):
            if keeps((op, less)):
                request, shrunk = less, True
                break
    return op, request


def _shows(
    op: str,
    results: dict[str, dict[str, Any]],
    verdicts: dict[str, Any],
    a: str,
    b: str,
    variant: Callable[[], Any],
) -> bool:
    """Whether ``a`` and ``b`` rule differently on a situation (``results``: their answers,
    ``verdicts`` their verdicts), and so do ``a`` and the variant (whose answer ``variant``
    gives, asked only then)."""
    if not _both_answer(op, results, a, b):
        return False
    mine = verdicts[a]
    if mine == verdicts[b]:
        return False
    again = variant()
    return "error" not in again and mine != _verdict(op, again)


def _verdicts(op: str, results: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """Each ruleset's verdict, by id (worked out once: comparing them is most of the work)."""
    return {rid: _verdict(op, answer) for rid, answer in results.items()}


def _separates(
    oracle: Oracle, a: Ruleset, b: Ruleset, variant: Ruleset
) -> Callable[[tuple[str, dict[str, Any]]], bool]:
    """Whether a situation shows the rule: ``a`` and ``b`` rule differently on it, and so do
    ``a`` and its variant with the one rule changed."""

    def separates(item: tuple[str, dict[str, Any]]) -> bool:
        op, request = item
        results = _ask_all(oracle, (a, b), op, request)
        return _shows(
            op,
            results,
            _verdicts(op, results),
            a.id,
            b.id,
            functools.partial(_answer, oracle, variant, op, request),
        )

    return separates


class Situations:
    """The random situations the search tries in one area: :data:`RANDOM_TRIES` of them, drawn
    once with :mod:`random` from a seed of the area's name alone, each ruleset's answer to each
    kept once asked. Every pair of rulesets and every rule of the area tries the same ones, so
    no ruleset is asked a situation twice; and Hypothesis is not used, as its draws also depend
    on the modules loaded from the current folder, and it keeps a cache there: the same inputs
    find the same witness wherever the command runs."""

    def __init__(self, oracle: Oracle, area: str) -> None:
        self.oracle = oracle
        self.area = area
        self._items: list[tuple[str, dict[str, Any]]] | None = None
        self._answers: dict[tuple[int, str], tuple[dict[str, Any], Any]] = {}

    @property
    def items(self) -> list[tuple[str, dict[str, Any]]]:
        """The situations, (op, request) each, drawn when first read."""
        if self._items is None:
            area = self.area
            rng = random.Random(int.from_bytes(hashlib.sha256(area.encode()).digest()[:8]))
            ops = AREA_OPS[area]
            self._items = []
            for _ in range(RANDOM_TRIES):
                op = ops[rng.randrange(len(ops))]
                self._items.append((op, _random_request(rng, op)))
        return self._items

    def answer(self, index: int, ruleset: Ruleset) -> tuple[dict[str, Any], Any]:
        """The ruleset's answer to the situation at ``index``, and its verdict."""
        key = (index, ruleset.id)
        found = self._answers.get(key)
        if found is None:
            op, request = self.items[index]
            answer = _answer(self.oracle, ruleset, op, request)
            found = self._answers[key] = (answer, _verdict(op, answer))
        return found


def _random_witness(
    oracle: Oracle,
    area: str,
    a: Ruleset,
    b: Ruleset,
    variant: Ruleset,
    situations: Situations | None = None,
) -> tuple[str, dict[str, Any]] | None:
    """The first of the area's random situations that shows the rule (:func:`_separates`),
    shrunk; ``situations``: the area's, where the caller keeps them for its other rules."""
    tried = situations if situations is not None else Situations(oracle, area)
    separates = _separates(oracle, a, b, variant)
    for index, (op, request) in enumerate(tried.items):
        (mine, va), (theirs, vb) = tried.answer(index, a), tried.answer(index, b)
        # the variant's answer is asked afresh: variants of one rule share an id
        if _shows(
            op,
            {a.id: mine, b.id: theirs},
            {a.id: va, b.id: vb},
            a.id,
            b.id,
            functools.partial(_answer, oracle, variant, op, request),
        ):
            return _shrink((op, request), separates)
    return None


def _answer(oracle: Oracle, ruleset: Ruleset, op: str, request: dict[str, Any]) -> dict[str, Any]:
    """One ruleset's answer, as :func:`_ask_all` keeps it."""
    return _ask_all(oracle, (ruleset,), op, request)[ruleset.id]


@dataclass(frozen=True)
class Finding:
    """What the search found for one pair of rulesets, one area and one differing rule."""

    area: str
    pair: tuple[str, str]
    rule: str | None  # the key path that differs (None: the area's rules all agree)
    witness: str | None  # the key of the witness, when one was found
    how: str  # "enumeration", "random search", or "" when nothing was found


# op, request, answers by id, verdicts by id
Asked = list[tuple[str, dict[str, Any], dict[str, Any], dict[str, Any]]]


def _asked(oracle: Oracle, rulesets: Sequence[Ruleset], area: str) -> Asked:
    """Every request of the area with each ruleset's answer and verdict, the fewest cards
    first."""
    out: Asked = []
    for op, request in requests_for(area):
        results = _ask_all(oracle, rulesets, op, request)
        out.append((op, request, results, _verdicts(op, results)))
    return sorted(out, key=lambda item: _cards_named(item[1]))


def _separating(asked: Asked, a: Ruleset, b: Ruleset) -> Asked:
    """The requests both rulesets answer, with different verdicts."""
    return [
        item
        for item in asked
        if _both_answer(item[0], item[2], a.id, b.id) and item[3][a.id] != item[3][b.id]
    ]


def _rule_witness(
    oracle: Oracle,
    area: str,
    pair: tuple[Ruleset, Ruleset],
    rule: str,
    separating: Asked,
    situations: Situations | None,
) -> tuple[tuple[str, dict[str, Any]] | None, str]:
    """A situation the rule alone decides, and how it was found.

    The first ruleset with only this rule changed must answer it differently too.
    """
    a, b = pair
    variant = with_value(a, rule, b)
    oracle.register(variant)
    for op, request, _, verdicts in separating:
        again = _ask_all(oracle, (variant,), op, request)[variant.id]
        if "error" not in again and _verdict(op, again) != verdicts[a.id]:
            return (op, request), "enumeration"
    if situations is None:
        return None, ""
    found = _random_witness(oracle, area, a, b, variant, situations)
    return found, "random search" if found is not None else ""


def _kept(witnesses: dict[str, Witness], witness: Witness) -> str:
    """Keep a witness once, by its key; the key."""
    witnesses.setdefault(witness.key, witness)
    return witness.key


def _pair_findings(
    oracle: Oracle,
    rulesets: Sequence[Ruleset],
    area: str,
    pair: tuple[Ruleset, Ruleset],
    asked: Asked,
    situations: Situations | None,
    witnesses: dict[str, Witness],
) -> list[Finding]:
    """What the search finds for one pair in one area: a finding for each differing rule."""
    a, b = pair
    ids = (a.id, b.id)
    rules = area_rules(area, differing_leaves(a, b))
    if not rules:
        return [Finding(area, ids, None, None, "")]
    separating = _separating(asked, a, b)
    out = []
    for rule in rules:
        found, how = _rule_witness(oracle, area, pair, rule, separating, situations)
        key = None
        if found is not None:
            op, request = found
            answers = _ask_all(oracle, rulesets, op, request)
            key = _kept(witnesses, Witness(area, op, request, answers))
        out.append(Finding(area, ids, rule, key, how))
    if separating and all(f.witness is None for f in out):
        # no rule alone makes the difference, several do together (taking the top card
        # needs both the rule and the meld kinds it may extend)
        op, request, results, _ = separating[0]
        key = _kept(witnesses, Witness(area, op, request, results))
        out.append(Finding(area, ids, " + ".join(rules), key, "enumeration, rules together"))
    return out


def find_witnesses(
    rulesets: Sequence[Ruleset],
    oracle: Oracle | None = None,
    areas: Sequence[str] = tuple(AREA_OPS),
    search: bool = True,
) -> tuple[list[Witness], list[Finding]]:
    """For every pair of rulesets, every area and every differing rule of the area: the
    smallest situation in which the two rule differently *because of that rule*.

    The variant of the first ruleset with only that rule changed answers differently too.
    """
    oracle = oracle if oracle is not None else Oracle()
    witnesses: dict[str, Witness] = {}
    findings: list[Finding] = []
    pairs = list(itertools.combinations(rulesets, 2))
    for area in areas:
        asked = _asked(oracle, rulesets, area)
        situations = Situations(oracle, area) if search else None  # the random search's
        for pair in pairs:
            findings += _pair_findings(oracle, rulesets, area, pair, asked, situations, witnesses)
    return list(witnesses.values()), findings
