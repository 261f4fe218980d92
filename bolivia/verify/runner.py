"""``bolivia conform`` without the command line.

It loads the suites and picks the cases, by ruleset and by ``-k`` pattern. It starts the
engine and runs the cases. A deadline, ``--maxfail`` failures, an engine given up on, or
Ctrl-C stops the run. It writes text or a JSON document on standard output, and a JUnit XML
file.

A choice that picks nothing, or an engine command that cannot start, is a
:class:`UsageProblem`, naming its option.
"""

from __future__ import annotations

import fnmatch
import functools
import json
import shlex
import time
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from pathlib import Path

from bolivia.errors import BoliviaError, Problem, RulesetError
from bolivia.output import write_files
from bolivia.rules.library import Library
from bolivia.rules.ruleset import Ruleset
from bolivia.text import terminal
from bolivia.verify.conformance import (
    Outcome,
    Planned,
    Suite,
    conforms,
    find_suite,
    load_suite,
    not_run,
    run_plan,
    shipped_suites,
)
from bolivia.verify.dependencies import outcome_fields
from bolivia.verify.engines import Engine, EngineFailure, InProcessEngine, ProcessEngine
from bolivia.verify.expected import NoCases, plan_for
from bolivia.verify.junit import junit_xml
from bolivia.verify.oracle import Oracle
from bolivia.verify.reporting import (
    FieldsOf,
    Level,
    Run,
    document_text,
    nothing_checked,
    text_report,
)
from bolivia.verify.tail import Tail

__all__ = [
    "UsageProblem",
    "check_target",
    "load_suites",
    "pick",
    "report",
    "run",
    "status",
    "write_junit",
]

GLOB = frozenset("*?[")


class UsageProblem(BoliviaError):
    """A choice on the command line that cannot be run: ``param`` names the option."""

    def __init__(self, param: str, message: str) -> None:
        self.param = param
        super().__init__(terminal(message))


def load_suites(refs: Sequence[str]) -> list[Suite]:
    """The suites named (names or files; every shipped one when none), each problem of every
    file collected before raising."""
    paths = [find_suite(ref) for ref in refs] or shipped_suites()
    problems: list[Problem] = []
    loaded = []
    for path in paths:
        try:
            loaded.append(load_suite(path))
        except RulesetError as exc:
            problems.extend(exc.problems)
    if problems:
        raise RulesetError(problems)
    return loaded


def _matches(name: str, pattern: str) -> bool:
    """A glob (``*``, ``?``, ``[...]``) matches the whole name; other text, any part of it."""
    if GLOB & set(pattern):
        return fnmatch.fnmatchcase(name, pattern)
    return pattern in name


def pick(
    suites: Sequence[Suite],
    rulesets: Sequence[str] = (),
    patterns: Sequence[str] = (),
    library: Library | None = None,
) -> list[Planned]:
    """The requests of the suites for ``rulesets`` (all when none) whose name
    ``SUITE:CASE:RULESET`` some pattern matches (all when none). A ruleset of ``library``
    (or a ruleset file) that no case is for, such as a profile, gets expectations derived by
    the built-in oracle (:mod:`bolivia.verify.expected`)."""
    try:
        planned = plan_for(suites, rulesets, library if library is not None else Library())
    except NoCases as exc:
        raise UsageProblem("--ruleset", str(exc)) from None
    if not patterns:
        return planned
    names = [f"{suite.suite}:{case.id}:{ruleset}" for suite, case, ruleset, _ in planned]
    _check_patterns(patterns, names)
    return [
        item
        for item, name in zip(planned, names, strict=True)
        if any(_matches(name, p) for p in patterns)
    ]


def _check_patterns(patterns: Sequence[str], names: Sequence[str]) -> None:
    """Refuse a ``-k`` pattern that matches no case, naming one case as an example."""
    unmatched = [p for p in patterns if not any(_matches(name, p) for name in names)]
    if unmatched:
        example = f" such as {names[0]!r}" if names else ""
        raise UsageProblem(
            "-k",
            f"{', '.join(map(repr, unmatched))} matches no case "
            f"(names are SUITE:CASE:RULESET{example})",
        )


def rule_fields(library: Library, refs: Sequence[str] = ()) -> FieldsOf:
    """The rule fields an outcome's case depends on (:mod:`bolivia.verify.dependencies`),
    each with the ruleset's value as JSON: the value of the file the run was given where a
    ruleset file (``refs``) was asked under its base's id, not the base's."""
    files: dict[str, Ruleset] = {}
    for ref in refs:
        if ref not in library and Path(ref).is_file():
            try:
                found = library.load(Path(ref))
            except BoliviaError:
                continue
            files[found.extends or found.id] = found

    def fields(outcome: Outcome) -> list[tuple[str, str]]:
        try:
            ruleset = files.get(outcome.ruleset) or library.load(outcome.ruleset)
        except BoliviaError:
            return []
        return [
            (path, json.dumps(value, ensure_ascii=False))
            for path, value in outcome_fields(outcome, ruleset)
        ]

    return fields


def check_target(path: Path | None) -> None:
    """Fail before the run, not after it, when the JUnit file cannot be where it is asked."""
    if path is None:
        return
    if path.is_dir():
        raise UsageProblem("--junit", f"{path} is a folder, not a file")
    if not path.parent.is_dir():
        raise UsageProblem("--junit", f"{path}: the folder {path.parent} does not exist")


def _usual(library: Library) -> Callable[[str], int | None]:
    """A ruleset's usual number of players, when the library holds the ruleset."""

    @functools.cache
    def usual(ruleset: str) -> int | None:
        if ruleset not in library:
            return None
        try:
            return library.load(ruleset).rules.players.usual
        except RulesetError:
            return None

    return usual


def _engine(library: Library, command: str | None, timeout: float) -> Engine:
    """The built-in oracle (``command`` None), or the program started; one that does not
    start is a usage problem."""
    if command is None:
        return InProcessEngine(Oracle(library))
    try:
        return ProcessEngine(command, timeout=timeout)
    except EngineFailure as exc:
        if exc.kind == "start":
            raise UsageProblem("--engine", str(exc)) from None
        raise


def _gather(out: Run, outcomes: Iterable[Outcome], tail: Tail | None) -> None:
    """Each outcome into the run as it comes, with the engine's stderr lines by suite."""
    mark = 0
    for outcome in outcomes:
        out.outcomes.append(outcome)
        if tail is not None:  # the lines written since the last outcome: this suite's
            now = tail.mark()
            start = out.spans.get(outcome.suite, (mark, now))[0]
            out.spans[outcome.suite] = (start, now)
            mark = now


def run(
    suites: Sequence[Suite],
    planned: Sequence[Planned],
    library: Library,
    *,
    command: str | None = None,
    timeout: float = 10.0,
    deadline: float | None = None,
    give_up: int | None = None,
    maxfail: int | None = None,
) -> Run:
    """Run the planned requests against the engine ``command`` (the built-in oracle when
    None); Ctrl-C ends the run, the cases left not run."""
    started = time.monotonic()
    out = Run(
        [],
        cases={
            **{(suite.suite, case.id): case for suite in suites for case in suite.cases},
            **{(suite.suite, case.id): case for suite, case, _, _ in planned},
        },
        suites=list(dict.fromkeys(suite.suite for suite, _, _, _ in planned)),
        started=datetime.now().isoformat(timespec="seconds"),
    )
    engine: Engine | None = None
    try:
        try:
            engine = _engine(library, command, timeout)
        except EngineFailure as exc:  # it started, and its hello was no answer
            out.command = shlex.split(command) if command is not None else None
            out.failure = exc.lines()
            out.outcomes.extend(not_run(planned, f"the engine's hello failed: {exc}", "hello"))
            return out
        if isinstance(engine, ProcessEngine):
            out.command = engine.command
        out.engine = engine
        outcomes = run_plan(
            planned,
            engine,
            deadline=deadline,
            give_up=give_up,
            maxfail=maxfail,
            usual=_usual(library),
        )
        _gather(out, outcomes, engine.stderr)
    except KeyboardInterrupt:
        out.interrupted = True
        out.outcomes.extend(not_run(planned[len(out.outcomes) :], "interrupted", "interrupted"))
    finally:
        if engine is not None:
            engine.close()
        out.seconds = time.monotonic() - started
    return out


def served_oracle(library: Library, served: Sequence[str], max_states: int | None = None) -> Oracle:
    """The oracle of the library, answering for each ``ID=FILE`` with the ruleset file FILE
    (validated like any) under the id ID, in place of a ruleset of that id. The problems of
    every file are collected before raising. ``max_states``: the oracle's bound on one search
    for a way out (None: its default)."""
    if max_states is None:
        oracle = Oracle(library)
    else:
        try:
            oracle = Oracle(library, max_states=max_states)
        except ValueError as exc:
            raise UsageProblem("--max-states", str(exc)) from None
    problems: list[Problem] = []
    ids: set[str] = set()
    for pair in served:
        rid, sep, file = pair.partition("=")
        if not (sep and rid.strip() and file.strip()):
            raise UsageProblem("--serve", f"{pair!r} is not ID=FILE (bolivia-da=house.yaml)")
        if rid in ids:
            raise UsageProblem("--serve", f"the id {rid!r} is served twice")
        if file.strip() == "-":
            raise UsageProblem(
                "--serve", "standard input carries the requests: serve a ruleset from a file"
            )
        ids.add(rid)
        try:
            oracle.register(library.load(Path(file)), as_id=rid)
        except RulesetError as exc:
            problems.extend(exc.problems)
    if problems:
        raise RulesetError(problems)
    return oracle


def report(
    run: Run, fmt: str, level: Level, fields_of: FieldsOf | None = None
) -> tuple[str, list[str]]:
    """What goes to standard output (the text report or the JSON document), and the warnings
    for standard error."""
    warnings = (
        ["nothing was checked: no case passed or failed"] if nothing_checked(run.outcomes) else []
    )
    if fmt == "json":
        return document_text(run, fields_of), warnings
    return "\n".join(text_report(run, level, fields_of)), warnings


def status(run: Run) -> int:
    """The exit status: 0 when something ran and nothing failed or was left not run, 130 when
    Ctrl-C stopped the run, else 1."""
    if run.interrupted:
        return 130
    return 0 if conforms(run.outcomes) else 1


def write_junit(run: Run, path: Path) -> None:
    write_files({path: junit_xml(run)})
