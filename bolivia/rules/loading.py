"""Safe YAML reading, and validation errors a person can act on.

PyYAML's safe loader composes YAML into nodes. This module converts them by hand, so that:

- No tag outside YAML's plain types is ever constructed.
- The file's size, its nesting depth and the number of values reached through aliases are
  bounded. An alias "bomb" stops at the bound. Values written out are bounded by the file's
  size alone.
- A number written with more than ``MAX_NUMBER_DIGITS`` digits is refused before conversion.
- A key given twice is an error, not a silent overwrite.
- A key YAML reads as a number but not written the plain way (``04``, ``0x4``, ``+4``) stays
  the text written. A table keyed by numbers can then refuse it.
- Every key and list item keeps the line it was written on, for error messages
  (``rulesets/x.yaml:12: melds.group.max_wild: ...``).

Sequences become tuples, so validated records are immutable all the way down.
"""

from __future__ import annotations

import difflib
import functools
import types
import typing
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

import yaml
from pydantic import BaseModel, ValidationError

from bolivia.errors import Problem

__all__ = [
    "MAX_ALIASED_VALUES",
    "MAX_DEPTH",
    "MAX_FILE_BYTES",
    "MAX_NUMBER_DIGITS",
    "MAX_PROBLEMS",
    "REMOVED_FIELDS",
    "Loaded",
    "Location",
    "did_you_mean",
    "entry_words",
    "format_path",
    "load_yaml",
    "load_yaml_text",
    "more_problems",
    "not_a_field",
    "number_key",
    "ordinal",
    "plain",
    "plain_digits",
    "validation_problems",
]

MAX_FILE_BYTES = 256 * 1024
MAX_ALIASED_VALUES = 20_000  # values an alias may repeat, in all, per document
MAX_DEPTH = 32
MAX_NUMBER_DIGITS = 40  # more than any 128-bit number; the rule tree's own bounds are far lower
MAX_PROBLEMS = 100  # problems told per file and stage; the rest are counted, not listed


def more_problems(file: str, count: int | None = None) -> Problem:
    """The problem standing for the problems past :data:`MAX_PROBLEMS` (``count`` of them, or
    an unknown number when checking stopped there)."""
    what = f"and {count} more problems" if count is not None else "and maybe more problems"
    return Problem(file, None, "", f"{what} (only the first {MAX_PROBLEMS} are listed)")


Location = tuple[str | int, ...]

# libyaml's parser when PyYAML has it (the same YAML, much faster); both only compose nodes
_COMPOSER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

_PLAIN_TAGS = {
    "tag:yaml.org,2002:str",
    "tag:yaml.org,2002:int",
    "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:null",
}


def plain(value: Any, key: Callable[[Any], Any] = str) -> Any:
    """YAML data as JSON-like data: tuples become lists, mapping keys go through ``key``
    (text by default; ``number_key`` turns player counts back into numbers)."""
    if isinstance(value, tuple | list):
        return [plain(v, key) for v in value]
    if isinstance(value, Mapping):
        return {key(k): plain(v, key) for k, v in value.items()}
    return value


def tuples(value: Any) -> Any:
    """JSON-like data as the records read it: lists become tuples (strict records want them)."""
    if isinstance(value, tuple | list):
        return tuple(tuples(v) for v in value)
    if isinstance(value, Mapping):
        return {k: tuples(v) for k, v in value.items()}
    return value


def plain_digits(value: Any) -> bool:
    """Whether ``value`` is a number written the plain way: ASCII digits, no sign, no leading
    zero (``4``, ``10``), as a table keyed by numbers wants its keys (not ``04``, ``٤``, ``+4``).
    """
    return (
        isinstance(value, str)
        and value.isascii()
        and value.isdigit()
        and (value == "0" or not value.startswith("0"))
    )


def number_key(value: Any) -> Any:
    """A table key written as digits (as JSON writes it) read as the number it is."""
    return int(value) if plain_digits(value) else value


def format_path(location: Iterable[str | int]) -> str:
    """``("initial_meld", "bands", 2, "minimum")`` -> ``initial_meld.bands.2.minimum``: a key
    path as a dotted key or ``--set`` writes it (a list's positions from 0)."""
    return ".".join(str(part) for part in location)


_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")
# what one entry of a list of the format is, for people
_ENTRY_NOUNS = {
    "bands": "band",
    "special": "special canasta",
    "meld_penalties": "meld penalty",
    "hand_penalties": "hand penalty",
    "target_options": "target",
    "cases": "case",
}


def ordinal(n: int) -> str:
    """1 -> ``first``; 21 -> ``21st``: a position as people count."""
    if 1 <= n <= len(_ORDINALS):
        return _ORDINALS[n - 1]
    tail = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{tail}"


def entry_words(data: Any, location: Location) -> str | None:
    """The last list entry on a location's way, as people count it (``the third band``), or
    None where the location goes through no list."""
    node, said = data, None
    for depth, part in enumerate(location):
        if isinstance(node, list | tuple) and isinstance(part, int) and not isinstance(part, bool):
            name = str(location[depth - 1]) if depth else ""
            said = f"the {ordinal(part + 1)} {_ENTRY_NOUNS.get(name, 'entry')}"
            node = node[part] if part < len(node) else None
        elif isinstance(node, Mapping):
            node = node.get(part)
        else:
            break
    return said


@dataclass
class Loaded:
    """A YAML document as plain data, with the line of every key and item (1-based)."""

    file: str
    data: Any
    lines: dict[Location, int] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)

    def line(self, location: Location) -> int | None:
        """The line of a location, or of its nearest ancestor that has one."""
        loc = tuple(location)
        while loc:
            if loc in self.lines:
                return self.lines[loc]
            loc = loc[:-1]
        return self.lines.get((), None)

    def where(self, location: Location) -> tuple[str, int | None]:
        """The file and line of a location (for :func:`validation_problems`)."""
        return self.file, self.line(location)

    def problem(self, location: Location, message: str) -> Problem:
        return Problem(self.file, self.line(location), format_path(location), message)


class _Converter:
    def __init__(self, loaded: Loaded) -> None:
        self.loaded = loaded
        self.seen: set[int] = set()  # the nodes converted once: an alias meets one again
        self.aliased = 0
        self.exhausted = False
        self.untold = 0  # problems past MAX_PROBLEMS
        self.constructor = yaml.constructor.SafeConstructor()

    def fail(self, node: yaml.Node, location: Location, message: str) -> None:
        if len(self.loaded.problems) >= MAX_PROBLEMS:
            self.untold += 1
            return
        self.loaded.problems.append(
            Problem(self.loaded.file, node.start_mark.line + 1, format_path(location), message)
        )

    def convert(self, node: yaml.Node, location: Location, depth: int, *, aliased: bool) -> Any:
        """A node as plain data; None where it is refused (the problem is told)."""
        aliased = aliased or id(node) in self.seen
        self.seen.add(id(node))
        if aliased and self.past_alias_bound(node, location):
            return None
        if depth > MAX_DEPTH:
            self.fail(node, location, f"nested more than {MAX_DEPTH} levels deep")
            return None
        if not _tag_allowed(node):
            self.fail(node, location, f"the YAML tag {node.tag!r} is not allowed here")
            return None
        if isinstance(node, yaml.MappingNode):
            return self.mapping(node, location, depth, aliased=aliased)
        if isinstance(node, yaml.SequenceNode):
            return self.sequence(node, location, depth, aliased=aliased)
        assert isinstance(node, yaml.ScalarNode)
        return self.scalar(node, location)

    def past_alias_bound(self, node: yaml.Node, location: Location) -> bool:
        """Count one more value reached through an alias; whether that passes the bound."""
        self.aliased += 1
        if self.aliased <= MAX_ALIASED_VALUES:
            return False
        if not self.exhausted:
            self.exhausted = True
            self.fail(
                node,
                location,
                "through its aliases the document expands to more than "
                f"{MAX_ALIASED_VALUES} repeated values; refusing to read further",
            )
        return True

    def sequence(
        self, node: yaml.SequenceNode, location: Location, depth: int, *, aliased: bool
    ) -> tuple[Any, ...]:
        items = []
        for i, child in enumerate(node.value):
            self.loaded.lines.setdefault((*location, i), child.start_mark.line + 1)
            items.append(self.convert(child, (*location, i), depth + 1, aliased=aliased))
        return tuple(items)

    def scalar(self, node: yaml.ScalarNode, location: Location) -> Any:
        """A plain value; a number with too many digits is refused before it is converted."""
        if node.tag == "tag:yaml.org,2002:int":
            digits = sum(ch.isalnum() for ch in node.value)
            if digits > MAX_NUMBER_DIGITS:
                self.fail(
                    node,
                    location,
                    f"a number of {digits} digits; numbers of more than {MAX_NUMBER_DIGITS} "
                    "digits are refused",
                )
                return None
        try:
            return self.constructor.construct_object(node, deep=True)
        except (yaml.YAMLError, ValueError) as exc:
            self.fail(node, location, f"unreadable value: {exc}")
            return None

    def mapping(
        self, node: yaml.MappingNode, location: Location, depth: int, *, aliased: bool
    ) -> dict[Any, Any]:
        out: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            key = self.key(key_node, location)
            if key is _NO_KEY:
                continue
            here = (*location, key)
            if key in out:
                first = self.loaded.lines.get(here)
                self.fail(key_node, here, f"key given twice (first on line {first})")
                continue
            self.loaded.lines[here] = key_node.start_mark.line + 1
            out[key] = self.convert(value_node, here, depth + 1, aliased=aliased)
        return out

    def key(self, key_node: yaml.Node, location: Location) -> Any:
        """A mapping's key as the data keeps it; :data:`_NO_KEY` where it is refused.

        A key YAML reads as a number but that is not written the plain way is kept as written.
        """
        if key_node.tag == "tag:yaml.org,2002:merge":
            self.fail(key_node, location, "merge keys (<<) are not supported; write the keys")
            return _NO_KEY
        if not isinstance(key_node, yaml.ScalarNode) or key_node.tag not in _PLAIN_TAGS:
            self.fail(key_node, location, "a key must be a plain word or number")
            return _NO_KEY
        key = self.scalar(key_node, location)
        if key is None and key_node.tag == "tag:yaml.org,2002:int":
            return _NO_KEY  # refused (too many digits)
        return _kept_key(key, key_node.value)


def _kept_key(key: Any, written: str) -> Any:
    """A key as the data keeps it: as written, unless it is text or a plainly written number."""
    if isinstance(key, float) or key is None or isinstance(key, bool):
        return written
    if isinstance(key, int) and str(key) != written:
        return written  # 04, 0x4, +4: kept as written, for tables to refuse
    return key


_NO_KEY: Any = object()  # a mapping key refused (the problem is told)
_COLLECTION_TAGS = ("tag:yaml.org,2002:map", "tag:yaml.org,2002:seq")


def _tag_allowed(node: yaml.Node) -> bool:
    """Whether a node's tag is one of YAML's plain types."""
    if isinstance(node, yaml.MappingNode | yaml.SequenceNode):
        return node.tag in _COLLECTION_TAGS
    return node.tag in _PLAIN_TAGS


def _tab_at(text: str, line: int, column: int) -> bool:
    """Whether YAML stopped at a tab: at the column it names, or in the line's indentation."""
    lines = text.splitlines()
    if not 0 <= line < len(lines):
        return False
    here = lines[line]
    indent = here[: len(here) - len(here.lstrip(" \t"))]
    return "\t" in indent or here[column : column + 1] == "\t"


def _syntax_problem(text: str, file: str, exc: yaml.MarkedYAMLError) -> Problem:
    """What YAML could not parse, and where; a tab where YAML stopped is named as a tab."""
    mark = exc.problem_mark or exc.context_mark
    line = mark.line + 1 if mark else None
    what = f"not valid YAML: {exc.problem or 'not valid YAML'}"
    if mark is not None and _tab_at(text, mark.line, mark.column):
        what = (
            f"a tab (column {mark.column + 1}): YAML indents with spaces only, "
            "so write spaces where the tab is"
        )
    return Problem(file, line, "", what)


def load_yaml_text(text: str, file: str) -> Loaded:
    """Read one YAML document from text; syntax errors become problems, not exceptions."""
    loaded = Loaded(file=file, data=None)
    try:
        node = yaml.compose(text, Loader=_COMPOSER)
    except RecursionError:  # PyYAML's own composer, without libyaml, recurses per level
        loaded.problems.append(
            Problem(file, None, "", f"nested too deep to read (more than {MAX_DEPTH} levels)")
        )
        return loaded
    except yaml.MarkedYAMLError as exc:
        loaded.problems.append(_syntax_problem(text, file, exc))
        return loaded
    except yaml.YAMLError as exc:  # a reader's error (a character YAML refuses) has no mark
        loaded.problems.append(Problem(file, None, "", f"not valid YAML: {exc}"))
        return loaded
    if node is None:
        loaded.problems.append(Problem(file, 1, "", "the file is empty"))
        return loaded
    loaded.lines[()] = node.start_mark.line + 1
    converter = _Converter(loaded)
    loaded.data = converter.convert(node, (), 0, aliased=False)
    if converter.untold:
        loaded.problems.append(more_problems(file, converter.untold))
    return loaded


_CACHE: dict[tuple[str, int, int, int], Loaded] = {}
STDIN = "<stdin>"  # the name of a file read from standard input, in the folder it is read in
_READ: dict[Path, bytes] = {}  # standard input read, by the path it stands for


def read_standard_input(stream: BinaryIO, *, max_bytes: int = MAX_FILE_BYTES) -> Path:
    """Standard input, read once and at most ``max_bytes + 1`` bytes of it, as the file
    ``<stdin>`` of the working folder: :func:`load_yaml` reads it there, and a relative path in
    it (an ``extends``) is relative to the working folder."""
    path = Path.cwd().resolve() / STDIN
    _READ[path] = stream.read(max_bytes + 1)
    return path


def load_yaml(path: Path, *, max_bytes: int = MAX_FILE_BYTES) -> Loaded:
    """Read one YAML file, refusing files over ``max_bytes`` and text that is not UTF-8.

    A file read before and unchanged since (same size and modification time) is not parsed
    again; callers must not mutate what they get.
    """
    if path in _READ:
        return _from_bytes(_READ[path], STDIN, max_bytes)
    try:
        stat = path.stat()
    except OSError:
        stat = None
    key = (str(path), stat.st_mtime_ns, stat.st_size, max_bytes) if stat else None
    if key is not None and key in _CACHE:
        return _CACHE[key]
    loaded = _load_yaml(path, max_bytes)
    if key is not None:
        if len(_CACHE) > 512:
            _CACHE.clear()
        _CACHE[key] = loaded
    return loaded


def _load_yaml(path: Path, max_bytes: int) -> Loaded:
    file = str(path)
    try:
        size = path.stat().st_size
        if not path.is_file():
            return Loaded(file, None, problems=[Problem(file, None, "", "not a regular file")])
        if size > max_bytes:
            return Loaded(
                file,
                None,
                problems=[
                    Problem(
                        file, None, "", f"{size} bytes; files over {max_bytes} bytes are refused"
                    )
                ],
            )
        raw = path.read_bytes()
    except OSError as exc:
        return Loaded(
            file, None, problems=[Problem(file, None, "", f"cannot read: {exc.strerror or exc}")]
        )
    return _from_bytes(raw, file, max_bytes)


def _from_bytes(raw: bytes, file: str, max_bytes: int) -> Loaded:
    if len(raw) > max_bytes:
        message = f"over {max_bytes} bytes; files over {max_bytes} bytes are refused"
        return Loaded(file, None, problems=[Problem(file, None, "", message)])
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return Loaded(
            file, None, problems=[Problem(file, None, "", f"not UTF-8 text (byte {exc.start})")]
        )
    return load_yaml_text(text, file)


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """`` (did you mean 'max_wild'?)`` or nothing, click's way."""
    return _did_you_mean(str(word), tuple(sorted({str(c) for c in choices})))


@functools.lru_cache(maxsize=1024)
def _did_you_mean(word: str, options: tuple[str, ...]) -> str:
    # cached: a file repeating one wrong value thousands of times is answered once
    close = difflib.get_close_matches(word, options, n=3, cutoff=0.6)
    if not close:
        return ""
    if len(close) == 1:
        return f"; did you mean {close[0]!r}?"
    return "; did you mean one of " + ", ".join(repr(c) for c in close) + "?"


# Fields taken out of the format: a file that still sets one is told what the engine always
# did and to delete the line, not offered a field of a similar name.
REMOVED_FIELDS: dict[str, str] = {
    "initial_meld.counts_pile_rest": "removed from the format: the rest of a taken pile never "
    "counts toward the first meld (it reaches the hand after the meld is made), as the engine "
    "has always played it; delete this key from the file",
}


def not_a_field(path: str, fields: Iterable[str]) -> str:
    """Why a key path names no ruleset field: it was removed, or a "did you mean"."""
    if path in REMOVED_FIELDS:
        return REMOVED_FIELDS[path]
    return f"{path!r} is not a ruleset field" + did_you_mean(path, fields)


def _unwrap(annotation: Any) -> list[Any]:
    """The classes an annotation may hold: Optional, unions and Annotated unwrapped."""
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        return _unwrap(typing.get_args(annotation)[0])
    if origin in (typing.Union, types.UnionType):
        out: list[Any] = []
        for arg in typing.get_args(annotation):
            out.extend(_unwrap(arg))
        return out
    return [annotation]


def _is_record(annotation: Any) -> bool:
    return isinstance(annotation, type) and issubclass(annotation, BaseModel)


def _following(annotation: Any, part: str | int) -> list[Any]:
    """The types one part of a location leads to from a type: a field's, or a table's items."""
    if _is_record(annotation):
        return [
            inner
            for name, info in annotation.model_fields.items()
            if part in (name, info.alias)
            for inner in _unwrap(info.annotation)
        ]
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin is dict and len(args) == 2:
        return _unwrap(args[1])
    if origin is tuple and args:
        return _unwrap(args[0])
    return []


def _keys_at(model: type[BaseModel], location: Location) -> list[str] | None:
    """The keys a record at ``location`` accepts, walking the model's fields."""
    candidates: list[Any] = [model]
    for part in location:
        following = [inner for cand in candidates for inner in _following(cand, part)]
        if following:
            candidates = following
        # a location part that matches nothing (a union's tag) keeps the candidates
    keys = [
        info.alias or name
        for cand in candidates
        if _is_record(cand)
        for name, info in cand.model_fields.items()
    ]
    return list(dict.fromkeys(keys)) or None


def _data_location(data: Any, loc: tuple[Any, ...]) -> Location:
    """Map a pydantic error location onto the data, dropping union tags and ``[key]`` parts."""
    out: list[str | int] = []
    current = data
    for index, part in enumerate(loc):
        taken, current = _data_step(current, part, last=index == len(loc) - 1)
        out.extend(taken)
    return tuple(out)


def _data_step(current: Any, part: Any, *, last: bool) -> tuple[Location, Any]:
    """The data's own key for one part of an error location (if any), and what it leads to."""
    if isinstance(current, Mapping):
        return _mapping_step(current, part, last=last)
    if isinstance(current, tuple | list) and isinstance(part, int) and part < len(current):
        return (part,), current[part]
    # union tags such as 'canastas' or 'int' and anything else: not part of the data
    return (), current


def _mapping_step(current: Mapping[Any, Any], part: Any, *, last: bool) -> tuple[Location, Any]:
    if part in current:
        return (part,), current[part]
    matched = next((k for k in current if str(k) == str(part)), None)
    if matched is not None:
        return (matched,), current[matched]
    # a missing or unknown key (the last part) is named; anything else here is a union's tag
    # or pydantic's "[key]", not part of the data
    if last and isinstance(part, str) and part != "[key]":
        return (part,), current
    return (), current


def _quoted_number(text: str) -> bool:
    """Whether text in quotes is a plain whole number (``"3"``)."""
    bare = text.strip().removeprefix("-")
    return bare.isascii() and bare.isdigit() and len(bare) <= MAX_NUMBER_DIGITS


def _shown(value: Any) -> str:
    text = repr(list(value) if isinstance(value, tuple) else value)
    return text if len(text) <= 60 else text[:57] + "..."


# A pydantic error in words: from the error, the model checked, and the error's data location.
_Words = Callable[[Mapping[str, Any], type[BaseModel], Location], str]


def _unknown_key(error: Mapping[str, Any], model: type[BaseModel], location: Location) -> str:
    if format_path(location) in REMOVED_FIELDS:
        return REMOVED_FIELDS[format_path(location)]
    key = location[-1] if location else "?"
    allowed = _keys_at(model, location[:-1]) or []
    hint = did_you_mean(str(key), allowed)
    if not hint and allowed:
        hint = "; expected one of: " + ", ".join(allowed)
    return f"unknown key {str(key)!r}{hint}"


def _missing(error: Mapping[str, Any], model: type[BaseModel], location: Location) -> str:
    """A key missing; inside a list's entry, that the entry inherits nothing from a base."""
    entry = next((i for i in range(len(location) - 1, 0, -1) if isinstance(location[i], int)), 0)
    if not entry:
        inherited = model.__name__ == "Rules"  # a ruleset's rules may come from its base
        return "required key missing" + (" (set it here or in a base ruleset)" if inherited else "")
    table, key = format_path(location[:entry]), location[entry]
    rest = format_path(location[entry + 1 :])
    return (
        f"{rest} missing: an entry written whole, or added, inherits nothing from a base's "
        f"{table} (to change only some keys of an entry the base has, write "
        f"{table}.{key}.{rest}: ... for each)"
    )


def _not_allowed(error: Mapping[str, Any], model: type[BaseModel], location: Location) -> str:
    value = error.get("input")
    expected = error.get("ctx", {}).get("expected", "")
    options = [part.strip(" '") for part in expected.replace(" or ", ",").split(",")]
    return f"{_shown(value)} is not allowed: expected {expected}" + did_you_mean(
        str(value), options
    )


def _not_whole(error: Mapping[str, Any], model: type[BaseModel], location: Location) -> str:
    value = error.get("input")
    if isinstance(value, str) and _quoted_number(value):
        bare = value.strip()
        return f"expected a whole number, got the text {value!r}: write {bare} without quotes"
    return f"expected a whole number, got {_shown(value)}"


def _expected(what: str) -> _Words:
    """The words for a value of the wrong type: what was expected, and what was given."""

    def words(error: Mapping[str, Any], model: type[BaseModel], location: Location) -> str:
        return f"expected {what}, got {_shown(error.get('input'))}"

    return words


def _not_a_choice(error: Mapping[str, Any], model: type[BaseModel], location: Location) -> str:
    ctx = error.get("ctx", {})
    return f"{ctx.get('tag')!r} is not a choice here: expected {ctx.get('expected_tags')}" + (
        did_you_mean(
            str(ctx.get("tag")), str(ctx.get("expected_tags", "")).replace("'", "").split(", ")
        )
    )


def _not_written_so(error: Mapping[str, Any], model: type[BaseModel], location: Location) -> str:
    """Text not in the form a key wants; a top-level key's description says the form."""
    info = model.model_fields.get(str(location[0])) if len(location) == 1 else None
    wanted = info.description if info is not None and info.description else ""
    return f"{_shown(error.get('input'))} is not written as this key expects" + (
        f" ({wanted[0].lower()}{wanted[1:]})" if wanted else ""
    )


def _no_choice_name(error: Mapping[str, Any], model: type[BaseModel], location: Location) -> str:
    return f"a named choice needs its {error.get('ctx', {}).get('discriminator')} key"


def _pydantic_words(error: Mapping[str, Any], model: type[BaseModel], location: Location) -> str:
    """Pydantic's own message, in lower case; the value given after it, unless ours says it."""
    message = str(error["msg"])
    if message.startswith("Value error, "):
        # our own validators' sentences say what is wrong without echoing the whole input
        message = message[len("Value error, ") :]
        return f"{message[0].lower()}{message[1:]}"
    if not message:
        return "invalid"
    return f"{message[0].lower()}{message[1:]} (got {_shown(error.get('input'))})"


# The words for each kind of pydantic error; any other kind has pydantic's own.
_MESSAGES: dict[str, _Words] = {
    "extra_forbidden": _unknown_key,
    "missing": _missing,
    "literal_error": _not_allowed,
    "int_type": _not_whole,
    "int_parsing": _not_whole,
    "int_from_float": _not_whole,
    "bool_type": _expected("true or false"),
    "string_type": _expected("text"),
    "tuple_type": _expected("a list"),
    "list_type": _expected("a list"),
    "dict_type": _expected("a mapping of keys to values"),
    "model_type": _expected("a mapping of keys to values"),
    "model_attributes_type": _expected("a mapping of keys to values"),
    "union_tag_invalid": _not_a_choice,
    "string_pattern_mismatch": _not_written_so,
    "union_tag_not_found": _no_choice_name,
}


def _message(error: Mapping[str, Any], model: type[BaseModel], location: Location) -> str:
    """A pydantic error in words a person can act on."""
    return _MESSAGES.get(error["type"], _pydantic_words)(error, model, location)


def validation_problems(
    exc: ValidationError,
    model: type[BaseModel],
    data: Any,
    where: typing.Callable[[Location], tuple[str, int | None]],
) -> list[Problem]:
    """Every pydantic error as a :class:`Problem` (the first :data:`MAX_PROBLEMS`, then a count
    of the rest); ``where`` maps a data location to file, line."""
    problems: list[Problem] = []
    seen = set()
    errors = exc.errors()
    for told, error in enumerate(errors):
        if len(problems) >= MAX_PROBLEMS:
            problems.append(more_problems(problems[0].file, len(errors) - told))
            break
        loc = tuple(error["loc"])
        if error["type"] == "too_short" and any(
            len(other["loc"]) > len(loc) and tuple(other["loc"][: len(loc)]) == loc
            for other in errors
        ):
            continue  # a list left empty because its items failed: the items say why
        location = _data_location(data, loc)
        message = _message(error, model, location)
        entry = entry_words(data, location)
        if entry is not None:
            message = f"{entry}: {message}"
        file, line = where(location)
        key = (file, line, location, message)
        if key in seen:
            continue
        seen.add(key)
        problems.append(Problem(file, line, format_path(location), message))
    return problems
