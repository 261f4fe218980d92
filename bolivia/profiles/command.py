"""What ``bolivia profile`` does between reading its options and printing: start the engine,
profile it against the shipped suites, write the profile as a ruleset file."""

from __future__ import annotations

from pathlib import Path

from bolivia.authoring.house import write_ruleset
from bolivia.errors import Problem, RulesetError
from bolivia.profiles.profile import MAX_QUESTIONS, Profile, profile_engine
from bolivia.profiles.report import profile_json, profile_text, profile_yaml
from bolivia.profiles.search import MAX_REQUESTS
from bolivia.rules.library import Library
from bolivia.text import json_for_terminal
from bolivia.verify.conformance import Engine, ProcessEngine, load_suite, shipped_suites

__all__ = ["DEADLINE", "profile_output", "profile_status", "run_profile"]

DEADLINE = 1800.0  # seconds a profile may take; the questions left are not asked


def run_profile(
    command: str | Engine,
    library: Library,
    *,
    as_id: str | None = None,
    out: Path | None = None,
    force: bool = False,
    max_questions: int = MAX_QUESTIONS,
    max_requests: int = MAX_REQUESTS,
    timeout: float = 10.0,
    deadline: float | None = None,
) -> tuple[Profile, str | None]:
    """The profile of an engine (a command to start, or an engine already running), and the
    file it was written to (with ``out``). A command that cannot be started is an
    :class:`~bolivia.verify.engines.EngineFailure` of kind ``start``."""
    if out is not None and out.exists() and not force:  # said before the engine is asked
        raise RulesetError(
            [Problem(str(out), None, "", "exists already (give --force to replace it)")]
        )
    suites = [load_suite(path) for path in shipped_suites()]
    engine = ProcessEngine(command, timeout=timeout) if isinstance(command, str) else command
    try:
        name = engine.name if engine.name != "?" else "the engine"
        profile = profile_engine(
            engine,
            library,
            suites,
            name=name,
            as_id=as_id,
            max_questions=max_questions,
            max_requests=max_requests,
            deadline=deadline,
        )
    finally:
        if isinstance(command, str):
            engine.close()
    if out is None:
        return profile, None
    write_ruleset(profile_yaml(profile), out, library, force=force)
    return profile, str(out)


def profile_output(
    command: str,
    library: Library,
    *,
    as_json: bool = False,
    as_id: str | None = None,
    out: Path | None = None,
    force: bool = False,
    max_questions: int = MAX_QUESTIONS,
    max_requests: int = MAX_REQUESTS,
    timeout: float = 10.0,
) -> tuple[str, int]:
    """``bolivia profile``: the text (or JSON) to print and the exit status.

    The status is 1 when the engine answered no question, or stopped answering before the
    questions were all asked: the profile is then incomplete."""
    profile, written = run_profile(
        command,
        library,
        as_id=as_id,
        out=out,
        force=force,
        max_questions=max_questions,
        max_requests=max_requests,
        timeout=timeout,
        deadline=DEADLINE,
    )
    if as_json:
        text = json_for_terminal(profile_json(profile, written), indent=2)
    else:
        text = "\n".join(profile_text(profile) + ([f"written to {written}"] if written else []))
    return text, profile_status(profile)


def profile_status(profile: Profile) -> int:
    """``bolivia profile``'s exit status: 1 when the engine answered no question, or stopped
    answering before the questions were all asked (the profile is then incomplete), else 0."""
    return 0 if profile.answered and not profile.stopped else 1
