"""A ladder: every pair of bots in a duplicate match under each ruleset, the same deals for
every pair (:mod:`bolivia.play.batch.match`), and what each match gave bot A deal by deal.

A deal's score is what A made of its two hands: a hand won 1, tied 1/2, lost 0, a hand not
played to its end left out (and a hand that did not end by a rule counted).
:mod:`bolivia.compare.ratings` rates the bots from them. The matches are played in a fixed
order and their jobs added up in the jobs' order, so a ladder gives the same figures, to the
byte, with any number of worker processes.

May import: the engine, the rules, the bots and the batch runs.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from bolivia.play.batch.match import MatchSpec, job_results
from bolivia.play.batch.simulate import RULE_ENDINGS
from bolivia.rules.library import LibrarySpec

__all__ = ["LadderMatch", "pairs", "play_ladder"]


@dataclass
class LadderMatch:
    """One match of a ladder: A's score and the hands that ended, deal by deal."""

    ruleset: str
    bot_a: str
    bot_b: str
    scores: list[float] = field(default_factory=list)  # A's points on each deal's hands
    hands: list[int] = field(default_factory=list)  # each deal's hands that ended by a rule
    not_by_rule: int = 0
    conservation_failures: int = 0

    def add(self, result: dict[str, object]) -> None:
        """A deal's two hands (a :func:`~bolivia.play.batch.match.deal_job` result)."""
        score = 0.0
        ended = 0
        rows = result["hands"]
        assert isinstance(rows, list)
        for hand in rows:
            self.conservation_failures += not hand["conserved"]
            self.not_by_rule += hand["ended_by"] not in RULE_ENDINGS
            if not hand["completed"]:  # (as a match counts its hands: those played out)
                continue
            ended += 1
            margin = hand["margin"]
            score += 1.0 if margin > 0 else 0.5 if margin == 0 else 0.0
        self.scores.append(score)
        self.hands.append(ended)

    @property
    def won(self) -> float:
        """A's share of the hands that ended (a tie half)."""
        total = sum(self.hands)
        return sum(self.scores) / total if total else 0.0


def pairs(bots: Sequence[str]) -> list[tuple[str, str]]:
    """Every pair of bots once, in the order given (the weaker first where the list is)."""
    return list(itertools.combinations(bots, 2))


def play_ladder(
    rulesets: Sequence[str],
    where: LibrarySpec,
    bots: Sequence[str],
    *,
    players: Sequence[int],
    deals: int,
    seed: int,
    workers: int = 1,
    check: str = "sampled",
    progress: Callable[[int], None] | None = None,
) -> list[LadderMatch]:
    """Every pair of ``bots`` under every ruleset (``players[k]`` at the table of
    ``rulesets[k]``), ``deals`` deals of ``seed`` each, played twice."""
    out = []
    for rid, count in zip(rulesets, players, strict=True):
        for a, b in pairs(bots):
            spec = MatchSpec(rid, where, count, a, b, seed, deals=deals, check=check)
            match = LadderMatch(rid, a, b)
            for result in job_results(spec, workers):
                match.add(result)
                if progress:
                    progress(1)
            out.append(match)
    return out
