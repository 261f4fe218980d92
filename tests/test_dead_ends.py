"""No combination of rules leaves a player without a legal action (issue 36).

Every shipped ruleset and every one-field variant of it (:func:`one_field_variants`), played by
greedy and by random bots, ends every hand by a rule (:data:`RULE_ENDINGS`) with every card of
the pack accounted for after every action. Where the rules leave the player to act no legal
action, the hand ends by the rule of ``docs/engine.md`` ("A player without a legal action").

Each variant has its own deals. CI plays a few of every variant (:data:`HANDS`: two with
greedy bots, the next with random bots; about a minute of CPU compiled);
``BOLIVIA_DEAD_END_HANDS=200``, or the ``thorough`` Hypothesis profile, plays 200 deals of every
variant, as the issue asks: the first half with greedy bots, the rest with random bots (about
two hours of CPU compiled: run it with ``-n auto``).

The hands search for a way out within :data:`STATES` states, not the million of play: a random
player holding forty cards may need a million to learn there is none (a brazilian-canastra
hand took 70 s of CPU in CI), and a search cut short finds no way out, so the hand goes on by
the same rules either way (:mod:`bolivia.play.table.ways_out`).
"""

from __future__ import annotations

import os
import zlib
from collections.abc import Iterator
from typing import Any

import pytest

from bolivia.cards import Card
from bolivia.play.batch.seeds import derive_seed
from bolivia.play.batch.simulate import RULE_ENDINGS, play_hand
from bolivia.play.bots.registry import make_bot
from bolivia.play.table.actions import NO, GoOut
from bolivia.play.table.hand import Hand
from bolivia.play.table.position import hand_at, position_of
from bolivia.play.table.ways_out import search_bound
from bolivia.rules.library import shipped_library
from bolivia.rules.ruleset import Ruleset
from bolivia.rules.variants import one_field_variants, variant

LIBRARY = shipped_library()
BOTS = ("greedy", "random")
# deals of each variant each bot plays: CI's few, or N in all (half each). The greedy bot's
# hands are the cheaper and reach the ends of the hand the bots aim for; the random bot's reach
# other states (and cost more: a player holding forty cards is searched for a way out at every
# step)
_CI_HANDS = {"greedy": 2, "random": 1}
_FULL = os.environ.get("BOLIVIA_DEAD_END_HANDS") or (
    "200" if os.environ.get("HYPOTHESIS_PROFILE") == "thorough" else ""
)
HANDS = {bot: int(_FULL) // len(BOTS) for bot in BOTS} if _FULL else _CI_HANDS
STATES = 50_000  # the bound on one way-out search in these hands (see the module)


def _fields(ruleset_id: str) -> list[str]:
    """The fields of the ruleset that have a valid other value, in the rule tree's order."""
    paths = {path: None for path, _, _ in one_field_variants(LIBRARY.load(ruleset_id))}
    return list(paths)


# one test per ruleset and field (the ruleset itself as field ""): small items for workers
CASES = [(rid, path) for rid in LIBRARY.ids() for path in ("", *_fields(rid))]


def _variants(ruleset_id: str, path: str) -> Iterator[tuple[Any, Ruleset]]:
    """The ruleset itself (``path`` ""), or each of its variants in the field: (value,
    ruleset). Made one at a time: a ruleset keeps what the search learns while it plays."""
    base = LIBRARY.load(ruleset_id)
    if not path:
        yield None, base
        return
    for _, value, ruleset in one_field_variants(base, [path]):
        yield value, ruleset


def _deals(ruleset: Ruleset, bot: str) -> list[tuple[int, int]]:
    """The deals of a variant a bot plays, (number, seed): the variant's own (seeded by its
    id, the same on every machine), the greedy bot's first and the random bot's after them,
    so that no deal is played twice."""
    root = zlib.crc32(ruleset.id.encode())
    start = 0 if bot == BOTS[0] else HANDS[BOTS[0]]
    return [(n, derive_seed(root, n)) for n in range(start, start + HANDS[bot])]


def _dead_ends(ruleset: Ruleset, bot: str) -> list[str]:
    """The hands of this ruleset that did not end by a rule or lost track of a card."""
    players = ruleset.rules.players.usual
    bots = [make_bot(bot) for _ in range(players)]
    found = []
    for n, seed in _deals(ruleset, bot):
        with search_bound(STATES):
            stats, hand = play_hand(ruleset, players, seed, bots, first=n % players, check="every")
        if stats.ended_by not in RULE_ENDINGS or not stats.conserved:
            found.append(
                f"{bot} deal {n} (seed {seed}): {stats.ended_by}"
                f"{'' if stats.conserved else ', a card unaccounted for'}; player "
                f"{hand.current} in the {hand.phase} phase holding {hand.hand_cards()}, "
                f"stock {len(hand.stock)}"
            )
    return found


@pytest.mark.parametrize(("ruleset_id", "path"), CASES, ids=[f"{r}:{p}" for r, p in CASES])
def test_every_one_field_variant_ends_every_hand_by_a_rule(ruleset_id: str, path: str) -> None:
    failures = []
    for value, ruleset in _variants(ruleset_id, path):
        for bot in BOTS:
            for line in _dead_ends(ruleset, bot):
                failures.append(f"{path or 'the ruleset'}={value!r}: {line}")
    assert not failures, f"{len(failures)} hands did not end by a rule:\n" + "\n".join(failures)


NO_RED_THREE_REPLACED = variant(LIBRARY.load("bolivia-fr"), "red_threes.replaced", False)


def _ended_blocked(ruleset: Ruleset) -> Hand:
    """The first greedy hand of the ruleset that ends blocked."""
    bots = [make_bot("greedy") for _ in range(4)]
    for n in range(50):
        _, hand = play_hand(ruleset, 4, derive_seed(36, n), bots, first=n % 4)
        if hand.ended_by == "blocked":
            return hand
    raise AssertionError("no hand ended blocked")  # pragma: no cover


def test_a_red_three_not_replaced_blocks_a_player_holding_one_card() -> None:
    """The dead end of issue 36: a player holding one card draws a red three, lays it out and
    draws none; it may neither discard its last card (that would go out) nor go out. The
    hand ends there, blocked, and is scored as a hand nobody went out of."""
    assert NO_RED_THREE_REPLACED is not None
    hand = _ended_blocked(NO_RED_THREE_REPLACED)
    assert hand.phase == "play" and hand.sizes[hand.current] == 1 and hand.stock
    # the same moment as a position (which no rule ends): no legal action at all
    again = hand_at(NO_RED_THREE_REPLACED, position_of(hand))
    assert not again.over and again.legal_actions() == [] and again.go_out_lines(1) == []
    result = hand.result()
    assert result.ended_by == "blocked" and result.went_out is None
    assert all(score.going_out == 0 for score in result.scores)
    assert hand.conserved()


def test_with_the_stock_exhausted_the_same_moment_ends_the_stock() -> None:
    """Told no by the partner, a player holding one card has no legal action either: with the
    stock exhausted the hand ends as the stock's end, with cards in it blocked."""
    ruleset = LIBRARY.load("bolivia-fr")
    for stock, ending in ((0, "stock_exhausted"), (40, "blocked")):
        hand = hand_at(
            ruleset,
            {
                "phase": "play",
                "hands": [["5C"], ["5D"], ["5D"], ["5S"]],
                "melds": [[["4H", "5H", "6H", "7H", "8H", "9H", "10H"]], []],
                "pile": ["9S"],
                "stock": stock,
                "asked": "pending",
            },
        )
        hand.apply(NO)
        assert hand.ended_by == ending, stock


# deals of the full run where the way-out search and the verifier disagreed (issue 36): the
# search extended a sequence it had laid that turn past seven cards as if it stood on the table
# (melds.sequence.extend_going_out), the verifier refused the eight-card new sequence, and the
# player was offered a question it had no way out to ask
SEQUENCE_LAID_GOING_OUT = [
    ("canastas.mixed.size", "random", 144, 1786892398621343648),
    ("canastas.bolivia.size", "greedy", 82, 18176676850926465892),
]


@pytest.mark.parametrize(("path", "bot", "n", "seed"), SEQUENCE_LAID_GOING_OUT)
def test_a_sequence_laid_going_out_is_not_extended_past_its_size(
    path: str, bot: str, n: int, seed: int
) -> None:
    ruleset = variant(LIBRARY.load("brazilian-canasta"), path, 8)
    assert ruleset is not None
    players = ruleset.rules.players.usual
    bots = [make_bot(bot) for _ in range(players)]
    stats, _ = play_hand(ruleset, players, seed, bots, first=n % players, check="every")
    assert stats.ended_by in RULE_ENDINGS and stats.conserved, stats.ended_by


def _going_out_at(hand_cards: list[str], sequence: list[str]) -> Hand:
    """A brazilian-canasta player about to go out, its side holding two canastas and
    ``sequence`` (if any) on the table."""
    melds = [
        ["4H", "5H", "6H", "7H", "8H", "9H", "10H"],
        ["6C", "6C", "6C", "6D", "6D", "6D", "6H"],
    ]
    return hand_at(
        LIBRARY.load("brazilian-canasta"),
        {
            "phase": "play",
            "hands": [hand_cards, ["5D"], ["5D"], ["5C"]],
            "melds": [[*melds, *([sequence] if sequence else [])], []],
            "pile": ["9C"],
            "stock": 40,
            "asked": "yes",
        },
    )


def test_only_a_sequence_on_the_table_grows_past_its_size_going_out() -> None:
    """extend_going_out lets a player going out add to a sequence the side has; one it lays
    that turn keeps the seven-card limit, laid whole or grown by the same action, and every
    way out the search offers is one the verifier allows."""
    spades = ("4S", "5S", "6S", "7S", "8S", "9S", "10S")
    seven = tuple(Card.parse(c) for c in spades)
    jack, nine = Card.parse("JS"), Card.parse("9D")
    laid = _going_out_at(["JS", "9D"], list(spades))
    assert laid.can(GoOut((), ((2, (jack,)),), nine))
    lines = laid.go_out_lines(4)
    assert lines and all(laid.can(line) for line in lines)
    new = _going_out_at([*spades, "JS", "9D"], [])
    assert not new.can(GoOut(((*seven, jack),), (), nine))
    assert not new.can(GoOut((seven,), ((2, (jack,)),), nine))
    lines = new.go_out_lines(4)  # two sequences of spades, each within seven cards
    assert lines and all(new.can(line) for line in lines)
    assert all(len(meld) <= 7 for line in lines for meld in line.melds)
