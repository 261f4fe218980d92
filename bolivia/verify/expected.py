"""Expectations for a ruleset the suites hold no case for: a house ruleset, an engine's
profile. Each case of the nearest ruleset of its chain that has cases is kept, and what it
expects becomes what the built-in oracle answers under the ruleset to the same keys.

A ruleset named by id is asked under its id. A ruleset *file* is asked under the id it extends:
an engine's profile (``bolivia profile``) describes what the engine answers for that id, so
``bolivia conform --engine CMD --ruleset PROFILE.yaml`` checks the engine's answers for its base
against the profile.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from bolivia.errors import BoliviaError, RulesetError
from bolivia.rules.library import Library
from bolivia.rules.ruleset import Ruleset
from bolivia.verify.conformance import Planned, Suite, plan
from bolivia.verify.dependencies import ask, expectation_from
from bolivia.verify.oracle import Oracle

__all__ = ["NoCases", "expected_suites", "plan_for"]


class NoCases(BoliviaError):
    """A ruleset named for a run that no case is for, nor can be derived for."""


def _known(suites: Sequence[Suite]) -> set[str]:
    return {ruleset for suite in suites for case in suite.cases for ruleset in case.expect}


def expected_suites(
    suites: Sequence[Suite], ruleset: Ruleset, asked_as: str, library: Library
) -> list[Suite]:
    """The suites' cases for ``ruleset``, each expecting what the oracle answers under it, to
    be asked under the id ``asked_as``."""
    known = _known(suites)
    keys_from = next((rid for rid in reversed(ruleset.chain) if rid in known), None)
    if keys_from is None:
        raise NoCases(f"no case of the suites is for {ruleset.id} or a ruleset it extends")
    oracle = Oracle(library)
    oracle.register(ruleset)
    out = []
    for suite in suites:
        cases = []
        for case in suite.cases:
            if keys_from not in case.expect:
                continue
            request = {"op": case.op, "id": case.id, "ruleset": ruleset.id, **case.input}
            expected = expectation_from(case.op, case.expect[keys_from], ask(oracle, request))
            cases.append(case.model_copy(update={"expect": {asked_as: expected}}))
        if cases:
            out.append(suite.model_copy(update={"cases": tuple(cases)}))
    return out


def plan_for(suites: Sequence[Suite], refs: Sequence[str], library: Library) -> list[Planned]:
    """The requests of a run for the rulesets ``refs`` (ids or files; all the suites' rulesets
    when none): a ruleset the cases are for as they are, any other with expectations derived."""
    known = _known(suites)
    if not refs:
        return plan(suites)
    out: list[Planned] = []
    for ref in refs:
        if ref in known:
            out += plan(suites, [ref])
            continue
        is_file = ref not in library and Path(ref).is_file()
        if not is_file and ref not in library:
            raise NoCases(
                f"no case of the suites is for {ref}, and it is no ruleset of the library nor "
                f"a ruleset file (the cases are for {', '.join(sorted(known))})"
            )
        try:
            ruleset = library.load(Path(ref) if is_file else ref)
        except RulesetError as exc:
            raise NoCases(f"{ref}: {exc.problems[0]}") from None
        asked_as = (ruleset.extends or ruleset.id) if is_file else ruleset.id
        out += plan(expected_suites(suites, ruleset, asked_as, library), [asked_as])
    return out
