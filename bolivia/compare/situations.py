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

from bolivia.language import N_, NP_, current, ngettext, number, worded
from bolivia.language import gettext_ as _
from bolivia.rules.phrasebook import RANK_LETTERS
from bolivia.rules.phrases import a_or_an, answer, join_words, label

__all__ = [
    "KIND_WORDS",
    "Part",
    "face",
    "faces",
    "for_people",
    "refusal_words",
    "rulings",
    "situation",
]

_SUITS = {"H": "♥", "D": "♦", "S": "♠", "C": "♣"}


def face(card: str) -> str:
    """``8H`` -> ``8♥``; a joker is ``joker``; anything else is shown as it is."""
    if card == "JK":
        return _("joker")
    if len(card) >= 2 and card[-1] in _SUITS:
        rank = card[:-1]
        return (_(RANK_LETTERS[rank]) if rank in RANK_LETTERS else rank) + _SUITS[card[-1]]
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
    # NOTE: cards shown, when there are none: a hand, the pile, cards added
    return " ".join(face(c) for c in cards) if cards else _("empty")


def _melds(melds: Sequence[Sequence[str]]) -> str:
    # NOTE: a side's melds on the table, when it has laid none
    return " · ".join(f"[{faces(m)}]" for m in melds) if melds else _("no meld laid")


def _meld_number(onto: int) -> str:
    return _("meld {number}").format(number=onto + 1)


def _where(in_hand: bool) -> str:
    return _("left in hand") if in_hand else _("melded")


# the request's fields a situation shows, in its order: field, what, the value in words
_BEFORE_CARDS: tuple[tuple[str, str, Callable[[Any], str]], ...] = (
    ("players", N_("players"), lambda players: f"{players}"),
    ("team_score", N_("the side's score"), number),
    (
        "scores",
        N_("the sides' scores"),
        lambda scores: join_words(list(map(number, scores)), "and"),
    ),
    ("hands_played", N_("hands played"), number),
    ("pile", N_("the pile (top card last)"), faces),
    ("hand", N_("the hand"), faces),
    ("team_melds", N_("the side's melds"), _melds),
    ("onto", N_("the top card goes onto"), _meld_number),
)
_AFTER_CARDS: tuple[tuple[str, str, Callable[[Any], str]], ...] = (
    ("in_hand", N_("where"), _where),
    ("meld", N_("the meld on the table"), faces),
    ("add", N_("cards added"), faces),
    ("melds", N_("melds laid"), _melds),
)
_CARDS = {"meld": N_("meld"), "card_points": N_("cards")}  # the ops whose cards are shown


def _lines(
    fields: Sequence[tuple[str, str, Callable[[Any], str]]], request: Mapping[str, Any]
) -> list[tuple[str, str]]:
    """The lines for those of the fields the request has."""
    return [(_(what), words(request[key])) for key, what, words in fields if key in request]


_RED_THREES = NP_("{n} red three", "{n} red threes")


def _side(team: Mapping[str, Any]) -> str:
    """A side of a score request in words: its melds, red threes, going out, hands."""
    parts = [_melds(team.get("melds", []))]
    if team.get("red_threes"):
        parts.append(ngettext(*_RED_THREES, team["red_threes"]).format(n=team["red_threes"]))
    if team.get("concealed"):
        parts.append(_("went out concealed"))
    elif team.get("went_out"):
        parts.append(_("went out"))
    hands = [faces(hand) for hand in team.get("hands", ())]
    if len(hands) == 1:
        parts.append(_("left in hand: {cards}").format(cards=hands[0]))
    elif hands:  # the partners' hands, each apart
        parts.append(_("left in the hands: {hands}").format(hands=" / ".join(hands)))
    return _("; ").join(parts)


def situation(op: str, request: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The situation of a request, as (what, cards or words) lines."""
    out = _lines(_BEFORE_CARDS, request)
    if op in _CARDS and "cards" in request:
        out.append((_(_CARDS[op]), faces(request["cards"])))
    out += _lines(_AFTER_CARDS, request)
    if request.get("going_out"):
        out.append((_("when"), _("by a player going out")))
    out += [
        (_("side {number}").format(number=n), _side(team))
        for n, team in enumerate(request.get("teams", ()), 1)
    ]
    if op == "info" and not request:
        out.append((_("players"), _("the usual number")))
    return out


@dataclass(frozen=True)
class Part:
    """One part of a ruling: what it is about, in words, and whether the rulesets differ on
    it."""

    what: str
    words: str
    differs: bool


_INFO = {
    "players": (N_("players"), None),
    "partnerships": (N_("partnerships"), None),
    "decks": (N_("decks"), "pack.decks"),
    "jokers": (N_("jokers"), "pack.jokers"),
    "cards": (N_("cards in the pack"), None),
    "hand_size": (N_("cards dealt to each"), None),
    "draw": (N_("cards drawn each turn"), None),
    "target": (N_("target"), "game.target"),
    "ask_partner": (N_("asking the partner"), "going_out.ask_partner"),
    "keep_cards": (N_("cards kept in hand"), "going_out.keep_cards"),
    "discard_required": (N_("a last discard to go out"), "going_out.discard_required"),
    "take_top": (N_("taking the top card alone"), "pile.take_top.allowed"),
    "stock_exhausted": (N_("once the stock is empty"), None),
    "going_out_bonus_when_exhausted": (
        N_("going-out bonus after the stock runs out"),
        "stock.going_out_bonus_when_exhausted",
    ),
}
_STOCK = {"take_discards": N_("play goes on with the discards"), "end_hand": N_("the hand ends")}


_INFO_YES_NO = {
    "partnerships": (N_("in partnerships"), N_("each for themselves")),
    "discard_required": (N_("required"), N_("not required")),
    "take_top": (N_("allowed"), N_("not allowed")),
    "going_out_bonus_when_exhausted": (N_("paid"), N_("not paid")),
}


def _info_words(key: str, value: Any) -> str:
    path = _INFO.get(key, (key, None))[1]
    if isinstance(value, bool) and key in _INFO_YES_NO:
        return _(_INFO_YES_NO[key][0 if value else 1])
    if path is not None:
        return answer(path, value)
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, int):
        return number(value)
    if str(value) in _STOCK:
        return _(_STOCK[str(value)])
    return str(value).replace("_", " ")


# what a refusal or an unanswerable question is about, by its code, where it names no rule (a
# language other than English says a refusal with these words: the engine's own sentences
# are English, and stay in the details layer)
_CODES = {
    "too-many-copies": N_("it holds more copies of a card than this ruleset's pack"),
    "bad-request": N_("its facts cannot hold together under this ruleset"),
    "bad-card": N_("it names a card this ruleset's pack does not hold"),
    "no-meld": N_("these cards make no meld"),
    "no-kind": N_("these cards make no meld"),
    "red-three": N_("red threes are never melded: they are laid out and scored on their own"),
    "extend-kind": N_("a meld keeps its kind (and rank or suit) as it grows"),
    "combine-kind": N_("only two groups of one rank can be joined"),
    "pile-empty": N_("the discard pile is empty"),
    "pile-meld": N_("the top card is taken into a new group of its rank"),
}
_REFUSED = N_("the rules of this ruleset do not allow it")


def refusal_words(refusal: Mapping[str, Any], rules: Any = None) -> str:
    """Why an answer refuses, or why a question has no answer, in words.

    In English, the oracle's own sentence (:func:`for_people`). In another language, the
    rule it names in words with the ruleset's value of it (``rules``: the
    :class:`bolivia.rules.ruleset.Ruleset`), else what its code means: the oracle's
    sentences are English (the wire's language), and are kept for the details layer.
    """
    if current().code == "en":
        return for_people(str(refusal.get("reason", refusal.get("message", ""))).strip())
    rule = str(refusal.get("rule") or "")
    if rule and rules is not None:
        try:
            value = rules.value(rule)
        except (KeyError, AttributeError):
            value = None
        else:
            return _("{rule}: {answer}").format(rule=label(rule), answer=answer(rule, value))
    return _(_CODES.get(str(refusal.get("code", "")), _REFUSED))


def _legal(
    result: Mapping[str, Any], rules: Any, yes: str = N_("allowed"), no: str = N_("refused")
) -> dict[str, str]:
    """The verdict, and the reason as a part of its own (reasons are wording: they are never
    what differs). Only English gives the reason of an allowed move (what the cards make,
    in the oracle's words): the other parts say it."""
    allowed = result.get("legal", result.get("allowed"))
    if current().code == "en" or not allowed:
        reason = refusal_words(result, rules) if result.get("reason") else ""
    else:
        reason = ""
    verdict = _(yes) if allowed else _(no)
    return {"ruling": verdict, "why": reason} if reason else {"ruling": verdict}


def _score_parts(result: Mapping[str, Any], rules: Any) -> dict[str, str]:
    out = {}
    for n, team in enumerate(result.get("teams", ()), 1):
        bits = [
            _("{points} for cards").format(points=number(team["cards"])),
            _("{points} in canasta bonuses").format(points=number(team["bonuses"])),
            _("{points} for red threes").format(points=number(team["red_threes"])),
            _("{points} for going out").format(points=number(team["going_out"])),
            _("{points} for cards left in hand").format(points=number(team["hands"])),
        ]
        out[_("side {number}").format(number=n)] = _("{total} ({parts})").format(
            total=number(team["total"]), parts=_(", ").join(bits)
        )
    return out


#: a kind of canasta the play counts and the oracle names, as a word
KIND_WORDS = {
    "natural": N_("natural"),
    "mixed": N_("mixed"),
    "escalera": N_("escalera"),
    "bolivia": N_("bolivia"),
}

# a canasta an answer names, by its kind (another kind: its name as the ruleset gives it)
_A_CANASTA = {
    "natural": N_("a natural canasta"),
    "mixed": N_("a mixed canasta"),
    "escalera": N_("an escalera canasta"),
    "bolivia": N_("a bolivia canasta"),
}


def _a_canasta(kind: str) -> str:
    return worded(_A_CANASTA, kind, N_("a canasta of the kind “{key}”")).replace("_", " ")


def _move_parts(result: Mapping[str, Any], rules: Any) -> dict[str, str]:
    """A move's ruling: allowed or refused, and the canasta it makes."""
    out = _legal(result, rules)
    if result.get("canasta"):
        out[_("canasta")] = _a_canasta(str(result["canasta"]))
    return out


def _go_out_parts(result: Mapping[str, Any], rules: Any) -> dict[str, str]:
    return _legal(result, rules, N_("may go out"), N_("may not go out"))


def _minimum_parts(result: Mapping[str, Any], rules: Any) -> dict[str, str]:
    """The first meld's minimum, and the canasta it asks for."""
    out = {_("minimum"): _("{points} points").format(points=number(result["minimum"]))}
    if result.get("canasta"):
        words = [worded(KIND_WORDS, str(k), "{key}").replace("_", " ") for k in result["canasta"]]
        kinds = join_words(words, "or")
        # NOTE: the canastas a first meld needs, their kinds listed: "natural, escalera or
        # bolivia"; the two messages differ only by the English article (a, an)
        said = N_("with an {kinds} canasta") if a_or_an(kinds).startswith("an ") else None
        out[_("canasta")] = _(said or N_("with a {kinds} canasta")).format(kinds=kinds)
    return out


def _initial_meld_parts(result: Mapping[str, Any], rules: Any) -> dict[str, str]:
    return {
        **_legal(result, rules, N_("enough"), N_("not enough")),
        _("points"): _("{points} of a minimum of {minimum}").format(
            points=number(result["points"]), minimum=number(result["minimum"])
        ),
    }


def _card_points_parts(result: Mapping[str, Any], rules: Any) -> dict[str, str]:
    return {_("points"): number(result["points"])}


def _game_over_parts(result: Mapping[str, Any], rules: Any) -> dict[str, str]:
    """Whether the game is over, and who won."""
    if not result.get("over"):
        return {"ruling": _("the game goes on")}
    if result.get("draw"):
        return {"ruling": _("the game is over: a draw")}
    return {
        "ruling": _("the game is over: side {number} wins").format(number=int(result["winner"]) + 1)
    }


def _info_parts(result: Mapping[str, Any], rules: Any) -> dict[str, str]:
    return {_(_INFO[k][0]) if k in _INFO else k: _info_words(k, v) for k, v in result.items()}


# the request's op -> its ruling's parts (any other op is read as info)
_PARTS: dict[str, Callable[[Mapping[str, Any], Any], dict[str, str]]] = {
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


def _parts(op: str, result: Mapping[str, Any], rules: Any = None) -> dict[str, str]:
    """A ruling's parts by name, in words."""
    if "error" in result:
        message = refusal_words(result["error"], rules)
        return {"answer": _("not a situation of this ruleset: {why}").format(why=message)}
    return _PARTS.get(op, _info_parts)(result, rules)


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


def rulings(
    op: str, results: Mapping[str, Mapping[str, Any]], rules: Mapping[str, Any] | None = None
) -> dict[str, list[Part]]:
    """Per ruleset, its ruling part by part; a part is marked where the rulesets differ on it
    (for ``info``, only the parts on which they differ are kept). ``rules``: per ruleset, its
    :class:`bolivia.rules.ruleset.Ruleset`, whose values say a refusal's rule in a language
    other than English."""
    parts = {rid: _parts(op, result, (rules or {}).get(rid)) for rid, result in results.items()}
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
