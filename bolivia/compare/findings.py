"""The variant comparison: everything the report shows, computed once, as plain data.

For the rulesets compared, :func:`build` puts together:

- Their sources and standing.
- Every rule side by side, with where each value comes from.
- The behaviour witnesses (:mod:`witnesses`).
- A gallery of end-of-hand positions scored under each ruleset.
- Play on the same deals under every column with each bot, and whole games to the target.
- The paired differences between columns, corrected as one family (:mod:`playing`,
  :mod:`paired`).
- Where the sources disagree or are silent.

Rendering (:mod:`report`) only formats this data. So the Markdown, HTML and JSON say the same
thing.
"""

from __future__ import annotations

import functools
import json
import threading
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from bolivia.compare.comparison import (
    Comparison,
    Disagreement,
    GalleryEntry,
    Play,
    RuleRow,
    Sizing,
)
from bolivia.compare.differences import area_of
from bolivia.compare.paired import (
    deals_for_precision,
    house_check,
    paired_figures,
)
from bolivia.compare.playing import (
    BOTS,
    GAME_BOT,
    PlayJob,
    PlayStats,
    Runs,
    game_stats,
    play_stats,
    preload,
    run_jobs,
)
from bolivia.compare.summary import columns, measured_effects
from bolivia.compare.witnesses import AREA_OPS, Finding, Witness, find_witnesses
from bolivia.language import N_, Said, said
from bolivia.play.batch.seeds import derive_seed
from bolivia.play.batch.workers import Workers, worker_pool
from bolivia.rules.library import LibrarySpec
from bolivia.rules.provenance import value_text
from bolivia.rules.ruleset import Ruleset
from bolivia.rules.sources import Sources, shipped_sources
from bolivia.rules.tree import leaf_paths
from bolivia.verify.oracle import Oracle

__all__ = ["Comparison", "build"]


# --------------------------------------------------------------------------- rules


def _rows(rulesets: Sequence[Ruleset]) -> list[RuleRow]:
    rows = []
    for path in leaf_paths():
        values = {r.id: value_text(r.value(path)) for r in rulesets}
        rows.append(
            RuleRow(
                path=path,
                area=area_of(path),
                values=values,
                status={r.id: r.provenance[path].status for r in rulesets},
                claims={r.id: list(r.provenance[path].claims) for r in rulesets},
                differs=len(set(values.values())) > 1,
            )
        )
    return rows


def _about_the_game(rulesets: Sequence[Ruleset], sources: Sources) -> Callable[[str], bool]:
    """Whether a claim is one of the rulesets' own sources, about the game they play.

    A page comparing Bolivia with Canasta says things of Canasta too.
    """
    games = {r.family for r in rulesets}
    theirs = {sid for r in rulesets for sid in r.sources}

    def about_the_game(claim: str) -> bool:
        try:
            return sources.claim(claim).about in games and claim.split(":")[0] in theirs
        except KeyError:
            return False

    return about_the_game


def _add_claims(bucket: list[str], claims: Iterable[str], about: Callable[[str], bool]) -> None:
    """Add to a bucket each claim about the game it does not hold yet."""
    bucket.extend(c for c in claims if c not in bucket and about(c))


def _stated(
    rulesets: Sequence[Ruleset], path: str, about: Callable[[str], bool]
) -> dict[str, list[str]]:
    """Per value the rulesets state for a rule, the claims they encode it for."""
    stated: dict[str, list[str]] = {}
    for ruleset in rulesets:
        prov = ruleset.provenance[path]
        if prov.status == "stated":
            bucket = stated.setdefault(value_text(ruleset.value(path)), [])
            _add_claims(bucket, prov.claims, about)
    return stated


def _mentioned(
    rulesets: Sequence[Ruleset], path: str, about: Callable[[str], bool]
) -> dict[str, list[str]]:
    """Per other value the rulesets' provenance mentions for a rule, the claims saying it."""
    mentioned: dict[str, list[str]] = {}
    for ruleset in rulesets:
        for alt in ruleset.provenance[path].alternatives:
            if alt.path == path and alt.claims:
                _add_claims(mentioned.setdefault(alt.value_key, []), alt.claims, about)
    return mentioned


def _claims_by_value(
    rulesets: Sequence[Ruleset], path: str, about: Callable[[str], bool]
) -> dict[str, list[str]]:
    """Per value of a rule, the claims saying it: each claim under one value.

    A claim goes under the value a ruleset encodes it for, before a value it only mentions.
    """
    stated = _stated(rulesets, path, about)
    placed = {c for claims in stated.values() for c in claims}
    by_value = {v: list(c) for v, c in stated.items()}
    for value, claims in _mentioned(rulesets, path, about).items():
        by_value.setdefault(value, []).extend(c for c in claims if c not in placed)
    return {v: sorted(set(c)) for v, c in by_value.items() if c}


def _disagreements(rulesets: Sequence[Ruleset], sources: Sources) -> list[Disagreement]:
    """Where the compared rulesets' sources give different values for a rule.

    Only claims about the game the rulesets play count. Each disagreement names the
    rulesets holding each value.
    """
    about = _about_the_game(rulesets, sources)
    out = []
    for path in leaf_paths():
        kept = _claims_by_value(rulesets, path, about)
        if len(kept) > 1:
            holders = {v: [r.id for r in rulesets if value_text(r.value(path)) == v] for v in kept}
            out.append(Disagreement(path, sorted(kept.items()), holders))
    return out


def _silences(rulesets: Sequence[Ruleset]) -> list[tuple[str, dict[str, str]]]:
    """Per rule, the rulesets that assume its value, those giving the same reason together
    (``"bolivia-ko, bolivia-zh" -> reason``)."""
    out = []
    for path in leaf_paths():
        by_reason: dict[str, list[str]] = {}
        for r in rulesets:
            if r.provenance[path].status == "assumed":
                by_reason.setdefault(r.provenance[path].reason, []).append(r.id)
        if by_reason:
            out.append((path, {", ".join(ids): reason for reason, ids in by_reason.items()}))
    return out


# --------------------------------------------------------------------------- scoring gallery

_GROUP = ["KH", "KS", "KD", "KC", "KH", "KS", "KD"]
_MIXED = ["QH", "QS", "QD", "QC", "QH", "JK", "2C"]
_RUN = ["4S", "5S", "6S", "7S", "8S", "9S", "10S"]
_WILD = ["JK", "JK", "2D", "2D", "2H", "2H", "2S"]
_SMALL = ["9H", "9S", "9D"]

HAND_PICKED: list[tuple[Said, Said, dict[str, Any]]] = [
    (
        said(N_("two group canastas, no escalera")),
        said(
            N_(
                "A side with a natural and a mixed canasta and two red threes; the other side "
                "a small group."
            )
        ),
        {"teams": [{"melds": [_GROUP, _MIXED], "red_threes": 2}, {"melds": [_SMALL]}]},
    ),
    (
        said(N_("escalera and canasta, going out")),
        said(N_("A side goes out with an escalera and a natural canasta; the other holds cards.")),
        {
            "teams": [
                {"melds": [_RUN, _GROUP], "went_out": True},
                {"melds": [_SMALL], "hands": [["AS", "JK", "7D"]]},
            ]
        },
    ),
    (
        said(N_("going out concealed")),
        said(
            N_(
                "A side goes out in one turn, never having melded before, with a natural and a "
                "mixed canasta."
            )
        ),
        {"teams": [{"melds": [_GROUP, _MIXED], "concealed": True}, {"melds": [_SMALL]}]},
    ),
    (
        said(N_("a bolivia")),
        said(N_("A side holds a bolivia (seven wild cards) and a natural canasta.")),
        {"teams": [{"melds": [_WILD, _GROUP]}, {"melds": [_SMALL], "hands": [["KS"]]}]},
    ),
    (
        said(N_("black threes caught")),
        said(N_("A side is caught with two black threes and an ace in hand.")),
        {
            "teams": [
                {"melds": [_SMALL]},
                {"melds": [["8H", "8S", "8D"]], "hands": [["3C", "3S", "AS"]]},
            ]
        },
    ),
    (
        said(N_("all four red threes, no meld")),
        said(N_("A side laid out four red threes but never melded.")),
        {"teams": [{"melds": [], "red_threes": 4, "hands": [["KS", "QS"]]}, {"melds": [_SMALL]}]},
    ),
]


def _score_all(
    oracle: Oracle, rulesets: Sequence[Ruleset], request: dict[str, Any]
) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for ruleset in rulesets:
        answer = oracle.handle({"op": "score", "ruleset": ruleset.id, **request})
        out[ruleset.id] = answer["result"]["teams"] if answer["ok"] else {"error": answer["error"]}
    return out


def _sampled_positions(
    rulesets: Sequence[Ruleset], seed: int
) -> list[tuple[Said, Said, dict[str, Any]]]:
    """The end of one simulated hand per ruleset, as a score request."""
    from bolivia.play.batch.simulate import play_hand
    from bolivia.play.bots.simple import GreedyBot

    out = []
    for ruleset in rulesets:
        players = ruleset.rules.players.usual
        for index in range(30):
            stats, hand = play_hand(
                ruleset,
                players,
                derive_seed(seed, 7919, index),
                [GreedyBot()] * players,
                check="none",
            )
            if hand.went_out is None:
                continue
            out.append(
                (
                    said(N_("a hand played under {ruleset}"), ruleset=ruleset.id),
                    said(
                        N_(
                            "The end of a simulated hand under {ruleset} (greedy bots, hand "
                            "{index} of the run): a side went out after {turns} turns."
                        ),
                        ruleset=ruleset.id,
                        index=str(index),
                        turns=stats.turns,
                    ),
                    hand.score_request(),
                )
            )
            break
    return out


def _gallery(rulesets: Sequence[Ruleset], oracle: Oracle, seed: int) -> list[GalleryEntry]:
    entries = []
    seen: set[str] = set()
    for name, about, request in [*HAND_PICKED, *_sampled_positions(rulesets, seed)]:
        key = json.dumps(request, sort_keys=True)
        if key in seen:  # rulesets that play alike deal and play the same hand
            continue
        seen.add(key)
        results = _score_all(oracle, rulesets, request)
        totals = {json.dumps(v, sort_keys=True) for v in results.values()}
        entries.append(GalleryEntry(name, about, request, results, len(totals) > 1))
    return entries


# --------------------------------------------------------------------------- play


def _jobs(
    rulesets: Sequence[Ruleset],
    where: LibrarySpec,
    bots: Sequence[str],
    seed: int,
    deals: range,
    games: range,
    digest: bool,
) -> list[tuple[str, PlayJob]]:
    games_first: list[tuple[str, PlayJob]] = []  # the longest jobs, so no worker ends alone
    out = []
    for ruleset in rulesets:
        ref = str(ruleset.path) if ruleset.path is not None and not ruleset.shipped else ruleset.id
        players = ruleset.rules.players.usual
        common = (ref, where, players)
        for index in games:
            games_first.append((ruleset.id, PlayJob(*common, GAME_BOT, seed, index, game=True)))
        for bot in bots:
            for index in deals:
                out.append((ruleset.id, PlayJob(*common, bot, seed, index, digest=digest)))
    return games_first + out


def _run(
    runs: Runs,
    jobs: Sequence[tuple[str, PlayJob]],
    workers: int,
    progress: Callable[[int], None] | None,
    stop: threading.Event | None = None,
    pool: Workers | None = None,
) -> None:
    for (column, job), result in zip(
        jobs, run_jobs([job for _, job in jobs], workers, progress, stop, pool), strict=True
    ):
        runs.add(job, result, column)


def _play(
    rulesets: Sequence[Ruleset],
    sizing: Sizing,
    bots: Sequence[str],
    seed: int,
    workers: int,
    where: LibrarySpec,
    progress: Callable[[int], None] | None,
    base: str | None,
    more: Callable[[int, int], None] | None = None,
    stop: threading.Event | None = None,
    pool: Workers | None = None,
) -> Play:
    """Play every column's deals under each of ``bots`` and its games, then (with a precision asked)
    as many more deals as it needs within its bounds; the figures and paired differences.
    Once ``stop`` is set, the next result raises :class:`~bolivia.compare.playing.Stopped`.
    ``more`` is told how many more deals the precision plays, and the deals per column then."""
    ids = [r.id for r in rulesets]
    runs = Runs(bots)
    first = sizing.bounds[0] if sizing.precision is not None else sizing.deals
    _run(
        runs,
        _jobs(rulesets, where, bots, seed, range(first), range(sizing.games), base is not None),
        workers,
        progress,
        stop,
        pool,
    )
    if sizing.precision is not None:
        deals, wanted = deals_for_precision(
            runs, ids, sizing.precision, sizing.bounds, sizing.games > 0
        )
        extra = _jobs(rulesets, where, bots, seed, range(first, deals), range(0), base is not None)
        if more is not None:
            more(len(extra), deals)
        _run(runs, extra, workers, progress, stop, pool)
        hit = wanted != deals
        sizing = Sizing(deals, sizing.games, sizing.precision, sizing.bounds, hit, wanted)
    return Play(
        sizing=sizing,
        columns=ids,
        stats=[play_stats(rid, bot, runs.deals[(bot, rid)]) for bot in bots for rid in ids],
        games=[game_stats(rid, runs.games[rid]) for rid in ids if rid in runs.games],
        paired=paired_figures(runs, ids),
        # a house that plays as its base shares the base's column: nothing to set against it
        house=house_check(runs, ids[0], ids[1]) if base is not None and len(ids) == 2 else [],
        bots=tuple(bots),
    )


# --------------------------------------------------------------------------- building


DEFAULT_DEALS = 100  # deals per column and bot
DEFAULT_GAMES = 10  # games to the target per column
PRECISION_BOUNDS = (100, 4000)  # the fewest and the most deals --precision may choose


def _base_of(rulesets: Sequence[Ruleset]) -> str | None:
    """The base's id when a house ruleset is compared with its base, else None."""
    if (
        len(rulesets) == 2
        and rulesets[1].base is not None
        and rulesets[1].base.id == rulesets[0].id
    ):
        return rulesets[0].id
    return None


Rulings = tuple[list[Witness], list[Finding], list[GalleryEntry]]


def _rulings_and_play(
    rulings: Callable[[], Rulings],
    play: Callable[[threading.Event | None, Workers | None], Play],
    workers: int,
    played: tuple[Sequence[Ruleset], LibrarySpec],
) -> tuple[Rulings, Play]:
    """The rulings and the play, the workers playing while this process finds the rulings.

    The two use separate state (the workers play the ``played`` rulesets, given them as they
    start), so the order cannot change a byte. The pool is made here: only the main thread may
    set the signal handling it needs.
    """
    if workers <= 1:
        found = rulings()
        return found, play(None, None)
    stop = threading.Event()
    # the pool is left first: stopping its workers ends a play thread waiting on them
    with ThreadPoolExecutor(1, "play") as ahead, worker_pool(workers, preload, played) as pool:
        playing = ahead.submit(play, stop, pool)
        try:
            found = rulings()
            return found, playing.result()
        except BaseException:
            stop.set()
            raise


def build(
    rulesets: Sequence[Ruleset],
    *,
    hands: int = DEFAULT_DEALS,
    games: int = DEFAULT_GAMES,
    bots: Sequence[str] = BOTS,
    precision: float | None = None,
    bounds: tuple[int, int] = PRECISION_BOUNDS,
    seed: int = 1,
    workers: int = 1,
    where: LibrarySpec | None = None,
    oracle: Oracle | None = None,
    progress: Callable[[int], None] | None = None,
    sources: Sources | None = None,
    meanwhile: Callable[[], object] | None = None,
    more: Callable[[int, int], None] | None = None,
) -> Comparison:
    """Everything the report says about these rulesets. ``hands`` deals per column under
    each of ``bots`` (four of a kind at the table; specs such as ``search:playouts=16,width=3``)
    (or, with ``precision``, as many as it needs within ``bounds``), ``games`` games per
    column; ``progress`` is told of every deal and game played. ``meanwhile`` is the caller's
    own work for this process while the workers play, once the witnesses are found (loading
    what the report is drawn with, so that it is not left for after the play). With
    ``precision``, ``more`` is told how many deals the precision adds to the first ones (and
    the deals per column then), before they are played."""
    if len(rulesets) < 2:
        raise ValueError("a comparison needs two rulesets or more")
    if not bots or len(set(bots)) != len(bots):
        raise ValueError("a comparison plays under one bot or more, each named once")
    oracle = oracle if oracle is not None else Oracle()
    where = where if where is not None else LibrarySpec()
    for ruleset in rulesets:
        oracle.register(ruleset)
    chosen_sources = sources if sources is not None else shipped_sources()
    rows = _rows(rulesets)
    base = _base_of(rulesets)
    by_id = {r.id: r for r in rulesets}
    played = [by_id[col.first] for col in columns(rows, [r.id for r in rulesets])]
    sizing = Sizing(hands, games, precision, bounds if precision is not None else (hands, hands))

    def rulings() -> Rulings:
        witnesses, findings = find_witnesses(rulesets, oracle)
        witnesses.sort(key=lambda w: (list(AREA_OPS).index(w.area), w.key))
        gallery = _gallery(rulesets, oracle, seed)
        if meanwhile is not None:
            meanwhile()
        return witnesses, findings, gallery

    play_all = functools.partial(
        _play, played, sizing, tuple(bots), seed, workers, where, progress, base, more
    )
    (witnesses, findings, gallery), play = _rulings_and_play(
        rulings, play_all, workers, (played, where)
    )
    comparison = Comparison(
        rulesets=list(rulesets),
        seed=seed,
        hands=hands,
        rows=rows,
        witnesses=witnesses,
        findings=findings,
        gallery=gallery,
        play=play,
        disagreements=_disagreements(rulesets, chosen_sources),
        silences=_silences(rulesets),
        sources=chosen_sources,
        base=base,
    )
    comparison.hands = comparison.play.sizing.deals
    comparison.effects, comparison.gallery_rules = measured_effects(comparison, oracle)
    return comparison


def planned_plays(rulesets: Sequence[Ruleset], hands: int, games: int, bots: int) -> int:
    """How many deals and games a comparison of these rulesets plays first (rulesets with
    identical rules play once) under ``bots`` bots."""
    cols = columns(_rows(rulesets), [r.id for r in rulesets])
    return len(cols) * (bots * hands + games)


__all__ += [
    "GalleryEntry",
    "Play",
    "PlayStats",
    "RuleRow",
    "Sizing",
    "planned_plays",
]
