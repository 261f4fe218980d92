"""Bots by name: what a bot is, and the bot a spec names.

A bot is anything with a ``name`` and ``choose(hand, actions, rng)``: it is shown the state and
the legal actions, and returns one of them (the engine verifies it). Randomness comes only from
the ``rng`` it is given. :func:`make_bot` reads a spec (``greedy``, ``search:playouts=16``).

>>> make_bot("search:playouts=8,width=3").name
'search:playouts=8,width=3'
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Protocol

from bolivia.play.bots.expert import ExpertBot
from bolivia.play.bots.search import SearchBot, search_bot
from bolivia.play.bots.simple import GreedyBot, RandomBot
from bolivia.play.table.actions import Action
from bolivia.play.table.hand import Hand

__all__ = ["BOTS", "SPECS", "Bot", "make_bot", "split_specs"]


class Bot(Protocol):
    name: str

    def choose(self, hand: Hand, actions: Sequence[Action], rng: random.Random) -> Action:
        """One of ``actions`` (never empty) for the current player of ``hand``."""


BOTS: dict[str, Callable[[], Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "expert": ExpertBot,
    "search": SearchBot,
}


#: the bots whose budget a spec may set (``search:playouts=16``), and how it is read
SPECS: dict[str, Callable[[str], Bot]] = {"search": search_bot}

#: the longest bot spec read
MAX_SPEC = 200


def make_bot(spec: str) -> Bot:
    """The bot a spec names: a name of :data:`BOTS`, or one of :data:`SPECS` with its budget
    (``search:playouts=16,width=3``); its ``name`` gives the spec back, so that a replay
    names the bot that played. A ``ValueError`` of one line saying what is wrong otherwise."""
    if len(spec) > MAX_SPEC:
        raise ValueError(f"a bot spec is at most {MAX_SPEC} characters, not {len(spec):,}")
    name, colon, options = spec.partition(":")
    if name not in BOTS:
        raise ValueError(f"no bot {name!r}; bots: {', '.join(BOTS)}")
    if not colon:
        return BOTS[name]()
    if name not in SPECS:
        raise ValueError(f"{name} takes no options ({spec!r}); {', '.join(SPECS)} does")
    return SPECS[name](options)


def split_specs(text: str) -> list[str]:
    """Bot specs separated by commas, a budget's own commas kept with its bot:
    ``search:playouts=8,width=3,greedy`` is two specs (a piece with ``=`` and no ``:`` goes on
    the spec before it)."""
    specs: list[str] = []
    for piece in text.split(","):
        piece = piece.strip()
        if specs and "=" in piece and ":" not in piece and ":" in specs[-1]:
            specs[-1] += "," + piece
        else:
            specs.append(piece)
    return specs
