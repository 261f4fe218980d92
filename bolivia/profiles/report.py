"""A profile said: as a ruleset file, as text and as JSON.

The ruleset file extends the base and holds only the changed values, each with the provenance
of a house value -- ``house: observed in <engine>: cases ...`` -- and, as comments at its end,
the behaviours no rule field describes with their cases. It is validated exactly as ``bolivia
validate`` would before it is written (:func:`bolivia.authoring.house.write_ruleset`).

>>> describe_change("red_threes.all_value", 1000, 800)
'red_threes.all_value 800 (not 1000)'
>>> describe_change("pile.blocked_by_top", ["wild", "red_three"], ["red_three"])
'pile.blocked_by_top without wild'
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from bolivia import formats
from bolivia.authoring.house import nest_paths
from bolivia.engine.meld import plural
from bolivia.profiles.battery import Question
from bolivia.profiles.profile import Change, Profile
from bolivia.text import yaml_comment, yaml_text

__all__ = ["SHOWN_CASES", "describe_change", "profile_json", "profile_text", "profile_yaml"]

SHOWN_CASES = 6  # cases named for a change or a behaviour; the rest are counted


def _value(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return value
    return json.dumps(value, separators=(", ", ": "), ensure_ascii=False)


def _inner_changes(
    changed: Sequence[str], old: dict[str, Any], new: dict[str, Any]
) -> set[tuple[str, str, str]]:
    """The keys changed inside the changed entries of a table: (key, new, old) in words."""
    return {
        (k, _value(new[key][k]), _value(old[key][k]))
        for key in changed
        if isinstance(new[key], dict) and isinstance(old[key], dict)
        for k in new[key]
        if new[key].get(k) != old[key].get(k)
    }


def _gone_and_added(path: str, old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """A table's entries gone, then those added with their values."""
    parts = [f"{path} has no {key}" for key in old if key not in new]
    return parts + [f"{path}.{key} {_value(new[key])}" for key in new if key not in old]


def _table(path: str, old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """A table's change: its entries gone, added and changed.

    When every entry changed the same way (the seatings, all drawing one card), that is said
    once.
    """
    parts = _gone_and_added(path, old, new)
    changed = [key for key in new if key in old and new[key] != old[key]]
    inner = _inner_changes(changed, old, new)
    if _alike(changed, old, new, inner):
        return parts + [f"{path} {k} {n} (not {o})" for k, n, o in sorted(inner)]
    return parts + [describe_change(f"{path}.{key}", old[key], new[key]) for key in changed]


def _alike(
    changed: Sequence[str],
    old: dict[str, Any],
    new: dict[str, Any],
    inner: set[tuple[str, str, str]],
) -> bool:
    """Whether every entry of a table changed, and each inner key one way."""
    everywhere = len(changed) == len(old) == len(new) and len(changed) > 1
    return everywhere and len({k for k, _, _ in inner}) == len(inner) and bool(inner)


def _band(b: Any) -> str:
    """A band of the first meld in words: its minimum, from which score, and the canastas it
    asks for."""
    start = "below the next" if b.get("from") is None else f"from {b['from']}"
    canastas = b.get("canasta") or []
    needs = f" and a {' and a '.join(canastas)} canasta" if canastas else ""
    return f"{b.get('minimum')}{needs} {start}"


def _has_from(bands: Sequence[Any], b: Any) -> bool:
    """Whether a band starting where ``b`` does is among ``bands``."""
    return any(other.get("from") == b.get("from") for other in bands)


def _replaced(fresh: Sequence[Any], old: Sequence[Any]) -> list[tuple[Any, Any]]:
    """Each new band with the old band that started where it does."""
    return [(b, o) for b in fresh for o in old if o.get("from") == b.get("from")]


def _bands(path: str, old: list[Any], new: list[Any]) -> list[str]:
    """The first meld's bands changed: those gone, changed and added (a band written without
    its canastas asks for none)."""
    old = [{"canasta": [], **b} for b in old]
    new = [{"canasta": [], **b} for b in new]
    fresh = [b for b in new if b not in old]
    parts = [
        f"{path} has no {b.get('minimum')} band"
        for b in old
        if b not in new and not _has_from(new, b)
    ]
    parts += [f"{path} {_band(b)} (not {_band(o)})" for b, o in _replaced(fresh, old)]
    parts += [f"{path} has a band {_band(b)}" for b in fresh if not _has_from(old, b)]
    return parts


def _kinds(path: str, old: list[Any], new: list[Any]) -> list[str]:
    """The canasta kinds changed: those added with their bonus, those gone."""
    words = [f"with a {x['name']} paying {x['bonus']}" for x in new if x not in old]
    words += [f"without the {x['name']}" for x in old if x not in new]
    return [f"{path} {', '.join(words)}" if words else f"{path} reordered"]


def _items(path: str, old: list[Any], new: list[Any]) -> list[str]:
    """A list of plain values changed: those added, those gone."""
    words = [f"with {_value(x)}" for x in new if x not in old]
    words += [f"without {_value(x)}" for x in old if x not in new]
    return [f"{path} {', '.join(words)}" if words else f"{path} reordered"]


# the shapes of list a change is said for, each by what every item of it is
Describe = Callable[[str, list[Any], list[Any]], list[str]]
_LISTS: tuple[tuple[Callable[[Any], bool], Describe], ...] = (
    (lambda x: isinstance(x, dict) and "minimum" in x, _bands),
    (lambda x: isinstance(x, dict) and "kind" in x and "bonus" in x, _kinds),
    (lambda x: not isinstance(x, dict | list), _items),
)


def _is_table(old: Any, new: Any) -> bool:
    """Whether a value is a table of entries, not a rule choice with its parameters."""
    return (
        isinstance(old, dict)
        and isinstance(new, dict)
        and "rule" not in new
        and "condition" not in new
    )


def describe_change(path: str, old: Any, new: Any) -> str:
    """A change in words, with the field's real name: ``players.seats draw 1 (not 2)``."""
    if _is_table(old, new):
        return "; ".join(_table(path, old, new)) or path
    if isinstance(old, list) and isinstance(new, list):
        for fits, words in _LISTS:
            if all(fits(x) for x in [*old, *new]):
                return "; ".join(words(path, old, new)) or path
    return f"{path} {_value(new)} (not {_value(old)})"


def _names(questions: Sequence[Question], limit: int = SHOWN_CASES) -> str:
    shown = [q.shown() for q in questions[:limit]]
    more = len(questions) - limit
    return ", ".join(shown) + (f" and {more} more" if more > 0 else "")


def _headline(profile: Profile) -> str:
    changes = [describe_change(c.path, c.base_value, c.value) for c in profile.changes]
    n = len(profile.behaviours)
    rest = f"{n} behaviour{'s' if n != 1 else ''} no rule field describes" if n else ""
    if not profile.answered:
        why = f" (it stopped: {profile.stopped})" if profile.stopped else ""
        return (
            f"answered no question{why}: nothing is known of what it implements of "
            f"{profile.asked_as}"
        )
    if not changes and profile.stopped:  # a part answered: nothing is known of the rest
        line = f"differs from {profile.asked_as} in no rule value those answers show"
        line += f", but in {rest}" if rest else ""
    elif not changes:
        exactly = f"exactly, on the {profile.answered} answers it gave"
        line = f"implements {profile.asked_as} {f'except {rest}' if rest else exactly}"
    else:
        line = f"implements {profile.asked_as} except: {'; '.join(changes)}"
        line += f"; and {rest}" if rest else ""
    if profile.stopped:  # what it said is all that is known: it did not answer the rest
        before = f"stopped answering after {plural(profile.answered, 'answer')} ({profile.stopped})"
        return f"{before}; on those, it {line}"
    return line


def _change_lines(profile: Profile, change: Change) -> list[str]:
    """A change as lines: in words, its cases, and what explains the answers as well."""
    lines = [f"  {describe_change(change.path, change.base_value, change.value)}"]
    if change.questions:
        lines.append(f"    cases: {_names(change.questions)}")
    if change.equivalents or change.together:
        lines.append(f"    or, as well (no answer tells which): {_equivalents(profile, change)}")
    return lines


def profile_text(profile: Profile) -> list[str]:
    """The profile as lines for a terminal (not yet escaped)."""
    lines = [f"{profile.engine}: {_headline(profile)}"]
    for change in profile.changes:
        lines += _change_lines(profile, change)
    for behaviour in profile.behaviours:
        lines.append(f"  behaviour no rule field describes -- {behaviour.about}")
        lines.append(f"    cases: {_names(behaviour.questions)}")
    if profile.undetermined:
        lines.append(
            "  could not be determined (no answer to the questions that show them): "
            + ", ".join(profile.undetermined)
        )
    lines.extend(f"  {line}" for line in profile.unanswered)
    if profile.cut:
        lines.append(
            f"  the search stopped at its bound of {profile.search_cap} oracle requests: the "
            "changes explain what they explain, but may not be the fewest (give --max-requests "
            "N for more)"
        )
    if profile.not_asked:
        lines.append(
            f"  the cap of {profile.cap} questions was reached: {profile.not_asked} questions "
            "were not asked (give --max-questions N for more)"
        )
    if profile.ties:
        lines.append(
            f"  as close as {profile.asked_as} (a tie: as many changes, as much unexplained): "
            + ", ".join(profile.ties)
        )
    if profile.screened:
        near = ", ".join(
            (
                f"{rid} at least {plural(changes, 'change')}"
                if rid in profile.farther
                else f"{rid} {plural(changes, 'change')}"
                + (f" and {unexplained} answers unexplained" if unexplained else "")
            )
            for rid, (changes, unexplained) in profile.screened.items()
        )
        lines.append(f"  each ruleset it claims as the base: {near}")
    lines.append(
        f"  {profile.asked} questions asked, {profile.answered} answered, in "
        f"{profile.seconds:.1f} s; {len(profile.unobservable)} fields no question shows"
    )
    return lines


def _equivalents(profile: Profile, change: Change) -> str:
    """What explains the answers as well in the change's place: each field alone, or several
    together ("A and B")."""
    sets = [((path, value),) for path, value in change.equivalents] + list(change.together)
    return "; ".join(
        " and ".join(describe_change(p, profile.base.value(p), v) for p, v in changes)
        for changes in sets
    )


def _question_json(question: Question) -> dict[str, Any]:
    out: dict[str, Any] = {"case": question.name, "op": question.op}
    if question.field:
        out["input"] = question.input
    return out


def profile_json(profile: Profile, written: str | None = None) -> dict[str, Any]:
    return {
        **formats.head("profile"),
        "engine": profile.engine,
        "asked_as": profile.asked_as,
        "profile": profile.ruleset.id,
        "summary": _headline(profile),
        "changes": [
            {
                "field": c.path,
                "value": c.value,
                "base_value": c.base_value,
                "text": describe_change(c.path, c.base_value, c.value),
                "cases": [_question_json(q) for q in c.questions],
                "equivalents": [{"field": p, "value": v} for p, v in c.equivalents],
                "together": [[{"field": p, "value": v} for p, v in t] for t in c.together],
            }
            for c in profile.changes
        ],
        "behaviours": [
            {"about": b.about, "cases": [_question_json(q) for q in b.questions]}
            for b in profile.behaviours
        ],
        "undetermined": list(profile.undetermined),
        "unobservable": list(profile.unobservable),
        "unanswered": list(profile.unanswered),
        "claimed": {
            rid: {"changes": c, "unexplained": u, "more": rid in profile.farther}
            for rid, (c, u) in profile.screened.items()
        },
        "ties": list(profile.ties),
        "counts": {
            "asked": profile.asked,
            "answered": profile.answered,
            "not_asked": profile.not_asked,
            "cap": profile.cap,
        },
        "search_cut": profile.cut,
        "search_cap": profile.search_cap,
        "stopped": profile.stopped or None,
        "seconds": round(profile.seconds, 3),
        "ruleset": profile_yaml(profile),
        "written": written,
    }


def profile_yaml(profile: Profile) -> str:
    """The profile as a ruleset file: the base's id extended with the changed values."""
    provenance: dict[str, Any] = {
        "extends": {"house": f"{profile.engine} answers for {profile.asked_as}"}
    }
    for change in profile.changes:
        seen = f"observed in {profile.engine}"
        cases = _names(change.questions, 10)
        entry = {"house": f"{seen}: cases {cases}" if cases else seen}
        if change.equivalents or change.together:
            entry["note"] = f"the answers are explained as well by {_equivalents(profile, change)}"
        provenance[change.path] = entry
    document: dict[str, Any] = {
        "id": profile.ruleset.id,
        "name": f"{profile.engine} as profiled"[:200],
        "extends": profile.asked_as,
        "notes": _headline(profile)[:20_000],
        **nest_paths({c.path: c.value for c in profile.changes}),
        "provenance": provenance,
    }
    head = [
        f"# The rules {yaml_comment(profile.engine)} plays by, as `bolivia profile` read them off",
        f"# its answers for {profile.asked_as}: only what differs is written.",
    ]
    tail = []
    if profile.behaviours:
        tail = ["", "# Behaviours no rule field describes:"]
        for behaviour in profile.behaviours:
            tail.append(f"#   {yaml_comment(behaviour.about)}")
            tail.append(f"#     cases: {yaml_comment(_names(behaviour.questions, 20))}")
    body = yaml_text(document, width=96)
    return "\n".join(head) + "\n" + body + ("\n".join(tail) + "\n" if tail else "")
