"""Where each ruleset value comes from, and checks against its sources.

For each value it sets, a ruleset file says which source claims it encodes. Or it says that
the value is assumed (and why), or that it is a house rule. A cited claim must fix the field
it is cited for. It must also agree with the value, or give the value as one of its own
alternatives.

Resolved, every leaf of a ruleset carries a :class:`ValueProvenance`. It says whether the
value is stated by a source, assumed, or a house rule. It names the ruleset that set it and
the alternatives other sources give.

For example::

    provenance:
      melds.group.max_wild: da:groups-wild-limit          # one claim
      players.seats: [zh:players, zh:deal, zh:draw]        # several
      canastas.escalera.bonus:
        assumed: the French text gives no escalera bonus; ...
        alternatives: [{value: 1500, claims: [da:points-table]}]
      going_out.bonus: {house: our club plays 100, claims: [da:going-out-bonus]}
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from bolivia.rules.loading import plain, tuples
from bolivia.rules.sources import Claim, Sources
from bolivia.rules.tree import field_at, is_section

__all__ = [
    "Alternative",
    "Entry",
    "Status",
    "ValueProvenance",
    "agrees",
    "check_claim",
    "claim_overlaps",
    "derived_alternatives",
    "json_at",
    "json_matches",
    "merge_alternatives",
    "normalize_claim_value",
    "parse_entry",
    "value_text",
]

Status = Literal["stated", "assumed", "house"]


class _Record(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class AlternativeEntry(_Record):
    value: Any
    claims: tuple[str, ...] = ()
    note: str = ""
    path: str | None = Field(
        default=None, description="A part of the field the value is for (default: the field)."
    )


class Entry(_Record):
    """One provenance entry of a ruleset file, for a leaf or a whole section."""

    claims: tuple[str, ...] = Field(default=(), description="Claims the value encodes.")
    assumed: str | None = Field(default=None, description="Why the value is assumed.")
    house: str | None = Field(default=None, description="Why a house rule sets it.")
    note: str = Field(default="", description="How a source was read, where it needs saying.")
    alternatives: tuple[AlternativeEntry, ...] = ()
    set_in: str | None = Field(
        default=None, description="The ruleset the value was set in (in a flattened dump)."
    )
    via: tuple[str, ...] = Field(
        default=(), description="Claims that make the inheritance of this value stated."
    )


@dataclass(frozen=True, order=True)
class Alternative:
    """Another value a source gives (or the ruleset records) for a field or a part of it."""

    path: str
    value_key: str
    value: Any = field(compare=False)
    claims: tuple[str, ...] = ()
    note: str = ""
    explicit: bool = field(default=False, compare=False)  # written in a ruleset, not derived


@dataclass(frozen=True)
class ValueProvenance:
    status: Status
    claims: tuple[str, ...] = ()
    reason: str = ""
    note: str = ""
    set_in: str = ""
    via: tuple[str, ...] = ()
    alternatives: tuple[Alternative, ...] = ()

    def summary(self) -> str:
        """One line: ``da:x, da:y`` / ``assumed: ...`` / ``house rule: ...`` and where set."""
        if self.status == "stated":
            text = ", ".join(self.claims)
        elif self.status == "assumed":
            text = f"assumed: {self.reason}"
            if self.claims:
                text += f" [{', '.join(self.claims)}]"
        else:
            text = f"house rule: {self.reason}"
            if self.claims:
                text += f" [{', '.join(self.claims)}]"
        if self.set_in:
            text += f" (from {self.set_in}"
            text += f", via {', '.join(self.via)})" if self.via else ")"
        return text


def parse_entry(raw: Any) -> Entry:
    """Read an entry: a claim id, a list of claim ids, or a mapping."""
    if isinstance(raw, str):
        return Entry(claims=(raw,))
    if isinstance(raw, tuple | list) and all(isinstance(item, str) for item in raw):
        return Entry(claims=tuple(raw))
    entry = Entry.model_validate(raw)
    kinds = [bool(entry.assumed), bool(entry.house)]
    if sum(kinds) > 1:
        raise ValueError("an entry is either assumed or a house rule, not both")
    if not any(kinds) and not entry.claims:
        raise ValueError(
            "cite the claim(s) the value encodes, or say why it is assumed "
            "('assumed: <reason>') or a house rule ('house: <reason>')"
        )
    return entry


def normalize_claim_value(path: str, value: Any) -> Any:
    """A claim's value in the JSON form of the resolved ruleset (``4`` -> ``"4"`` for a rank)."""
    found = field_at(path)
    if found is None:
        return plain(value)
    record, name = found
    info = record.model_fields[name]
    if is_section(info.annotation):
        if isinstance(value, Mapping):
            return {str(k): normalize_claim_value(f"{path}.{k}", v) for k, v in value.items()}
        return plain(value)
    adapter = _adapter(path)
    try:
        parsed = adapter.validate_python(tuples(value))
    except ValidationError:
        return plain(value)
    return adapter.dump_python(parsed, mode="json", by_alias=True)


@functools.cache
def _adapter(path: str) -> TypeAdapter[Any]:
    found = field_at(path)
    assert found is not None
    record, name = found
    info = record.model_fields[name]
    annotation: Any = info.annotation
    if info.metadata:
        annotation = Annotated[annotation, *info.metadata]
    return TypeAdapter(annotation)


_MISSING = object()


def json_at(data: Any, path: str) -> Any:
    """The value at a dotted path of JSON data, or a sentinel when absent."""
    current = data
    for part in path.split("."):
        if isinstance(current, Mapping) and part in current:
            current = current[part]
        elif _entry(current, part):
            current = current[int(part)]
        else:
            return _MISSING
    return current


def _entry(value: Any, part: str) -> bool:
    """Whether ``part`` is the position of an entry of the list ``value`` (a claim may fix
    one entry of a list: ``canastas.special.1``)."""
    return isinstance(value, list | tuple) and part.isdigit() and int(part) < len(value)


def json_matches(data: Any, path: str) -> list[tuple[str, Any]]:
    """Every (concrete path, value) a path names; ``*`` stands for each key of a table."""
    found: list[tuple[str, Any]] = [("", data)]
    for part in path.split("."):
        following: list[tuple[str, Any]] = []
        for prefix, current in found:
            where = f"{prefix}.{part}" if prefix else part
            if _entry(current, part):
                following.append((where, current[int(part)]))
            if not isinstance(current, Mapping):
                continue
            keys = list(current) if part == "*" else [part] if part in current else []
            following.extend(
                (f"{prefix}.{key}" if prefix else str(key), current[key]) for key in keys
            )
        found = following
    return found


def agrees(actual: Any, expected: Any) -> bool:
    """Whether a resolved value matches a claim's; a claim's mapping may give only some keys."""
    if actual is _MISSING:
        return False
    if isinstance(expected, Mapping):
        return isinstance(actual, Mapping) and all(
            agrees(actual.get(str(k), _MISSING), v) for k, v in expected.items()
        )
    return bool(actual == expected)


def claim_overlaps(claim: Claim, path: str) -> Iterator[str]:
    """The paths the claim fixes that lie at, under or above ``path``."""
    for fixed in claim.fixes:
        if fixed == path or fixed.startswith(path + ".") or path.startswith(fixed + "."):
            yield fixed


def _comparisons(
    claim: Claim, path: str, resolved: Mapping[str, Any]
) -> Iterator[tuple[str, Any, Any, list[Any]]]:
    """For each path the claim fixes at, under or above ``path``: the precise (deeper) path,
    the resolved value there, the claim's value there and its documented alternatives."""
    for fixed in claim_overlaps(claim, path):
        precise = fixed if len(fixed) >= len(path) else path
        remainder = precise[len(fixed) + 1 :]

        def at(value: Any, remainder: str = remainder) -> Any:
            return json_at(value, remainder) if remainder else value

        expected = at(normalize_claim_value(fixed, claim.fixes[fixed]))
        if expected is _MISSING:
            continue
        options = [
            at(normalize_claim_value(fixed, alt)) for alt in claim.alternatives.get(fixed, ())
        ]
        options = [option for option in options if option is not _MISSING]
        matches = json_matches(resolved, precise)
        if not matches:
            yield precise, _MISSING, expected, options
        for concrete, actual in matches:
            yield concrete, actual, expected, options


def check_claim(claim: Claim, path: str, resolved: Mapping[str, Any]) -> list[str]:
    """Why ``claim`` cannot be cited for the value at ``path`` (empty when it can)."""
    if not any(claim_overlaps(claim, path)):
        fixed = ", ".join(claim.fixes) or "nothing"
        return [f"claim {claim.id} says nothing about {path} (it fixes: {fixed})"]
    problems = []
    for precise, actual, expected, options in _comparisons(claim, path, resolved):
        if agrees(actual, expected) or any(agrees(actual, option) for option in options):
            continue
        shown = "nothing" if actual is _MISSING else value_text(actual)
        problems.append(
            f"the value here ({precise} = {shown}) disagrees with claim {claim.id}, which says "
            f"{value_text(expected)}"
        )
    return problems


def value_text(value: Any) -> str:
    """A canonical one-line text of a JSON value, to show, compare and sort values."""
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def derived_alternatives(
    sources: Sources,
    family: str | None,
    leaf: str,
    resolved: Mapping[str, Any],
    cited: Iterable[str],
) -> list[Alternative]:
    """Values that claims about the same game give for ``leaf`` (or a part of it) and that
    differ from the resolved value; and the documented alternatives of the claims cited."""
    out: list[Alternative] = []
    cited = set(cited)
    for claim in sources.touching(leaf):  # (a claim that fixes nothing near it gives nothing)
        same_game = claim.about is not None and claim.about == family
        if not same_game and claim.id not in cited:
            continue
        for precise, actual, expected, options in _comparisons(claim, leaf, resolved):
            values = ([expected] if same_game else []) + options
            for value in values:
                if not agrees(actual, value):
                    out.append(Alternative(precise, value_text(value), value, (claim.id,)))
    return out


def merge_alternatives(alternatives: Iterable[Alternative]) -> tuple[Alternative, ...]:
    """One entry per path and value, their claims joined, sorted."""
    by_value: dict[tuple[str, str], Alternative] = {}
    for alt in alternatives:
        key = (alt.path, alt.value_key)
        known = by_value.get(key)
        if known is None:
            by_value[key] = alt
            continue
        claims = tuple(sorted(set(known.claims) | set(alt.claims)))
        by_value[key] = Alternative(
            alt.path,
            alt.value_key,
            known.value,
            claims,
            known.note or alt.note,
            known.explicit or alt.explicit,
        )
    return tuple(sorted(by_value.values()))
