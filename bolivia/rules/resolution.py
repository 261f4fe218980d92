"""Resolving a ruleset file on top of its base: the chain merged section by section (leaves
are replaced whole), validated into frozen :class:`~bolivia.rules.model.Rules`, checked for
rules that cannot work together (:mod:`bolivia.rules.coherence`), and every value traced --
stated by a source's claim, assumed (and why), or a house rule -- with the alternatives other
sources give. Every problem is reported at once, each with its file, line and key path.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import ValidationError

from bolivia.errors import Problem, RulesetError
from bolivia.rules import coherence, edits
from bolivia.rules.files import Layer, entry_for, location_of
from bolivia.rules.loading import Location, validation_problems
from bolivia.rules.model import Rules, field_at, is_section
from bolivia.rules.provenance import (
    Alternative,
    Entry,
    Status,
    ValueProvenance,
    check_claim,
    claim_overlaps,
    derived_alternatives,
    merge_alternatives,
    normalize_claim_value,
    value_text,
)
from bolivia.rules.ruleset import LEAVES, SECTION_KEYS, Ruleset, merge
from bolivia.rules.sources import Sources

__all__ = ["NO_REASON", "build", "in_file_order"]

NO_REASON = "(no reason given)"  # the reason of a house rule a file sets without provenance
DEFAULT_REASON = "not set: the field's default, what leaving it out has always meant"


def build(
    layer: Layer, base: Ruleset | None, sources: Sources, *, shipped: bool, strict: bool
) -> Ruleset:
    """The ruleset a file makes on top of its base. ``strict``: every value the file sets, and
    its ``extends``, must say where it comes from; otherwise an unstated value is a house rule
    with no reason given (:data:`NO_REASON`)."""
    assert layer.meta is not None
    meta = layer.meta
    loaded = layer.loaded
    problems: list[Problem] = []

    # origins: which file and line set each location of the merged data
    own_origin = {
        loc: (loaded.file, line)
        for loc, line in loaded.lines.items()
        if loc and loc[0] in SECTION_KEYS
    }
    base_data: dict[str, Any] = base.json if base is not None else {}
    base_data = _with_tuples(base_data)
    merged = merge(base_data, layer.sections)
    own_origin.update({loc: (loaded.file, line) for loc, line in layer.path_lines.items()})
    for edit in layer.edits:
        why = edits.apply(merged, edit)
        if why is not None:
            problems.append(loaded.problem(edit.where, why))

    def where(location: Location) -> tuple[str, int | None]:
        loc = tuple(location)
        while loc:
            if loc in own_origin:
                return own_origin[loc]
            spelt = tuple(str(part) for part in loc)  # a dotted key spells numbers as text
            if spelt in own_origin:
                return own_origin[spelt]
            loc = loc[:-1]
        if base is not None and base.path is not None:
            return str(base.path), None
        return loaded.file, loaded.line(())

    if base is None and meta.extends is None:
        missing = [s for s in SECTION_KEYS if s not in layer.sections]
        if missing:
            problems.append(
                loaded.problem(
                    (),
                    f"a ruleset without extends sets every section; missing: {', '.join(missing)}",
                )
            )
    if base is not None and layer.extends_entry is None and strict:
        problems.append(
            loaded.problem(
                ("extends",),
                "say why this ruleset extends its base: "
                "provenance.extends: <claim>, {assumed: <reason>} or {house: <reason>}",
            )
        )
    try:
        rules = Rules.model_validate(merged)
    except ValidationError as exc:
        problems.extend(validation_problems(exc, Rules, merged, where))
        raise RulesetError(in_file_order(problems, loaded.file)) from None

    resolved = rules.model_dump(mode="json", by_alias=True)
    own = tuple(leaf for leaf in LEAVES if layer.sets(leaf))
    unseated = [found for found in coherence.unseated_entries(rules) if found[0][0] in own]
    for paths, message in [*coherence.check(rules), *unseated]:
        # report at the first key involved that this file sets: that is what it changed
        path = _changed(paths, own_origin)
        file, line = where(location_of(path))
        if path != paths[0]:
            message = f"{paths[0]}: {message}"
        problems.append(Problem(file, line, path, message))

    family = meta.family or (base.family if base is not None else "")
    provenance: dict[str, ValueProvenance] = {}
    extends_prov = _extends_provenance(layer, base)
    for leaf in LEAVES:
        covering = entry_for(layer, leaf)
        if leaf in own and covering is None and not strict:
            provenance[leaf] = ValueProvenance(status="house", reason=NO_REASON)
            continue
        if leaf in own and covering is None:
            if any(leaf == key or leaf.startswith(key + ".") for key in layer.broken_entries):
                continue  # its entry is wrong, and says so already
            at = location_of(leaf)
            dotted = [n for loc, n in layer.path_lines.items() if loc[: len(at)] == at]
            line = min(dotted) if dotted else loaded.line(at)
            problems.append(
                Problem(
                    loaded.file,
                    line,
                    leaf,
                    "no provenance: cite the "
                    "claim(s) this value encodes, or say why it is assumed or a house rule "
                    "(provenance: {" + leaf + ": {house: <reason>}} or {assumed: <reason>})",
                )
            )
            continue
        if covering is not None:
            key, entry, entry_where = covering
            problems.extend(
                loaded.problem(entry_where, message)
                for message in _claim_problems(entry, key, leaf, sources, resolved, leaf in own)
            )
        if leaf in own:
            assert covering is not None
            provenance[leaf] = _own_provenance(covering[1], leaf, sources, family, resolved)
        elif base is None:  # a field with a default, left out of a file that extends nothing
            provenance[leaf] = ValueProvenance(status="assumed", reason=DEFAULT_REASON)
        else:
            inherited = _inherited(base.provenance[leaf], base, extends_prov)
            if covering is not None:  # claims of this file confirm the inherited value
                inherited = _confirmed(inherited, covering[1], leaf, sources, family, resolved)
                if covering[1].house and covering[0] == leaf:  # the house's word on it
                    note = f"house: {covering[1].house}"
                    inherited = dataclasses.replace(
                        inherited, note=f"{inherited.note}; {note}" if inherited.note else note
                    )
            elif family != base.family:  # what this ruleset's game's sources say instead
                inherited = dataclasses.replace(
                    inherited,
                    alternatives=merge_alternatives(
                        [
                            *inherited.alternatives,
                            *derived_alternatives(sources, family, leaf, resolved, ()),
                        ]
                    ),
                )
            provenance[leaf] = inherited
    if problems:
        raise RulesetError(in_file_order(problems, loaded.file))

    return Ruleset(
        id=meta.id,
        name=meta.name or (base.name if base is not None else meta.id),
        family=family,
        sources=meta.sources or (base.sources if base is not None else ()),
        notes=meta.notes,
        chain=(*(base.chain if base is not None else ()), meta.id),
        rules=rules,
        provenance=provenance,
        path=layer.path,
        shipped=shipped,
        extends_provenance=extends_prov,
        own_leaves=own,
        covered=tuple(leaf for leaf in LEAVES if entry_for(layer, leaf) is not None),
        base=base,
    )


def in_file_order(problems: Sequence[Problem], own_file: str) -> list[Problem]:
    """Each problem once: this file's first, by line, then those of other files by file and
    line; one with neither line nor key (such as the count of problems not listed) last in
    its file."""

    def line(problem: Problem) -> float:
        if problem.line is not None:
            return problem.line
        return 0 if problem.path else math.inf

    return sorted(dict.fromkeys(problems), key=lambda p: (p.file != own_file, p.file, line(p)))


def _changed(paths: Sequence[str], own_origin: Mapping[Location, tuple[str, int]]) -> str:
    """The first of the paths this file sets (for a section, the first leaf in it the file
    sets), else the first path: where a problem of rules working together is this file's doing.
    """
    set_here = sorted(
        ((tuple(str(p) for p in loc), line) for loc, (_, line) in own_origin.items()),
        key=lambda item: item[1],
    )
    for path in paths:
        prefix = location_of(path)
        found = field_at(path)
        if found is not None and is_section(found[0].model_fields[found[1]].annotation):
            for leaf in LEAVES:
                if leaf.startswith(path + ".") and any(
                    loc[: len(location_of(leaf))] == location_of(leaf) for loc, _ in set_here
                ):
                    return leaf
        elif any(loc[: len(prefix)] == prefix for loc, _ in set_here):
            return path
    return paths[0]


def _with_tuples(value: Any) -> Any:
    if isinstance(value, list | tuple):
        return tuple(_with_tuples(v) for v in value)
    if isinstance(value, Mapping):
        return {_int_key(k): _with_tuples(v) for k, v in value.items()}
    return value


def _int_key(key: Any) -> Any:
    """JSON keys of player-count tables are digits; the records want numbers back."""
    return int(key) if isinstance(key, str) and key.isdigit() and len(key) == 1 else key


def _extends_provenance(layer: Layer, base: Ruleset | None) -> ValueProvenance | None:
    entry = layer.extends_entry
    if base is None:
        return None
    if entry is None:  # a file without a word on its base: the house plays the base's rules
        return ValueProvenance(status="house", reason=NO_REASON)
    status: Status = "house" if entry.house else "assumed" if entry.assumed else "stated"
    return ValueProvenance(
        status=status,
        claims=entry.claims,
        reason=entry.house or entry.assumed or "",
        note=entry.note,
    )


def _claim_problems(
    entry: Entry, key: str, leaf: str, sources: Sources, resolved: Mapping[str, Any], own: bool
) -> list[str]:
    """Why the entry at ``key`` cannot vouch for ``leaf``: a cited claim disagrees with the value,
    or, for an entry covering a whole section the file sets, no cited claim speaks of this leaf
    (an entry confirming an inherited section confirms only the leaves its claims speak of)."""
    claims = [sources.claims[c] for c in entry.claims if c in sources.claims]
    messages: list[str] = []
    if entry.assumed or entry.house:
        # claims are the basis of a decision, not a statement of the value: they must speak of
        # the field, not agree with it
        if key == leaf:
            messages.extend(
                f"claim {claim.id} says nothing about {key} (it fixes: "
                f"{', '.join(claim.fixes) or 'nothing'})"
                for claim in claims
                if not any(claim_overlaps(claim, key))
            )
        return messages
    if key == leaf:
        for claim in claims:
            messages.extend(check_claim(claim, key, resolved))
    else:
        speaking = [claim for claim in claims if any(claim_overlaps(claim, leaf))]
        for claim in speaking:
            messages.extend(check_claim(claim, leaf, resolved))
        if own and claims and not speaking and not (entry.assumed or entry.house):
            messages.append(
                f"none of {', '.join(c.id for c in claims)} says anything about "
                f"{leaf}; give {leaf} an entry of its own"
            )
    return messages


def _speaking(entry: Entry, leaf: str, sources: Sources) -> tuple[str, ...]:
    """The entry's claims that speak of this leaf (a section's entry covers several)."""
    return tuple(
        c
        for c in entry.claims
        if c in sources.claims and any(claim_overlaps(sources.claims[c], leaf))
    )


def _confirmed(
    prov: ValueProvenance,
    entry: Entry,
    leaf: str,
    sources: Sources,
    family: str,
    resolved: Mapping[str, Any],
) -> ValueProvenance:
    """An inherited value that this file's own sources state too."""
    confirming = _speaking(entry, leaf, sources)
    if not confirming:
        return prov
    derived = derived_alternatives(sources, family, leaf, resolved, confirming)
    return ValueProvenance(
        status="stated" if prov.status != "house" else "house",
        claims=tuple(dict.fromkeys((*confirming, *prov.claims))),
        reason=prov.reason if prov.status == "house" else "",
        note=entry.note or prov.note,
        set_in=prov.set_in,
        via=prov.via,
        alternatives=merge_alternatives(
            [*_explicit_alternatives(entry, leaf), *prov.alternatives, *derived]
        ),
    )


def _explicit_alternatives(entry: Entry, leaf: str) -> list[Alternative]:
    """The alternatives an entry writes out (for the leaf, or the part of it ``path`` names)."""
    out = []
    for alt in entry.alternatives:
        path = alt.path or leaf
        value = normalize_claim_value(path, alt.value)
        out.append(Alternative(path, value_text(value), value, alt.claims, alt.note, explicit=True))
    return out


def _own_provenance(
    entry: Entry, leaf: str, sources: Sources, family: str, resolved: Mapping[str, Any]
) -> ValueProvenance:
    status: Status = "house" if entry.house else "assumed" if entry.assumed else "stated"
    explicit = _explicit_alternatives(entry, leaf)
    claims = _speaking(entry, leaf, sources)
    derived = derived_alternatives(sources, family, leaf, resolved, claims)
    return ValueProvenance(
        status=status,
        claims=claims,
        reason=entry.house or entry.assumed or "",
        note=entry.note,
        set_in=entry.set_in or "",
        via=entry.via,
        alternatives=merge_alternatives([*explicit, *derived]),
    )


def _inherited(
    prov: ValueProvenance, base: Ruleset, link: ValueProvenance | None
) -> ValueProvenance:
    """A base's value seen from a ruleset extending it."""
    assert link is not None
    set_in = prov.set_in or base.id
    status: Status
    if link.status == "assumed" and prov.status == "stated":
        # the sources of this ruleset are silent; the base's value is taken on assumption
        status, reason = "assumed", link.reason
    else:  # a base adopted on a source's word, or by a club, keeps its values' standing
        status, reason = prov.status, prov.reason
    via = tuple(dict.fromkeys((*link.claims, *prov.via)))
    return ValueProvenance(
        status=status,
        claims=prov.claims,
        reason=reason,
        note=prov.note,
        set_in=set_in,
        via=via,
        alternatives=prov.alternatives,
    )
