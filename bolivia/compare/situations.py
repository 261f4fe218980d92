"""Witnesses as a player sees them: the situation and each ruling.

The situation is laid out: the table, the hand, the pile, with cards as faces such as
``8♥``. Each ruleset's ruling is given in words, with the parts on which the rulesets differ
marked.

The function :func:`situation` lays out an oracle request. The function :func:`rulings` says
what each answer means, part by part (``allowed``, ``the side scores 1,550``). Each part is
marked when the answers differ on it. This is plain data: the templates only print it.

>>> faces(["8H", "JK", "10S"])
'8♥ joker 10♠'
>>> situation("meld", {"cards": ["8H", "8S", "JK"]})
[('meld', '8♥ 8♠ joker')]
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bolivia.rules.phrases import a_or_an, answer, join_words

__all__ = ["Part", "face", "faces", "for_people", "rulings", "situation"]

_SUITS = {"H": "♥", "D": "♦", "S": "♠", "C": "♣"}


def face(card: str) -> str:
    """``8H`` -> ``8♥``; a joker is ``joker``; anything else is shown as it is."""
    if card == "JK":
        return "joker"
    if len(card) >= 2 and card[-1] in _SUITS:
        return card[:-1] + _SUITS[card[-1]]
    return card


_CARD = re.compile(r"(?<![\w♥♦♠♣])(JK|(?:10|[2-9TJQKA])[CDHS])(?![\w♥♦♠♣])")
_TEAM_MELD = re.compile(r"\bteam meld (\d+)")
# a ruling's citation (Ruleset.cite): "(bolivia-da, from da:x, da:y)", "(club, a house rule)"
_CITED = re.compile(
    r"\s*\([a-z0-9][a-z0-9._-]*, (?:from [^()]*|assumed(?: from [^()]*)?|a house rule)\)"
)


def for_people(reason: str) -> str:
    """An oracle's reason as the report prints it.

    Cards become faces. Melds are counted from 1, as the situation counts them. The wire
    counts from 0.

    >>> for_people("a 4-card group of 8s with 1 wild card cannot take JK 8H")
    'a 4-card group of 8s with 1 wild card cannot take joker 8♥'
    >>> for_people("the top card goes onto team meld 0, making a 4-card sequence in diamonds")
    'the top card goes onto meld 1, making a 4-card sequence in diamonds'

    The ruleset and claims a refusal cites are left out: the ruling stands in its ruleset's
    row, and the claims are the details layer's.

    >>> for_people("at most 7 cards, not 8 (bolivia-da, from da:bolivia-closed)")
    'at most 7 cards, not 8'
    """
    reason = _CITED.sub("", reason)
    reason = _TEAM_MELD.sub(lambda m: f"meld {int(m.group(1)) + 1}", reason)
    return _CARD.sub(lambda m: face(m.group(1)), reason)


def faces(cards: Sequence[str]) -> str:
    return " ".join(face(c) for c in cards) if cards else "no card"


def _melds(melds: Sequence[Sequence[str]]) -> str:
    return " · ".join(f"[{faces(m)}]" for m in melds) if melds else "no meld"


def _count(value: int) -> str:
    return f"{value:,}"


# the request's fields a situation shows, in its order: field, what, the value in words
_BEFORE_CARDS: tuple[tuple[str, str, Callable[[Any], str]], ...] = (
    ("players", "players", lambda players: f"{players}"),
    ("team_score", "the side's score", _count),
    ("scores", "the sides' scores", lambda scores: " and ".join(f"{s:,}" for s in scores)),
    ("hands_played", "hands played", _count),
    ("pile", "the pile (top card last)", faces),
    ("hand", "the hand", faces),
    ("team_melds", "the side's melds", _melds),
    ("onto", "the top card goes onto", lambda onto: f"meld {onto + 1}"),
)
_AFTER_CARDS: tuple[tuple[str, str, Callable[[Any], str]], ...] = (
    ("in_hand", "where", lambda in_hand: "left in hand" if in_hand else "melded"),
    ("meld", "the meld on the table", faces),
    ("add", "cards added", faces),
    ("melds", "melds laid", _melds),
)
_CARDS = {"meld": "meld", "card_points": "cards"}  # the ops whose cards are shown: as what


def _lines(
    fields: Sequence[tuple[str, str, Callable[[Any], str]]], request: Mapping[str, Any]
) -> list[tuple[str, str]]:
    """The lines for those of the fields the request has."""
    return [(what, words(request[key])) for key, what, words in fields if key in request]


def _side(team: Mapping[str, Any]) -> str:
    """A side of a score request in words: its melds, red threes, going out, hands."""
    parts = [_melds(team.get("melds", []))]
    if team.get("red_threes"):
        parts.append(f"{team['red_threes']} red three{'s' if team['red_threes'] != 1 else ''}")
    if team.get("concealed"):
        parts.append("went out concealed")
    elif team.get("went_out"):
        parts.append("went out")
    parts += [f"left in hand: {faces(hand)}" for hand in team.get("hands", ())]
    return "; ".join(parts)


def situation(op: str, request: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The situation of a request, as (what, cards or words) lines."""
    out = _lines(_BEFORE_CARDS, request)
    if op in _CARDS and "cards" in request:
        out.append((_CARDS[op], faces(request["cards"])))
    out += _lines(_AFTER_CARDS, request)
    if request.get("going_out"):
        out.append(("when", "by a player going out"))
    out += [(f"side {n}", _side(team)) for n, team in enumerate(request.get("teams", ()), 1)]
    if op == "info" and not request:
        out.append(("players", "the usual number"))
    return out


@dataclass(frozen=True)
class Part:
    """One part of a ruling: what it is about, in words, and whether the rulesets differ on
    it."""

    what: str
    words: str
    differs: bool


_INFO = {
    "players": ("players", None),
    "partnerships": ("partnerships", None),
    "decks": ("decks", "pack.decks"),
    "jokers": ("jokers", "pack.jokers"),
    "cards": ("cards in the pack", None),
    "hand_size": ("cards dealt to each", None),
    "draw": ("cards drawn each turn", None),
    "target": ("target", "game.target"),
    "ask_partner": ("asking the partner", "going_out.ask_partner"),
    "keep_cards": ("cards kept in hand", "going_out.keep_cards"),
    "discard_required": ("a last discard to go out", "going_out.discard_required"),
    "take_top": ("taking the top card alone", "pile.take_top.allowed"),
    "stock_exhausted": ("once the stock is empty", None),
    "going_out_bonus_when_exhausted": (
        "going-out bonus after the stock runs out",
        "stock.going_out_bonus_when_exhausted",
    ),
}
_STOCK = {"take_discards": "play goes on with the discards", "end_hand": "the hand ends"}


_INFO_YES_NO = {
    "partnerships": ("in partnerships", "each for themselves"),
    "discard_required": ("required", "not required"),
    "take_top": ("allowed", "not allowed"),
    "going_out_bonus_when_exhausted": ("paid", "not paid"),
}


def _info_words(key: str, value: Any) -> str:
    path = _INFO.get(key, (key, None))[1]
    if isinstance(value, bool) and key in _INFO_YES_NO:
        return _INFO_YES_NO[key][0 if value else 1]
    if path is not None:
        return answer(path, value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return f"{value:,}"
    return _STOCK.get(str(value), str(value).replace("_", " "))


def _legal(result: Mapping[str, Any], yes: str = "allowed", no: str = "refused") -> dict[str, str]:
    """The verdict, and the oracle's reason as a part of its own (reasons are wording: they
    are never what differs)."""
    reason = for_people(str(result.get("reason", "")).strip())
    verdict = yes if result.get("legal", result.get("allowed")) else no
    return {"ruling": verdict, "why": reason} if reason else {"ruling": verdict}


def _score_parts(result: Mapping[str, Any]) -> dict[str, str]:
    out = {}
    for n, team in enumerate(result.get("teams", ()), 1):
        bits = [
            f"{team['cards']:,} for cards",
            f"{team['bonuses']:,} in canasta bonuses",
            f"{team['red_threes']:,} for red threes",
            f"{team['going_out']:,} for going out",
            f"{team['hands']:,} for cards left in hand",
        ]
        out[f"side {n}"] = f"{team['total']:,} ({', '.join(bits)})"
    return out


def _move_parts(result: Mapping[str, Any]) -> dict[str, str]:
    """A move's ruling: allowed or refused, and the canasta it makes."""
    out = _legal(result)
    if result.get("canasta"):
        out["canasta"] = f"{a_or_an(str(result['canasta']).replace('_', ' '))} canasta"
    return out


def _go_out_parts(result: Mapping[str, Any]) -> dict[str, str]:
    return _legal(result, "may go out", "may not go out")


def _minimum_parts(result: Mapping[str, Any]) -> dict[str, str]:
    """The first meld's minimum, and the canasta it asks for."""
    out = {"minimum": f"{result['minimum']:,} points"}
    if result.get("canasta"):
        kinds = join_words([str(kind) for kind in result["canasta"]], "or")
        out["canasta"] = f"with {a_or_an(kinds)} canasta"
    return out


def _initial_meld_parts(result: Mapping[str, Any]) -> dict[str, str]:
    return {
        **_legal(result, "enough", "not enough"),
        "points": f"{result['points']:,} of a minimum of {result['minimum']:,}",
    }


def _card_points_parts(result: Mapping[str, Any]) -> dict[str, str]:
    return {"points": f"{result['points']:,}"}


def _game_over_parts(result: Mapping[str, Any]) -> dict[str, str]:
    """Whether the game is over, and who won."""
    if not result.get("over"):
        return {"ruling": "the game goes on"}
    if result.get("draw"):
        return {"ruling": "the game is over: a draw"}
    return {"ruling": f"the game is over: side {int(result['winner']) + 1} wins"}


def _info_parts(result: Mapping[str, Any]) -> dict[str, str]:
    return {_INFO.get(k, (k, None))[0]: _info_words(k, v) for k, v in result.items()}


# the request's op -> its ruling's parts (any other op is read as info)
_PARTS: dict[str, Callable[[Mapping[str, Any]], dict[str, str]]] = {
    "meld": _move_parts,
    "extend": _move_parts,
    "pickup": _move_parts,
    "take_top": _move_parts,
    "go_out": _go_out_parts,
    "initial_minimum": _minimum_parts,
    "initial_meld": _initial_meld_parts,
    "card_points": _card_points_parts,
    "score": _score_parts,
    "game_over": _game_over_parts,
}


def _parts(op: str, result: Mapping[str, Any]) -> dict[str, str]:
    """A ruling's parts by name, in words."""
    if "error" in result:
        message = for_people(result["error"]["message"])
        return {"answer": f"not a situation of this ruleset: {message}"}
    return _PARTS.get(op, _info_parts)(result)


def _key(op: str, name: str, result: Mapping[str, Any]) -> str:
    """What is compared of a part: its words, without the reason (reasons are wording)."""
    if name == "ruling" and op in ("meld", "extend", "pickup", "take_top", "go_out"):
        return json.dumps([result.get("legal"), result.get("allowed")])
    if name == "ruling" and op == "initial_meld":
        return json.dumps(result.get("legal"))
    return json.dumps(_parts(op, result).get(name))


def _differs(op: str, name: str, results: Mapping[str, Mapping[str, Any]]) -> bool:
    """Whether the rulesets' answers differ on a part (never on the reason, which is wording)."""
    keys = {_key(op, name, result) for result in results.values()}
    return len(keys) > 1 and name != "why"


def rulings(op: str, results: Mapping[str, Mapping[str, Any]]) -> dict[str, list[Part]]:
    """Per ruleset, its ruling part by part; a part is marked where the rulesets differ on it
    (for ``info``, only the parts on which they differ are kept)."""
    parts = {rid: _parts(op, result) for rid, result in results.items()}
    names = list(dict.fromkeys(name for p in parts.values() for name in p))
    out: dict[str, list[Part]] = {rid: [] for rid in results}
    for name in names:
        differs = _differs(op, name, results)
        if op == "info" and not differs:
            continue
        for rid, mine in parts.items():
            if name in mine:
                out[rid].append(Part(name, mine[name], differs))
    return out
