"""What a conformance run shows, as terminal text or one JSON document.

It shows the counts per suite (a suite is a rule area) and the skips grouped by reason. It
shows the failures grouped by suite, and by rule field given a way to tell a case's fields.
JUnit XML is in :mod:`bolivia.verify.junit`.

Text has three levels:

- ``quiet`` is the last line only.
- ``normal`` shows the first :data:`SHOWN_IN_FULL` failures in full (request, expectation,
  answer, the engine's stderr). When there are more, it shows every failure on one line,
  grouped by suite. It also shows the table of suites and the reasons for skips.
- ``verbose`` shows every outcome on a line and every failure in full.

The last line is always ``N passed, N failed``, with ``, N skipped`` and ``, N not run`` where
there are any. Everything from a suite file or an engine is escaped for the terminal.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from bolivia import formats
from bolivia.text import json_for_terminal, terminal
from bolivia.verify.conformance import NOT_RUN, SKIPS, Case, Outcome, conforms, summary
from bolivia.verify.engines import Engine
from bolivia.version import __version__

__all__ = [
    "FORMAT",
    "SHOWN_IN_FULL",
    "STATUSES",
    "VERSION",
    "FieldsOf",
    "Run",
    "by_rule_field",
    "counts",
    "document",
    "document_text",
    "nothing_checked",
    "reasons",
    "text_report",
    "unchecked",
]

FORMAT = formats.name("conformance")
VERSION = formats.version("conformance")  # within a version, fields are only ever added
SHOWN_IN_FULL = 20  # failures shown in full by default
STATUSES = ("passed", "failed", "skipped", "not-run")
VALUE_CHARS = 100_000  # characters of one request, expectation or answer in a document
LISTED = 12  # names listed in one reason before "and N more"
MESSAGES = 10  # distinct messages of unsupported answers listed one a line

Level = Literal["quiet", "normal", "verbose"]
# the rule fields a case depends on (its expectation changes when one of them changes)
#: the rule fields an outcome's case depends on, each with the ruleset's value (as shown)
FieldsOf = Callable[[Outcome], Sequence[tuple[str, str]]]


@dataclass
class Run:
    """A run's outcomes, in order, with what the report says about it: the engine, the cases
    (by suite and id, to ask their rule fields), the suites in order, the engine's stderr
    marks at each suite's start and end, and whether Ctrl-C stopped it."""

    outcomes: list[Outcome]
    engine: Engine | None = None
    command: Sequence[str] | None = None  # the engine's command; None: in-process
    cases: dict[tuple[str, str], Case] = field(default_factory=dict)
    suites: list[str] = field(default_factory=list)
    spans: dict[str, tuple[int, int]] = field(default_factory=dict)
    interrupted: bool = False
    seconds: float = 0.0
    started: str = ""  # when it started: ISO 8601, local time
    failure: list[str] = field(default_factory=list)  # why the engine could not be asked

    def suite_names(self) -> list[str]:
        return list(dict.fromkeys([*self.suites, *(o.suite for o in self.outcomes)]))

    def stderr_of(self, suite: str) -> list[str]:
        """What the engine wrote on stderr while the suite ran (the lines still kept)."""
        tail = self.engine.stderr if self.engine is not None else None
        span = self.spans.get(suite)
        return tail.between(*span) if tail is not None and span is not None else []


def counts(outcomes: Iterable[Outcome]) -> dict[str, int]:
    found = Counter(o.status for o in outcomes)
    return {status: found[status] for status in STATUSES}


def _names(items: Iterable[str], limit: int = LISTED) -> str:
    """``a, b, c`` (escaped), and ``and N more`` past ``limit``."""
    unique = list(dict.fromkeys(items))
    shown = ", ".join(terminal(item) for item in unique[:limit])
    return shown + (f" and {len(unique) - limit} more" if len(unique) > limit else "")


@dataclass(frozen=True)
class Reason:
    """Cases skipped (or not run) for one reason: how many, what about, and in words."""

    status: str
    reason: str
    count: int
    subjects: tuple[str, ...]
    sentence: str


def _skipped_reasons(skipped: Sequence[Outcome], engine: Engine | None) -> list[Reason]:
    """The skips grouped by reason, in the order of :data:`SKIPS`, then any other note."""
    out: list[Reason] = []
    for reason in SKIPS:
        found = [o for o in skipped if o.reason == reason]
        if not found:
            continue
        if reason == "unsupported":
            out += _unsupported(found)
            continue
        subjects = tuple(dict.fromkeys(o.subject for o in found))
        out.append(Reason("skipped", reason, len(found), subjects, _skip(reason, subjects, engine)))
    other = Counter(o.note for o in skipped if o.reason not in SKIPS)
    return out + [Reason("skipped", "", n, (), terminal(note)) for note, n in other.items()]


def reasons(run: Run) -> list[Reason]:
    """The skips grouped by reason (each unsupported message its own, up to
    :data:`MESSAGES` of them), then the cases not run, by why."""
    skipped = [o for o in run.outcomes if o.status == "skipped"]
    out = _skipped_reasons(skipped, run.engine)
    late = Counter((o.reason, o.note) for o in run.outcomes if o.status == "not-run")
    order = {reason: i for i, reason in enumerate(NOT_RUN)}
    for (reason, note), n in sorted(late.items(), key=lambda item: order.get(item[0][0], 99)):
        out.append(Reason("not-run", reason, n, (), terminal(note)))
    return out


def _skip_ruleset(subjects: Sequence[str], engine: Engine | None) -> str:
    claimed = _names(sorted(engine.rulesets)) if engine is not None and engine.rulesets else ""
    return (
        f"the engine does not claim the ruleset{'s' if len(subjects) > 1 else ''} "
        f"{_names(subjects)} (it claims {claimed or 'none'})"
    )


def _skip_op(subjects: Sequence[str], engine: Engine | None) -> str:
    listed = _names(sorted(engine.ops)) if engine is not None and engine.ops else "none"
    return f"the engine does not answer {_names(subjects)} (its hello lists {listed})"


def _skip_players(subjects: Sequence[str], engine: Engine | None) -> str:
    seats = sorted(engine.players) if engine is not None and engine.players else []
    listed = _names(str(n) for n in seats) or "none"
    return (
        f"the engine does not seat {_names(sorted(subjects, key=_number))} players "
        f"(its hello lists {listed})"
    )


def _skip_protocol(subjects: Sequence[str], engine: Engine | None) -> str:
    """Subjects are ``op (protocol N)``: the cases of a later protocol than the engine's."""
    spoken = engine.protocol if engine is not None else "?"
    return f"the engine speaks protocol {spoken}; these are of a later one: {_names(subjects)}"


def _skip_fields(subjects: Sequence[str], engine: Engine | None) -> str:
    fields: dict[str, dict[str, None]] = {}  # op -> its fields, in order
    for subject in subjects:
        op, _, names = subject.partition(": ")
        fields.setdefault(op, {}).update(dict.fromkeys(names.split(", ")))
    listed = "; ".join(f"{terminal(op)}'s {_names(names)}" for op, names in fields.items())
    return (
        f"the engine does not answer these fields (of a later protocol than its own, or no "
        f"protocol's): {listed}"
    )


# a reason for skipping cases -> the sentence that says it, for its subjects
_SKIP_SENTENCES: dict[str, Callable[[Sequence[str], Engine | None], str]] = {
    "ruleset": _skip_ruleset,
    "op": _skip_op,
    "players": _skip_players,
    "protocol": _skip_protocol,
    "fields": _skip_fields,
}


def _skip(reason: str, subjects: Sequence[str], engine: Engine | None) -> str:
    """Why cases were skipped for one reason, in a sentence."""
    return _SKIP_SENTENCES[reason](subjects, engine)


def _number(text: str) -> tuple[int, str]:
    return (int(text), "") if text.isdigit() else (0, text)


def _unsupported(found: Sequence[Outcome]) -> list[Reason]:
    messages = Counter(o.subject for o in found)
    out = [
        Reason(
            "skipped", "unsupported", n, (message,), f"the engine answered unsupported: {message}"
        )
        for message, n in messages.most_common(MESSAGES)
    ]
    rest = messages.most_common()[MESSAGES:]
    if rest:
        n = sum(count for _, count in rest)
        out.append(
            Reason(
                "skipped",
                "unsupported",
                n,
                tuple(message for message, _ in rest),
                f"the engine answered unsupported, with {len(rest)} other messages "
                "(--verbose or --json shows each)",
            )
        )
    return out


def unchecked(run: Run) -> list[str]:
    """Lines saying what was not checked and why: the skipped and the cases not run, grouped
    by reason."""
    said = {"skipped": "skipped", "not-run": "not run"}
    return [f"{r.count} {said[r.status]}: {r.sentence}" for r in reasons(run)]


def nothing_checked(outcomes: Sequence[Outcome]) -> bool:
    return not any(o.status in ("passed", "failed") for o in outcomes)


def by_rule_field(
    run: Run, fields_of: FieldsOf | None
) -> list[tuple[str, list[Outcome], list[str]]] | None:
    """The failures grouped by the rule fields their cases depend on (a case under each of its
    fields; those naming none under ""), most failures first, each group with the values the
    failing rulesets give the field ("200 (bolivia-da)"); None without ``fields_of``."""
    if fields_of is None:
        return None
    groups: dict[str, list[Outcome]] = {}
    values: dict[str, dict[str, None]] = {}
    for outcome in run.outcomes:
        if outcome.status != "failed":
            continue
        named = list(fields_of(outcome)) or [("", "")]
        for name, value in named:
            groups.setdefault(name, []).append(outcome)
            if name:
                values.setdefault(name, {})[f"{value} ({outcome.ruleset})"] = None
    return [
        (name, found, list(values.get(name, {})))
        for name, found in sorted(
            groups.items(), key=lambda item: (-len(item[1]), item[0] == "", item[0])
        )
    ]


# --------------------------------------------------------------------------- text


def _line(outcome: Outcome) -> str:
    said = {"passed": "PASSED", "failed": "FAILED", "skipped": "SKIPPED", "not-run": "NOT RUN"}
    note = f": {outcome.note}" if outcome.note else ""
    return terminal(f"{said[outcome.status]} {outcome.name}{note}")[:2000]


def _failure_index(run: Run, failed: Sequence[Outcome], shown: int) -> list[str]:
    """Every failure on a line, by suite, when there are more than are shown in full."""
    index = [f"every failure, by suite ({len(failed)}):"]
    for suite in run.suite_names():
        mine = [o for o in failed if o.suite == suite]
        if mine:
            index.append(f"  {terminal(suite)}: {len(mine)} failed")
            index += [f"    {_line(o)}" for o in mine]
    index.append(
        f"{len(failed) - shown} of the {len(failed)} failures are not shown in full: "
        "--verbose shows them all, as do --json and --junit FILE"
    )
    return index


def _outcome_sections(run: Run, level: Level, shown: int) -> list[list[str]]:
    """Every outcome (verbose), or the first failures in full and an index of the rest."""
    if level == "verbose":
        return [[o.report() if o.status == "failed" else _line(o) for o in run.outcomes]]
    failed = [o for o in run.outcomes if o.status == "failed"]
    sections = [[outcome.report() for outcome in failed[:shown]]]
    if len(failed) > shown:
        sections.append(_failure_index(run, failed, shown))
    return sections


def _by_field_section(run: Run, fields_of: FieldsOf | None) -> list[str]:
    """The failures grouped by the rule field each case depends on."""
    groups = by_rule_field(run, fields_of)
    if not groups:
        return []
    lines = ["failures by rule field:"]
    for name, found, said in groups:
        label = terminal(name) if name else "(no rule field named)"
        names = _names((o.name for o in found), 5)
        where = f"; the rules say {_names(said, 3)}" if said else ""
        lines.append(f"  {label}: {len(found)} failed ({names}){where}")
    return lines


def text_report(
    run: Run,
    level: Level = "normal",
    fields_of: FieldsOf | None = None,
    shown: int = SHOWN_IN_FULL,
) -> list[str]:
    """The run as lines for standard output; the last is the summary line."""
    outcomes = run.outcomes
    if level == "quiet":
        return [summary(outcomes)]
    sections = _outcome_sections(run, level, shown)
    sections += [_by_field_section(run, fields_of), _table(run), unchecked(run)]
    lines = [line for section in sections if section for line in ["", *section]][1:]
    return [*lines, summary(outcomes)]


def _table(run: Run) -> list[str]:
    rows = [["suite", "passed", "failed", "skipped", "not run"]]
    for suite in run.suite_names():
        found = counts(o for o in run.outcomes if o.suite == suite)
        rows.append([terminal(suite), *(str(found[s]) for s in STATUSES)])
    rows.append(["total", *(str(n) for n in counts(run.outcomes).values())])
    width = max(len(row[0]) for row in rows)
    return [
        f"{row[0]:<{width}}  " + "  ".join(f"{cell:>7}" for cell in row[1:]).rstrip()
        for row in rows
    ]


# --------------------------------------------------------------------------- JSON


def _bounded(value: Any) -> tuple[Any, bool]:
    """A value for the document, or, when its JSON is over :data:`VALUE_CHARS` characters,
    the start of that text saying how much is cut; and whether it was cut."""
    text = json.dumps(value, ensure_ascii=False)
    if len(text) <= VALUE_CHARS:
        return value, False
    return f"{text[:VALUE_CHARS]}... ({len(text) - VALUE_CHARS} more characters not kept)", True


def _outcome(outcome: Outcome) -> dict[str, Any]:
    actual, cut = _bounded(outcome.actual)
    request, _ = _bounded(outcome.request)
    expected, _ = _bounded(outcome.expected)
    return {
        "name": outcome.name,
        "suite": outcome.suite,
        "case": outcome.case,
        "ruleset": outcome.ruleset,
        "status": outcome.status,
        "reason": outcome.reason or None,
        "subject": outcome.subject or None,
        "note": outcome.note,
        "seconds": round(outcome.seconds, 6),
        "request": request,
        "expected": expected,
        "actual": actual,
        "actual_cut": cut,
        "stderr": list(outcome.stderr),
    }


def _engine(run: Run) -> dict[str, Any]:
    """What the document says of the engine: its name, command, hello and stderr."""
    engine = run.engine
    command = list(run.command) if run.command is not None else None
    if engine is None:
        return {
            "name": None,
            "command": command,
            "protocol": None,
            "rulesets": [],
            "ops": None,
            "players": None,
            "stderr": [],
            "stderr_dropped": 0,
        }
    tail = engine.stderr
    return {
        "name": engine.name,
        "command": command,
        "protocol": engine.protocol,
        "rulesets": sorted(engine.rulesets),
        "ops": sorted(engine.ops) if engine.ops is not None else None,
        "players": sorted(engine.players) if engine.players is not None else None,
        "stderr": tail.lines() if tail is not None else [],
        "stderr_dropped": tail.dropped if tail is not None else 0,
    }


def _by_field(run: Run, fields_of: FieldsOf | None) -> list[dict[str, Any]] | None:
    """The failures by rule field, for the document (None when no field is known)."""
    groups = by_rule_field(run, fields_of)
    if groups is None:
        return None
    return [
        {
            "field": name or None,
            "count": len(found),
            "values": said,
            "cases": [o.name for o in found],
        }
        for name, found, said in groups
    ]


def document(run: Run, fields_of: FieldsOf | None = None) -> dict[str, Any]:
    """The whole run as one JSON document (``"format": "bolivia-conformance"``), keys in a
    fixed order."""
    return {
        **formats.head("conformance"),
        "tool": f"bolivia {__version__}",
        "engine": _engine(run),
        "conforms": conforms(run.outcomes),
        "interrupted": run.interrupted,
        "seconds": round(run.seconds, 3),
        "summary": summary(run.outcomes),
        "counts": counts(run.outcomes),
        "suites": [
            {"suite": suite, "counts": counts(o for o in run.outcomes if o.suite == suite)}
            for suite in run.suite_names()
        ],
        "reasons": [
            {
                "status": r.status,
                "reason": r.reason or None,
                "count": r.count,
                "subjects": list(r.subjects),
                "message": r.sentence,
            }
            for r in reasons(run)
        ],
        "failures_by_rule_field": _by_field(run, fields_of),
        "outcomes": [_outcome(outcome) for outcome in run.outcomes],
    }


def document_text(run: Run, fields_of: FieldsOf | None = None) -> str:
    """:func:`document` as JSON text, safe on a terminal (escapes as JSON escapes)."""
    return json_for_terminal(document(run, fields_of), indent=2)
