"""The source documents and what each of them claims.

One YAML record per document (``seeds/<source>.yaml``): what the document is, its language,
whether it is in scope, and its claims. A claim is one statement of the document, paraphrased
in English, with where it is made and the ruleset fields it fixes (``fixes``: dotted path ->
the value the document gives; ``alternatives``: other values the document itself mentions).
A claim that fixes no field says why (``not_modelled``).

Rulesets cite claims in their ``provenance``; :mod:`bolivia.rules.provenance` checks that a cited
claim fixes the field it is cited for and agrees with the value.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from bolivia.errors import Problem, SourceError
from bolivia.language import gettext_
from bolivia.resources import seeds_dir
from bolivia.rules.loading import (
    Loaded,
    Location,
    did_you_mean,
    load_yaml,
    not_a_field,
    validation_problems,
)
from bolivia.rules.tree import leaf_paths, split_leaf

__all__ = ["Claim", "Source", "Sources", "joined", "load_sources", "shipped_sources"]

SourceId = Annotated[str, Field(pattern=r"^[a-z][a-z0-9-]{0,30}$")]
ClaimId = Annotated[str, Field(pattern=r"^[a-z][a-z0-9-]*:[a-z0-9][a-z0-9-]*$")]
Game = Literal["canasta", "samba", "bolivia", "brazilian", "pennies", "cuban", "american", "danish"]


class _Record(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class Claim(_Record):
    id: ClaimId = Field(description="'<source>:<short-name>', unique.")
    about: Game | None = Field(
        description="The game the claim describes (a page comparing two games has claims "
        "about each); null for a claim about no game."
    )
    says: str = Field(min_length=10, description="The claim, paraphrased in English.")
    where: str = Field(min_length=3, description="Where in the document it is said.")
    fixes: dict[str, Any] = Field(
        default_factory=dict, description="Ruleset fields the claim fixes: dotted path -> value."
    )
    alternatives: dict[str, tuple[Any, ...]] = Field(
        default_factory=dict,
        description="Other values the document itself gives for a fixed field.",
    )
    not_modelled: str | None = Field(
        default=None, description="Why the claim fixes no field (when it fixes none)."
    )


class Source(_Record):
    """A source document (or a club: a user's source record may describe its table's rules)."""

    id: SourceId
    document: str = Field(
        default="",
        description="The document's file name under shared/seeds/ (a user's record: where "
        "the document is, if anywhere).",
    )
    language: str = Field(default="en", pattern=r"^[a-z]{2,3}$", description="ISO 639 code.")
    title: str = Field(min_length=3, description="What the document is, in English.")
    called: str = Field(
        default="",
        max_length=80,
        description="How a sentence names the document, for readers ('the Danish rules "
        "article'); without it, the title in quotes.",
    )
    description: str = Field(default="", min_length=10)
    scope: Literal["in", "out"] = "in"
    scope_reason: str | None = None
    claims: tuple[Claim, ...] = ()


class Sources(Mapping[str, Source]):
    """Every source by id, and every claim by id."""

    def __init__(self, sources: Mapping[str, Source]) -> None:
        self._sources = dict(sources)
        self.claims: dict[str, Claim] = {
            claim.id: claim for source in self._sources.values() for claim in source.claims
        }
        # the claims by the paths they fix: at each path and each path above it (see touching)
        self._under: dict[str, list[int]] | None = None
        self._at: dict[str, list[int]] = {}
        self._listed: list[Claim] = []

    def __getitem__(self, key: str) -> Source:
        return self._sources[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._sources)

    def __len__(self) -> int:
        return len(self._sources)

    def touching(self, path: str) -> list[Claim]:
        """The claims that fix a value at, under or above ``path`` (a dotted key path), in
        their order."""
        if self._under is None:
            under: dict[str, list[int]] = {}
            for n, claim in enumerate(self.claims.values()):
                for fixed in claim.fixes:
                    self._at.setdefault(fixed, []).append(n)
                    parts = fixed.split(".")
                    for k in range(1, len(parts) + 1):
                        under.setdefault(".".join(parts[:k]), []).append(n)
            self._under = under
            self._listed = list(self.claims.values())
        found = set(self._under.get(path, ()))
        parts = path.split(".")
        for k in range(1, len(parts)):
            found.update(self._at.get(".".join(parts[:k]), ()))
        return [self._listed[n] for n in sorted(found)]

    def claim(self, claim_id: str) -> Claim:
        return self.claims[claim_id]

    def source_of(self, claim_id: str) -> Source:
        return self._sources[claim_id.split(":", 1)[0]]

    def called(self, source_id: str) -> str:
        """How a sentence names the source (its ``called``, else its title in quotes)."""
        source = self._sources.get(source_id)
        if source is None:
            return "a source not loaded"
        return gettext_(source.called) if source.called else f"“{source.title}”"

    def documents(self, claim_ids: Iterable[str]) -> list[str]:
        """The documents that make these claims, each named once, in the claims' order."""
        seen = dict.fromkeys(self.called(c.split(":", 1)[0]) for c in claim_ids)
        return list(seen)

    def in_words(self, text: str) -> str:
        """A written reason for readers: claim ids in brackets left out (a reason names its
        document in words where it matters), any other claim id given as its document.

        >>> from bolivia.rules.library import shipped_library
        >>> sources = shipped_library().sources
        >>> sources.in_words("worth 500 (fr:bonuses); da:pack gives 3 decks")
        'worth 500; the Danish rules article gives 3 decks'
        """
        ids = "|".join(re.escape(sid) for sid in sorted(self._sources, key=len, reverse=True))
        claim = rf"\b(?:{ids}):[a-z0-9][a-z0-9-]*"
        text = re.sub(rf"\s*\((?:{claim})(?:(?:,\s*|\s+and\s+|;\s*){claim})*\)", "", text)
        return re.sub(claim, lambda m: self.called(m.group().split(":", 1)[0]), text)

    def unknown_claim_message(self, claim_id: str) -> str:
        return f"no source makes a claim {claim_id!r}" + did_you_mean(claim_id, self.claims)


def _check(source: Source, loaded: Loaded, path: Path) -> list[Problem]:
    """What is wrong with a source record beyond its fields' types."""
    problems = []
    if source.id != path.stem:
        problems.append(
            loaded.problem(
                ("id",), f"the file of source {source.id!r} must be named {source.id}.yaml"
            )
        )
    if source.scope == "out" and not source.scope_reason:
        problems.append(
            loaded.problem(("scope",), "an out-of-scope source says why (scope_reason)")
        )
    seen: set[str] = set()
    for i, claim in enumerate(source.claims):
        problems.extend(_claim_problems(source, claim, ("claims", i), loaded, seen))
        seen.add(claim.id)
    return problems


def _claim_problems(
    source: Source, claim: Claim, here: Location, loaded: Loaded, seen: set[str]
) -> Iterator[Problem]:
    """What is wrong with one claim of a source; ``seen``: the claim ids before it."""
    if claim.id.split(":", 1)[0] != source.id:
        yield loaded.problem((*here, "id"), f"claim ids of this source start with '{source.id}:'")
    if claim.id in seen:
        yield loaded.problem((*here, "id"), f"claim id {claim.id!r} used twice")
    if not claim.fixes and not claim.not_modelled:
        yield loaded.problem(here, "a claim fixes some field or says why not (not_modelled)")
    if claim.fixes and claim.about is None:
        yield loaded.problem(
            (*here, "about"), "a claim that fixes fields names the game it is about"
        )
    if source.scope == "out" and claim.fixes:
        yield loaded.problem((*here, "fixes"), "an out-of-scope source fixes nothing")
    yield from _field_problems(claim, here, loaded)


def _field_problems(claim: Claim, here: Location, loaded: Loaded) -> Iterator[Problem]:
    """The fields a claim fixes that are not fields, and alternatives for fields it does not."""
    for fixed in claim.fixes:
        if split_leaf(fixed) is None:
            yield loaded.problem((*here, "fixes", fixed), not_a_field(fixed, leaf_paths()))
    for alt in claim.alternatives:
        if alt not in claim.fixes:
            yield loaded.problem(
                (*here, "alternatives", alt),
                "alternatives are given only for a field the claim fixes",
            )


def load_sources(folder: Path) -> Sources:
    """Every ``*.yaml`` record of a folder; all problems are reported together."""
    problems: list[Problem] = []
    sources: dict[str, Source] = {}
    for path in sorted(folder.glob("*.yaml")):
        loaded = load_yaml(path)
        problems.extend(loaded.problems)
        if loaded.problems:
            continue
        try:
            source = Source.model_validate(loaded.data)
        except ValidationError as exc:
            problems.extend(validation_problems(exc, Source, loaded.data, loaded.where))
            continue
        problems.extend(_check(source, loaded, path))
        sources[source.id] = source
    claims: dict[str, str] = {}
    for source in sources.values():
        for claim in source.claims:
            if claim.id in claims and claims[claim.id] != source.id:
                problems.append(Problem(str(folder), None, claim.id, "claim id in two sources"))
            claims[claim.id] = source.id
    if problems:
        raise SourceError(problems)
    return Sources(sources)


def joined(known: Sources, more: Sources, folder: Path) -> Sources:
    """The sources of both; a source of ``folder`` may not take the id of one known already."""
    taken = [sid for sid in more if sid in known]
    if taken:
        raise SourceError(
            [
                Problem(
                    str(folder / f"{sid}.yaml"),
                    None,
                    "id",
                    f"the source id {sid!r} is taken already (by a shipped source or an "
                    "earlier --sources folder): give this record an id of its own",
                )
                for sid in taken
            ]
        )
    return Sources({**known, **more})


@functools.cache
def shipped_sources() -> Sources:
    """The source records that ship with the package."""
    return load_sources(seeds_dir())
