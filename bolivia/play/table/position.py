"""Positions: a moment of a hand as data, read into a hand and written back.

A position holds whose turn it is, the phase, every hand, each side's melds and red threes,
the pile, the stock's size, who has melded and the question to the partner. It is read from the
oracle protocol's JSON into a :class:`~bolivia.play.table.hand.Hand`, so that any engine can be
asked what a turn rule allows, through ``act`` and ``moves``.

Every card placed comes from the ruleset's pack: a position naming more copies of a card than
the pack holds is refused (``too-many-copies``). The cards it does not place are the stock (the
first ``stock`` of them, by card index, when it gives the stock's size); the rest are out of
play. The stock's order does not matter to what is legal.

>>> from bolivia.rules.library import shipped_library
>>> da = shipped_library().load("bolivia-da")
>>> hand = hand_at(da, {"turn": 1, "phase": "play", "hands": [[], ["8C", "8D", "KD"], [], []],
...                     "melds": [[], [["8H", "8S", "8S"]]], "pile": ["5C"], "stock": 40})
>>> hand.current, hand.sizes[1], len(hand.stock), len(hand.set_aside)
(1, 3, 40, 115)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bolivia.cards import Card, parse_cards
from bolivia.engine.melds import verify_meld
from bolivia.errors import BadRequest, CardError, Illegal
from bolivia.play.table.hand import Hand
from bolivia.play.table.state import Phase
from bolivia.rules.ruleset import Ruleset

__all__ = ["FIELDS", "hand_at", "position_of"]

# field -> (what it holds, required)
FIELDS: dict[str, tuple[str, bool]] = {
    "players": ("a whole number", False),
    "turn": ("a whole number", False),
    "phase": ("draw or play", False),
    "hands": ("a list of card lists, one per player", True),
    "melds": ("a list, one per side, of card lists (its melds)", False),
    "red_threes": ("a list of whole numbers, one per side", False),
    "black_threes": ("a list of whole numbers, one per side", False),
    "pile": ("a card list, bottom first", False),
    "stock": ("a whole number, or a card list, top first", False),
    "scores": ("a list of whole numbers, one per side", False),
    "melded": ("a list of true or false, one per player", False),
    "asked": ('null, "pending", "yes" or "no"', False),
    "going_out": ("true or false", False),
    "picked_up": ("true or false", False),
    "first_round": ("a whole number, at most the players", False),
    "feet": ("a list of card lists, one per player: each foot still aside", False),
    "bonus_piles": ("a list of card lists: the bonus piles not yet taken, the next first", False),
}
MAX_INT = 10**9
RED_THREES = (Card.parse("3D").index, Card.parse("3H").index)
BLACK_THREES = (Card.parse("3C").index, Card.parse("3S").index)


def _int(data: Mapping[str, Any], key: str, default: int, low: int = 0) -> int:
    value = data.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool):
        raise BadRequest(f"position.{key} is a whole number")
    if not low <= value <= MAX_INT:
        raise BadRequest(f"position.{key} is {value}: it runs from {low} to {MAX_INT}")
    return value


def _list(data: Mapping[str, Any], key: str, length: int, default: Any) -> list[Any]:
    value = data.get(key)
    if value is None:
        return [default] * length
    if not isinstance(value, list):
        raise BadRequest(f"position.{key} is {FIELDS[key][0]}")
    if len(value) != length:
        raise BadRequest(f"position.{key} holds {len(value)} entries; it needs {length}")
    return value


def _cards(value: Any, where: str) -> tuple[Card, ...]:
    if not isinstance(value, list):
        raise BadRequest(f'{where} is a list of cards such as ["8H", "JK"]')
    if len(value) > 1000:
        raise BadRequest(f"{where} names {len(value)} cards; at most 1000", "too-large")
    try:
        return parse_cards(value)
    except CardError as exc:
        raise BadRequest(f"in {where}: {exc}", "bad-card") from None


def hand_at(ruleset: Ruleset, data: Any) -> Hand:
    """The hand at this position.

    :class:`BadRequest` says what is wrong with it, naming the field, with the protocol's code
    (``bad-request``, ``bad-card``, ``too-many-copies``, ``too-large``). The fields are read in
    a fixed order, so a position with several faults is always told of the same one.
    """
    _check_fields(data)
    players, teams = _seating(ruleset, data)
    turn = _int(data, "turn", 0)
    if turn >= players:
        raise BadRequest(f"position.turn is {turn}, but the players are 0 to {players - 1}")
    phase, asked = _turn_state(data)
    hands = [
        _cards(cards, f"position.hands[{p}]")
        for p, cards in enumerate(_list(data, "hands", players, []))
    ]
    melds = _melds(data, teams)
    red, black = _threes(ruleset, data, teams)
    pile = _cards(data.get("pile", []), "position.pile")
    feet, bonus = _aside(ruleset, data, players)
    scores = [_int({"scores": n}, "scores", 0, -MAX_INT) for n in _list(data, "scores", teams, 0)]
    melded = _melded(data, players, [bool(melds[p % teams]) for p in range(players)])
    if data.get("going_out") and phase != "play":
        raise BadRequest(
            "position.going_out is for the play phase: a player starts going out after drawing"
        )
    pack = _Pack(ruleset)
    pack.take_aside(feet, bonus)
    stock, rest = _stock(pack, data, pack.rest(hands, melds, pile, sum(red), sum(black)))
    hand = Hand(ruleset, players, pack.deck, turn, scores, deal=False)
    _place(ruleset, hand, hands, melds, pile)
    hand.red_threes = red
    hand.black_threes = black
    hand.feet = [[c.index for c in foot] for foot in feet]
    hand.bonus = [[c.index for c in packet] for packet in bonus]
    # the stock's top is its last card: those named, else the lowest cards of the rest
    hand.stock = rest[:stock][::-1]
    hand.set_aside = rest[stock:]
    _set_turn(hand, data, teams, turn, phase, melded)
    _set_question(hand, turn, asked)
    return hand


def _aside(
    ruleset: Ruleset, data: Mapping[str, Any], players: int
) -> tuple[list[tuple[Card, ...]], list[tuple[Card, ...]]]:
    """The feet still aside (one per player, empty once taken up) and the bonus piles not yet
    taken, checked against ``deal.foot`` and ``deal.bonus_piles``. Absent, none is left."""
    deal = ruleset.rules.deal
    feet = [
        _cards(cards, f"position.feet[{p}]")
        for p, cards in enumerate(_list(data, "feet", players, []))
    ]
    for p, foot in enumerate(feet):
        size = deal.foot.cards if deal.foot is not None else 0
        if foot and len(foot) != size:
            raise BadRequest(
                f"position.feet[{p}] holds {len(foot)} cards, but "
                + (
                    f"a foot holds {size} (deal.foot), or none once taken up"
                    if size
                    else f"{ruleset.id} deals no foot (deal.foot)"
                )
            )
    piles = data.get("bonus_piles", [])
    if not isinstance(piles, list):
        raise BadRequest(f"position.bonus_piles is {FIELDS['bonus_piles'][0]}")
    bonus = [_cards(cards, f"position.bonus_piles[{i}]") for i, cards in enumerate(piles)]
    sizes = deal.bonus_piles
    left = sizes[len(sizes) - len(bonus) :] if len(bonus) <= len(sizes) else None
    if left is None or [len(b) for b in bonus] != list(left):
        raise BadRequest(
            f"position.bonus_piles holds piles of {[len(b) for b in bonus]} cards, but the "
            f"piles left of {ruleset.id}'s {list(sizes)} (deal.bonus_piles) are the last ones, "
            "in order"
        )
    return feet, bonus


def _threes(ruleset: Ruleset, data: Mapping[str, Any], teams: int) -> tuple[list[int], list[int]]:
    """Each side's red threes laid out and black threes set aside (these only where the
    ruleset sets them aside)."""
    red = [_int({"red_threes": n}, "red_threes", 0) for n in _list(data, "red_threes", teams, 0)]
    black = [
        _int({"black_threes": n}, "black_threes", 0) for n in _list(data, "black_threes", teams, 0)
    ]
    if any(black) and ruleset.rules.pile.black_threes_aside is None:
        raise BadRequest(
            f"position.black_threes counts black threes set aside, but {ruleset.id} sets none "
            "aside (pile.black_threes_aside)"
        )
    return red, black


def _stock(pack: _Pack, data: Mapping[str, Any], rest: list[int]) -> tuple[int, list[int]]:
    """The stock's size and the cards not placed, those of a stock named as cards first (top
    last reversed: the stock is their first ``size``, top first)."""
    named = data.get("stock")
    if isinstance(named, list):  # the stock's cards, top first (a red three among them)
        cards = _cards(named, "position.stock")
        pack.take(cards, "position.stock")
        top_last = [card.index for card in reversed(cards)]
        for index in top_last:
            rest.remove(index)
        stock, rest = len(top_last), [*top_last[::-1], *rest]
    elif named is not None and (not isinstance(named, int) or isinstance(named, bool)):
        raise BadRequest("position.stock is a whole number, or a list of cards, top first")
    else:
        stock = _int(data, "stock", len(rest))
    if stock > len(rest):
        raise BadRequest(
            f"position.stock is {stock}, but only {len(rest)} cards of the pack are not placed"
        )
    return stock, rest


def _check_fields(data: Any) -> None:
    """Refuse a position that is not an object of known fields with hands."""
    if not isinstance(data, Mapping):
        raise BadRequest("position is an object (see the protocol's 'Positions')")
    unknown = sorted(set(data) - set(FIELDS))
    if unknown:
        raise BadRequest(
            f"unknown field 'position.{unknown[0]}' (a position takes: {', '.join(FIELDS)})"
        )
    if "hands" not in data:
        raise BadRequest("missing field 'position.hands'")


def _seating(ruleset: Ruleset, data: Mapping[str, Any]) -> tuple[int, int]:
    """The players and the sides, where the ruleset seats that many players."""
    rules = ruleset.rules
    players = _int(data, "players", rules.players.usual, 2)
    seating = rules.players.seats.get(players)
    if seating is None:
        raise BadRequest(
            f"{ruleset.id} is played by {', '.join(map(str, sorted(rules.players.seats)))} "
            f"players, not {players}"
        )
    return players, seating.teams


def _turn_state(data: Mapping[str, Any]) -> tuple[Phase, str | None]:
    """The phase and the question to the partner, with the turn's flags checked."""
    given = data.get("phase", "draw")
    phase: Phase
    if given == "draw":
        phase = "draw"
    elif given == "play":
        phase = "play"
    else:
        raise BadRequest(f"position.phase is draw or play, not {given!r}")
    asked = data.get("asked")
    if asked not in (None, "pending", "yes", "no"):
        raise BadRequest(f'position.asked is null, "pending", "yes" or "no", not {asked!r}')
    for key in ("going_out", "picked_up"):
        if not isinstance(data.get(key, False), bool):
            raise BadRequest(f"position.{key} is true or false")
    return phase, asked


def _melds(data: Mapping[str, Any], teams: int) -> list[list[tuple[Card, ...]]]:
    """Each side's melds, as card lists (not yet checked as melds)."""
    melds: list[list[tuple[Card, ...]]] = []
    for t, side in enumerate(_list(data, "melds", teams, [])):
        if not isinstance(side, list):
            raise BadRequest(f"position.melds[{t}] is a list of card lists (the side's melds)")
        melds.append([_cards(m, f"position.melds[{t}][{i}]") for i, m in enumerate(side)])
    return melds


def _melded(data: Mapping[str, Any], players: int, default: list[bool]) -> list[bool]:
    """Whether each player has melded; by default, whether the side has melds."""
    melded = data.get("melded", default)
    if (
        not isinstance(melded, list)
        or len(melded) != players
        or not all(isinstance(m, bool) for m in melded)
    ):
        raise BadRequest(f"position.melded is {FIELDS['melded'][0]} ({players})")
    return list(melded)


class _Pack:
    """The ruleset's pack by card index, as a position places its cards."""

    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset
        # every card from the pack, red threes by number
        self.deck = sorted(card.index for card in ruleset.pack.cards())
        self.pool = [0] * 53
        for i in self.deck:
            self.pool[i] += 1

    def rest(
        self,
        hands: list[tuple[Card, ...]],
        melds: list[list[tuple[Card, ...]]],
        pile: tuple[Card, ...],
        red: int,
        black: int = 0,
    ) -> list[int]:
        """The cards left once these are placed, by index."""
        for p, cards in enumerate(hands):
            self.take(cards, f"position.hands[{p}]")
        for t, side in enumerate(melds):
            for i, cards in enumerate(side):
                self.take(cards, f"position.melds[{t}][{i}]")
        self.take(pile, "position.pile")
        self.take_threes(RED_THREES, red, "red threes")
        self.take_threes(BLACK_THREES, black, "black threes")
        return [i for i in range(53) for _ in range(self.pool[i])]

    def take_aside(self, feet: list[tuple[Card, ...]], bonus: list[tuple[Card, ...]]) -> None:
        """Take the feet still aside and the bonus piles left from the pack."""
        for p, foot in enumerate(feet):
            self.take(foot, f"position.feet[{p}]")
        for i, packet in enumerate(bonus):
            self.take(packet, f"position.bonus_piles[{i}]")

    def take(self, cards: tuple[Card, ...], where: str) -> None:
        """Take these cards from the pack.

        A red three is refused but in the pile, and so is a card named more often than the
        pack holds it.
        """
        pool = self.pool
        for card in cards:
            if card.is_red_three and not where.startswith(
                ("position.pile", "position.stock", "position.feet", "position.bonus_piles")
            ):
                raise BadRequest(
                    f"{where} holds {card!r}: red threes are laid out at once (count them in "
                    "position.red_threes)"
                )
            pool[card.index] -= 1
            if pool[card.index] < 0:
                raise BadRequest(
                    f"the position names {card!r} more often than the pack of "
                    f"{self.ruleset.id} holds it ({self.ruleset.pack.copies(card)})",
                    "too-many-copies",
                )

    def take_threes(self, threes: tuple[int, int], count: int, what: str) -> None:
        """Take the threes the sides have laid out (or set aside), by number."""
        pool = self.pool
        if count > sum(pool[i] for i in threes):
            raise BadRequest(
                f"the position counts {count} {what}; the pack of {self.ruleset.id} holds "
                f"{2 * self.ruleset.pack.decks}",
                "too-many-copies",
            )
        for i in threes:
            used = min(count, pool[i])
            pool[i] -= used
            count -= used


def _place(
    ruleset: Ruleset,
    hand: Hand,
    hands: list[tuple[Card, ...]],
    melds: list[list[tuple[Card, ...]]],
    pile: tuple[Card, ...],
) -> None:
    """Put the cards in the hands, the melds (each checked) and the pile."""
    for p, cards in enumerate(hands):
        for card in cards:
            hand._to_hand(p, card.index)
    for t, side in enumerate(melds):
        for i, cards in enumerate(side):
            try:
                meld = verify_meld(ruleset, cards, going_out=True)
            except Illegal as exc:
                raise BadRequest(f"position.melds[{t}][{i}] is not a legal meld: {exc}") from None
            hand.melds[t].append(meld)
    for card in pile:
        hand._pile_push(card.index)


def _set_turn(
    hand: Hand, data: Mapping[str, Any], teams: int, turn: int, phase: Phase, melded: list[bool]
) -> None:
    """Set the turn's phase and flags, and who had melded before it."""
    hand.melded = melded
    hand.phase = phase
    hand.committed = bool(data.get("going_out", False))
    hand.picked_up = bool(data.get("picked_up", False))
    hand.first_round = _int(data, "first_round", 0)
    if hand.first_round > hand.players:
        raise BadRequest(
            f"position.first_round is {hand.first_round}: a round is {hand.players} turns"
        )
    hand.melded_before = hand.melded[turn] and not hand.picked_up
    hand.side_melded_before = bool(hand.melds[turn % teams]) and not hand.picked_up


def _set_question(hand: Hand, turn: int, asked: str | None) -> None:
    """Set the question to the partner: pending, or answered."""
    if asked == "pending":
        if not hand.partnerships:
            raise BadRequest("position.asked is pending, but nobody plays in partnerships here")
        hand.asker = turn
        hand.answer_phase = hand.phase
        hand.current = hand.partner(turn)
        hand.phase = "answer"
    elif asked is not None:
        hand.asked = asked == "yes"


def position_of(hand: Hand) -> dict[str, Any]:
    """The position of a hand as the protocol writes it."""

    def cards(indices: Sequence[int]) -> list[str]:
        return [repr(Card.from_index(i)) for i in indices]

    turn = hand.asker if hand.phase == "answer" and hand.asker is not None else hand.current
    out: dict[str, Any] = {
        "players": hand.players,
        "turn": turn,
        "phase": hand.answer_phase if hand.phase == "answer" else hand.phase,
        "hands": [cards([i for i, n in enumerate(h) for _ in range(n)]) for h in hand.hands],
        "melds": [[[repr(c) for c in meld.cards] for meld in side] for side in hand.melds],
        "red_threes": list(hand.red_threes),
        **({"black_threes": list(hand.black_threes)} if any(hand.black_threes) else {}),
        "pile": cards(hand.pile),
        "stock": len(hand.stock),
        "scores": list(hand.team_scores),
        "melded": list(hand.melded),
        "asked": _question(hand),
    }
    if hand.committed:
        out["going_out"] = True
    if hand.picked_up:
        out["picked_up"] = True
    if hand.first_round:
        out["first_round"] = hand.first_round
    if any(hand.feet):
        out["feet"] = [cards(foot) for foot in hand.feet]
    if hand.bonus:
        out["bonus_piles"] = [cards(packet) for packet in hand.bonus]
    return out


def _question(hand: Hand) -> str | None:
    """The question to the partner as the protocol writes it."""
    if hand.phase == "answer":
        return "pending"
    if hand.asked is None:
        return None
    return "yes" if hand.asked else "no"
