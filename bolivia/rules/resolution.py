"""Resolving a ruleset file on top of its base.

The chain is merged section by section (leaves are replaced whole), validated into frozen
:class:`~bolivia.rules.model.Rules`, and checked for rules that cannot work together
(:mod:`bolivia.rules.coherence`). Every value is traced: stated by a source's claim, assumed
(and why), or a house rule, with the alternatives other sources give. Every problem is reported
at once, each with its file, line and key path.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from bolivia.errors import Problem, RulesetError
from bolivia.language import N_
from bolivia.rules import coherence, edits
from bolivia.rules.files import Layer, entry_for, location_of
from bolivia.rules.loading import Location, validation_problems
from bolivia.rules.model import Rules
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
from bolivia.rules.sources import Claim, Sources
from bolivia.rules.tree import field_at, is_section

__all__ = ["NO_REASON", "build", "in_file_order"]

NO_REASON = N_("(no reason given)")  # the reason of a house rule a file sets without provenance
DEFAULT_REASON = N_("not set: the field's default, what leaving it out has always meant")


def build(
    layer: Layer, base: Ruleset | None, sources: Sources, *, shipped: bool, strict: bool
) -> Ruleset:
    """The ruleset a file makes on top of its base.

    With ``strict``, every value the file sets, and its ``extends``, must say where it comes
    from. Otherwise an unstated value is a house rule with no reason given (:data:`NO_REASON`).
    """
    assert layer.meta is not None
    origins = _Origins.of(layer, base)
    merged, problems = _merged(layer, base)
    problems += _file_problems(layer, base, strict=strict)
    rules = _validated(merged, origins, problems, layer.loaded.file)
    own = tuple(leaf for leaf in LEAVES if layer.sets(leaf))
    problems += _coherence_problems(rules, _written_here(layer, own), origins)
    tracing = _Tracing(
        layer=layer,
        base=base,
        sources=sources,
        strict=strict,
        own=own,
        family=layer.meta.family or (base.family if base is not None else ""),
        resolved=rules.model_dump(mode="json", by_alias=True),
        extends=_extends_provenance(layer, base),
    )
    provenance = _provenance(tracing, problems)
    if problems:
        raise RulesetError(in_file_order(problems, layer.loaded.file))
    return _ruleset(tracing, rules, provenance, shipped=shipped)


@dataclass(frozen=True)
class _Origins:
    """Which file and line set each location of the merged data.

    A location this file does not set comes from the base's file, or else from the file's top.
    """

    own: dict[Location, tuple[str, int]]
    fallback: tuple[str, int | None]

    @classmethod
    def of(cls, layer: Layer, base: Ruleset | None) -> _Origins:
        loaded = layer.loaded
        own = {
            loc: (loaded.file, line)
            for loc, line in loaded.lines.items()
            if loc and loc[0] in SECTION_KEYS
        }
        own.update({loc: (loaded.file, line) for loc, line in layer.path_lines.items()})
        if base is not None and base.path is not None:
            return cls(own, (str(base.path), None))
        return cls(own, (loaded.file, loaded.line(())))

    def where(self, location: Location) -> tuple[str, int | None]:
        """The file and line of a location, or of its nearest ancestor the file sets."""
        loc = tuple(location)
        while loc:
            if loc in self.own:
                return self.own[loc]
            spelt = tuple(str(part) for part in loc)  # a dotted key spells numbers as text
            if spelt in self.own:
                return self.own[spelt]
            loc = loc[:-1]
        return self.fallback


def _merged(layer: Layer, base: Ruleset | None) -> tuple[dict[str, Any], list[Problem]]:
    """The base's data with the file's sections and edits laid over it; the edits' problems."""
    base_data: dict[str, Any] = _with_tuples(base.json if base is not None else {})
    merged = merge(base_data, layer.sections)
    problems = []
    for edit in layer.edits:
        why = edits.apply(merged, edit)
        if why is not None:
            problems.append(layer.loaded.problem(edit.where, why))
    return merged, problems


def _file_problems(layer: Layer, base: Ruleset | None, *, strict: bool) -> list[Problem]:
    """What the file itself lacks: sections, without a base; a word on its base, when strict."""
    assert layer.meta is not None
    loaded = layer.loaded
    problems = []
    if base is None and layer.meta.extends is None:
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
    return problems


def _validated(
    merged: dict[str, Any], origins: _Origins, problems: list[Problem], file: str
) -> Rules:
    """The merged data as rules; else every problem so far and the fields' own."""
    try:
        return Rules.model_validate(merged)
    except ValidationError as exc:
        problems.extend(validation_problems(exc, Rules, merged, origins.where))
        raise RulesetError(in_file_order(problems, file)) from None


def _written_here(layer: Layer, own: Sequence[str]) -> tuple[str, ...]:
    """The fields the file sets that it does not say were set in another ruleset.

    A flattened file (``bolivia show --standalone``) writes its bases' values with their
    ``set_in``: a base's table entry for players the file does not seat is carried over as the
    base had it, not written here, so it is not this file's slip.
    """
    carried = {
        path
        for path, (entry, _) in layer.entries.items()
        if entry.set_in and layer.meta is not None and entry.set_in != layer.meta.id
    }
    return tuple(leaf for leaf in own if leaf not in carried)


def _coherence_problems(rules: Rules, own: Sequence[str], origins: _Origins) -> list[Problem]:
    """Rules that contradict each other, each told where this file made it so.

    An entry for players the ruleset does not seat is a problem only in a field of ``own``.
    """
    unseated = [found for found in coherence.unseated_entries(rules) if found[0][0] in own]
    problems = []
    for paths, message in [*coherence.check(rules), *unseated]:
        # report at the first key involved that this file sets: that is what it changed
        path = _changed(paths, origins.own)
        file, line = origins.where(location_of(path))
        told = f"{paths[0]}: {message}" if path != paths[0] else message
        problems.append(Problem(file, line, path, told))
    return problems


@dataclass(frozen=True)
class _Tracing:
    """What tracing the provenance of a file's values needs."""

    layer: Layer
    base: Ruleset | None
    sources: Sources
    strict: bool
    own: tuple[str, ...]  # the leaves the file sets
    family: str
    resolved: Mapping[str, Any]  # the rules as JSON
    extends: ValueProvenance | None  # why the file extends its base


def _provenance(tracing: _Tracing, problems: list[Problem]) -> dict[str, ValueProvenance]:
    """Where each value comes from, by leaf; a leaf whose entry is wrong has none."""
    provenance: dict[str, ValueProvenance] = {}
    for leaf in LEAVES:
        prov = _leaf_provenance(tracing, leaf, problems)
        if prov is not None:
            provenance[leaf] = prov
    return provenance


def _leaf_provenance(
    tracing: _Tracing, leaf: str, problems: list[Problem]
) -> ValueProvenance | None:
    """Where one value comes from: the file's entry for it, its default, or its base."""
    covering = entry_for(tracing.layer, leaf)
    own = leaf in tracing.own
    if covering is None:
        if own:
            return _unstated(tracing, leaf, problems)
    else:
        key, entry, entry_where = covering
        problems.extend(
            tracing.layer.loaded.problem(entry_where, message)
            for message in _claim_problems(entry, key, leaf, tracing.sources, tracing.resolved, own)
        )
        if own:
            return _own_provenance(entry, leaf, tracing.sources, tracing.family, tracing.resolved)
    if tracing.base is None:  # a field with a default, left out of a file that extends nothing
        return ValueProvenance(status="assumed", reason=DEFAULT_REASON)
    return _seen_from_here(tracing, tracing.base, leaf, covering)


def _unstated(tracing: _Tracing, leaf: str, problems: list[Problem]) -> ValueProvenance | None:
    """A value the file sets without an entry: a house rule, or a problem when strict."""
    if not tracing.strict:
        return ValueProvenance(status="house", reason=NO_REASON)
    layer = tracing.layer
    if any(leaf == key or leaf.startswith(key + ".") for key in layer.broken_entries):
        return None  # its entry is wrong, and says so already
    at = location_of(leaf)
    dotted = [n for loc, n in layer.path_lines.items() if loc[: len(at)] == at]
    line = min(dotted) if dotted else layer.loaded.line(at)
    problems.append(
        Problem(
            layer.loaded.file,
            line,
            leaf,
            "no provenance: cite the "
            "claim(s) this value encodes, or say why it is assumed or a house rule "
            "(provenance: {" + leaf + ": {house: <reason>}} or {assumed: <reason>})",
        )
    )
    return None


def _seen_from_here(
    tracing: _Tracing, base: Ruleset, leaf: str, covering: tuple[str, Entry, Location] | None
) -> ValueProvenance:
    """A base's value as this file has it: confirmed by its claims, or its house's word."""
    inherited = _inherited(base.provenance[leaf], base, tracing.extends)
    if covering is not None:  # claims of this file confirm the inherited value
        key, entry, _ = covering
        inherited = _confirmed(
            inherited, entry, leaf, tracing.sources, tracing.family, tracing.resolved
        )
        if entry.house and key == leaf:  # the house's word on it
            note = f"house: {entry.house}"
            return dataclasses.replace(
                inherited, note=f"{inherited.note}; {note}" if inherited.note else note
            )
        return inherited
    if tracing.family == base.family:
        return inherited
    # what this ruleset's game's sources say instead
    derived = derived_alternatives(tracing.sources, tracing.family, leaf, tracing.resolved, ())
    return dataclasses.replace(
        inherited, alternatives=merge_alternatives([*inherited.alternatives, *derived])
    )


def _ruleset(
    tracing: _Tracing,
    rules: Rules,
    provenance: dict[str, ValueProvenance],
    *,
    shipped: bool,
) -> Ruleset:
    """The resolved ruleset; what the file leaves unsaid about itself comes from its base."""
    layer, base = tracing.layer, tracing.base
    meta = layer.meta
    assert meta is not None
    return Ruleset(
        id=meta.id,
        name=meta.name or (base.name if base is not None else meta.id),
        family=tracing.family,
        sources=meta.sources or (base.sources if base is not None else ()),
        notes=meta.notes,
        chain=(*(base.chain if base is not None else ()), meta.id),
        rules=rules,
        provenance=provenance,
        path=layer.path,
        shipped=shipped,
        extends_provenance=tracing.extends,
        own_leaves=tracing.own,
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
    """The first of the paths this file sets, else the first path.

    For a section, that is the first leaf in it the file sets. A problem of rules working
    together is this file's doing there.
    """
    written = [tuple(str(part) for part in loc) for loc in own_origin]
    for path in paths:
        if _names_section(path):
            leaf = next(
                (
                    leaf
                    for leaf in LEAVES
                    if leaf.startswith(path + ".") and _written_under(written, leaf)
                ),
                None,
            )
            if leaf is not None:
                return leaf
        elif _written_under(written, path):
            return path
    return paths[0]


def _names_section(path: str) -> bool:
    """Whether a key path names a section of the rules (a record), not a leaf."""
    found = field_at(path)
    return found is not None and is_section(found[0].model_fields[found[1]].annotation)


def _written_under(written: Sequence[Location], path: str) -> bool:
    """Whether the file writes the key path, or anything inside it."""
    prefix = location_of(path)
    return any(loc[: len(prefix)] == prefix for loc in written)


def _with_tuples(value: Any) -> Any:
    if isinstance(value, list | tuple):
        return tuple(_with_tuples(v) for v in value)
    if isinstance(value, Mapping):
        return {_int_key(k): _with_tuples(v) for k, v in value.items()}
    return value


def _int_key(key: Any) -> Any:
    """JSON keys of player-count tables are digits; the records want numbers back."""
    return int(key) if isinstance(key, str) and key.isdigit() and len(key) == 1 else key


def _status(entry: Entry) -> Status:
    """An entry's standing: a house rule, an assumption, or stated by its claims."""
    return "house" if entry.house else "assumed" if entry.assumed else "stated"


def _extends_provenance(layer: Layer, base: Ruleset | None) -> ValueProvenance | None:
    entry = layer.extends_entry
    if base is None:
        return None
    if entry is None:  # a file without a word on its base: the house plays the base's rules
        return ValueProvenance(status="house", reason=NO_REASON)
    return ValueProvenance(
        status=_status(entry),
        claims=entry.claims,
        reason=entry.house or entry.assumed or "",
        note=entry.note,
    )


def _claim_problems(
    entry: Entry, key: str, leaf: str, sources: Sources, resolved: Mapping[str, Any], own: bool
) -> list[str]:
    """Why the entry at ``key`` cannot vouch for ``leaf``.

    A cited claim may disagree with the value. An entry covering a whole section the file sets
    may cite no claim that speaks of this leaf. An entry confirming an inherited section
    confirms only the leaves its claims speak of.
    """
    claims = [sources.claims[c] for c in entry.claims if c in sources.claims]
    if entry.assumed or entry.house:
        # claims are the basis of a decision, not a statement of the value: they must speak of
        # the field, not agree with it
        return _silent_claims(claims, key) if key == leaf else []
    if key == leaf:
        return [message for claim in claims for message in check_claim(claim, key, resolved)]
    return _section_claim_problems(claims, leaf, resolved, own)


def _silent_claims(claims: Sequence[Claim], key: str) -> list[str]:
    """The claims that say nothing about the field an entry is for."""
    return [
        f"claim {claim.id} says nothing about {key} (it fixes: "
        f"{', '.join(claim.fixes) or 'nothing'})"
        for claim in claims
        if not any(claim_overlaps(claim, key))
    ]


def _section_claim_problems(
    claims: Sequence[Claim], leaf: str, resolved: Mapping[str, Any], own: bool
) -> list[str]:
    """Why a section's entry cannot vouch for one leaf of it."""
    speaking = [claim for claim in claims if any(claim_overlaps(claim, leaf))]
    messages = [message for claim in speaking for message in check_claim(claim, leaf, resolved)]
    if own and claims and not speaking:
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
    explicit = _explicit_alternatives(entry, leaf)
    claims = _speaking(entry, leaf, sources)
    derived = derived_alternatives(sources, family, leaf, resolved, claims)
    return ValueProvenance(
        status=_status(entry),
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
