"""Rule values an engine's answers show outright, beyond the variants' few alternatives.

Some answers are a rule value, or close to one:

- ``info`` gives the pack, the seatings and the target.
- ``card_points`` of one card gives that card's worth.
- ``score`` gives the going-out bonus, the red threes' worth (each, all, or by their number),
  a team's canasta bonuses, the penalty for a meld left unfinished (of its kind, its rank, or
  its rank when natural), and a cost beyond the ruleset's for cards kept in a hand (read as a
  rank the hand holds several of).
- ``initial_minimum`` gives the minimum at a score.
- ``meld`` or ``extend`` may answer a ``bonus`` unlike the kind's. That gives a canasta paid
  a bonus of its own (``canastas.special``). It is read as what its cards have in common
  with the special canastas rulebooks name: its rank, its size, its wild cards or jokers.

Each reading is only a candidate. The search keeps a value only when the ruleset with it
explains the answers.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bolivia.cards import parse_cards
from bolivia.errors import CardError
from bolivia.profiles.battery import Predictor, Question
from bolivia.rules.ruleset import Ruleset

__all__ = ["readings"]

Answered = Sequence[tuple[Question, Mapping[str, Any]]]
Reading = tuple[str, Any]  # a key path and a value (JSON)


def _result(answer: Mapping[str, Any]) -> dict[str, Any] | None:
    result = answer.get("result")
    return result if answer.get("ok") is True and isinstance(result, dict) else None


def _number(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def readings(predictor: Predictor, ruleset: Ruleset, answered: Answered) -> list[Reading]:
    """Candidate values read off the answers, for the fields they show."""
    out: list[Reading] = []
    out += _info(ruleset, answered)
    out += _card_points(ruleset, answered)
    out += _bands(ruleset, answered)
    out += _scores(predictor, ruleset, answered)
    out += _specials(predictor, ruleset, answered)
    return out


# --------------------------------------------------------------------------- info


_INFO_LEAVES = {
    "decks": "pack.decks",
    "jokers": "pack.jokers",
    "keep_cards": "going_out.keep_cards",
    "discard_required": "going_out.discard_required",
    "take_top": "pile.take_top.allowed",
    "going_out_bonus_when_exhausted": "stock.going_out_bonus_when_exhausted",
}


_EXHAUSTED: dict[str, tuple[dict[str, Any], ...]] = {
    "end_hand": ({"rule": "end_hand"},),
    "take_discards": (
        {"rule": "take_discards", "must_take_onto_meld": True},
        {"rule": "take_discards", "must_take_onto_meld": False},
    ),
}  # what an info answer's stock_exhausted may be: the rule values it reads as


def _leaves(ruleset: Ruleset, result: Mapping[str, Any]) -> Iterator[Reading]:
    """The fields an info answer gives outright, where of the ruleset's type."""
    for key, path in _INFO_LEAVES.items():
        if key in result and isinstance(result[key], type(ruleset.value(path))):
            yield path, result[key]


def _choices(result: Mapping[str, Any]) -> Iterator[Reading]:
    """Asking the partner, and what happens once the stock is empty."""
    if isinstance(result.get("ask_partner"), str) and result.get("partnerships"):
        yield "going_out.ask_partner", result["ask_partner"]
    exhausted = result.get("stock_exhausted")
    for value in _EXHAUSTED.get(exhausted, ()) if isinstance(exhausted, str) else ():
        yield "stock.exhausted", dict(value)


@dataclass
class _Tables:
    """The seatings and targets by players the info answers show, as they are read."""

    seats: dict[str, Any]
    by_players: dict[str, Any]
    usual: int
    target: Any = None
    changed: bool = False

    def refused(self, players: Any, answer: Mapping[str, Any]) -> None:
        """A number of players the engine refuses has no seating."""
        error = answer.get("error")
        if players is not None and isinstance(error, dict) and error.get("code") == "bad-request":
            self.changed |= self.seats.pop(str(players), None) is not None

    def read(self, players: Any, result: Mapping[str, Any]) -> None:
        """The seating and the target an answer shows for its number of players."""
        n = _number(players)
        n = self.usual if n is None else n
        seat = _seating(self.seats.get(str(n)), n, result)
        if seat is not None and seat != self.seats.get(str(n)):
            self.seats[str(n)] = seat
            self.changed = True
        if _number(result.get("target")) is not None:
            if n == self.usual:
                self.target = result["target"]
            else:
                self.by_players[str(n)] = result["target"]

    def readings(self, ruleset: Ruleset) -> Iterator[Reading]:
        """The seatings, the target and the targets by players, where they changed."""
        if self.changed:
            yield "players.seats", dict(sorted(self.seats.items(), key=lambda i: int(i[0])))
        if self.target is not None:
            yield "game.target", self.target
        main = self.target if self.target is not None else ruleset.rules.game.target
        table = {k: v for k, v in sorted(self.by_players.items()) if v != main}
        if table != ruleset.value("game.target_by_players"):
            yield "game.target_by_players", table
        if self.target is not None and self.target != ruleset.rules.game.target:
            # or the usual number of players' own target, the others' kept
            usual = {**ruleset.value("game.target_by_players"), str(self.usual): self.target}
            yield "game.target_by_players", dict(sorted(usual.items(), key=lambda i: int(i[0])))


def _info(ruleset: Ruleset, answered: Answered) -> Iterator[Reading]:
    """What the info answers show: the pack, the seatings, the target and a few choices."""
    tables = _Tables(
        copy.deepcopy(ruleset.value("players.seats")),
        dict(ruleset.value("game.target_by_players")),
        ruleset.rules.players.usual,
    )
    for question, answer in answered:
        if question.op != "info":
            continue
        players = question.input.get("players")
        result = _result(answer)
        if result is None:
            tables.refused(players, answer)
            continue
        yield from _leaves(ruleset, result)
        if players is None and _number(result.get("players")) is not None:
            yield "players.usual", result["players"]
            players = tables.usual = result["players"]
        yield from _choices(result)
        tables.read(players, result)
    yield from tables.readings(ruleset)


def _seating(current: Any, players: int, result: Mapping[str, Any]) -> dict[str, Any] | None:
    hand_size, draw = _number(result.get("hand_size")), _number(result.get("draw"))
    if hand_size is None or draw is None:
        return None
    teams = _number(result.get("teams"))
    if teams is None:
        partnerships = result.get("partnerships")
        if partnerships is False:
            teams = players
        elif isinstance(current, dict) and current.get("teams", players) < players:
            teams = current["teams"]
        else:
            teams = 2 if players % 2 == 0 else players
    return {"teams": teams, "hand_size": hand_size, "draw": draw}


# --------------------------------------------------------------------------- card points


def _one_card(question: Question, answer: Mapping[str, Any]) -> tuple[str, int] | None:
    """The card a card_points answer is about, and its points; None unless one card."""
    result = _result(answer)
    cards = question.input.get("cards")
    if question.op != "card_points" or result is None or not isinstance(cards, list):
        return None
    points = _number(result.get("points"))
    if points is None or len(cards) != 1 or not isinstance(cards[0], str):
        return None
    return cards[0].upper(), points


def _card_points(ruleset: Ruleset, answered: Answered) -> Iterator[Reading]:
    """The cards' points one card at a time: the table, red threes, black threes in hand."""
    table = dict(ruleset.value("scoring.card_points"))
    seen = False
    for question, answer in answered:
        one = _one_card(question, answer)
        if one is None:
            continue
        card, points = one
        in_hand = question.input.get("in_hand")
        worth = -points if in_hand else points
        if card in ("3H", "3D"):
            yield "red_threes.value", worth
        elif card in ("3C", "3S") and in_hand:
            yield "scoring.black_three_in_hand", worth
        elif (key := "JK" if card == "JK" else card[:-1]) in table:
            table[key] = worth
            seen = True
    if seen:
        yield "scoring.card_points", table


# --------------------------------------------------------------------------- bands


def _minimum_at(bands: Sequence[Mapping[str, Any]], score: int) -> int:
    found = bands[0]["minimum"]
    for band in bands[1:]:
        if band["from"] is not None and score >= band["from"]:
            found = band["minimum"]
    return int(found)


def _minimums_seen(answered: Answered) -> dict[int, int]:
    """The first meld's minimum the answers show, by the side's score."""
    seen: dict[int, int] = {}
    for question, answer in answered:
        result = _result(answer)
        score = _number(question.input.get("team_score"))
        if question.op not in ("initial_minimum", "initial_meld") or result is None:
            continue
        minimum = _number(result.get("minimum"))
        if score is not None and minimum is not None:
            seen[score] = minimum
    return seen


def _inside(start: int | None, end: int | None, seen: Mapping[int, int]) -> list[tuple[int, int]]:
    """The (score, minimum) seen from ``start`` (None: any) up to ``end`` (None: none)."""
    return sorted(
        (s, m)
        for s, m in seen.items()
        if (start is None or s >= start) and (end is None or s < end)
    )


def _split(bands: Sequence[Mapping[str, Any]], seen: Mapping[int, int]) -> list[dict[str, Any]]:
    """The bands with each minimum as seen, a band split where what was seen in it differs."""
    ends = [b["from"] for b in bands[1:]] + [None]
    built: list[dict[str, Any]] = []
    for band, end in zip(bands, ends, strict=True):
        inside = _inside(band["from"], end, seen)
        minimum = inside[0][1] if inside else band["minimum"]
        canasta = list(band.get("canasta", []))
        built.append({"from": band["from"], "minimum": minimum, "canasta": canasta})
        for s, m in inside[1:]:
            if m != built[-1]["minimum"]:
                built.append({"from": s, "minimum": m, "canasta": canasta})
    return built


def _merged(bands: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The bands with each that comes to the minimum before it merged into it."""
    merged = [bands[0]]
    for band in bands[1:]:
        if band["minimum"] != merged[-1]["minimum"]:
            merged.append(band)
    return merged


def _bands(ruleset: Ruleset, answered: Answered) -> Iterator[Reading]:
    """The band table that gives every minimum observed.

    It is the ruleset's bands with each minimum as observed, a band split where its
    observations differ, and bands merged where they come to the same minimum.
    """
    seen = _minimums_seen(answered)
    bands = [dict(b) for b in ruleset.value("initial_meld.bands")]
    if not seen or all(_minimum_at(bands, s) == m for s, m in seen.items()):
        return
    yield "initial_meld.bands", _merged(_split(bands, seen))


# --------------------------------------------------------------------------- scores


_KINDS = ("natural", "mixed", "escalera", "bolivia")


def _scored_teams(question: Question, answer: Mapping[str, Any]) -> list[tuple[Any, Any]]:
    """A score answer's teams, each with the team asked about; none for another answer."""
    result = _result(answer)
    teams = question.input.get("teams")
    if question.op != "score" or result is None or not isinstance(teams, list):
        return []
    scored = result.get("teams")
    if not isinstance(scored, list) or len(scored) != len(teams):
        return []
    return list(zip(teams, scored, strict=True))


def _going_out(team: Mapping[str, Any], score: Mapping[str, Any]) -> Iterator[Reading]:
    """The going-out bonus a team that went out scored, concealed or not."""
    going_out = _number(score.get("going_out"))
    if going_out and team.get("concealed"):
        yield "going_out.concealed_bonus", going_out
    elif going_out and team.get("went_out"):
        yield "going_out.bonus", going_out


def _red_threes(
    ruleset: Ruleset, team: Mapping[str, Any], score: Mapping[str, Any]
) -> Iterator[Reading]:
    """The red threes' worth: all of them together, or each, or this many of them."""
    reds, worth = _number(team.get("red_threes")), _number(score.get("red_threes"))
    if reds and worth is not None:
        if reds == 2 * ruleset.rules.pack.decks:
            yield "red_threes.all_value", abs(worth)
        elif abs(worth) % reds == 0:
            yield "red_threes.value", abs(worth) // reds
        table = dict(ruleset.value("red_threes.value_by_count"))
        table[str(reds)] = abs(worth)
        yield "red_threes.value_by_count", dict(sorted(table.items(), key=lambda i: int(i[0])))


_MELD_KINDS = {"group": "group", "sequence": "sequence", "wild": "wild"}


def _penalties(
    predictor: Predictor, ruleset: Ruleset, team: Mapping[str, Any], score: Mapping[str, Any]
) -> Iterator[Reading]:
    """A penalty for one unfinished meld: its kind, and each size bound it may be under."""
    penalty, melds = _number(score.get("penalties")), team.get("melds")
    if not penalty or not isinstance(melds, list) or len(melds) != 1:
        return
    answer = _result(predictor.response(ruleset, "meld", {"cards": melds[0], "going_out": True}))
    kind = (answer or {}).get("kind")
    if kind not in _MELD_KINDS or not isinstance(melds[0], list):
        return
    size = len(melds[0])
    # a group's penalty may be its rank's alone, and a natural group's alone
    ranks = _ranks(ruleset, melds[0], wild=True)
    naturals = {rank for rank in ranks or () if rank is not None}
    shapes: list[dict[str, Any]] = [{}]
    if kind == "group" and ranks is not None and len(naturals) == 1:
        (rank,) = naturals
        shapes.append({"ranks": [rank]})
        if None not in ranks:
            shapes.append({"ranks": [rank], "natural_only": True})
    for fewer_than in (None, *range(size + 1, size + 5)):
        for shape in shapes:
            entry = {"kinds": [kind], **shape, "fewer_than": fewer_than, "points": abs(penalty)}
            yield "scoring.meld_penalties", [entry, *ruleset.value("scoring.meld_penalties")]


def _ranks(ruleset: Ruleset, cards: Any, *, wild: bool) -> list[str | None] | None:
    """Each card's rank (None for a joker, and with ``wild`` for any wild card); None for a
    list that is no cards."""
    try:
        parsed = parse_cards(cards)
    except (CardError, TypeError):
        return None
    is_wild = ruleset.wild
    return [
        None if card.rank == "JK" or (wild and is_wild[card.index]) else card.rank
        for card in parsed
    ]


def _hand_penalties(
    ruleset: Ruleset, team: Mapping[str, Any], score: Mapping[str, Any], expected: Any
) -> Iterator[Reading]:
    """A cost for cards kept in hand: penalties beyond what the ruleset predicts, read as a
    rank the team's one hand holds several of (``scoring.hand_penalties``)."""
    penalty, hands = _number(score.get("penalties")), team.get("hands")
    predicted = _number(expected.get("penalties")) if isinstance(expected, dict) else None
    if penalty is None or predicted is None or penalty >= predicted:
        return
    if not isinstance(hands, list) or len(hands) != 1 or not isinstance(hands[0], list):
        return
    held: dict[str, int] = {}
    for rank in _ranks(ruleset, hands[0], wild=False) or ():
        if rank is not None:
            held[rank] = held.get(rank, 0) + 1
    for rank, count in held.items():
        if count >= 2:
            entry = {"ranks": [rank], "at_least": count, "points": predicted - penalty}
            yield "scoring.hand_penalties", [*ruleset.value("scoring.hand_penalties"), entry]


def _scores(predictor: Predictor, ruleset: Ruleset, answered: Answered) -> Iterator[Reading]:
    """What the score answers show: going out, red threes, the canastas' bonuses."""
    for question, answer in answered:
        teams = _scored_teams(question, answer)
        expected: list[Any] = []
        if teams:
            predicted = _result(predictor.response(ruleset, "score", question.input)) or {}
            expected = predicted.get("teams") or []
        for i, (team, score) in enumerate(teams):
            if not isinstance(team, dict) or not isinstance(score, dict):
                continue
            yield from _going_out(team, score)
            yield from _red_threes(ruleset, team, score)
            yield from _penalties(predictor, ruleset, team, score)
            if i < len(expected):
                yield from _hand_penalties(ruleset, team, score, expected[i])
            bonuses = _number(score.get("bonuses"))
            if bonuses is not None:
                yield from _bonuses(predictor, ruleset, team.get("melds", []), bonuses)


def _canastas(predictor: Predictor, ruleset: Ruleset, melds: list[Any]) -> dict[str, int]:
    """How many of the melds the ruleset counts as canastas of each kind."""
    counts = dict.fromkeys(_KINDS, 0)
    for meld in melds:
        answer = predictor.response(ruleset, "meld", {"cards": meld, "going_out": True})
        kind = (_result(answer) or {}).get("canasta")
        if kind in counts:
            counts[kind] += 1
    return counts


def _bonuses(predictor: Predictor, ruleset: Ruleset, melds: Any, total: int) -> Iterator[Reading]:
    """Each canasta kind's bonus that, with the others' as the ruleset has them, makes the
    team's bonuses what the engine answered."""
    if not isinstance(melds, list):
        return
    counts = _canastas(predictor, ruleset, melds)
    bonus = {kind: getattr(ruleset.rules.canastas, kind).bonus for kind in _KINDS}
    for kind, count in counts.items():
        if not count:
            continue
        rest = total - sum(bonus[k] * n for k, n in counts.items() if k != kind)
        if rest >= 0 and rest % count == 0:
            yield f"canastas.{kind}.bonus", rest // count


# --------------------------------------------------------------------------- special canastas


def _special_cards(
    predictor: Predictor, ruleset: Ruleset, question: Question, answer: Mapping[str, Any]
) -> tuple[str, list[str], int, str | None] | None:
    """A canasta paid a bonus the ruleset does not pay it: its kind, cards, bonus, and the
    name the engine gave it where it answered one unlike the ruleset's (protocol 3)."""
    result = _result(answer)
    if question.op not in ("meld", "extend") or result is None:
        return None
    bonus, kind = _number(result.get("bonus")), result.get("canasta")
    if bonus is None or kind not in _KINDS:
        return None
    ours = _result(predictor.response(ruleset, question.op, question.input)) or {}
    if ours.get("canasta") != kind or ours.get("bonus") == bonus:
        return None
    cards = _canasta_cards(question)
    name = result.get("name")
    if not isinstance(name, str) or not 0 < len(name) <= 40 or name == ours.get("name"):
        name = None
    return None if cards is None else (str(kind), cards, bonus, name)


def _canasta_cards(question: Question) -> list[str] | None:
    """The cards of the canasta a meld or extend question makes, if cards."""
    cards = question.input.get("cards")
    if question.op == "extend":
        cards = [*question.input.get("meld", []), *question.input.get("add", [])]
    if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
        return None
    return cards


def _specials(predictor: Predictor, ruleset: Ruleset, answered: Answered) -> Iterator[Reading]:
    """A special canasta before the ruleset's own (and after them), for each canasta whose
    answered bonus is not the one the ruleset pays: one reading for each way of naming what
    sets it apart."""
    special = list(ruleset.value("canastas.special"))
    wild_ranks = {str(rank) for rank in ruleset.rules.pack.wild_ranks}
    seen: set[str] = set()
    for question, answer in answered:
        found = _special_cards(predictor, ruleset, question, answer)
        if found is None:
            continue
        kind, cards, bonus, name = found
        for entry in _special_entries(kind, cards, wild_ranks, bonus, name):
            key = repr(sorted(entry.items()))
            if key not in seen:
                seen.add(key)
                yield "canastas.special", [entry, *special]
                if special:  # after them: where it would leave one of them unpaid
                    yield "canastas.special", [*special, entry]


def _special_entries(
    kind: str, cards: Sequence[str], wild_ranks: set[str], bonus: int, name: str | None = None
) -> Iterator[dict[str, Any]]:
    """The special canastas a canasta of these cards could be: every canasta of its kind, or
    of its rank (a group), of its size or more, of its wild cards exactly, of its jokers
    exactly. Each is called what the engine called it, else by what sets it apart."""
    jokers = sum(card == "JK" for card in cards)
    wilds = sum(card == "JK" or card[:-1] in wild_ranks for card in cards)
    naturals = [card[:-1] for card in cards if card != "JK" and card[:-1] not in wild_ranks]
    base = {"kind": kind, "bonus": bonus}
    if name is not None:
        yield {"name": name, **base}
    if kind in ("natural", "mixed") and naturals:
        rank = naturals[0]
        yield {"name": name or f"canasta of {rank}s", **base, "rank": rank}
    yield {"name": name or f"{len(cards)}-card {kind} canasta", **base, "min_size": len(cards)}
    yield {
        "name": name or f"{kind} canasta of {wilds} wild",
        **base,
        "min_wild": wilds,
        "max_wild": wilds,
    }
    yield {
        "name": name or f"{kind} canasta of {jokers} jokers",
        **base,
        "min_jokers": jokers,
        "max_jokers": jokers,
    }
