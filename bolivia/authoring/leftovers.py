"""What a ruleset's changes leave behind in its base.

These are rules it inherits that were written for the base's values, not for its own. Some
examples:

- A club that raises the target keeps the base's target for three players, and its other
  targets.
- One that changes the going-out requirement keeps the base's requirement for two players.
- One that changes the pack keeps seatings and red-three prizes made for the base's pack.
- One that switches sequences or wild melds on keeps the sizes and bonuses its base assumed
  for melds it never played.

Each finding names the inherited rule, what it still says, and how to drop or restate it. The
pairs of a change and what it leaves are data (:data:`LEFT_BY`).

>>> from bolivia.rules.library import shipped_library
>>> [f.keys for f in leftovers(shipped_library().load("bolivia-da-100"))]
[]
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from bolivia.authoring.findings import Finding
from bolivia.rules.phrases import answer, join_words, label
from bolivia.rules.resolution import DEFAULT_REASON
from bolivia.rules.ruleset import Ruleset

__all__ = ["FEATURES", "LEFT_BY", "Leftover", "leftovers"]


def _changed(ruleset: Ruleset, base: Ruleset, path: str) -> bool:
    return path in ruleset.own_leaves and ruleset.value(path) != base.value(path)


def _seated(ruleset: Ruleset, table: dict[str, Any]) -> dict[str, Any]:
    """The entries of a table by number of players for numbers who may sit."""
    seated = {str(n) for n in ruleset.rules.players.seats}
    return {n: v for n, v in table.items() if str(n) in seated}


def _by_players(path: str, what: str, own: str) -> Callable[[Ruleset, Ruleset], str | None]:
    """A table by number of players the base keeps beside the value the house changed."""

    def check(ruleset: Ruleset, base: Ruleset) -> str | None:
        entries = _seated(ruleset, ruleset.value(path))
        if not entries:
            return None
        mine = answer(own, ruleset.value(own))
        said = "; ".join(f"with {n} players {answer(own, v)}" for n, v in entries.items())
        return (
            f"{what} is {mine} by the rule of {ruleset.id}, but {base.id}'s exceptions stay: "
            f"{said}; write {path}: {{}} for that rule with any number of players, or restate "
            "the exceptions kept"
        )

    return check


def _target_options(ruleset: Ruleset, base: Ruleset) -> str | None:
    options = ruleset.value("game.target_options")
    if not options:
        return None
    target = ruleset.value("game.target")
    below = " (all below its target)" if all(o < target for o in options) else ""
    return (
        f"the game ends at {target:,}, but the other targets a table may choose are still "
        f"{base.id}'s: {answer('game.target_options', options)}{below}; write "
        "game.target_options: [] for none, or the club's own list"
    )


def _seats(ruleset: Ruleset, base: Ruleset) -> str | None:
    seats = ruleset.value("players.seats")
    usual = ruleset.rules.players.usual
    mine = seats.get(str(usual), seats.get(usual))
    example = json.dumps({usual: mine}).replace('"', "")
    return (
        f"the seatings are {base.id}'s, made for its pack of {base.pack.size} cards "
        f"({answer('players.seats', seats)}), and the pack of {ruleset.id} holds "
        f"{ruleset.pack.size}: restate the seatings played, which drops the others (players.seats: "
        f"{example} keeps the {usual}-player seating as it is)"
    )


def _red_threes(ruleset: Ruleset, base: Ruleset) -> str | None:
    theirs, mine = 2 * base.rules.pack.decks, 2 * ruleset.rules.pack.decks
    if theirs == mine:
        return None
    prize = ruleset.rules.red_threes.all_value
    return (
        f"{base.id} pays {prize:,} for all its {theirs} red threes together; the pack of "
        f"{ruleset.id} holds {mine}: restate red_threes.all_value for {mine}"
    )


@dataclass(frozen=True)
class Leftover:
    """A rule of the base a change may leave behind: when any of ``changed`` differs from the
    base and ``left`` is inherited, ``check`` says what ``left`` still says, or None."""

    changed: tuple[str, ...]
    left: str
    check: Callable[[Ruleset, Ruleset], str | None]


LEFT_BY: tuple[Leftover, ...] = (
    Leftover(
        ("game.target",),
        "game.target_by_players",
        _by_players("game.target_by_players", "the target", "game.target"),
    ),
    Leftover(("game.target",), "game.target_options", _target_options),
    Leftover(
        ("going_out.requirement",),
        "going_out.requirement_by_players",
        _by_players(
            "going_out.requirement_by_players", "what going out needs", "going_out.requirement"
        ),
    ),
    Leftover(("pack.decks", "pack.jokers"), "players.seats", _seats),
    Leftover(("pack.decks",), "red_threes.all_value", _red_threes),
)

# a kind of meld or play a house may switch on, and the rules that only matter once it is on
FEATURES: dict[str, tuple[str, ...]] = {
    "melds.sequence.allowed": (
        "melds.sequence.",
        "canastas.escalera.",
        "initial_meld.counts_sequences",
    ),
    "melds.wild.allowed": ("melds.wild.", "canastas.bolivia.", "initial_meld.counts_wild_melds"),
    "pile.take_top.allowed": ("pile.take_top.",),
    "melds.group.duplicate_ranks": ("melds.group.combine",),
}


def _features(ruleset: Ruleset, base: Ruleset) -> Iterator[Finding]:
    """Rules the base assumed for a kind of play it does not have, which the house turns on."""
    for switch, prefixes in FEATURES.items():
        if not (_changed(ruleset, base, switch) and ruleset.value(switch)):
            continue
        kept = [
            path
            for path in ruleset.provenance
            if path.startswith(prefixes)
            and path != switch
            and _left(ruleset, path)
            and base.provenance[path].status == "assumed"
            and base.provenance[path].reason != DEFAULT_REASON  # the format's, not the base's
        ]
        if kept:
            said = join_words([f"{label(p)}: {answer(p, ruleset.value(p))}" for p in kept], "and")
            yield Finding(
                "warning",
                (switch, *kept),
                f"{ruleset.id} allows what {base.id} does not ({label(switch)}), and keeps the "
                f"values {base.id} assumed for it, unused there: {said}; check each against "
                f"the rules of {ruleset.id} and restate those it plays otherwise",
            )


def _left(ruleset: Ruleset, path: str) -> bool:
    """Whether a rule is the base's alone: the ruleset neither sets nor confirms it."""
    return path not in ruleset.own_leaves and path not in ruleset.covered


def leftovers(ruleset: Ruleset) -> list[Finding]:
    """Every rule a ruleset inherits that its own changes leave out of step (warnings)."""
    base = ruleset.base
    if base is None:
        return []
    found = [
        Finding("warning", (*left.changed, left.left), said)
        for left in LEFT_BY
        if _left(ruleset, left.left)
        and any(_changed(ruleset, base, path) for path in left.changed)
        and (said := left.check(ruleset, base)) is not None
    ]
    return [*found, *_features(ruleset, base)]
