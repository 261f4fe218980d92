"""House rules: a club's own ruleset, derived from a shipped (or any) ruleset.

:func:`derive` writes a ruleset file that extends the base and holds only the overridden
values, each with provenance ``house`` (and the club's reason). Values are given as
``key.path=value`` with the value in YAML (``100``, ``naturals_exceed_wilds``,
``[wild, black_three]``, ``{hands: 40, outcome: draw}``); a path into a table
(``players.seats.4.hand_size=13``) changes that entry of the base's table. The result is
validated exactly as ``bolivia validate`` would, before anything is written, and written whole
(``bolivia.output``) or not at all.

>>> from bolivia.rules.library import shipped_library
>>> text = derive_text("our-club", shipped_library().load("bolivia-da"), "bolivia-da",
...                    ["going_out.bonus=100"], why="we always played 100")
>>> print(text.split("provenance:")[0].strip().splitlines()[-2:])
['going_out:', '  bonus: 100']
"""

from __future__ import annotations

import contextlib
import copy
import os
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bolivia.errors import Problem, RulesetError
from bolivia.output import prepare_folder, write_text
from bolivia.resources import rulesets_dir
from bolivia.rules.edits import set_entry
from bolivia.rules.library import Library
from bolivia.rules.loading import load_yaml_text, not_a_field, number_key, plain
from bolivia.rules.provenance import normalize_claim_value
from bolivia.rules.ruleset import ID_PATTERN, Ruleset
from bolivia.rules.tree import field_at, is_section, leaf_paths
from bolivia.text import yaml_text

__all__ = [
    "FAMILY_SIGNS",
    "derive",
    "derive_text",
    "family_for",
    "house_title",
    "nest_paths",
    "overrides_of",
    "parse_setting",
    "schema_line",
    "unchanged",
    "write_ruleset",
]

LEAVES = tuple(leaf_paths())


def parse_setting(text: str) -> tuple[str, Any]:
    """``key.path=value`` -> (path, value read as YAML); a :class:`RulesetError` otherwise."""
    where = f"--set {text}"
    if "=" not in text:
        raise RulesetError([Problem(where, None, "", "write --set key.path=value")])
    path, raw = (part.strip() for part in text.split("=", 1))
    loaded = load_yaml_text(raw if raw else '""', where)
    if loaded.problems:
        raise RulesetError(loaded.problems)
    return path, plain(loaded.data, key=lambda k: k)


def _leaf_of(path: str) -> tuple[str, list[str]]:
    """The leaf a path names, and the keys inside that leaf's table it goes on to."""
    parts = path.split(".")
    for end in range(len(parts), 0, -1):
        prefix = ".".join(parts[:end])
        found = field_at(prefix)
        if found is None:
            continue
        record, name = found
        if is_section(record.model_fields[name].annotation):
            break
        return prefix, parts[end:]
    raise RulesetError(
        [
            Problem(
                f"--set {path}=...",
                None,
                path,
                not_a_field(path, LEAVES),
            )
        ]
    )


def nest_paths(values: dict[str, Any]) -> dict[str, Any]:
    """``{"a.b": 1}`` -> ``{"a": {"b": 1}}``: key paths as the sections of a file."""
    out: dict[str, Any] = {}
    for path, value in values.items():
        node = out
        *parents, last = path.split(".")
        for part in parents:
            node = node.setdefault(part, {})
        node[last] = value
    return out


def _whys(settings: Sequence[str], why: str | Sequence[str]) -> list[str]:
    """The reason of each setting ("" for none given): one ``--why`` for all, or one per
    ``--set`` in order."""
    given = [why] if isinstance(why, str) else list(why)
    given = [w for w in given if w]
    if len(given) <= 1:
        return (given or [""]) * len(settings)
    if len(given) != len(settings):
        raise RulesetError(
            [
                Problem(
                    "--why",
                    None,
                    "",
                    f"{len(given)} reasons for {len(settings)} settings: give one --why for "
                    "all of them, or one per --set, in the same order",
                )
            ]
        )
    return given


def overrides_of(base: Ruleset, settings: Sequence[str]) -> dict[str, tuple[Any, list[str]]]:
    """Each leaf the settings change: its new value, and the settings that reach it."""
    overrides: dict[str, tuple[Any, list[str]]] = {}
    for setting in settings:
        path, value = parse_setting(setting)
        leaf, inside = _leaf_of(path)
        given = overrides.get(leaf, (plain(base.value(leaf), key=number_key), []))
        if inside:
            table = copy.deepcopy(given[0])
            why = set_entry(table, inside, value, leaf)
            if why is not None:
                raise RulesetError([Problem(f"--set {setting}", None, leaf, why)])
            value = table
        overrides[leaf] = (value, [*given[1], setting])
    return overrides


def unchanged(base: Ruleset, settings: Sequence[str]) -> list[str]:
    """The settings that give a leaf the value the base has already."""
    return [
        ", ".join(reached)
        for leaf, (value, reached) in overrides_of(base, settings).items()
        if normalize_claim_value(leaf, value) == base.value(leaf)
    ]


def _sections(
    overrides: dict[str, tuple[Any, list[str]]], settings: Sequence[str]
) -> dict[str, Any]:
    """The values as the file's sections, nested and in the order of the format: a field set
    whole, whole; a field only some entries of which are set, as those entries
    (``card_points.3: -200``, in the order given), the rest left to the base."""
    out: dict[str, Any] = {}
    parsed = {setting: parse_setting(setting) for setting in settings}
    for leaf in LEAVES:
        if leaf not in overrides:
            continue
        value, reached = overrides[leaf]
        *parents, last = leaf.split(".")
        node = out
        for part in parents:
            node = node.setdefault(part, {})
        if any(parsed[s][0] == leaf for s in reached):
            node[last] = value  # set whole (entries set too are in the value)
            continue
        for setting in reached:
            path, entry = parsed[setting]
            node[last + path[len(leaf) :]] = entry
    return out


def house_title(name: str) -> str:
    """A house's name for people, from its id: ``our-club`` -> ``Our club``."""
    words = re.sub(r"[-_.]+", " ", name).strip()
    return words[:1].upper() + words[1:]


# what tells the games apart, as the shipped rulesets of each game set it: wild melds (a
# bolivia), sequences (a samba, an escalera)
FAMILY_SIGNS = ("melds.wild.allowed", "melds.sequence.allowed")


def family_for(base: Ruleset, overrides: dict[str, tuple[Any, list[str]]], library: Library) -> str:
    """The game a house plays: its base's, unless its changes to what tells the games apart
    (:data:`FAMILY_SIGNS`) make it play as the main rulesets of exactly one other game do."""
    if not any(leaf in overrides for leaf in FAMILY_SIGNS):
        return base.family
    signs = tuple(overrides[k][0] if k in overrides else base.value(k) for k in FAMILY_SIGNS)
    games = {
        ruleset.family
        for ruleset in (library.load(rid) for rid in library.ids())
        if ruleset.shipped
        and ruleset.path is not None
        and ruleset.path.parent == rulesets_dir()
        and tuple(ruleset.value(k) for k in FAMILY_SIGNS) == signs
    }
    return games.pop() if len(games) == 1 else base.family


def schema_line(out: Path) -> str:
    """The editor's schema line of a ruleset file written to ``out`` (the schema shipped with
    the package, by a path from the file's folder where there is one)."""
    schema = rulesets_dir() / "schema.json"
    try:
        where = os.path.relpath(schema, out.resolve().parent)
    except ValueError:  # another drive
        where = schema.as_uri()
    return f"# yaml-language-server: $schema={where}\n"


def _provenance(
    base: Ruleset, overrides: dict[str, tuple[Any, list[str]]], reasons: dict[str, str]
) -> dict[str, Any]:
    """The file's provenance: the house's word on its base, and each rule's reasons (a rule
    set to the base's value is noted as kept)."""
    provenance: dict[str, Any] = {
        "extends": {"house": f"the house plays {base.id}'s rules where it sets none of its own"}
    }
    for leaf in LEAVES:
        if leaf not in overrides:
            continue
        entry: dict[str, Any] = {}
        given = "; ".join(dict.fromkeys(r for r in (reasons[s] for s in overrides[leaf][1]) if r))
        if given:
            entry["house"] = given
        if normalize_claim_value(leaf, overrides[leaf][0]) == base.value(leaf):
            entry.setdefault("house", "kept as the base has it")
            entry["note"] = f"{base.id} has this value already; set here to keep it"
        if entry:
            provenance[leaf] = entry
    return provenance


def derive_text(
    name: str,
    base: Ruleset,
    base_ref: str,
    settings: Sequence[str],
    why: str | Sequence[str] = "",
    title: str | None = None,
    *,
    notes: str = "",
    family: str | None = None,
    schema: str = "",
) -> str:
    """The YAML text of a ruleset extending ``base`` with ``settings`` (not yet validated);
    ``why``: one reason for every setting, or one per setting, kept as each rule's provenance
    (``notes`` are the file's own, for people); ``schema``: the file's schema line."""
    if not re.fullmatch(ID_PATTERN, name):
        raise RulesetError(
            [
                Problem(
                    "NAME",
                    None,
                    "id",
                    f"{name!r} is not a ruleset id: use lower-case letters, digits, - . _",
                )
            ]
        )
    overrides = overrides_of(base, settings)
    provenance = _provenance(
        base, overrides, dict(zip(settings, _whys(settings, why), strict=True))
    )
    document: dict[str, Any] = {
        "id": name,
        "name": title or house_title(name),
        "extends": base_ref,
    }
    if family is not None and family != base.family:
        document["family"] = family
    if notes:
        document["notes"] = notes
    document.update(_sections(overrides, settings))
    document["provenance"] = provenance
    head = (
        f"# House rules of {name}, built on {base.id}: only what the house sets its own way "
        "(written by bolivia new).\n"
    )
    return schema + head + yaml_text(document, width=96)


def derive(
    name: str,
    base_ref: str,
    settings: Sequence[str],
    out: Path,
    library: Library,
    why: str | Sequence[str] = "",
    title: str | None = None,
    force: bool = False,
    *,
    notes: str = "",
    family: str | None = None,
) -> Ruleset:
    """Write the derived ruleset to ``out`` once it validates; the resolved ruleset. A problem
    of a value set names the ``--set`` that gave it, never a line of the file not written.
    ``family``: the game it plays (by default its base's, or the game its changes make it,
    :func:`family_for`)."""
    base = library.load(base_ref)
    ref = base.id
    if base.id not in library or library.path_of(base.id).resolve() != (base.path or Path()):
        # a base given as a file: name it by a path relative to the new file
        if base.path is None:
            raise RulesetError([Problem("--from", None, "", "the base has no file")])
        try:
            ref = str(base.path.resolve().relative_to(out.resolve().parent))
        except ValueError:
            raise RulesetError(
                [
                    Problem(
                        "--from",
                        None,
                        "",
                        f"{base.path} is not in the folder "
                        f"of {out} (nor a ruleset of the library): a base "
                        "file sits next to the house rules",
                    )
                ]
            ) from None
    game = family if family is not None else family_for(base, overrides_of(base, settings), library)
    text = derive_text(
        name, base, ref, settings, why, title, notes=notes, family=game, schema=schema_line(out)
    )
    try:
        return write_ruleset(text, out, library, force=force)
    except RulesetError as exc:
        reached = {leaf: given for leaf, (_, given) in overrides_of(base, settings).items()}
        raise RulesetError([_named(p, str(out), reached) for p in exc.problems]) from None


def _named(problem: Problem, out: str, reached: dict[str, list[str]]) -> Problem:
    """A problem of the file not written, named by the settings that made it."""
    if problem.file != out or problem.line is None:
        return problem
    for leaf, given in reached.items():
        if problem.path == leaf or problem.path.startswith(leaf + "."):
            where = ", ".join(f"--set {s}" for s in given)
            return Problem(where, None, problem.path, problem.message)
    return Problem(f"{out} (not written)", None, problem.path, problem.message)


def write_ruleset(text: str, out: Path, library: Library, *, force: bool = False) -> Ruleset:
    """Write a ruleset file's text to ``out`` once it validates exactly as ``bolivia
    validate`` would (its base found in the library's folders or beside ``out``), whole or not
    at all; the resolved ruleset. Problems name ``out``, not the staged copy."""
    if out.exists() and not force:
        raise RulesetError(
            [Problem(str(out), None, "", "exists already (give --force to replace it)")]
        )
    prepare_folder(out.parent)
    staged = out.with_name(f".{out.name}.new")
    checker = library.with_folder(out.resolve().parent)
    try:
        write_text(staged, text)
        try:
            checker.load(staged)
        except RulesetError as exc:
            raise RulesetError(
                [
                    Problem(str(out), p.line, p.path, p.message)
                    if p.file == str(staged.resolve())
                    else p
                    for p in exc.problems
                ]
            ) from None
        write_text(out, text)
    finally:
        with contextlib.suppress(OSError):
            staged.unlink(missing_ok=True)
    return library.with_folder(out.resolve().parent).load(out)
