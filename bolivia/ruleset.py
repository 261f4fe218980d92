"""Ruleset files: loading, resolving ``extends`` chains, validating, and the ruleset library.

A ruleset file is YAML: metadata (``id``, ``name``, ``extends``, ``family``, ``sources``,
``notes``), any of the rule sections of :class:`bolivia.rules.Rules`, and ``provenance``.
``extends: <id>`` names a base; the file then holds only its differences. Resolution merges the
chain section by section (leaves are replaced whole), validates the result into frozen
:class:`~bolivia.rules.Rules`, checks the rules make sense together
(:mod:`bolivia.coherence`) and that every value is traced (:mod:`bolivia.provenance`). Every
problem found is reported at once, each with its file, line and key path.

>>> ruleset = shipped_library().load("bolivia-da")
>>> ruleset.rules.melds.group.max_wild
2
>>> ruleset.chain
('canasta', 'samba', 'bolivia-da')
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from bolivia import coherence
from bolivia.cards import RANKS, Card, Pack
from bolivia.errors import Problem, RulesetError
from bolivia.loading import (
    Loaded,
    Location,
    did_you_mean,
    format_path,
    load_yaml,
    validation_problems,
)
from bolivia.provenance import (
    Alternative,
    Entry,
    Status,
    ValueProvenance,
    check_claim,
    claim_overlaps,
    derived_alternatives,
    json_at,
    merge_alternatives,
    normalize_claim_value,
    parse_entry,
    value_text,
)
from bolivia.resources import rulesets_dir
from bolivia.rules import Rules, field_at, is_section, leaf_paths
from bolivia.sources import Sources, shipped_sources

__all__ = [
    "META_KEYS",
    "Library",
    "Ruleset",
    "load_ruleset",
    "shipped_library",
]

ID_PATTERN = r"^[a-z0-9][a-z0-9._-]{0,63}$"
META_KEYS = ("id", "name", "extends", "family", "sources", "notes")
SECTION_KEYS = tuple(info.alias or name for name, info in Rules.model_fields.items())
TOP_KEYS = (*META_KEYS, *SECTION_KEYS, "provenance")
LEAVES = tuple(leaf_paths())


class Meta(BaseModel):
    """A ruleset file's metadata."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    id: str = Field(pattern=ID_PATTERN, description="Lower-case id: letters, digits, - . _")
    name: str | None = Field(default=None, min_length=1, max_length=200)
    extends: str | None = Field(
        default=None, description="The base ruleset: an id, or a relative path to a .yaml file."
    )
    family: str | None = Field(
        default=None,
        pattern=r"^[a-z][a-z0-9-]*$",
        description="The game the ruleset is a version of: canasta, samba, bolivia.",
    )
    sources: tuple[str, ...] = Field(default=(), description="Source ids the ruleset encodes.")
    notes: str = Field(default="", max_length=20_000)


@dataclass(frozen=True)
class Ruleset:
    """A resolved ruleset: its rules, where each value comes from, and what it is built on."""

    id: str
    name: str
    family: str
    sources: tuple[str, ...]
    notes: str
    chain: tuple[str, ...]
    rules: Rules
    provenance: Mapping[str, ValueProvenance]
    path: Path | None = None
    shipped: bool = False
    extends_provenance: ValueProvenance | None = None
    own_leaves: tuple[str, ...] = ()
    base: Ruleset | None = field(default=None, compare=False)

    @property
    def extends(self) -> str | None:
        return self.chain[-2] if len(self.chain) > 1 else None

    @functools.cached_property
    def json(self) -> dict[str, Any]:
        """The rules as JSON data (keys as written in YAML)."""
        data: dict[str, Any] = self.rules.model_dump(mode="json", by_alias=True)
        return data

    def value(self, path: str) -> Any:
        """The JSON value at a dotted path, such as ``melds.group.max_wild``."""
        found = json_at(self.json, path)
        if found is json_at({}, "x"):
            raise KeyError(path)
        return found

    @functools.cached_property
    def digest(self) -> str:
        """A SHA-256 of the resolved rules: equal rules, equal digest."""
        text = json.dumps(self.json, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()

    def cite(self, *paths: str) -> str:
        """Where rules come from, for a sentence: ``bolivia-da, from da:groups-wild-limit``."""
        cache: dict[tuple[str, ...], str] = self.__dict__.setdefault("_cites", {})
        found = cache.get(paths)
        if found is None:
            found = cache[paths] = self._cite(paths)
        return found

    @functools.cached_property
    def sequence_span(self) -> tuple[int, int]:
        """The rank indexes (0 for a two) of the lowest and highest card of a sequence."""
        rule = self.rules.melds.sequence
        return RANKS.index(rule.lowest), RANKS.index(rule.highest)

    def _cite(self, paths: tuple[str, ...]) -> str:
        claims: list[str] = []
        statuses = set()
        for path in paths:
            prov = self.provenance.get(path)
            if prov is None:
                continue
            statuses.add(prov.status)
            claims.extend(c for c in prov.claims if c not in claims)
        if claims and statuses == {"stated"}:
            return f"{self.id}, from {', '.join(claims)}"
        if "house" in statuses:
            return f"{self.id}, a house rule"
        return f"{self.id}, assumed" + (f" from {', '.join(claims)}" if claims else "")

    @functools.cached_property
    def wild(self) -> tuple[bool, ...]:
        """Whether each card (by :attr:`Card.index`) is wild under these rules."""
        ranks = set(self.rules.pack.wild_ranks)
        return tuple(card.is_joker or card.rank in ranks for card in Card.all())

    @functools.cached_property
    def wild_indices(self) -> tuple[int, ...]:
        """The indexes of the wild cards, the cheaper first (twos before jokers)."""
        return tuple(
            sorted((i for i, w in enumerate(self.wild) if w), key=lambda i: (self.points[i], i))
        )

    @functools.cached_property
    def points(self) -> tuple[int, ...]:
        """Each card's points in a meld (by index); a red three is worth its bonus value."""
        table = {str(key): value for key, value in self.rules.scoring.card_points.items()}
        return tuple(
            self.rules.red_threes.value if card.is_red_three else table[card.rank]
            for card in Card.all()
        )

    @functools.cached_property
    def penalties(self) -> tuple[int, ...]:
        """Each card's cost left in hand (by index), a positive number."""
        black = self.rules.scoring.black_three_in_hand
        return tuple(
            black if card.is_black_three else points
            for card, points in zip(Card.all(), self.points, strict=True)
        )

    @functools.cached_property
    def pack(self) -> Pack:
        return Pack(self.rules.pack.decks, self.rules.pack.jokers)

    def counts(self) -> dict[str, int]:
        """How many leaves are stated by a source, assumed, or house rules."""
        out = {"stated": 0, "assumed": 0, "house": 0}
        for prov in self.provenance.values():
            out[prov.status] += 1
        return out

    def __repr__(self) -> str:
        return f"<Ruleset {self.id}>"


# --------------------------------------------------------------------------- merging


def merge(
    base: Mapping[Any, Any], over: Mapping[Any, Any], model: type[BaseModel] = Rules
) -> dict[Any, Any]:
    """``over`` on top of ``base``: sections merge key by key, anything else is replaced."""
    out = dict(base)
    for key, value in over.items():
        found = _field(model, key)
        if (
            found is not None
            and is_section(found)
            and isinstance(value, Mapping)
            and isinstance(out.get(key), Mapping)
        ):
            out[key] = merge(out[key], value, found)
        else:
            out[key] = value
    return out


def _field(model: type[BaseModel], key: Any) -> Any:
    for name, info in model.model_fields.items():
        if key in (name, info.alias):
            return info.annotation
    return None


def _sets(data: Mapping[str, Any], path: str) -> bool:
    current: Any = data
    for part in path.split("."):
        if not isinstance(current, Mapping) or part not in current:
            return False
        current = current[part]
    return True


def _location(path: str) -> Location:
    return tuple(path.split("."))


# --------------------------------------------------------------------------- one file


@dataclass
class _Layer:
    """One file of a chain, read and checked on its own."""

    path: Path
    loaded: Loaded
    meta: Meta | None
    sections: dict[str, Any]
    entries: dict[str, tuple[Entry, Location]]
    extends_entry: Entry | None
    problems: list[Problem] = field(default_factory=list)


def _read_layer(path: Path, sources: Sources) -> _Layer:
    loaded = load_yaml(path)
    layer = _Layer(path, loaded, None, {}, {}, None, list(loaded.problems))
    if loaded.problems:
        return layer
    data = loaded.data
    if not isinstance(data, Mapping):
        layer.problems.append(loaded.problem((), "a ruleset file is a mapping of keys to values"))
        return layer
    meta_raw = {}
    for key, value in data.items():
        if key in META_KEYS:
            meta_raw[key] = value
        elif key in SECTION_KEYS:
            layer.sections[key] = value
        elif key != "provenance":
            layer.problems.append(
                loaded.problem(
                    (key,),
                    f"unknown key {str(key)!r}"
                    + (
                        did_you_mean(str(key), TOP_KEYS)
                        or "; expected one of: " + ", ".join(TOP_KEYS)
                    ),
                )
            )
    try:
        layer.meta = Meta.model_validate(meta_raw)
    except ValidationError as exc:
        layer.problems.extend(validation_problems(exc, Meta, meta_raw, loaded.where))
    if layer.meta is not None:
        for source_id in layer.meta.sources:
            if source_id not in sources:
                layer.problems.append(
                    loaded.problem(
                        ("sources",), f"no source {source_id!r}" + did_you_mean(source_id, sources)
                    )
                )
    _read_entries(layer, data.get("provenance", {}), sources)
    return layer


def _read_entries(layer: _Layer, raw: Any, sources: Sources) -> None:
    loaded = layer.loaded
    if not isinstance(raw, Mapping):
        layer.problems.append(
            loaded.problem(
                ("provenance",), "provenance is a mapping of key paths to claims or reasons"
            )
        )
        return
    for key, value in raw.items():
        where: Location = ("provenance", key)
        key = str(key)
        try:
            entry = parse_entry(value)
        except (ValidationError, ValueError) as exc:
            if isinstance(exc, ValidationError):
                layer.problems.extend(
                    validation_problems(
                        exc, Entry, value, functools.partial(_within, loaded, where)
                    )
                )
            else:
                layer.problems.append(loaded.problem(where, str(exc)))
            continue
        for claim_id in (
            *entry.claims,
            *entry.via,
            *(c for alt in entry.alternatives for c in alt.claims),
        ):
            if claim_id not in sources.claims:
                layer.problems.append(
                    loaded.problem(where, sources.unknown_claim_message(claim_id))
                )
        if key == "extends":
            layer.extends_entry = entry
            continue
        if field_at(key) is None:
            layer.problems.append(
                loaded.problem(where, f"{key!r} is not a ruleset field" + did_you_mean(key, LEAVES))
            )
            continue
        if not _sets(layer.sections, key) and (entry.assumed or entry.house):
            layer.problems.append(
                loaded.problem(
                    where,
                    f"{key} is not set in this file: an entry for an inherited value may "
                    "only cite claims that confirm it",
                )
            )
            continue
        layer.entries[key] = (entry, where)


def _within(loaded: Loaded, prefix: Location, location: Location) -> tuple[str, int | None]:
    return loaded.where((*prefix, *location))


def _entry_for(layer: _Layer, leaf: str) -> tuple[str, Entry, Location] | None:
    """The entry covering a leaf: the leaf's own, or its nearest section's."""
    parts = leaf.split(".")
    for end in range(len(parts), 0, -1):
        key = ".".join(parts[:end])
        if key in layer.entries:
            entry, where = layer.entries[key]
            return key, entry, where
    return None


# --------------------------------------------------------------------------- the library


class Library:
    """Where rulesets are found: the shipped ones and any extra folders.

    Ids must be unique across the folders. A file loaded by path may extend by id or by a
    relative path; a path must stay inside the library's folders or the file's own folder.
    """

    def __init__(
        self,
        folders: Sequence[Path | str] = (),
        *,
        shipped: bool = True,
        sources: Sources | None = None,
    ) -> None:
        self.sources = sources if sources is not None else shipped_sources()
        self._shipped_dir = rulesets_dir().resolve() if shipped else None
        dirs = [self._shipped_dir] if self._shipped_dir else []
        for folder in folders:
            path = Path(folder).resolve()
            if not path.is_dir():
                raise RulesetError([Problem(str(folder), None, "", "not a folder of rulesets")])
            if path not in dirs:
                dirs.append(path)
        self.folders: tuple[Path, ...] = tuple(dirs)
        self._index: dict[str, Path] | None = None
        self._ids: list[str] | None = None
        self._by_id: dict[str, Ruleset] = {}
        self._index_problems: list[Problem] = []
        self._cache: dict[Path, Ruleset] = {}

    # ---- index

    def _build_index(self) -> dict[str, Path]:
        if self._index is not None:
            return self._index
        index: dict[str, Path] = {}
        for folder in self.folders:
            for path in sorted(folder.rglob("*.yaml")):
                loaded = load_yaml(path)
                rid = loaded.data.get("id") if isinstance(loaded.data, Mapping) else None
                if loaded.problems or not isinstance(rid, str):
                    self._index_problems.extend(
                        loaded.problems
                        or [Problem(str(path), 1, "id", "a ruleset file needs an id")]
                    )
                    continue
                if rid in index and index[rid] != path:
                    self._index_problems.append(
                        Problem(
                            str(path),
                            loaded.line(("id",)),
                            "id",
                            f"id {rid!r} is taken already by {index[rid]}",
                        )
                    )
                    continue
                index[rid] = path
        self._index = index
        return index

    def ids(self) -> list[str]:
        """Every ruleset id found, shipped first, in a stable order."""
        if self._ids is None:
            index = self._build_index()
            self._ids = sorted(
                index,
                key=lambda rid: (
                    not self.is_shipped(index[rid]),
                    "/house/" in str(index[rid]),
                    rid,
                ),
            )
        return list(self._ids)

    def __contains__(self, ruleset_id: object) -> bool:
        return ruleset_id in self._build_index()

    def index_problems(self) -> list[Problem]:
        """Files in the folders that could not even be indexed (no id, unreadable)."""
        self._build_index()
        return list(self._index_problems)

    def is_shipped(self, path: Path) -> bool:
        return self._shipped_dir is not None and path.resolve().is_relative_to(self._shipped_dir)

    def path_of(self, ruleset_id: str) -> Path:
        index = self._build_index()
        if ruleset_id not in index:
            raise KeyError(ruleset_id)
        return index[ruleset_id]

    def unknown_message(self, ruleset_id: str) -> str:
        return f"no ruleset has the id {ruleset_id!r}" + (
            did_you_mean(ruleset_id, self._build_index()) or f"; known: {', '.join(self.ids())}"
        )

    # ---- loading

    def load(self, ref: str | Path) -> Ruleset:
        """A ruleset by id, or by the path of a file (anything with a / or ending in .yaml)."""
        text = str(ref)
        if isinstance(ref, Path) or "/" in text or text.endswith((".yaml", ".yml")):
            path = Path(text)
            if not path.exists():
                raise RulesetError([Problem(text, None, "", "no such file")])
            return self._resolve(path.resolve(), (), allowed_extra=path.resolve().parent)
        found = self._by_id.get(text)
        if found is not None:
            return found
        index = self._build_index()
        if text not in index:
            raise RulesetError([Problem("<command line>", None, "", self.unknown_message(text))])
        ruleset = self._resolve(index[text].resolve(), (), allowed_extra=None)
        self._by_id[text] = ruleset
        return ruleset

    def all(self) -> list[Ruleset]:
        return [self.load(rid) for rid in self.ids()]

    def _locate_base(self, layer: _Layer, ref: str, allowed_extra: Path | None) -> Path | Problem:
        where: Location = ("extends",)
        if re.fullmatch(ID_PATTERN, ref) and not ref.endswith((".yaml", ".yml")):
            index = self._build_index()
            if ref in index:
                return index[ref].resolve()
            return layer.loaded.problem(where, self.unknown_message(ref))
        candidate = Path(ref)
        if candidate.is_absolute():
            return layer.loaded.problem(
                where,
                f"{ref!r}: a base is named by id or by a relative path, never an absolute one",
            )
        target = (layer.path.parent / candidate).resolve()
        allowed = [*self.folders, *([allowed_extra] if allowed_extra else [])]
        if not any(target.is_relative_to(folder) for folder in allowed):
            return layer.loaded.problem(
                where,
                f"{ref!r} leads outside the ruleset folders "
                f"({', '.join(str(f) for f in allowed)}); refusing to read it",
            )
        if not target.is_file():
            return layer.loaded.problem(where, f"{ref!r}: no such file")
        return target

    def _resolve(self, path: Path, stack: tuple[Path, ...], allowed_extra: Path | None) -> Ruleset:
        if path in self._cache:
            return self._cache[path]
        layer = _read_layer(path, self.sources)
        problems = list(layer.problems)
        if layer.meta is None:
            raise RulesetError(problems or [Problem(str(path), 1, "", "unreadable metadata")])
        base: Ruleset | None = None
        if layer.meta.extends is not None:
            located = self._locate_base(layer, layer.meta.extends, allowed_extra)
            if isinstance(located, Problem):
                problems.append(located)
            elif located in (*stack, path):
                cycle = " -> ".join(p.stem for p in (*stack, path, located))
                problems.append(
                    layer.loaded.problem(("extends",), f"extends goes round in a cycle: {cycle}")
                )
            else:
                try:
                    base = self._resolve(located, (*stack, path), allowed_extra)
                except RulesetError as exc:
                    problems.append(
                        layer.loaded.problem(
                            ("extends",), f"the base {layer.meta.extends!r} cannot be loaded"
                        )
                    )
                    problems.extend(exc.problems)
        if problems:
            raise RulesetError(problems)
        ruleset = _build(layer, base, self.sources, shipped=self.is_shipped(path))
        self._cache[path] = ruleset
        return ruleset


def _build(layer: _Layer, base: Ruleset | None, sources: Sources, *, shipped: bool) -> Ruleset:
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

    def where(location: Location) -> tuple[str, int | None]:
        loc = tuple(location)
        while loc:
            if loc in own_origin:
                return own_origin[loc]
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
    if base is not None and layer.extends_entry is None:
        problems.append(
            loaded.problem(
                ("extends",),
                "say why this ruleset extends its base: "
                "provenance.extends: <claim> or "
                "{assumed: <reason>}",
            )
        )
    if problems:
        raise RulesetError(problems)
    try:
        rules = Rules.model_validate(merged)
    except ValidationError as exc:
        raise RulesetError(validation_problems(exc, Rules, merged, where)) from None

    resolved = rules.model_dump(mode="json", by_alias=True)
    for paths, message in coherence.check(rules):
        # report at the first key involved that this file sets: that is what it changed
        path = _changed(paths, own_origin)
        file, line = where(_location(path))
        if path != paths[0]:
            message = f"{paths[0]}: {message}"
        problems.append(Problem(file, line, path, message))

    family = meta.family or (base.family if base is not None else "")
    own = tuple(leaf for leaf in LEAVES if _sets(layer.sections, leaf))
    provenance: dict[str, ValueProvenance] = {}
    extends_prov = _extends_provenance(layer, base)
    for leaf in LEAVES:
        covering = _entry_for(layer, leaf)
        if leaf in own and covering is None:
            line = loaded.line(_location(leaf))
            problems.append(
                Problem(
                    loaded.file,
                    line,
                    leaf,
                    "no provenance: cite the "
                    "claim(s) this value encodes, or say why it is assumed "
                    "(provenance: {" + leaf + ": {assumed: <reason>}})",
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
        else:
            assert base is not None
            inherited = _inherited(base.provenance[leaf], base, extends_prov)
            if covering is not None:  # claims of this file confirm the inherited value
                inherited = _confirmed(inherited, covering[1], leaf, sources, family, resolved)
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
        raise RulesetError(sorted(set(problems), key=lambda p: (p.file, p.line or 0, p.path)))

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
        base=base,
    )


def _changed(paths: Sequence[str], own_origin: Mapping[Location, tuple[str, int]]) -> str:
    """The first of the paths this file sets (for a section, the first leaf in it the file
    sets), else the first path: where a problem of rules working together is this file's doing.
    """
    set_here = sorted(
        ((tuple(str(p) for p in loc), line) for loc, (_, line) in own_origin.items()),
        key=lambda item: item[1],
    )
    for path in paths:
        prefix = _location(path)
        found = field_at(path)
        if found is not None and is_section(found[0].model_fields[found[1]].annotation):
            for leaf in LEAVES:
                if leaf.startswith(path + ".") and any(
                    loc[: len(_location(leaf))] == _location(leaf) for loc, _ in set_here
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


def _extends_provenance(layer: _Layer, base: Ruleset | None) -> ValueProvenance | None:
    entry = layer.extends_entry
    if base is None or entry is None:
        return None
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
        alternatives=merge_alternatives([*prov.alternatives, *derived]),
    )


def _own_provenance(
    entry: Entry, leaf: str, sources: Sources, family: str, resolved: Mapping[str, Any]
) -> ValueProvenance:
    status: Status = "house" if entry.house else "assumed" if entry.assumed else "stated"
    explicit = [
        Alternative(
            alt.path or leaf,
            value_text(normalize_claim_value(alt.path or leaf, alt.value)),
            normalize_claim_value(alt.path or leaf, alt.value),
            alt.claims,
            alt.note,
            explicit=True,
        )
        for alt in entry.alternatives
    ]
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


# --------------------------------------------------------------------------- entry points


@functools.cache
def shipped_library() -> Library:
    """The library of shipped rulesets (cached: rulesets are immutable)."""
    return Library()


def load_ruleset(ref: str | Path, folders: Iterable[Path | str] = ()) -> Ruleset:
    """A ruleset by id or file path; extra folders add rulesets to look in."""
    folders = tuple(folders)
    library = Library(folders) if folders else shipped_library()
    return library.load(ref)


def iter_leaves() -> Iterator[str]:
    return iter(LEAVES)


__all__ += ["format_path", "iter_leaves", "merge"]
