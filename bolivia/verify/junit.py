"""A conformance run as JUnit XML, the report format CI systems read.

There is one ``testsuite`` per suite. There is one ``testcase`` per case and ruleset, with
``name`` ``CASE:RULESET`` and ``classname`` the suite.

A failure is a ``failure``. Its ``message`` is the reason on one line. Its text is the full
report: request, expectation, answer, and the engine's stderr meanwhile. That stderr is also
the case's ``system-err``. A skip is ``skipped``, with its reason as text. A case not run is
an ``error`` of ``type="not-run"``, so that CI does not count it as passed. Each suite's
``system-err`` holds what the engine wrote on stderr while it ran (the lines still kept).

The file validates against the Jenkins JUnit schema, ``junit-4.xsd``. The JUnit team validates
its own reports with it. Every text is escaped for XML. A character XML 1.0 cannot hold is
written as an escape.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from bolivia.text import terminal
from bolivia.verify.conformance import Outcome
from bolivia.verify.reporting import Run, counts

__all__ = ["junit_xml"]

_NOT_XML = {0xFFFE: "\\ufffe", 0xFFFF: "\\uffff"}


def _text(value: str) -> str:
    """Text XML 1.0 can hold, lines kept: controls and the like as escapes."""
    return terminal(value, lines=True).translate(_NOT_XML)


def _attribute(value: str) -> str:
    """An attribute's value on one line."""
    return terminal(value).translate(_NOT_XML)[:2000]


def _seconds(value: float) -> str:
    return f"{value:.6f}"


def _testcase(parent: ET.Element, outcome: Outcome) -> None:
    case = ET.SubElement(
        parent,
        "testcase",
        name=_attribute(f"{outcome.case}:{outcome.ruleset}"),
        classname=_attribute(outcome.suite),
        time=_seconds(outcome.seconds),
    )
    if outcome.status == "skipped":
        ET.SubElement(case, "skipped").text = _text(outcome.note)
    elif outcome.status == "not-run":
        error = ET.SubElement(case, "error", message=_attribute(outcome.note), type="not-run")
        error.text = _text(f"not run: {outcome.note}")
    elif outcome.status == "failed":
        failure = ET.SubElement(
            case, "failure", message=_attribute(outcome.note or "failed"), type="failed"
        )
        failure.text = _text(outcome.report())
        if outcome.stderr:
            ET.SubElement(case, "system-err").text = _text("\n".join(outcome.stderr))


def _properties(run: Run) -> dict[str, str]:
    """What every suite's properties say of the engine."""
    engine = run.engine
    return {
        "engine": engine.name if engine is not None else "none",
        "command": " ".join(run.command) if run.command is not None else "in-process",
        "protocol": str(engine.protocol) if engine is not None else "",
        "rulesets": ", ".join(sorted(engine.rulesets)) if engine is not None else "",
    }


def _testsuite(root: ET.Element, run: Run, suite: str, properties: dict[str, str]) -> None:
    """One suite's element: its counts, the engine's properties, its cases and stderr."""
    mine = [o for o in run.outcomes if o.suite == suite]
    found = counts(mine)
    element = ET.SubElement(
        root,
        "testsuite",
        name=_attribute(suite),
        tests=str(len(mine)),
        failures=str(found["failed"]),
        errors=str(found["not-run"]),
        skipped=str(found["skipped"]),
        time=_seconds(sum(o.seconds for o in mine)),
    )
    if run.started:
        element.set("timestamp", run.started)
    listed = ET.SubElement(element, "properties")
    for name, value in properties.items():
        ET.SubElement(listed, "property", name=name, value=_attribute(value))
    for outcome in mine:
        _testcase(element, outcome)
    stderr = run.stderr_of(suite)
    if stderr:
        ET.SubElement(element, "system-err").text = _text("\n".join(stderr))


def junit_xml(run: Run) -> bytes:
    """The run as a JUnit XML document (UTF-8)."""
    total = counts(run.outcomes)
    root = ET.Element(
        "testsuites",
        name="bolivia conform",
        tests=str(len(run.outcomes)),
        failures=str(total["failed"]),
        errors=str(total["not-run"]),
        time=_seconds(run.seconds),
    )
    properties = _properties(run)
    for suite in run.suite_names():
        _testsuite(root, run, suite, properties)
    ET.indent(root)
    text = ET.tostring(root, encoding="unicode")
    return f'<?xml version="1.0" encoding="UTF-8"?>\n{text}\n'.encode()
