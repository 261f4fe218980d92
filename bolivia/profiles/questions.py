"""Situations a profile generates to tell rule values apart, beyond the comparison's
enumeration (:mod:`bolivia.compare.witnesses`), for the pack of the ruleset asked about.

- Melds: a run of every length up to the pack's limit (an ace at both ends for the longest),
  natural or with one or two wild cards; a group of every count of naturals with every count of
  wild cards up to the pack's; per rank, its natural canasta and a group of it with a wild
  card; wild-card melds and black-three melds of every size.
- Extending: a wild card onto a canasta in every way the rules tell apart: onto a natural, a
  mixed and a wild canasta, a joker or a two, one or two at a time, in going out or not.
- The pile: taken by a side that has melded, frozen by a wild card and not, every way: onto a
  group, a canasta and a sequence, with naturals from the hand, with naturals and a wild card;
  each with melds of three cards and of five (the least size of some rulesets).
- A second group of a rank: laid from the hand beside the side's group of three, or canasta,
  of that rank (the rule the pickups' pair starting a new group may hide).
- The top card taken alone: onto a group of three, of five and a canasta, onto a sequence of
  three and of five.
- Going out: a side holding none to four natural canastas, with an escalera and without; and
  the same at every seating the ruleset allows, as a player discarding the last card.
- Card points: every card one at a time, in hand and laid out.
- Scoring: every number of red threes the pack holds, beside no canasta, one and two; each
  meld kind left unfinished at every size; per rank, a group of it left unfinished (natural
  and mixed), and three or four of it kept in a hand.
- Game end: every number of hands played up to fifty, ahead and tied.
- The first meld: the minimum at every hundred points from -500 to 20,000 (the profile then
  narrows a band's start to the point, :func:`bisections`).
- Turn rules: every number of players from two to eight.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from bolivia.rules.ruleset import Ruleset

__all__ = ["bisections", "generated"]

RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
SUITS = "HSDC"
HANDS_PLAYED = 50  # the most hands a game-end question counts
SCORES = range(-500, 20_001, 100)  # the scores the first meld's minimum is asked at

Request = tuple[str, dict[str, Any]]


_NATURAL_RANKS = ("4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")


def _run(start: int, length: int, suit: str = "H") -> list[str]:
    return [f"{RANKS[(start + i) % 13]}{suit}" for i in range(length)]


def _group(rank: str, naturals: int, wilds: int) -> list[str]:
    cards = [f"{rank}{SUITS[i % 4]}" for i in range(naturals)]
    return cards + [("JK" if i % 2 else f"2{SUITS[i % 4]}") for i in range(wilds)]


def _melds(decks: int, jokers: int) -> Iterator[Request]:
    for length in range(3, 15):
        for start in (1, 2):  # from the three, from the four
            if start + length <= 13:
                yield "meld", {"cards": _run(start, length)}
        if length <= 13:  # up to the ace, and an ace below the two at fourteen
            yield "meld", {"cards": _run(13 - length, length, "S")}
        yield "meld", {"cards": ["AS", *_run(0, 13, "S")][:length]}
        for wilds in (1, 2):
            if 2 + length - wilds <= 13:
                yield "meld", {"cards": [*_run(2, length - wilds, "C"), *["JK", "2D"][:wilds]]}
    for rank in _NATURAL_RANKS:  # a rank's own canasta, and its own limit of wild cards
        yield "meld", {"cards": _group(rank, 7, 0)}
        yield "meld", {"cards": _group(rank, 3, 1)}
    most = 4 * decks + jokers
    for naturals in range(1, min(4 * decks, 12) + 1):
        for wilds in range(0, min(most, 10) + 1):
            if naturals + wilds >= 2:
                yield "meld", {"cards": _group("K", naturals, wilds)}
    for size in range(2, min(most, 12) + 1):
        yield "meld", {"cards": _group("K", 0, size)}
        threes = ["3C", "3S"] * (size // 2) + ["3C"] * (size % 2)
        yield "meld", {"cards": threes[: min(size, 2 * decks)], "going_out": True}
        yield "meld", {"cards": [*threes[: min(size, 2 * decks)], "JK"], "going_out": True}


def _extends() -> Iterator[Request]:
    canastas = {
        "natural": _group("K", 7, 0),
        "mixed": _group("Q", 5, 2),
        "wild": _group("K", 0, 7),
        "group": _group("9", 4, 0),
    }
    for meld in canastas.values():
        for add in (["JK"], ["2C"], ["JK", "2C"], ["8D"]):
            for going_out in (False, True):
                yield "extend", {"meld": meld, "add": add, "going_out": going_out}
    for length in range(3, 13):
        yield "extend", {"meld": _run(2, length), "add": [_run(2, length + 1)[-1]]}
        yield "extend", {"meld": _run(2, length), "add": ["JK"]}


def _pickups() -> Iterator[Request]:
    hand = ["KD", "QD", "JD"]
    for under in (["4D"], ["4D", "2D"]):  # not frozen; frozen by a wild card
        pile = [*under, "8C"]
        for size in (3, 5):  # melds of the least size of most rulesets, and of some others
            for meld in (_group("8", size, 0), _group("8", 7, 0), _run(7, size, "C")):
                yield "pickup", {"pile": pile, "hand": hand, "team_melds": [meld], "onto": 0}
            naturals = ["8H", "8S", "8D", "8H"][: size - 1]
            for held in (naturals, [*naturals[:-1], "2C"]):
                yield (
                    "pickup",
                    {
                        "pile": pile,
                        "hand": [*held, *hand],
                        "team_melds": [_group("9", size, 0)],
                        "with": held,
                    },
                )


def _second_groups() -> Iterator[Request]:
    """A group laid from the hand beside the side's group of the same rank (of three cards,
    and a canasta): a second group of a rank, which the pickups alone do not tell from a pair
    that starts a new group with the pile's top card."""
    for meld in (_group("9", 3, 0), _group("9", 7, 0)):
        position = {
            "phase": "play",
            "hands": [["9C", "9C", "9H", "5D", "6S"], ["5S"], ["6D"], ["7S"]],
            "melds": [[meld], []],
            "pile": ["5C", "8H"],
            "stock": 40,
        }
        yield (
            "act",
            {"position": position, "action": {"type": "lay", "melds": [["9C", "9C", "9H"]]}},
        )


def _top_cards() -> Iterator[Request]:
    pile = ["4D", "8C"]
    for meld in (*(_group("8", n, 0) for n in (3, 5, 7)), *(_run(7, n, "C") for n in (3, 5))):
        yield "take_top", {"pile": pile, "team_melds": [meld], "onto": 0}


def _going_out(seats: tuple[tuple[int, int], ...]) -> Iterator[Request]:
    naturals = [_group(rank, 7, 0) for rank in ("K", "Q", "J", "A")]
    layouts = [
        melds
        for count in range(len(naturals) + 1)
        for melds in (naturals[:count], [*naturals[:count], _run(2, 7, "S")])
    ]
    for melds in layouts:
        yield "go_out", {"team_melds": melds}
    for players, sides in seats:  # the requirement of each seating: the last card discarded
        for melds in layouts:
            position = {
                "players": players,
                "phase": "play",
                "hands": [["5H"], *([f"{r}C", f"{r}D"] for r in RANKS[4 : 3 + players])],
                "melds": [melds, *[[]] * (sides - 1)],
                "stock": 20,
            }
            yield "act", {"position": position, "action": {"type": "discard", "card": "5H"}}


def _card_points() -> Iterator[Request]:
    cards = ["JK", *(f"{rank}S" for rank in RANKS), "3H", "3D"]
    for card in cards:
        for in_hand in (False, True):
            yield "card_points", {"cards": [card], "in_hand": in_hand}


def _scores(decks: int) -> Iterator[Request]:
    other = {"melds": [["9H", "9S", "9D"]]}
    canasta = _group("K", 7, 0)
    for reds in range(1, 2 * decks + 1):
        for melds in ([], [canasta], [canasta, _group("Q", 7, 0)]):
            yield "score", {"teams": [{"melds": melds, "red_threes": reds}, other]}
    for size in range(3, 8):
        for meld in (_group("8", size, 0), _run(2, size), _group("8", 0, size)):
            yield "score", {"teams": [{"melds": [meld]}, other]}
    for rank in _NATURAL_RANKS:  # a rank's own penalties: left unfinished, kept in hand
        for meld in (_group(rank, 3, 0), _group(rank, 2, 1)):
            yield "score", {"teams": [{"melds": [meld]}, other]}
        for kept in (3, 4):
            yield "score", {"teams": [{"melds": [], "hands": [_group(rank, kept, 0)]}, other]}


def _game_ends() -> Iterator[Request]:
    for hands in range(1, HANDS_PLAYED + 1):
        yield "game_over", {"scores": [100, 50], "hands_played": hands}
        yield "game_over", {"scores": [100, 100], "hands_played": hands}


@functools.cache
def _generated(
    decks: int, jokers: int, seats: tuple[tuple[int, int], ...]
) -> dict[str, tuple[Request, ...]]:
    return {
        "melds": tuple(_melds(decks, jokers)),
        "extending": tuple(_extends()),
        "pickup": (*_pickups(), *_second_groups()),
        "going out": tuple(_going_out(seats)),
        "taking the top card": tuple(_top_cards()),
        "card points": tuple(_card_points()),
        "scoring": tuple(_scores(decks)),
        "game end": tuple(_game_ends()),
        "initial meld": tuple(("initial_minimum", {"team_score": s}) for s in SCORES),
        "turn rules": tuple(("info", {"players": n}) for n in range(2, 9)),
    }


def generated(ruleset: Ruleset, area: str) -> tuple[Request, ...]:
    """The situations generated for an area, for the ruleset's pack and seatings."""
    pack = ruleset.rules.pack
    seats = tuple(sorted((n, seat.teams) for n, seat in ruleset.rules.players.seats.items()))
    return _generated(pack.decks, pack.jokers, seats).get(area, ())


def bisections(asked: Sequence[tuple[Mapping[str, Any], Any]]) -> list[Request]:
    """The first meld's minimum asked halfway between two scores whose answers differ, for
    every such pair of neighbours still more than a point apart (``asked``: the
    ``initial_minimum`` requests with the minimum each was answered)."""
    seen = sorted(
        {
            request["team_score"]: minimum
            for request, minimum in asked
            if type(request.get("team_score")) is int and type(minimum) is int
        }.items()
    )  # what the engine answered is any JSON: only whole numbers are read
    out = []
    for (low, below), (high, above) in itertools.pairwise(seen):
        if below != above and high - low > 1:
            out.append(("initial_minimum", {"team_score": (low + high) // 2}))
    return out
