"""The body of ``bolivia sweep``: a grid of rule values played on the same deals, resumable
from its store, on local worker processes or a Dask cluster, and its report. The click
command is declared in :mod:`bolivia.cli`, which calls :func:`sweep`.

May import: everything below the command line (sweeps, play, ...), console, play_cli and
click.
"""

from __future__ import annotations

import dataclasses
import time
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import click

from bolivia import formats
from bolivia.console import Progress, echo, echo_json
from bolivia.options import given_rulesets
from bolivia.options import library as ruleset_library
from bolivia.play_cli import MAX_DEALS, bots_of, check_of, players_of
from bolivia.rules.library import Library
from bolivia.rules.ruleset import Ruleset
from bolivia.sweeps.grid import Axis, SweepError, derive_variants, parse_axis
from bolivia.sweeps.jobs import Job
from bolivia.sweeps.measures import MeasuredVariant, measure_all, measures_for
from bolivia.sweeps.precision import ROUNDS, Precision, deals_needed, parse_precision
from bolivia.sweeps.report import render_json, sweep_data, write_report
from bolivia.sweeps.run import SweepSpec, plan, run_sweep
from bolivia.sweeps.store import Store, Stored, default_store
from bolivia.sweeps.summary import terminal_table
from bolivia.text import terminal

__all__ = ["status", "sweep"]

F = TypeVar("F", bound=Callable[..., Any])


def status(store_path: Path | None, as_json: bool = False) -> None:
    """``--status``: what the store holds (``--json``: as a ``bolivia-sweep-store``
    document)."""
    from tabulate import tabulate

    path = store_path or default_store()
    if as_json:
        echo_json(store_json(path))
        return
    if not path.exists():
        echo(f"no sweep store at {path} yet: a sweep makes it")
        return
    rows = [dataclasses.astuple(s) for s in _stored(path)]
    echo(f"sweep store {path}: {len(rows)} sets of deals")
    if rows:
        echo(tabulate(rows, headers=_STORED, tablefmt="simple", disable_numparse=True))


# a stored set's fields (sweeps.store.Stored), as the status names them
_STORED = (
    *("ruleset", "values", "bots", "players", "unit", "seed"),
    *("check", "deals", "chunks", "seconds", "engine"),
)


def _stored(path: Path) -> list[Stored]:
    """Every set of deals the store at ``path`` holds."""
    with Store(path, write=False) as store:
        return store.status()


def _base_library(base: Ruleset, library: Library) -> Library:
    """A library in which the derived rulesets find their base by its id: this one, with
    the base file's folder added when the base is a file of no folder of it."""
    if base.path is None:
        raise SweepError("the base ruleset has no file to extend")
    if base.id in library and library.path_of(base.id).resolve() == base.path.resolve():
        return library
    if base.id in library:
        raise SweepError(
            f"{base.path}: its id {base.id!r} is also the id of {library.path_of(base.id)}: "
            "give the base file another id"
        )
    return library.with_folder(base.path.resolve().parent)


def store_json(path: Path) -> dict[str, Any]:
    """What the store at ``path`` holds, as data: every set of deals (none when there is no
    store yet)."""
    stored = _stored(path) if path.exists() else []
    sets = [dict(zip(_STORED, dataclasses.astuple(s), strict=True)) for s in stored]
    for found in sets:
        found["bots"] = found["bots"].split(",")
        found["unit"] = found["unit"].removesuffix("s")  # hand or game, as in sweep.json
    return {
        **formats.head("sweep-store"),
        "store": str(path),
        "exists": path.exists(),
        "sets": sets,
    }


def _base_ref(
    refs: tuple[str, ...], vary: Sequence[str], hands: int | None, games: int | None
) -> str:
    """The base's reference; a sweep without a base or a varied field, or with both hands
    and games, is refused."""
    given = given_rulesets(refs, required=False)
    if not given:
        raise click.UsageError("give the base RULESET (or --status)")
    if not vary:
        raise click.UsageError("give at least one --vary FIELD=V1,V2,... (or FIELD=LOW..HIGH/STEP)")
    if hands and games:
        raise click.UsageError("give --hands or --games, not both")
    return given[0]


def _axes(vary: Sequence[str], base: Ruleset) -> list[Axis]:
    """The varied fields and their values, each field once."""
    axes = [parse_axis(text, base) for text in vary]
    twice = [f for f, n in Counter(a.field for a in axes).items() if n > 1]
    if twice:
        raise SweepError(f"--vary {twice[0]} is given twice: list all its values in one --vary")
    return axes


def _short_of(wanted: Precision, spec: SweepSpec, need: int, rounds: int) -> bool:
    """Whether the precision wanted cannot be reached: the deals or rounds are used up."""
    if spec.deals >= MAX_DEALS or rounds == ROUNDS:
        click.echo(
            terminal(
                f"warning: {wanted.text()} is not reached with {spec.deals:,} deals "
                f"(it needs {need:,})"
            ),
            err=True,
        )
        return True
    return False


def _to_precision(
    spec: SweepSpec,
    measured_of: Callable[[SweepSpec], list[MeasuredVariant]],
    wanted: Precision | None,
) -> tuple[SweepSpec, list[MeasuredVariant]]:
    """The sweep played and measured, then with more deals, round by round, until the
    precision wanted is reached or cannot be."""
    measured = measured_of(spec)
    rounds = 0
    while wanted is not None:
        need = deals_needed(measured, wanted, spec.deals, spec.chunk_size)
        if need <= spec.deals or _short_of(wanted, spec, need, rounds):
            break
        need = min(need, MAX_DEALS)
        click.echo(terminal(f"{wanted.text()} needs {need:,} deals: going on"), err=True)
        spec = dataclasses.replace(spec, deals=need)
        measured = measured_of(spec)
        rounds += 1
    return spec, measured


def _say_done(data: dict[str, Any], written: Sequence[Path], as_json: bool) -> None:
    """The summary (or the JSON), the files written and the combinations that had problems."""
    if as_json:
        echo(render_json(data).rstrip())
    else:
        _summary(data)
    for written_path in written:
        if written_path.suffix != ".svg":
            click.echo(terminal(f"wrote {written_path}"), err=True)
    for c in data["combinations"]:
        problems = c["not_ended_by_a_rule"] + c["conservation_failures"] + c["games_not_over"]
        if problems:
            click.echo(
                terminal(
                    f"warning: {c['label']}: {c['not_ended_by_a_rule']} hands not ended by a "
                    f"rule, {c['conservation_failures']} card-check failures, "
                    f"{c['games_not_over']} games not over"
                ),
                err=True,
            )


def sweep(
    refs: tuple[str, ...],
    vary: Sequence[str],
    hands: int | None,
    games: int | None,
    chunk: int | None,
    precision: str | None,
    bot_names: str,
    players: int | None,
    seed: int,
    workers: int,
    cluster: str | None,
    check: str,
    no_check: bool,
    as_json: bool,
    store_path: Path | None,
    out: Path,
    formats: list[str],
    folders: tuple[Path, ...],
    lang: str = "en",
) -> None:
    """Play every combination of the varied values on the same deals; write the report (its
    text in the language ``lang``)."""
    ref = _base_ref(refs, vary, hands, games)
    chosen = formats
    library = ruleset_library(folders)
    base = library.load(ref)
    count = players_of(base, players)
    names = bots_of(bot_names, count)
    axes = _axes(vary, base)
    folder = out / "rulesets"
    variants = derive_variants(base, base.id, axes, folder, _base_library(base, library))
    spec = SweepSpec(
        base,
        tuple(axes),
        tuple(variants),
        tuple(names),
        count,
        bool(games),
        games or hands or 200,
        seed,
        check_of(check, no_check),
        chunk or 0,
    )
    measures = measures_for(spec.games, spec.teams, count)
    wanted = parse_precision(precision, measures, spec.games) if precision else None
    path = store_path or default_store()
    with Store(path) as store:

        def measured_of(spec: SweepSpec) -> list[MeasuredVariant]:
            records = _play(spec, store, path, workers, cluster)
            return measure_all(records, spec.base_index, spec.games, spec.teams, measures)

        spec, measured = _to_precision(spec, measured_of, wanted)
    files = [
        None if v.is_base else str(Path("rulesets") / f"{v.ruleset.id}.yaml") for v in variants
    ]
    data, written = write_report(
        lambda: sweep_data(spec, measures, measured, files), out, chosen, lang
    )
    _say_done(data, written, as_json)


def _play(
    spec: SweepSpec, store: Store, path: Path, workers: int, cluster: str | None
) -> list[list[list[int]]]:
    """Run what the store lacks, with a progress line and a note as each combination is
    done; Ctrl-C keeps what is finished and says so."""
    todo = plan(spec, store)
    unit = "games" if spec.games else "hands"
    if store.damaged:
        click.echo(
            terminal(
                f"{store.damaged} chunks of the store {path} did not read as what they should "
                "hold (damaged, or out of range): they are played again and replaced"
            ),
            err=True,
        )
    noun = f"{unit} played"
    total = sum(job.count for job in todo.pending)
    stored = sum(todo.stored_deals)
    where = f"on the Dask cluster at {cluster}" if cluster else f"with {workers} worker(s)"
    click.echo(
        terminal(
            f"sweep of {len(spec.variants)} combinations x {spec.deals:,} {unit}: "
            f"{stored:,} from the store {path}, {total:,} to play {where}"
        ),
        err=True,
    )
    left = Counter(job.ruleset.digest for job in todo.pending)
    for variant, held in zip(spec.variants, todo.stored_deals, strict=True):
        if not left[variant.ruleset.digest]:
            click.echo(
                terminal(f"  {variant.label(spec.axes)}: all {held:,} {unit} from the store"),
                err=True,
            )
    meter = Progress(total, noun)
    start = time.monotonic()

    def done(job: Job, seconds: float) -> None:
        meter.update(job.count)
        left[job.ruleset.digest] -= 1
        if not left[job.ruleset.digest]:
            for variant in spec.variants:
                if variant.ruleset.digest == job.ruleset.digest:
                    meter.note(terminal(f"  {variant.label(spec.axes)}: done"))

    try:
        records = run_sweep(spec, store, workers=workers, cluster=cluster, progress=done)
    except KeyboardInterrupt:
        meter.finish()
        click.echo(
            terminal(
                f"stopped: {meter.done:,} {unit} finished are kept in {path}; "
                "the same command goes on from there"
            ),
            err=True,
        )
        raise
    meter.finish()
    click.echo(terminal(f"played {total:,} {unit} in {time.monotonic() - start:.1f} s"), err=True)
    return records


def _summary(data: dict[str, Any]) -> None:
    """The first measures on the terminal, within 100 columns."""
    echo(terminal_table(data))
