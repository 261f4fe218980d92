"""Rule values an engine's answers show outright, beyond the variants' few alternatives.

Some answers are a rule value, or close to one: ``info`` gives the pack, the seatings and the
target; ``card_points`` of one card gives that card's worth; ``score`` gives the going-out
bonus, the red threes' worth and the canasta bonuses of a team; ``initial_minimum`` gives the
minimum at a score; a ``meld`` or ``extend`` answer's ``bonus`` unlike the kind's gives a
canasta paid a bonus of its own (``canastas.special``), read as what its cards have in common
with the special canastas rulebooks name: its rank, its size, its wild cards or jokers. Each
reading is only a candidate: the search keeps a value only when the ruleset with it explains
the answers.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

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


def _info(ruleset: Ruleset, answered: Answered) -> Iterator[Reading]:
    seats = copy.deepcopy(ruleset.value("players.seats"))
    by_players = dict(ruleset.value("game.target_by_players"))
    target = None
    usual = ruleset.rules.players.usual
    changed = False
    for question, answer in answered:
        if question.op != "info":
            continue
        players = question.input.get("players")
        result = _result(answer)
        if result is None:
            error = answer.get("error")
            if (
                players is not None
                and isinstance(error, dict)
                and error.get("code") == "bad-request"
            ):
                changed |= seats.pop(str(players), None) is not None
            continue
        for key, path in _INFO_LEAVES.items():
            if key in result and isinstance(result[key], type(ruleset.value(path))):
                yield path, result[key]
        if players is None and _number(result.get("players")) is not None:
            yield "players.usual", result["players"]
            players = usual = result["players"]
        if isinstance(result.get("ask_partner"), str) and result.get("partnerships"):
            yield "going_out.ask_partner", result["ask_partner"]
        exhausted = result.get("stock_exhausted")
        if exhausted == "end_hand":
            yield "stock.exhausted", {"rule": "end_hand"}
        elif exhausted == "take_discards":
            for must in (True, False):
                yield "stock.exhausted", {"rule": "take_discards", "must_take_onto_meld": must}
        n = _number(players)
        n = usual if n is None else n
        seat = _seating(seats.get(str(n)), n, result)
        if seat is not None and seat != seats.get(str(n)):
            seats[str(n)] = seat
            changed = True
        if _number(result.get("target")) is not None:
            if n == usual:
                target = result["target"]
            else:
                by_players[str(n)] = result["target"]
    if changed:
        yield "players.seats", dict(sorted(seats.items(), key=lambda item: int(item[0])))
    if target is not None:
        yield "game.target", target
    main = target if target is not None else ruleset.rules.game.target
    table = {k: v for k, v in sorted(by_players.items()) if v != main}
    if table != ruleset.value("game.target_by_players"):
        yield "game.target_by_players", table


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


def _card_points(ruleset: Ruleset, answered: Answered) -> Iterator[Reading]:
    table = dict(ruleset.value("scoring.card_points"))
    seen = False
    for question, answer in answered:
        result = _result(answer)
        cards = question.input.get("cards")
        if question.op != "card_points" or result is None or not isinstance(cards, list):
            continue
        points = _number(result.get("points"))
        if points is None or len(cards) != 1 or not isinstance(cards[0], str):
            continue
        card = cards[0].upper()
        worth = -points if question.input.get("in_hand") else points
        if card in ("3H", "3D"):
            yield "red_threes.value", worth
        elif card in ("3C", "3S") and question.input.get("in_hand"):
            yield "scoring.black_three_in_hand", worth
        else:
            key = "JK" if card == "JK" else card[:-1]
            if key in table:
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


def _bands(ruleset: Ruleset, answered: Answered) -> Iterator[Reading]:
    """The band table that gives every minimum observed: the ruleset's bands with each
    minimum as observed, a band split where its observations differ, and bands merged where
    they come to the same minimum."""
    seen: dict[int, int] = {}
    for question, answer in answered:
        result = _result(answer)
        score = _number(question.input.get("team_score"))
        if question.op not in ("initial_minimum", "initial_meld") or result is None:
            continue
        minimum = _number(result.get("minimum"))
        if score is not None and minimum is not None:
            seen[score] = minimum
    bands = [dict(b) for b in ruleset.value("initial_meld.bands")]
    if not seen or all(_minimum_at(bands, s) == m for s, m in seen.items()):
        return
    starts = [b["from"] for b in bands]
    built: list[dict[str, Any]] = []
    for i, band in enumerate(bands):
        end = starts[i + 1] if i + 1 < len(starts) else None
        inside = sorted(
            (s, m)
            for s, m in seen.items()
            if (band["from"] is None or s >= band["from"]) and (end is None or s < end)
        )
        minimum = inside[0][1] if inside else band["minimum"]
        built.append({"from": band["from"], "minimum": minimum})
        for s, m in inside[1:]:
            if m != built[-1]["minimum"]:
                built.append({"from": s, "minimum": m})
    merged = [built[0]]
    for band in built[1:]:
        if band["minimum"] != merged[-1]["minimum"]:
            merged.append(band)
    yield "initial_meld.bands", merged


# --------------------------------------------------------------------------- scores


_KINDS = ("natural", "mixed", "escalera", "bolivia")


def _scores(predictor: Predictor, ruleset: Ruleset, answered: Answered) -> Iterator[Reading]:
    rules = ruleset.rules
    for question, answer in answered:
        result = _result(answer)
        teams = question.input.get("teams")
        if question.op != "score" or result is None or not isinstance(teams, list):
            continue
        scored = result.get("teams")
        if not isinstance(scored, list) or len(scored) != len(teams):
            continue
        for team, score in zip(teams, scored, strict=True):
            if not isinstance(team, dict) or not isinstance(score, dict):
                continue
            going_out = _number(score.get("going_out"))
            if going_out and team.get("concealed"):
                yield "going_out.concealed_bonus", going_out
            elif going_out and team.get("went_out"):
                yield "going_out.bonus", going_out
            reds, worth = _number(team.get("red_threes")), _number(score.get("red_threes"))
            if reds and worth is not None:
                if reds == 2 * rules.pack.decks:
                    yield "red_threes.all_value", abs(worth)
                elif abs(worth) % reds == 0:
                    yield "red_threes.value", abs(worth) // reds
            bonuses = _number(score.get("bonuses"))
            if bonuses is not None:
                yield from _bonuses(predictor, ruleset, team.get("melds", []), bonuses)


def _bonuses(predictor: Predictor, ruleset: Ruleset, melds: Any, total: int) -> Iterator[Reading]:
    """Each canasta kind's bonus that, with the others' as the ruleset has them, makes the
    team's bonuses what the engine answered."""
    if not isinstance(melds, list):
        return
    counts = dict.fromkeys(_KINDS, 0)
    for meld in melds:
        answer = predictor.response(ruleset, "meld", {"cards": meld, "going_out": True})
        kind = (_result(answer) or {}).get("canasta")
        if kind in counts:
            counts[kind] += 1
    bonus = {kind: getattr(ruleset.rules.canastas, kind).bonus for kind in _KINDS}
    for kind, count in counts.items():
        if not count:
            continue
        rest = total - sum(bonus[k] * n for k, n in counts.items() if k != kind)
        if rest >= 0 and rest % count == 0:
            yield f"canastas.{kind}.bonus", rest // count


# --------------------------------------------------------------------------- special canastas


def _specials(predictor: Predictor, ruleset: Ruleset, answered: Answered) -> Iterator[Reading]:
    """A special canasta before the ruleset's own, for each canasta whose answered bonus is
    not the one the ruleset pays: one reading for each way of naming what sets it apart."""
    special = list(ruleset.value("canastas.special"))
    wild_ranks = {str(rank) for rank in ruleset.rules.pack.wild_ranks}
    seen: set[str] = set()
    for question, answer in answered:
        result = _result(answer)
        if question.op not in ("meld", "extend") or result is None:
            continue
        bonus, kind = _number(result.get("bonus")), result.get("canasta")
        if bonus is None or kind not in _KINDS:
            continue
        ours = _result(predictor.response(ruleset, question.op, question.input)) or {}
        if ours.get("canasta") != kind or ours.get("bonus") == bonus:
            continue
        cards = question.input.get("cards")
        if question.op == "extend":
            cards = [*question.input.get("meld", []), *question.input.get("add", [])]
        if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
            continue
        for entry in _special_entries(str(kind), cards, wild_ranks, bonus):
            key = repr(sorted(entry.items()))
            if key not in seen:
                seen.add(key)
                yield "canastas.special", [entry, *special]


def _special_entries(
    kind: str, cards: Sequence[str], wild_ranks: set[str], bonus: int
) -> Iterator[dict[str, Any]]:
    """The special canastas a canasta of these cards could be: of its rank (a group), of its
    size or more, of its wild cards exactly, of its jokers exactly."""
    jokers = sum(card == "JK" for card in cards)
    wilds = sum(card == "JK" or card[:-1] in wild_ranks for card in cards)
    naturals = [card[:-1] for card in cards if card != "JK" and card[:-1] not in wild_ranks]
    base = {"kind": kind, "bonus": bonus}
    if kind in ("natural", "mixed") and naturals:
        rank = naturals[0]
        yield {"name": f"canasta of {rank}s", **base, "rank": rank}
    yield {"name": f"{len(cards)}-card {kind} canasta", **base, "min_size": len(cards)}
    yield {"name": f"{kind} canasta of {wilds} wild", **base, "min_wild": wilds, "max_wild": wilds}
    yield {
        "name": f"{kind} canasta of {jokers} jokers",
        **base,
        "min_jokers": jokers,
        "max_jokers": jokers,
    }
