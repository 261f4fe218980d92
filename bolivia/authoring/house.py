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
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import yaml

from bolivia.errors import Problem, RulesetError
from bolivia.output import prepare_folder, write_text
from bolivia.rules.library import Library
from bolivia.rules.loading import did_you_mean, load_yaml_text, number_key, plain
from bolivia.rules.model import field_at, is_section, leaf_paths
from bolivia.rules.provenance import normalize_claim_value
from bolivia.rules.ruleset import ID_PATTERN, Ruleset

__all__ = [
    "derive",
    "derive_text",
    "nest_paths",
    "overrides_of",
    "parse_setting",
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
                f"{path!r} is not a ruleset field" + did_you_mean(path, LEAVES),
            )
        ]
    )


def _key(text: str) -> Any:
    return int(text) if text.isdigit() else text


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
    """The reason of each setting: one ``--why`` for all, or one per ``--set`` in order."""
    given = [why] if isinstance(why, str) else list(why)
    given = [w for w in given if w]
    if not given:
        return ["a house rule"] * len(settings)
    if len(given) == 1:
        return given * len(settings)
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


def _edit(table: Any, inside: list[str], value: Any, setting: str, leaf: str) -> None:
    """Set one entry inside a table (a mapping by key, a list by its position from 0)."""
    node = table
    for depth, part in enumerate(inside):
        last = depth == len(inside) - 1
        where = ".".join([leaf, *inside[:depth]])
        if isinstance(node, list):
            if not part.isdigit() or int(part) >= len(node):
                raise RulesetError(
                    [
                        Problem(
                            f"--set {setting}",
                            None,
                            leaf,
                            f"{where} is a list of {len(node)} entries: a position from 0 to "
                            f"{len(node) - 1}, not {part!r}",
                        )
                    ]
                )
            key: Any = int(part)
        elif isinstance(node, dict):
            key = _key(part)
            if key not in node and not last:
                raise RulesetError(
                    [Problem(f"--set {setting}", None, leaf, f"{where} has no entry {part!r}")]
                )
        else:
            raise RulesetError([Problem(f"--set {setting}", None, leaf, f"{where} is not a table")])
        if last:
            node[key] = value
        else:
            node = node[key]


def overrides_of(base: Ruleset, settings: Sequence[str]) -> dict[str, tuple[Any, list[str]]]:
    """Each leaf the settings change: its new value, and the settings that reach it."""
    overrides: dict[str, tuple[Any, list[str]]] = {}
    for setting in settings:
        path, value = parse_setting(setting)
        leaf, inside = _leaf_of(path)
        given = overrides.get(leaf, (plain(base.value(leaf), key=number_key), []))
        if inside:
            table = copy.deepcopy(given[0])
            _edit(table, inside, value, setting, leaf)
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
    """The values as the file's sections: a field set whole, whole; a field only some entries
    of which are set, as those entries (``card_points.3: -200``), the rest left to the base."""
    out: dict[str, Any] = {}
    parsed = {setting: parse_setting(setting) for setting in settings}
    for leaf, (value, reached) in overrides.items():
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


def _title(base: Ruleset, name: str) -> str:
    """The base's name, without the house-rules tail a base written by ``new`` has already."""
    core = base.name.removesuffix(f", house rules ({base.id})")
    return f"{core}, house rules ({name})"


def derive_text(
    name: str,
    base: Ruleset,
    base_ref: str,
    settings: Sequence[str],
    why: str | Sequence[str] = "",
    title: str | None = None,
) -> str:
    """The YAML text of a ruleset extending ``base`` with ``settings`` (not yet validated);
    ``why``: one reason for every setting, or one per setting."""
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
    reasons = dict(zip(settings, _whys(settings, why), strict=True))
    overrides = overrides_of(base, settings)
    provenance: dict[str, Any] = {"extends": {"house": f"the house plays {base.id}'s rules"}}
    for leaf, (value, reached) in overrides.items():
        entry: dict[str, Any] = {"house": "; ".join(dict.fromkeys(reasons[s] for s in reached))}
        if normalize_claim_value(leaf, value) == base.value(leaf):
            entry["note"] = f"{base.id} has this value already; set here to keep it"
        provenance[leaf] = entry
    told = {w for w in ([why] if isinstance(why, str) else why) if w}
    notes = told.pop() if len(told) == 1 else ""  # one reason for all: the file's notes too
    document: dict[str, Any] = {
        "id": name,
        "name": title or _title(base, name),
        "extends": base_ref,
        "notes": notes or f"House rules derived from {base.id}.",
        **_sections(overrides, settings),
        "provenance": provenance,
    }
    head = f"# House rules: {base.id} with the changes below (written by bolivia new).\n"
    return head + yaml.safe_dump(document, sort_keys=False, allow_unicode=True, width=96)


def derive(
    name: str,
    base_ref: str,
    settings: Sequence[str],
    out: Path,
    library: Library,
    why: str | Sequence[str] = "",
    title: str | None = None,
    force: bool = False,
) -> Ruleset:
    """Write the derived ruleset to ``out`` once it validates; the resolved ruleset. A problem
    of a value set names the ``--set`` that gave it, never a line of the file not written."""
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
    text = derive_text(name, base, ref, settings, why, title)
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
