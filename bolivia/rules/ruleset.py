"""A resolved ruleset: its rules, where each value comes from, and what it is built on; and the
keys a ruleset file may hold.

A ruleset file is YAML: metadata (``id``, ``name``, ``extends``, ``family``, ``sources``,
``notes``), any of the rule sections of :class:`bolivia.rules.model.Rules`, and ``provenance``.
Reading one file is :mod:`bolivia.rules.files`; resolving an ``extends`` chain into a
:class:`Ruleset` is :mod:`bolivia.rules.resolution`; finding rulesets by id is
:mod:`bolivia.rules.library`.

>>> from bolivia.rules.library import shipped_library
>>> ruleset = shipped_library().load("bolivia-da")
>>> ruleset.rules.melds.group.max_wild
2
>>> ruleset.chain
('canasta', 'samba', 'bolivia-da')
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from bolivia.cards import Card, Pack
from bolivia.rules.model import Rules
from bolivia.rules.provenance import ValueProvenance, json_at
from bolivia.rules.tree import is_section, leaf_paths

__all__ = [
    "ID_PATTERN",
    "LEAVES",
    "MAX_BASE_NAME",
    "META_KEYS",
    "SECTION_KEYS",
    "TOP_KEYS",
    "Meta",
    "Ruleset",
    "merge",
]

ID_PATTERN = r"^[a-z0-9][a-z0-9._-]{0,63}$"
META_KEYS = ("id", "name", "extends", "family", "sources", "notes")
SECTION_KEYS = tuple(info.alias or name for name, info in Rules.model_fields.items())
TOP_KEYS = (*META_KEYS, *SECTION_KEYS, "provenance")
LEAVES = tuple(leaf_paths())
MAX_BASE_NAME = 255  # characters of an extends: an id, or a relative path (a file name's limit)


def base_name_fault(ref: str) -> str | None:
    """Why ``ref`` cannot name a base ruleset (an id or a relative path), or None."""
    if not ref:
        return "name the base: an id, or a relative path to a .yaml file"
    if len(ref) > MAX_BASE_NAME:
        return f"{len(ref)} characters; a base's id or path has at most {MAX_BASE_NAME}"
    control = next((ch for ch in ref if ord(ch) < 32 or 127 <= ord(ch) < 160), None)
    if control is not None:
        return f"holds the control character {control!r}; a base is named by an id or a path"
    return None


def _base_name(ref: str) -> str:
    fault = base_name_fault(ref)
    if fault is not None:
        raise ValueError(fault)
    return ref


class Meta(BaseModel):
    """A ruleset file's metadata."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    id: str = Field(pattern=ID_PATTERN, description="Lower-case id: letters, digits, - . _")
    name: str | None = Field(default=None, min_length=1, max_length=200)
    extends: Annotated[str, AfterValidator(_base_name)] | None = Field(
        default=None,
        description="The base ruleset: an id, or a relative path to a .yaml file "
        f"(at most {MAX_BASE_NAME} characters).",
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
    # the leaves its own provenance speaks to: those it sets, and inherited ones it confirms
    covered: tuple[str, ...] = ()
    base: Ruleset | None = field(default=None, compare=False)

    @property
    def extends(self) -> str | None:
        return self.chain[-2] if len(self.chain) > 1 else None

    @property
    def is_house(self) -> bool:
        """Whether it is a house's rules: its base is taken on the house's word, so that the
        rules it does not set are its base's (no source of its own states them)."""
        link = self.extends_provenance
        return self.base is not None and link is not None and link.status == "house"

    def __getstate__(self) -> dict[str, Any]:
        """Pickled without what is kept with it for the hot path (``_limits``: a compiled
        class in the compiled build), which is built again where it is used."""
        return {k: v for k, v in self.__dict__.items() if not k.startswith("_")}

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
    def sequence_positions(self) -> tuple[int, int]:
        """The positions (:data:`bolivia.cards.POSITION_RANK`: 0 for an ace below the two,
        ``r + 1`` for rank index ``r``, 13 for an ace above the king) of the lowest and
        highest card of a sequence."""
        return self.rules.melds.sequence.span()

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
        """How many leaves are stated by a source, assumed, or house rules; and, of a house's
        rules, how many it takes from its base as they are (``inherited``: those it neither
        sets nor speaks to, whose standing is the base's)."""
        out = {"stated": 0, "assumed": 0, "house": 0, "inherited": 0}
        for path, prov in self.provenance.items():
            out[prov.status] += 1
            if self.is_house and path not in self.own_leaves and path not in self.covered:
                out["inherited"] += 1
        return out

    def __repr__(self) -> str:
        return f"<Ruleset {self.id}>"


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
