"""The ``search`` bot: determinized Monte Carlo over the ``expert`` bot's candidates.

Where the choice matters most -- taking the pile or drawing, going out or not, the partner's
answer, and (``discards=True``) which card to discard -- the bot takes the few actions the
expert rates best (:meth:`ExpertBot.consider <bolivia.play.bots.expert.ExpertBot.consider>`),
deals the cards it cannot see again at random (:func:`~bolivia.play.bots.sampling.determinize`:
the same view, never a card it could not see), plays each action out on the same samples
with the expert in every seat, and keeps the expert's choice unless another action's playouts
score better for its side by more than ``confidence`` standard errors of the paired
differences. Every :data:`PRUNE_STEP` samples, an alternative clearly worse than the expert's
choice stops being played out (``prune``, below). A playout runs to the hand's end (or for
``depth`` turns); a hand still on is then scored as it stands, the side's unfinished melds
counted at a share of the canasta bonus they lead to (the ruleset's values). Elsewhere (a
meld that pays, a discard, a single legal action) it plays as the expert does.

The budget is in playouts, not seconds, so that a seed gives the same play on any machine:
``playouts`` samples a decision, ``width`` actions compared, ``depth`` turns a playout
(None: to the hand's end), and the keys of :data:`BUDGET`; a bot spec names them
(``search:playouts=16,width=3``, read by :func:`search_bot`).

Pruning (``prune``, in standard errors; 0: never): an alternative whose paired differences from
the expert's choice are below 0 by more than ``prune`` standard errors, or all exactly 0 (it
plays out as the choice does), is dropped before the next samples. Most alternatives are
plainly worse, so most of the playouts go to the few choices that are close. With the default
of 1, ``search:playouts=16,width=3`` plays 56% of the playouts of ``prune=0`` on 200 screening
deals and is not told apart from it on 600 others (``docs/bots.md``).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import Final

from bolivia.engine.limits import limits
from bolivia.engine.melds import Meld, canasta_bonus, canasta_of
from bolivia.engine.scoring import TeamHand, score_team
from bolivia.play.bots.expert import ExpertBot
from bolivia.play.bots.sampling import determinize
from bolivia.play.bots.simple import GreedyBot
from bolivia.play.table.actions import Action, Answer, Ask, Discard, Draw, GoOut, TakePile, TakeTop
from bolivia.play.table.hand import Hand
from bolivia.rules.ruleset import Ruleset

__all__ = ["BUDGET", "SearchBot", "search_bot"]

#: a playout stops after this many actions whatever happens (a hand never takes so many)
PLAYOUT_STEPS = 2_000

#: samples between two prunings of the alternatives (the fewest a variance needs)
PRUNE_STEP = 2

#: the keys of a budget spec (``search:playouts=16,width=3``), in the order the bot's name
#: gives them, each with its lowest and highest value: whole numbers, ``depth`` also ``none``
#: (to the hand's end), ``discards`` 0 or 1 (no or yes), ``confidence`` in standard errors,
#: ``win`` points a playout scores more when its side is ahead at the end (less when behind),
#: ``melds`` 0 or 1 (search holding a meld back), ``extra`` playouts more while undecided,
#: ``greedy`` 0 or 1 (the playouts played by the greedy bot, not the expert: cheaper),
#: ``prune`` in standard errors (0: no alternative dropped before the end)
BUDGET: dict[str, tuple[float, float]] = {
    "playouts": (1, 256),
    "width": (1, 8),
    "depth": (1, 400),
    "discards": (0, 1),
    "confidence": (0, 10),
    "win": (0, 10_000),
    "melds": (0, 1),
    "extra": (0, 256),
    "greedy": (0, 1),
    "prune": (0, 10),
}


class SearchBot:
    """Determinized Monte Carlo over the expert's candidates (see the module)."""

    def __init__(
        self,
        playouts: int = 4,
        width: int = 2,
        depth: int | None = None,
        discards: bool = False,
        confidence: float = 1.0,
        win: int = 0,
        melds: bool = False,
        extra: int = 0,
        greedy: bool = False,
        prune: float = 1.0,
    ) -> None:
        self.name = "search"
        self.playouts = playouts
        self.confidence = confidence
        self.win = win
        self.melds = melds
        self.extra = extra
        self.width = width
        self.depth = depth
        self.discards = discards
        self.policy = ExpertBot()
        self.greedy = greedy
        self.prune = prune
        self.played = 0  # playouts played so far (what pruning saves is read from it)
        self._greedy_bot = GreedyBot()

    def _rollout(self) -> ExpertBot | GreedyBot:
        """The bot that plays the playouts out in every seat: the expert, or the greedy bot
        (``greedy``)."""
        return self._greedy_bot if self.greedy else self.policy

    def choose(self, hand: Hand, actions: Sequence[Action], rng: random.Random) -> Action:
        if len(actions) == 1:
            return actions[0]
        options = self.policy.consider(hand, actions)[: self.width]
        if len(options) == 1 or not self.searches(options):
            return options[0]
        seed = rng.getrandbits(64)
        scores: list[list[float]] = [[] for _ in options]
        alive = list(range(1, len(options)))  # the alternatives still played out
        best = 0
        done = 0
        most = self.playouts + self.extra
        step = PRUNE_STEP if self.prune > 0 else self.playouts
        # batches of ``playouts`` samples, more (up to ``extra``) while an alternative leads
        # without a clear edge; within a batch, the clearly worse dropped every ``step``
        while done < most and alive:
            end = min(done + self.playouts, most)
            while done < end and alive:
                stop = min(done + step, end)
                self._sample(hand, options, [0, *alive], seed, range(done, stop), scores)
                done = stop
                if done < end:
                    alive = [k for k in alive if not _dropped(scores[k], scores[0], self.prune)]
            best, leads = self._leader(scores, alive)
            if best or not leads:
                break
        return options[best]

    def _sample(
        self,
        hand: Hand,
        options: Sequence[Action],
        which: list[int],
        seed: int,
        samples: range,
        scores: list[list[float]],
    ) -> None:
        """The options ``which`` (by index) played out on each of these samples; the scores
        added to ``scores``."""
        player = hand.current
        for j in samples:
            world = determinize(hand, player, random.Random(seed + j))
            for k in which:
                sim = world.copy()
                sim.apply(options[k])
                scores[k].append(self._playout(sim, hand.team))
                self.played += 1

    def _leader(self, scores: list[list[float]], alive: list[int]) -> tuple[int, bool]:
        """The option chosen so far, and whether any alternative still played out (``alive``)
        scores more than the first.

        The expert's choice (the first) stays unless an alternative beats it on the same
        samples by more than ``confidence`` standard errors of the paired differences.
        """
        best, best_edge, leads = 0, 0.0, False
        for k in alive:
            edge = _paired_edge(scores[k], scores[0], self.confidence)
            leads = leads or math.fsum(scores[k]) > math.fsum(scores[0])
            if edge > best_edge:
                best, best_edge = k, edge
        return best, leads

    def searches(self, options: Sequence[Action]) -> bool:
        """Whether the choice is one the bot searches.

        Taking the pile or its top card, going out (or asking, or answering), and the
        discard where ``discards`` says so.
        """
        for action in options:
            if isinstance(action, TakePile | TakeTop | GoOut | Ask | Answer):
                return True
        if not isinstance(options[0], Discard | Draw):  # a meld, the discards after it
            return self.melds
        return self.discards and all(isinstance(action, Discard) for action in options)

    def _playout(self, sim: Hand, team: int) -> float:
        """The side's margin after playing ``sim`` out with the expert (or the greedy bot) in
        every seat."""
        policy = self._rollout()
        stop = sim.turns + self.depth if self.depth is not None else None
        quiet = random.Random(0)  # the expert draws nothing from it
        steps = 0
        while not sim.over and (stop is None or sim.turns < stop) and steps < PLAYOUT_STEPS:
            actions = sim.choices()
            if not actions:
                break
            sim.apply(policy.choose(sim, actions, quiet))
            steps += 1
        points = margin(sim, team)
        return points + self.win * ((points > 0) - (points < 0))


def _dropped(scores: Sequence[float], base: Sequence[float], z: float) -> bool:
    """Whether an alternative is pruned: its paired differences from the first's ``base`` are
    below 0 by more than ``z`` standard errors, or all exactly 0. Never with ``z`` 0 or one
    sample.
    """
    n = len(scores)
    if z <= 0 or n < 2:
        return False
    diffs = [a - b for a, b in zip(scores, base, strict=True)]
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    if var == 0:
        return mean <= 0
    return mean < 0 and mean * mean * n > z * z * var


def _paired_edge(scores: Sequence[float], base: Sequence[float], z: float) -> float:
    """The mean of the paired differences ``scores - base``, if clear; else 0.

    Clear: above 0 by more than ``z`` standard errors (with one sample, above 0).
    """
    n = len(scores)
    diffs = [a - b for a, b in zip(scores, base, strict=True)]
    mean = sum(diffs) / n
    if n < 2:
        return max(mean, 0.0)
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean if mean > 0 and mean * mean * n > z * z * var else 0.0


def margin(hand: Hand, team: int) -> float:
    """The side's points less the mean of the others'.

    The hand's scores if it is over; else the sides as they stand (:func:`_standing`).
    """
    if hand.over:
        totals = [float(score.total) for score in hand.result().scores]
    else:
        totals = [_standing(hand, t) for t in range(hand.teams)]
    others = [v for t, v in enumerate(totals) if t != team]
    return totals[team] - sum(others) / max(len(others), 1)


def _standing(hand: Hand, team: int) -> float:
    """A side's points in a hand still on.

    Every card held counts against its side, and each unfinished meld the share of its
    canasta's bonus it has reached, squared.
    """
    ruleset = hand.ruleset
    penalties = ruleset.penalties
    melds = hand.melds[team]
    points = float(score_team(ruleset, TeamHand(tuple(melds), hand.red_threes[team])).total)
    for meld in melds:
        if canasta_of(ruleset, meld) is None:
            points += _share(ruleset, meld)
    for p in range(hand.players):
        if hand.team_of[p] == team:
            points -= sum(n * penalties[i] for i, n in enumerate(hand.hands[p]) if n)
    return points


def _share(ruleset: Ruleset, meld: Meld) -> float:
    """An unfinished meld's share of its canasta's bonus, squared.

    The bonus is that of the canasta it would be, grown to its canasta's size as it stands.
    """
    kind = _CANASTA_OF.get(meld.kind)
    if kind is None:
        return 0.0
    if kind == "natural" and meld.wilds:
        kind = "mixed"
    target = limits(ruleset).kind_size[kind]
    grown = canasta_bonus(ruleset, kind, meld.cards, meld.wilds, target)
    share = min(meld.size / target, 1.0)
    return float(grown) * share * share


_CANASTA_OF = {"group": "natural", "sequence": "escalera", "wild": "bolivia"}


def search_bot(options: str) -> SearchBot:
    """The search bot of a budget spec's options (``playouts=16,width=3``).

    Each key of :data:`BUDGET` may be given once. The bot's name gives them in
    :data:`BUDGET`'s order. A bad spec raises a ``ValueError`` saying what is wrong.
    """
    given = _read_budget(options)
    values = {key: given[key] for key in BUDGET if key in given}
    bot = SearchBot()
    for key, value in values.items():
        _SET_BUDGET[key](bot, value)
    shown = (f"{key}={_shown(key, value)}" for key, value in values.items())
    bot.name = "search:" + ",".join(shown)
    return bot


def _read_budget(options: str) -> dict[str, float | None]:
    """The values a budget spec's options give, by key, as written."""
    given: dict[str, float | None] = {}
    for item in options.split(","):
        key, text = _option(item, options)
        if key in given:
            raise ValueError(f"search: {key} given twice")
        given[key] = _value(key, text)
    return given


def _option(item: str, options: str) -> tuple[str, str]:
    """One ``key=value`` option of ``options``: its key and its text."""
    key, eq, text = (part.strip() for part in item.partition("="))
    if not key:
        raise ValueError(f"search: an empty option in {options!r} (key=value,...)")
    if key not in BUDGET:
        raise ValueError(f"search: no option {key!r}; options: {', '.join(BUDGET)}")
    if not eq or not text:
        raise ValueError(f"search: {key} needs a value ({key}=...)")
    return key, text


def _set_playouts(bot: SearchBot, value: float | None) -> None:
    bot.playouts = int(value or 0)


def _set_width(bot: SearchBot, value: float | None) -> None:
    bot.width = int(value or 0)


def _set_depth(bot: SearchBot, value: float | None) -> None:
    bot.depth = None if value is None else int(value)


def _set_discards(bot: SearchBot, value: float | None) -> None:
    bot.discards = bool(value)


def _set_confidence(bot: SearchBot, value: float | None) -> None:
    bot.confidence = float(value or 0)


def _set_win(bot: SearchBot, value: float | None) -> None:
    bot.win = int(value or 0)


def _set_melds(bot: SearchBot, value: float | None) -> None:
    bot.melds = bool(value)


def _set_extra(bot: SearchBot, value: float | None) -> None:
    bot.extra = int(value or 0)


def _set_greedy(bot: SearchBot, value: float | None) -> None:
    bot.greedy = bool(value)


def _set_prune(bot: SearchBot, value: float | None) -> None:
    bot.prune = float(value or 0)


#: each key of :data:`BUDGET` -> what sets it on the bot
_SET_BUDGET: dict[str, Callable[[SearchBot, float | None], None]] = {
    "playouts": _set_playouts,
    "width": _set_width,
    "depth": _set_depth,
    "discards": _set_discards,
    "confidence": _set_confidence,
    "win": _set_win,
    "melds": _set_melds,
    "extra": _set_extra,
    "greedy": _set_greedy,
    "prune": _set_prune,
}


def _value(key: str, text: str) -> float | None:
    """A budget value read from ``text``, within :data:`BUDGET`'s bounds."""
    low, high = BUDGET[key]
    if key == "depth" and text == "none":
        return None
    whole = key not in _FRACTIONAL
    try:
        value = float(int(text)) if whole else float(text)
    except ValueError:
        value = float("nan")
    if not low <= value <= high:  # NaN fails here too
        kind = "a whole number" if whole else "a number"
        also = " or none" if key == "depth" else ""
        raise ValueError(f"search: {key} is {kind} from {low:g} to {high:g}{also}, not {text!r}")
    return value


def _shown(key: str, value: float | None) -> str:
    """A budget value as the bot's name gives it."""
    if value is None:
        return "none"
    return f"{value:g}" if key in _FRACTIONAL else str(int(value))


#: the budget keys whose values need not be whole numbers
_FRACTIONAL: Final = ("confidence", "prune")
