"""The rules oracle: the language-neutral protocol of ``docs/oracle-protocol.md`` (version 2).

One JSON request a line in, one JSON response a line out. The :class:`Oracle` answers a
request (``handle``) with the same rule modules the rest of the toolkit uses. The function
:func:`serve` runs it over a pair of streams, never dying on bad input.
:mod:`bolivia.verify.wire` reads a line and writes an answer.

>>> oracle = Oracle()
>>> oracle.handle({"op": "meld", "ruleset": "bolivia-zh", "cards": ["8H", "8S", "2C", "JK"]})["ok"]
True
>>> oracle.handle({"op": "meld", "ruleset": "bolivia-zh", "cards": ["8H", "1S"]})["error"]["code"]
'bad-card'
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import IO, Any

from bolivia.cards import JOKER_INDEX, Card
from bolivia.engine.game_end import game_over, target_for
from bolivia.engine.going_out import verify_go_out
from bolivia.engine.initial_meld import canasta_needed, minimum, verify_initial_meld
from bolivia.engine.melds import (
    Meld,
    canasta_bonus,
    canasta_name,
    canasta_of,
    describe,
    verify_extend,
    verify_meld,
)
from bolivia.engine.pile import turn_up, verify_pickup, verify_take_top
from bolivia.engine.scoring import TeamHand, card_points, score_hand
from bolivia.errors import BadRequest, CardError, Illegal, Problem, RulesetError
from bolivia.play.table.actions import parse_action
from bolivia.play.table.moves import TooManyMoves
from bolivia.play.table.position import hand_at
from bolivia.play.table.ways_out import CUTS, MAX_STATES, search_bound
from bolivia.rules.library import Library, shipped_library
from bolivia.rules.phrases import a_or_an
from bolivia.rules.ruleset import Ruleset
from bolivia.verify.wire import (
    MAX_LINE,
    Number,
    OracleError,
    TransportError,
    decode,
    encode,
    error_answer,
)
from bolivia.version import __version__

__all__ = [
    "ERROR_CODES",
    "FIELD_PROTOCOLS",
    "MAX_CARDS",
    "MAX_LINE",
    "OPERATIONS",
    "OP_PROTOCOLS",
    "PROTOCOL",
    "RESULT_FIELDS",
    "TURN_RULES",
    "UNSUPPORTED",
    "Oracle",
    "OracleError",
    "serve",
]

PROTOCOL = 3
MAX_CANDIDATES = 20_000  # candidate actions `moves` checks at most (else `too-costly`)
# the error codes of the protocol; an engine answers ``unsupported`` to what it has not
# written (this oracle never does)
ERROR_CODES = (
    "bad-json",
    "bad-request",
    "unknown-op",
    "unknown-ruleset",
    "bad-card",
    "too-many-copies",
    "too-large",
    "too-costly",
    "unsupported",
)
UNSUPPORTED = "unsupported"
MAX_CARDS = 1000
MAX_INT = 10**9
_RED_THREES = (Card.parse("3H"), Card.parse("3D"))
_BLACK_THREES = (Card.parse("3C"), Card.parse("3S"))
_CARD = Card.all()


# field kinds: cards, melds, int, bool, ints, teams
OPERATIONS: dict[str, dict[str, tuple[str, bool]]] = {
    "hello": {},
    "info": {"players": ("int", False)},
    "meld": {"cards": ("cards", True), "going_out": ("bool", False)},
    "extend": {"meld": ("cards", True), "add": ("cards", True), "going_out": ("bool", False)},
    "initial_minimum": {"team_score": ("int", True)},
    "initial_meld": {"team_score": ("int", True), "melds": ("melds", True)},
    "pickup": {
        "pile": ("cards", True),
        "hand": ("cards", True),
        "team_melds": ("melds", False),
        "team_score": ("int", False),
        "with": ("cards", False),
        "onto": ("int", False),
        "also": ("melds", False),
    },
    "take_top": {"pile": ("cards", True), "team_melds": ("melds", True), "onto": ("int", True)},
    "go_out": {"team_melds": ("melds", True)},
    "score": {"teams": ("teams", True)},
    "game_over": {
        "scores": ("ints", True),
        "hands_played": ("int", False),
        "target": ("int", False),
    },
    "card_points": {"cards": ("cards", True), "in_hand": ("bool", False)},
    "upcard": {"stock": ("cards", True)},
    "act": {"position": ("object", True), "action": ("object", True)},
    "moves": {"position": ("object", True)},
}
# the result fields the protocol defines; an engine may answer more (``info`` here answers the
# turn rules too), and the runner skips, rather than fails, cases naming extra fields that an
# engine does not answer
RESULT_FIELDS: dict[str, frozenset[str]] = {
    "hello": frozenset({"protocol", "engine", "rulesets"}),
    "info": frozenset(
        {"players", "partnerships", "decks", "jokers", "cards", "hand_size", "draw", "target"}
    ),
    "meld": frozenset({"legal", "kind", "canasta", "bonus", "reason"}),
    "extend": frozenset({"legal", "kind", "canasta", "bonus", "reason"}),
    "initial_minimum": frozenset({"minimum"}),  # this oracle answers "canasta" too
    "initial_meld": frozenset({"legal", "points", "minimum", "reason"}),
    "pickup": frozenset({"legal", "reason"}),
    "take_top": frozenset({"legal", "reason"}),
    "go_out": frozenset({"allowed", "reason"}),
    "score": frozenset({"teams"}),
    "game_over": frozenset({"over", "winner", "draw"}),
    "card_points": frozenset({"points"}),
    "upcard": frozenset({"pile"}),
    # act: the last seven only when the action is legal, the three after them only while the
    # hand goes on, concealed only once it is over
    "act": frozenset(
        {"legal", "reason", "over", "ended_by", "hand_size", "red_threes", "melds"}
        | {"turn", "phase", "going_out", "concealed"}
    ),
    "moves": frozenset({"moves", "count"}),
}
# the rules of the turn info answers, that no rule question shows
TURN_RULES = (
    "ask_partner",
    "keep_cards",
    "discard_required",
    "take_top",
    "stock_exhausted",
    "going_out_bonus_when_exhausted",
)
# every field of every op's result with the protocol that made it part of the answer. A runner
# compares a field with an engine of that protocol or later, or one whose hello claims it
# (``fields``); ``teams.penalties`` is a field of each team of ``score``. Protocol 3 makes
# required what protocol 2 answered but did not promise: a meld's bonus, a team's penalties,
# the first meld's canasta, the turn rules of info, a refusal's code and rule in act.
FIELD_PROTOCOLS: dict[str, dict[str, int]] = {
    "hello": {"protocol": 1, "engine": 1, "rulesets": 1},
    "info": {**dict.fromkeys(RESULT_FIELDS["info"], 1), **dict.fromkeys(("teams", *TURN_RULES), 3)},
    "meld": {"legal": 1, "kind": 1, "canasta": 1, "reason": 1, "bonus": 3, "name": 3},
    "extend": {"legal": 1, "kind": 1, "canasta": 1, "reason": 1, "bonus": 3, "name": 3},
    "initial_minimum": {"minimum": 1, "canasta": 3},
    "initial_meld": dict.fromkeys(RESULT_FIELDS["initial_meld"], 1),
    "pickup": {"legal": 1, "reason": 1},
    "take_top": {"legal": 1, "reason": 1},
    "go_out": {"allowed": 1, "reason": 1},
    "score": {"teams": 1, "teams.penalties": 3},
    "game_over": {"over": 1, "winner": 1, "draw": 1},
    "card_points": {"points": 1},
    "upcard": {"pile": 3},
    "act": {**dict.fromkeys(RESULT_FIELDS["act"], 2), "code": 3, "rule": 3, "to_act": 3},
    "moves": {"moves": 2, "count": 2},
}
# the protocol that brought each op
OP_PROTOCOLS = {op: min(fields.values()) for op, fields in FIELD_PROTOCOLS.items()}
_TEAM_FIELDS: dict[str, tuple[str, bool]] = {
    "melds": ("melds", True),
    "red_threes": ("int", False),
    "black_threes": ("int", False),
    "exact_deal": ("bool", False),
    "hands": ("melds", False),
    "went_out": ("bool", False),
    "concealed": ("bool", False),
}
# the lists whose cards are on the table or in hands at once (``with``/``also`` are hand cards)
_PHYSICAL = {
    "meld": ("cards",),
    "extend": ("meld", "add"),
    "initial_meld": ("melds",),
    "pickup": ("pile", "hand", "team_melds"),
    "take_top": ("pile", "team_melds"),
    "go_out": ("team_melds",),
    "card_points": ("cards",),
    "upcard": ("stock",),
}


def _cards(value: Any, name: str) -> list[Card]:
    if not isinstance(value, list):
        raise OracleError("bad-request", f'\'{name}\' is a list of cards such as ["8H", "JK"]')
    if len(value) > MAX_CARDS:
        raise OracleError("too-large", f"'{name}' names {len(value)} cards; at most {MAX_CARDS}")
    out = []
    for item in value:
        try:
            out.append(Card.parse(item))
        except CardError as exc:
            raise OracleError("bad-card", f"in '{name}': {exc}") from None
    return out


def _melds(value: Any, name: str) -> list[list[Card]]:
    if not isinstance(value, list):
        raise OracleError("bad-request", f"'{name}' is a list of card lists")
    if len(value) > MAX_CARDS:
        raise OracleError("too-large", f"'{name}' holds {len(value)} lists; at most {MAX_CARDS}")
    return [_cards(item, f"{name}[{i}]") for i, item in enumerate(value)]


def _int(value: Any, name: str) -> int:
    """A whole number within the protocol's range (a float or a huge number is refused)."""
    if (isinstance(value, Number) and value.integer) or (
        isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_INT
    ):
        raise OracleError("bad-request", f"'{name}' is out of range (at most {MAX_INT})")
    if not isinstance(value, int) or isinstance(value, bool):
        raise OracleError("bad-request", f"'{name}' is a whole number")
    return value


def _object(value: Any, name: str) -> dict[str, Any]:
    """A position or an action: read by their own parsers."""
    if not isinstance(value, dict):
        raise OracleError("bad-request", f"'{name}' is an object")
    return value


def _bool(value: Any, name: str) -> bool:
    if not isinstance(value, bool):
        raise OracleError("bad-request", f"'{name}' is true or false")
    return value


def _ints(value: Any, name: str) -> list[int]:
    if not isinstance(value, list):
        raise OracleError("bad-request", f"'{name}' is a list of whole numbers")
    if len(value) > MAX_CARDS:
        raise OracleError("too-large", f"'{name}' holds {len(value)} numbers")
    return [_int(item, f"{name}[{i}]") for i, item in enumerate(value)]


def _teams(value: Any, name: str) -> list[dict[str, Any]]:
    if not isinstance(value, list) or not all(isinstance(t, dict) for t in value):
        raise OracleError("bad-request", f"'{name}' is a list of objects, one a team")
    if len(value) > 64:
        raise OracleError("too-large", f"'{name}' holds {len(value)} teams")
    return [_fields(team, _TEAM_FIELDS, f"{name}[{i}].") for i, team in enumerate(value)]


# a request field's kind -> what reads it: the value checked, and converted
_CONVERTERS: dict[str, Callable[[Any, str], Any]] = {
    "cards": _cards,
    "melds": _melds,
    "int": _int,
    "object": _object,
    "bool": _bool,
    "ints": _ints,
    "teams": _teams,
}


def _convert(kind: str, value: Any, name: str) -> Any:
    """A request field's value read as its kind."""
    return _CONVERTERS[kind](value, name)


def _fields(
    data: dict[str, Any], spec: dict[str, tuple[str, bool]], prefix: str = ""
) -> dict[str, Any]:
    unknown = sorted(set(data) - set(spec))
    if unknown:
        known = ", ".join(spec) or "none"
        raise OracleError(
            "bad-request", f"unknown field '{prefix}{unknown[0]}' (this one takes: {known})"
        )
    missing = [name for name, (_, required) in spec.items() if required and name not in data]
    if missing:
        raise OracleError("bad-request", f"missing field '{prefix}{missing[0]}'")
    return {name: _convert(spec[name][0], value, prefix + name) for name, value in data.items()}


def _check_copies(
    ruleset: Ruleset, lists: Iterable[list[Card]], red_threes: int = 0, black_threes: int = 0
) -> None:
    counts = [0] * 53  # by card index
    for cards in lists:
        for card in cards:
            counts[card.index] += 1
    pack = ruleset.pack
    if max(counts[:JOKER_INDEX]) > pack.decks or counts[JOKER_INDEX] > pack.jokers:
        for index, n in enumerate(counts):  # the first card past its copies, in card order
            card = Card.from_index(index)
            if n > pack.copies(card):
                raise OracleError(
                    "too-many-copies",
                    f"the request names {card!r} {n} "
                    f"times; the pack of {ruleset.id} holds "
                    f"{pack.copies(card)}",
                )
    # threes by number: those named plus those laid out (red) or set aside (black)
    for threes, more, what in (
        (_RED_THREES, red_threes, "red threes"),
        (_BLACK_THREES, black_threes, "black threes"),
    ):
        named = counts[threes[0].index] + counts[threes[1].index] + more
        if named > 2 * pack.decks:
            raise OracleError(
                "too-many-copies",
                f"the request holds {named} {what}; the pack of {ruleset.id} holds "
                f"{2 * pack.decks}",
            )


def _table_melds(ruleset: Ruleset, melds: list[list[Card]]) -> list[Meld]:
    """A team's melds on the table, each verified (black threes as melded going out)."""
    out = []
    for i, cards in enumerate(melds):
        try:
            out.append(verify_meld(ruleset, cards, going_out=True))
        except Illegal as exc:
            raise Illegal(exc.code, f"team meld {i} is not a legal meld: {exc}", exc.rule) from None
    return out


def _meld_result(ruleset: Ruleset, meld: Meld) -> dict[str, Any]:
    canasta = canasta_of(ruleset, meld)
    if canasta is None:
        return {
            "legal": True,
            "kind": meld.kind,
            "canasta": None,
            "bonus": None,
            "name": None,
            "reason": describe(meld),
        }
    bonus = canasta_bonus(ruleset, canasta, meld.cards, meld.wilds)
    name = canasta_name(ruleset, canasta, meld.cards, meld.wilds)
    text = f"{describe(meld)}, {a_or_an(canasta)} canasta ({name}, a bonus of {bonus:,})"
    return {
        "legal": True,
        "kind": meld.kind,
        "canasta": canasta,
        "bonus": bonus,
        "name": name,  # what the ruleset calls it (a special canasta's own name)
        "reason": text,
    }


def _refused(exc: Illegal, key: str = "legal", **extra: Any) -> dict[str, Any]:
    """A refusal: the protocol's fields, and beyond them the machine-readable ``code`` of the
    refusal and the ``rule`` (key path) that makes it."""
    return {key: False, **extra, "reason": str(exc), "code": exc.code, "rule": exc.rule}


def _operation(request: Any) -> tuple[str, dict[str, Any]]:
    """A request's op, and its own fields (not op, id or ruleset), each known to the op."""
    if not isinstance(request, dict):
        raise OracleError("bad-request", "a request is a JSON object with an 'op'")
    op = request.get("op")
    if not isinstance(op, str):
        raise OracleError("bad-request", "the request needs an 'op' (a string)")
    if op not in OPERATIONS:
        raise OracleError(
            "unknown-op",
            f"'{op[:80]}' is not an operation of protocol "
            f"{PROTOCOL}; known: {', '.join(OPERATIONS)}",
        )
    spec = OPERATIONS[op]
    own = {k: v for k, v in request.items() if k not in ("op", "id", "ruleset")}
    unknown = sorted(set(own) - set(spec))
    if unknown:
        known = ", ".join(spec) or "none"
        raise OracleError(
            "bad-request", f"unknown field '{unknown[0][:80]}' for {op} (it takes: {known})"
        )
    return op, own


def _check_request_copies(ruleset: Ruleset, op: str, fields: dict[str, Any]) -> None:
    """Refuse a request that names more copies of a card than the pack holds."""
    spec = OPERATIONS[op]
    lists: list[list[Card]] = []
    for field in _PHYSICAL.get(op, ()):
        value = fields.get(field, [])
        lists.extend(value if spec[field][0] == "melds" else [value])
    if op != "score":
        _check_copies(ruleset, lists)
        return
    for team in fields["teams"]:
        lists.extend(team["melds"])
        lists.extend(team.get("hands", []))
    for key in ("red_threes", "black_threes"):
        if any(team.get(key, 0) < 0 for team in fields["teams"]):
            raise OracleError("bad-request", f"'{key}' cannot be negative")
    reds = sum(team.get("red_threes", 0) for team in fields["teams"])
    blacks = sum(team.get("black_threes", 0) for team in fields["teams"])
    _check_copies(ruleset, lists, reds, blacks)


class Oracle:
    """Answers protocol requests for the rulesets of a library.

    ``max_states``: the states one search for a way out may visit before the request is
    answered ``too-costly`` (at most, and by default, :data:`MAX_STATES`).
    """

    def __init__(self, library: Library | None = None, *, max_states: int = MAX_STATES) -> None:
        if not 1 <= max_states <= MAX_STATES:
            raise ValueError(f"max_states must be from 1 to {MAX_STATES:,}, not {max_states}")
        self.library = library if library is not None else shipped_library()
        self.max_states = max_states
        self._extra: dict[str, Ruleset] = {}
        self._unloadable: dict[str, list[Problem]] | None = None
        self._ops: dict[str, Callable[[Ruleset, dict[str, Any]], dict[str, Any]]] = {
            "info": self._info,
            "meld": self._meld,
            "extend": self._extend,
            "initial_minimum": self._initial_minimum,
            "initial_meld": self._initial_meld,
            "pickup": self._pickup,
            "take_top": self._take_top,
            "go_out": self._go_out,
            "score": self._score,
            "game_over": self._game_over,
            "card_points": self._card_points,
            "upcard": self._upcard,
            "act": self._act,
            "moves": self._moves,
        }

    # ---- transport

    def handle_line(self, line: bytes | str) -> str:
        """One request line to one response line (without the newline): always JSON."""
        try:
            request = decode(line)
        except OracleError as exc:
            return error_answer(exc.code, exc.message)
        return encode(self.handle(request))

    def handle(self, request: Any) -> dict[str, Any]:
        """One decoded request to one response object."""
        request_id = request.get("id") if isinstance(request, dict) else None
        try:
            result = self._answer(request)
        except OracleError as exc:
            return {
                "id": request_id,
                "ok": False,
                "error": {"code": exc.code, "message": exc.message},
            }
        except BadRequest as exc:
            return {"id": request_id, "ok": False, "error": {"code": exc.code, "message": str(exc)}}
        return {"id": request_id, "ok": True, "result": result}

    def _answer(self, request: Any) -> dict[str, Any]:
        op, own = _operation(request)
        if op == "hello":
            return {
                "protocol": PROTOCOL,
                "engine": f"bolivia {__version__}",
                "rulesets": self.ids(),
            }
        name = request.get("ruleset")
        if not isinstance(name, str):
            raise OracleError("bad-request", "the request needs a 'ruleset' (a ruleset id)")
        ruleset = self._ruleset(name)
        fields = _fields(own, OPERATIONS[op])
        _check_request_copies(ruleset, op, fields)
        cuts = CUTS[0]
        with search_bound(self.max_states):
            answer = self._ops[op](ruleset, fields)
        if CUTS[0] != cuts:
            raise OracleError(
                "too-costly",
                f"deciding it needs a search for a way out past {self.max_states:,} states: the "
                "oracle does not answer what it could not decide",
            )
        return answer

    def register(self, ruleset: Ruleset, as_id: str | None = None) -> None:
        """Answer for a ruleset built in memory too (a variant with one rule changed), under
        its own id or ``as_id`` (a house ruleset answering for the shipped id it changes)."""
        self._extra[as_id if as_id is not None else ruleset.id] = ruleset

    def ids(self) -> list[str]:
        """The rulesets it answers for, each once: the library's that load, then those
        registered."""
        broken = self.unloadable()
        return list(
            dict.fromkeys([*(r for r in self.library.ids() if r not in broken), *self._extra])
        )

    def unloadable(self) -> dict[str, list[Problem]]:
        """The library's ids whose files do not load, each with why (found once, kept)."""
        if self._unloadable is None:
            self._unloadable = {}
            for rid in self.library.ids():
                try:
                    self.library.load(rid)
                except RulesetError as exc:
                    self._unloadable[rid] = exc.problems
        return self._unloadable

    def _ruleset(self, name: str) -> Ruleset:
        extra = self._extra.get(name)
        if extra is not None:
            return extra
        if name not in self.library:
            raise OracleError("unknown-ruleset", self.library.unknown_message(name[:80]))
        try:
            return self.library.load(name)
        except RulesetError as exc:  # a broken file in an extra folder
            raise OracleError(
                "unknown-ruleset", f"ruleset {name!r} cannot be loaded: {exc.problems[0]}"
            ) from None

    # ---- operations

    def _info(self, ruleset: Ruleset, f: dict[str, Any]) -> dict[str, Any]:
        rules = ruleset.rules
        players = f.get("players", rules.players.usual)
        seating = rules.players.seats.get(players)
        if seating is None:
            raise OracleError(
                "bad-request",
                f"{ruleset.id} is played by "
                f"{', '.join(map(str, sorted(rules.players.seats)))}"
                f" players, not {players}",
            )
        going_out = rules.going_out
        return {
            "players": players,
            "partnerships": seating.teams < players,
            "decks": rules.pack.decks,
            "jokers": rules.pack.jokers,
            "cards": ruleset.pack.size,
            "hand_size": seating.hand_size,
            "draw": seating.draw,
            "target": target_for(ruleset, players),
            # beyond protocol 1: the turn rules no other op can show
            "teams": seating.teams,
            "ask_partner": going_out.ask_partner if seating.teams < players else "never",
            "keep_cards": going_out.keep_cards,
            "discard_required": going_out.discard_required,
            "take_top": rules.pile.take_top.allowed,
            "stock_exhausted": rules.stock.exhausted.rule,
            "going_out_bonus_when_exhausted": rules.stock.going_out_bonus_when_exhausted,
        }

    def _meld(self, ruleset: Ruleset, f: dict[str, Any]) -> dict[str, Any]:
        try:
            meld = verify_meld(ruleset, f["cards"], going_out=f.get("going_out", False))
        except Illegal as exc:
            return _refused(exc, kind=None, canasta=None, bonus=None, name=None)
        return _meld_result(ruleset, meld)

    def _extend(self, ruleset: Ruleset, f: dict[str, Any]) -> dict[str, Any]:
        if not f["add"]:
            raise OracleError("bad-request", "'add' names no card")
        going_out = f.get("going_out", False)
        try:
            base = verify_meld(ruleset, f["meld"], going_out=True)
        except Illegal as exc:
            return {
                "legal": False,
                "kind": None,
                "canasta": None,
                "bonus": None,
                "reason": f"the meld is not itself a legal meld: {exc}",
                "code": "meld-illegal",
                "rule": exc.rule,
            }
        try:
            meld = verify_extend(ruleset, base, f["add"], going_out=going_out)
        except Illegal as exc:
            return _refused(exc, kind=None, canasta=None, bonus=None, name=None)
        return _meld_result(ruleset, meld)

    def _initial_minimum(self, ruleset: Ruleset, f: dict[str, Any]) -> dict[str, Any]:
        score = f["team_score"]
        return {"minimum": minimum(ruleset, score), "canasta": list(canasta_needed(ruleset, score))}

    def _initial_meld(self, ruleset: Ruleset, f: dict[str, Any]) -> dict[str, Any]:
        if not f["melds"]:
            raise OracleError("bad-request", "'melds' names no meld")
        try:
            points, needed = verify_initial_meld(ruleset, f["team_score"], f["melds"])
        except Illegal as exc:
            return _refused(
                exc,
                points=exc.facts.get("points", 0),
                minimum=exc.facts.get("minimum", minimum(ruleset, f["team_score"])),
            )
        return {
            "legal": True,
            "points": points,
            "minimum": needed,
            "reason": f"{points} points reach the minimum of {needed}",
        }

    @staticmethod
    def _check_onto(f: dict[str, Any]) -> None:
        onto, melds = f.get("onto"), f.get("team_melds", [])
        if onto is not None and not 0 <= onto < len(melds):
            raise OracleError(
                "bad-request", f"'onto' is {onto}, but the team has {len(melds)} melds"
            )

    def _pickup(self, ruleset: Ruleset, f: dict[str, Any]) -> dict[str, Any]:
        self._check_onto(f)
        if f.get("with") is not None and f.get("onto") is not None:
            raise OracleError("bad-request", "give at most one of 'with' and 'onto'")
        try:
            team = _table_melds(ruleset, f.get("team_melds", []))
            found = verify_pickup(
                ruleset,
                f["pile"],
                f["hand"],
                team,
                f.get("team_score", 0),
                with_cards=f.get("with"),
                onto=f.get("onto"),
                also=f.get("also", []),
            )
        except Illegal as exc:
            return _refused(exc)
        return {"legal": True, "reason": found.describe()}

    def _take_top(self, ruleset: Ruleset, f: dict[str, Any]) -> dict[str, Any]:
        self._check_onto(f)
        try:
            team = _table_melds(ruleset, f["team_melds"])
            meld = verify_take_top(ruleset, f["pile"], team, f["onto"])
        except Illegal as exc:
            return _refused(exc)
        return {
            "legal": True,
            "reason": f"the top card extends team meld {f['onto']} to {describe(meld)}",
        }

    def _go_out(self, ruleset: Ruleset, f: dict[str, Any]) -> dict[str, Any]:
        try:
            team = _table_melds(ruleset, f["team_melds"])
            verify_go_out(ruleset, team)
        except Illegal as exc:
            return _refused(exc, "allowed")
        return {"allowed": True, "reason": "the side's canastas meet the going-out requirement"}

    def _score(self, ruleset: Ruleset, f: dict[str, Any]) -> dict[str, Any]:
        teams = []
        for i, team in enumerate(f["teams"]):
            try:
                melds = tuple(_table_melds(ruleset, team["melds"]))
            except Illegal as exc:
                raise OracleError("bad-request", f"team {i}: {exc}") from None
            teams.append(
                TeamHand(
                    melds=melds,
                    red_threes=team.get("red_threes", 0),
                    black_threes=team.get("black_threes", 0),
                    exact_deal=team.get("exact_deal", False),
                    hands=tuple(tuple(hand) for hand in team.get("hands", [])),
                    went_out=team.get("went_out", False) or team.get("concealed", False),
                    concealed=team.get("concealed", False),
                )
            )
        return {"teams": [score.as_dict() for score in score_hand(ruleset, teams)]}

    def _game_over(self, ruleset: Ruleset, f: dict[str, Any]) -> dict[str, Any]:
        result = game_over(ruleset, f["scores"], f.get("hands_played"), target=f.get("target"))
        return {"over": result.over, "winner": result.winner, "draw": result.draw}

    def _card_points(self, ruleset: Ruleset, f: dict[str, Any]) -> dict[str, Any]:
        return {"points": card_points(ruleset, f["cards"], in_hand=f.get("in_hand", False))}

    def _upcard(self, ruleset: Ruleset, f: dict[str, Any]) -> dict[str, Any]:
        if not f["stock"]:
            raise OracleError("bad-request", "'stock' names no card")
        pile = turn_up(ruleset, [card.index for card in reversed(f["stock"])])
        return {"pile": [str(_CARD[index]) for index in pile]}

    # ---- positions (protocol 2)

    def _act(self, ruleset: Ruleset, f: dict[str, Any]) -> dict[str, Any]:
        hand = hand_at(ruleset, f["position"])
        try:
            action = parse_action(f["action"])
        except BadRequest as exc:
            raise OracleError("bad-request", f"action: {exc}") from None
        player = hand.current
        hand.moves.cap = MAX_CANDIDATES  # asking before drawing weighs every pickup
        try:
            hand.apply(action)
        except Illegal as exc:
            return _refused(exc)
        except TooManyMoves:
            raise _too_many(hand) from None
        out: dict[str, Any] = {
            "legal": True,
            "reason": "",
            "over": hand.over,
            "ended_by": hand.ended_by,
            "hand_size": hand.sizes[player],
            "red_threes": list(hand.red_threes),
            "melds": [len(side) for side in hand.melds],
        }
        if hand.over:
            out["concealed"] = hand.went_out is not None and hand.concealed
        else:
            out["turn"] = hand.current if hand.phase != "answer" else hand.asker
            out["to_act"] = hand.current  # the partner, while a question to them waits
            out["phase"] = hand.answer_phase if hand.phase == "answer" else hand.phase
            out["going_out"] = hand.committed or hand.asked is True
        return out

    def _moves(self, ruleset: Ruleset, f: dict[str, Any]) -> dict[str, Any]:
        hand = hand_at(ruleset, f["position"])
        hand.moves.cap = MAX_CANDIDATES
        try:
            actions = hand.legal_actions()
        except TooManyMoves:
            raise _too_many(hand) from None
        moves = [action.to_json() for action in actions]
        moves.sort(key=lambda m: json.dumps(m, sort_keys=True))
        return {"moves": moves, "count": len(moves)}


def _too_many(hand: Any) -> OracleError:
    """The answer to a position with more candidate actions than the oracle checks."""
    held = hand.hands[hand.current]
    wild = sum(held[i] for i in range(53) if hand.ruleset.wild[i])
    return OracleError(
        "too-costly",
        f"the position offers more than {MAX_CANDIDATES:,} candidate actions to check (a "
        f"hand of {hand.sizes[hand.current]} cards, {wild} of them wild): the oracle does not "
        "decide it",
    )


def serve(source: IO[bytes], sink: IO[bytes], oracle: Oracle | None = None) -> int:
    """Answer every line of ``source`` on ``sink`` until the end of input; exit status 0.
    :class:`TransportError` when a line cannot be read or its answer cannot be written."""
    oracle = oracle if oracle is not None else Oracle()
    number = 0
    while True:
        number += 1
        line = _read(source, number)
        if not line:
            return 0
        if len(line) > MAX_LINE and not line.endswith(b"\n"):
            # an over-long line: answer once, then skip the rest of it
            while line and not line.endswith(b"\n"):
                line = _read(source, number)
            answer = error_answer("too-large", f"the request line is over {MAX_LINE} bytes")
        else:
            stripped = line.rstrip(b"\r\n")
            if not stripped.strip():
                continue
            answer = oracle.handle_line(stripped)
        try:
            sink.write(answer.encode("utf-8") + b"\n")
            sink.flush()
        except OSError as exc:
            raise TransportError(
                f"cannot write the answer to line {number}: {_reason(exc)}"
            ) from None


def _read(source: IO[bytes], number: int) -> bytes:
    try:
        return source.readline(MAX_LINE + 1)
    except OSError as exc:
        raise TransportError(f"cannot read line {number} of the requests: {_reason(exc)}") from None


def _reason(exc: OSError) -> str:
    if isinstance(exc, BrokenPipeError):
        return "the reader closed the pipe"
    return exc.strerror or str(exc)
