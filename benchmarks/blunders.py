"""Moves a club player would not make, counted: how often a bot makes them.

    python benchmarks/blunders.py [--bots expert,greedy] [--rulesets bolivia-da,...]
                                  [--hands 200] [--seed 0]

Each bot plays ``hands`` seeded hands of each ruleset in every seat. At each discard it makes:

- **a wild card thrown on a small pile**: a wild card discarded onto a pile of five cards or
  fewer while the player holds a natural singleton (a rank of which it holds one natural card,
  not a three) it could have thrown instead. A wild card freezes the pile; on a small pile
  that costs a card worth 20 to 50 points and a canasta's wild card for little;
- **a natural trio broken**: a natural card discarded from a rank of which the player holds
  exactly three naturals (a meld in waiting), while a card of no trio could have been
  discarded.

Printed per bot and ruleset: the discards, each kind of blunder as a count and a share of the
discards where it was possible (a wild card held with a small pile and a singleton; a trio held
beside another card), with Wilson's 95% interval.
"""

from __future__ import annotations

import argparse
import random
from collections import Counter
from collections.abc import Callable, Sequence

from bolivia.compare.statistics import proportion_ci
from bolivia.play.batch.seeds import derive_seed
from bolivia.play.batch.simulate import play_hand
from bolivia.play.bots.registry import Bot, make_bot
from bolivia.play.table.actions import Action, Discard
from bolivia.play.table.hand import Hand
from bolivia.rules.library import shipped_library

SMALL_PILE = 5
THREES = 1  # the rank index of the threes (red and black), never a "singleton" to throw


class Counted:
    """A bot whose discards are classified as it makes them."""

    def __init__(self, spec: str, tally: Counter[str], bot: Bot | None = None) -> None:
        self.bot: Bot = make_bot(spec) if bot is None else bot
        self.name = self.bot.name
        self.tally = tally

    def choose(self, hand: Hand, actions: Sequence[Action], rng: random.Random) -> Action:
        chosen = self.bot.choose(hand, actions, rng)
        discards = [a for a in actions if isinstance(a, Discard)]
        if isinstance(chosen, Discard) and len(discards) > 1:
            self._classify(hand, chosen, discards)
        return chosen

    def _classify(self, hand: Hand, chosen: Discard, discards: list[Discard]) -> None:
        wild = hand.ruleset.wild
        ranks = hand.rank_counts[hand.current]
        index = chosen.card.index
        self.tally["discards"] += 1

        def natural_rank(i: int) -> int | None:
            return None if i >= 52 or wild[i] else i >> 2

        singles = [
            a
            for a in discards
            if (r := natural_rank(a.card.index)) is not None and r != THREES and ranks[r] == 1
        ]
        if any(wild[a.card.index] for a in discards) and len(hand.pile) <= SMALL_PILE and singles:
            self.tally["wild possible"] += 1
            if wild[index]:
                self.tally["wild on a small pile"] += 1
        if wild[index]:
            self.tally["wild discards"] += 1
        trio = [a for a in discards if _in_trio(natural_rank(a.card.index), ranks)]
        if trio and len(trio) < len(discards):
            self.tally["trio possible"] += 1
            if _in_trio(natural_rank(index), ranks):
                self.tally["trio broken"] += 1


def _in_trio(rank: int | None, ranks: Sequence[int]) -> bool:
    """Whether the rank's naturals held are a trio, exactly (one of four or more leaves one)."""
    return rank is not None and rank != THREES and ranks[rank] == 3


def count(
    spec: str, rid: str, hands: int, seed: int, bot: Callable[[], Bot] | None = None
) -> Counter[str]:
    """The tally of ``hands`` seeded hands of ``rid`` with the bot ``spec`` names in every seat
    (or the one ``bot`` makes, for a bot with weights of its own)."""
    ruleset = shipped_library().load(rid)
    players = ruleset.rules.players.usual
    tally: Counter[str] = Counter()
    for i in range(hands):
        bots = [Counted(spec, tally, None if bot is None else bot()) for _ in range(players)]
        play_hand(ruleset, players, derive_seed(seed, i), bots, first=i % players, check="end")
    return tally


def _share(hits: int, n: int) -> str:
    e = proportion_ci(hits, n)
    return f"{hits:,} of {n:,} ({100 * e.value:.1f}% [{100 * e.low:.1f}, {100 * e.high:.1f}])"


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bots", default="expert,greedy")
    parser.add_argument("--rulesets", default="bolivia-da,bolivia-fr,bolivia-zh")
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    for spec in args.bots.split(","):
        for rid in args.rulesets.split(","):
            t = count(spec, rid, args.hands, args.seed)
            print(
                f"{spec} {rid}, {args.hands} hands of seed {args.seed}: {t['discards']:,} "
                f"discards with a choice, {t['wild discards']:,} of a wild card; a wild card on "
                f"a small pile {_share(t['wild on a small pile'], t['wild possible'])}; a "
                f"natural trio broken {_share(t['trio broken'], t['trio possible'])}"
            )


if __name__ == "__main__":
    main()
