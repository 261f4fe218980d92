"""The ruleset library: where rulesets are found (the shipped folder and any extra folders),
each by its id or by the path of its file, with ``extends`` chains followed inside the allowed
folders only and at most ``MAX_CHAIN`` files long, and each resolved ruleset kept (rulesets
are immutable). A file in a folder that cannot be read is an index problem: it is reported
(by ``index_problems`` and by any question for an id the library does not know) and the other
rulesets load as ever. A path that is not one (a NUL byte, a name too long for the file system)
is a problem too, never an exception.

>>> shipped_library().load("bolivia-da").chain
('canasta', 'samba', 'bolivia-da')
"""

from __future__ import annotations

import functools
import re
import sys
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from bolivia.errors import Problem, RulesetError
from bolivia.resources import rulesets_dir
from bolivia.rules.files import Layer, read_layer, sets
from bolivia.rules.loading import did_you_mean, load_yaml, read_standard_input
from bolivia.rules.provenance import json_at
from bolivia.rules.resolution import build, in_file_order
from bolivia.rules.ruleset import ID_PATTERN, SECTION_KEYS, Ruleset, base_name_fault
from bolivia.rules.sources import Sources, joined, load_sources, shipped_sources
from bolivia.rules.tree import leaf_paths

__all__ = [
    "MAX_CHAIN",
    "MAX_PATH",
    "SOURCES_FOLDER",
    "STDIN_REF",
    "Library",
    "LibrarySpec",
    "load_ruleset",
    "shipped_library",
]

LEAVES = tuple(leaf_paths())
MAX_CHAIN = 32  # files in an extends chain, the ruleset's own included
MAX_PATH = 4096  # characters of a path given to the library (the usual PATH_MAX)
SOURCES_FOLDER = "sources"  # beside a ruleset file: the source records it may cite
STDIN_REF = "-"  # a ruleset read from standard input


def _checked(given: Path | str, *, folder: bool) -> Path | str:
    """The path resolved, if it is there (a folder, or anything), else why not: a NUL byte, a
    path too long, what the file system says, or "" for simply not there."""
    text = str(given)
    if "\x00" in text:
        return "a path cannot hold a NUL byte"
    if len(text) > MAX_PATH:
        return f"a path of {len(text)} characters; at most {MAX_PATH}"
    try:
        path = Path(text).resolve()
        there = path.is_dir() if folder else path.exists()
    except (OSError, ValueError) as exc:
        return _os_reason(exc)
    return path if there else ""


@dataclass(frozen=True)
class LibrarySpec:
    """Where a library looks besides the shipped folder: its ruleset folders and its folders
    of source records, as text. Picklable, so that a worker process opens the same library."""

    folders: tuple[str, ...] = ()
    sources: tuple[str, ...] = ()

    def open(self) -> Library:
        return Library(self.folders, source_folders=self.sources)


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
        strict: bool = False,
        source_folders: Sequence[Path | str] = (),
    ) -> None:
        self.strict = strict
        self.sources, self.source_folders = _with_source_folders(
            sources if sources is not None else shipped_sources(), source_folders
        )
        self._beside: dict[Path, Sources] = {}
        self._shipped_dir = rulesets_dir().resolve() if shipped else None
        dirs = [self._shipped_dir] if self._shipped_dir else []
        for given in folders:
            folder = _folder(given, "rulesets")
            if folder not in dirs:
                dirs.append(folder)
        self.folders: tuple[Path, ...] = tuple(dirs)
        self._given_sources = sources
        self._index: dict[str, Path] | None = None
        self._ids: list[str] | None = None
        self._by_id: dict[str, Ruleset] = {}
        self._index_problems: list[Problem] = []
        self._indexed: _Index | None = None
        self._near: dict[Path, _Index] = {}
        self._cache: dict[Path, Ruleset] = {}
        self._stdin: Path | None = None  # standard input, once read

    @property
    def own_folders(self) -> tuple[Path, ...]:
        """The ruleset folders besides the shipped one."""
        return tuple(f for f in self.folders if f != self._shipped_dir)

    @property
    def spec(self) -> LibrarySpec:
        """Where this library looks, for a worker process to open the same library."""
        return LibrarySpec(
            tuple(str(f) for f in self.own_folders), tuple(str(f) for f in self.source_folders)
        )

    def with_folder(self, folder: Path) -> Library:
        """This library with one more folder of rulesets (the same sources and strictness)."""
        return Library(
            [*self.own_folders, folder],
            shipped=self._shipped_dir is not None,
            sources=self._given_sources,
            strict=self.strict,
            source_folders=self.source_folders,
        )

    # ---- index

    def _build_index(self) -> dict[str, Path]:
        if self._index is not None:
            return self._index
        self._indexed = _Index(self.folders, recursive=True)
        self._index_problems.extend(self._indexed.problems)
        self._index = self._indexed.paths
        return self._index

    def _nearby(self, folder: Path) -> _Index:
        """The ruleset files of one folder (not its sub-folders): ids a file of that folder
        names, or the command line names from there, are found in it too."""
        if folder not in self._near:
            self._near[folder] = _Index([folder], recursive=False)
        return self._near[folder]

    def find(self, ruleset_id: str, near: Path) -> Path | str:
        """The file of an id: in the library's folders, else among the files of ``near``;
        or why there is none (two files claim it, or none does)."""
        self._build_index()
        assert self._indexed is not None
        found = self._indexed.file_of(ruleset_id)
        if found is None:
            found = self._nearby(near.resolve()).file_of(ruleset_id)
        return found if found is not None else self.unknown_message(ruleset_id, near)

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

    def unknown_message(self, ruleset_id: str, near: Path | None = None) -> str:
        """No such id, what was meant, where a ruleset of one's own is looked for, and which
        files of the folders could not be read (one of them may be the ruleset asked for)."""
        asked = ruleset_id if len(ruleset_id) <= 80 else ruleset_id[:77] + "..."
        message = f"no ruleset has the id {asked!r}" + (
            did_you_mean(ruleset_id, self._build_index()) or f"; known: {', '.join(self.ids())}"
        )
        if near is not None:
            message += (
                f" (looked in the ruleset folders and in {near}: name a file of your own by "
                "its path, or its folder with --rulesets DIR)"
            )
        unreadable = list(dict.fromkeys(problem.file for problem in self._index_problems))
        if unreadable:
            many = len(unreadable) > 1
            shown = ", ".join(unreadable[:3]) + (
                f" and {len(unreadable) - 3} more" * (len(unreadable) > 3)
            )
            message += (
                f"; {len(unreadable)} file{'s' if many else ''} in the ruleset folders "
                f"could not be read: {shown}"
            )
        return message

    # ---- loading

    def load(self, ref: str | Path) -> Ruleset:
        """A ruleset by id, or by the path of a file (anything with a / or ending in .yaml),
        or ``-``: a file read from standard input (once), as if it were in the working folder
        (so its ``extends`` may name a file there)."""
        text = str(ref)
        if ref == STDIN_REF:
            if self._stdin is None:
                self._stdin = read_standard_input(sys.stdin.buffer)
            return self._resolve(self._stdin, (), allowed_extra=self._stdin.parent)
        if isinstance(ref, Path) or "/" in text or text.endswith((".yaml", ".yml")):
            return self._load_file(text)
        known = self._by_id.get(text)
        if known is None:
            known = self._load_id(text)
            self._by_id[text] = known
        return known

    def _load_file(self, text: str) -> Ruleset:
        """A ruleset by the path of its file; it may extend files of its own folder."""
        path = _checked(text, folder=False)
        if isinstance(path, str):
            raise RulesetError([Problem(_shown_path(text), None, "", path or "no such file")])
        return self._resolve(path, (), allowed_extra=path.parent)

    def _load_id(self, text: str) -> Ruleset:
        """A ruleset by id: in the library's folders, or a file of the working folder."""
        found = self.find(text, Path.cwd())
        if isinstance(found, str):
            nearby = self._nearby(Path.cwd().resolve())
            raise RulesetError(
                [
                    Problem("<command line>", None, "", found),
                    *self._index_problems,
                    # a file of that name here that cannot be read may be the one meant
                    *(p for p in nearby.problems if Path(p.file).stem == text),
                ]
            )
        indexed = self._build_index().get(text) == found
        return self._resolve(found.resolve(), (), allowed_extra=None if indexed else found.parent)

    def all(self) -> list[Ruleset]:
        return [self.load(rid) for rid in self.ids()]

    def locate(
        self, ref: str, relative_to: Path, allowed_extra: Path | None, what: str = "a base"
    ) -> Path | str:
        """The file that ``ref`` names -- an id, or a relative path from the folder
        ``relative_to`` that stays inside the library's folders or ``allowed_extra`` -- or why
        it names none. Nothing outside those folders is read, or even looked for."""
        if re.fullmatch(ID_PATTERN, ref) and not ref.endswith((".yaml", ".yml")):
            found = self.find(ref, relative_to)
            return found.resolve() if isinstance(found, Path) else found
        fault = base_name_fault(ref)  # Meta refuses these; a Layer built by hand may not
        if fault is not None:
            return fault
        candidate = Path(ref)
        if candidate.is_absolute():
            return f"{ref!r}: {what} is named by id or by a relative path, never an absolute one"
        return self._inside(ref, relative_to / candidate, allowed_extra)

    def _inside(self, ref: str, candidate: Path, allowed_extra: Path | None) -> Path | str:
        """The file a relative path leads to, if it stays inside the allowed folders; or why not."""
        try:
            target = candidate.resolve()
            allowed = [*self.folders, *([allowed_extra] if allowed_extra else [])]
            if not any(target.is_relative_to(folder) for folder in allowed):
                return (
                    f"{ref!r} leads outside the ruleset folders "
                    f"({', '.join(str(f) for f in allowed)}); refusing to read it"
                )
            if not target.is_file():
                return f"{ref!r}: no such file"
        except (OSError, ValueError) as exc:
            return f"{ref!r}: {_os_reason(exc)}"
        return target

    def _locate_base(self, layer: Layer, ref: str, allowed_extra: Path | None) -> Path | Problem:
        located = self.locate(ref, layer.path.parent, allowed_extra)
        return located if isinstance(located, Path) else layer.loaded.problem(("extends",), located)

    def sources_for(self, path: Path) -> Sources:
        """The sources a ruleset file may cite: the library's, and the records in the
        ``sources/`` folder beside the file (:data:`SOURCES_FOLDER`)."""
        folder = path.parent / SOURCES_FOLDER
        if folder not in self._beside:
            beside = load_sources(folder) if folder.is_dir() else None
            self._beside[folder] = joined(self.sources, beside, folder) if beside else self.sources
        return self._beside[folder]

    def _resolve(self, path: Path, stack: tuple[Path, ...], allowed_extra: Path | None) -> Ruleset:
        if path in self._cache:
            return self._cache[path]
        sources = self.sources_for(path)  # a SourceError is a RulesetError
        layer = read_layer(path, sources)
        problems = list(layer.problems)
        if layer.meta is None:
            raise RulesetError(problems or [Problem(str(path), 1, "", "unreadable metadata")])
        base = None
        if layer.meta.extends is not None:
            base = self._base_of(layer, layer.meta.extends, (*stack, path), allowed_extra, problems)
        shipped = self.is_shipped(path)
        ruleset = None
        if self._buildable(layer, base, problems):
            ruleset = self._try_build(layer, base, sources, problems, shipped=shipped)
        if problems or ruleset is None:
            raise RulesetError(in_file_order(problems, str(path)))
        self._cache[path] = ruleset
        return ruleset

    def _buildable(self, layer: Layer, base: Ruleset | None, problems: list[Problem]) -> bool:
        """Whether the file and its base can make a ruleset; if not, the problems say why."""
        assert layer.meta is not None
        extends = layer.meta.extends
        missing = [key for key in SECTION_KEYS if key not in layer.sections]
        if extends is None and missing:
            # one line, not a missing key for every section: most such files forgot extends
            problems.append(layer.loaded.problem((), self._no_extends(layer, missing)))
            return False
        return base is not None or extends is None  # else the base's problems are told

    def _try_build(
        self,
        layer: Layer,
        base: Ruleset | None,
        sources: Sources,
        problems: list[Problem],
        *,
        shipped: bool,
    ) -> Ruleset | None:
        """The file's own problems and those of its rules as merged, all at once."""
        try:
            return build(layer, base, sources, shipped=shipped, strict=self.strict or shipped)
        except RulesetError as exc:
            problems.extend(p for p in exc.problems if p not in problems)
            return None

    def _base_of(
        self,
        layer: Layer,
        extends: str,
        stack: tuple[Path, ...],
        allowed_extra: Path | None,
        problems: list[Problem],
    ) -> Ruleset | None:
        """The base a file extends, resolved; None, with the problems, when it cannot be (not
        found, a cycle, a chain too long, a base that does not load)."""
        located = self._locate_base(layer, extends, allowed_extra)
        if isinstance(located, Problem):
            problems.append(located)
            return None
        chain = " -> ".join(p.stem for p in (*stack, located))
        if located in stack:
            problems.append(
                layer.loaded.problem(("extends",), f"extends goes round in a cycle: {chain}")
            )
            return None
        if len(stack) >= MAX_CHAIN:
            problems.append(
                layer.loaded.problem(
                    ("extends",), f"the extends chain is longer than {MAX_CHAIN} files: {chain}"
                )
            )
            return None
        try:
            return self._resolve(located, stack, allowed_extra)
        except RulesetError as exc:
            problems.append(
                layer.loaded.problem(("extends",), f"the base {extends!r} cannot be loaded")
            )
            problems.extend(exc.problems)
            return None

    def _no_extends(self, layer: Layer, missing: Sequence[str]) -> str:
        """What a file without ``extends`` that leaves sections out is told: the shipped
        ruleset nearest to what it sets, to build on, or the sections to set."""
        nearest = self._nearest_base(layer)
        build_on = (
            f"add extends: {nearest}, the shipped ruleset nearest to what it sets"
            if nearest is not None
            else "add extends: and the id of the ruleset it builds on"
        )
        return (
            f"no extends: a ruleset builds on another ({build_on}; bolivia rulesets lists "
            f"them) or sets every rule itself (missing: {', '.join(missing)})"
        )

    def _nearest_base(self, layer: Layer) -> str | None:
        """The main shipped ruleset that already has most of the values the file sets.

        Examples are left out. On a tie, the first in the library's order.
        """
        given = [leaf for leaf in LEAVES if sets(layer.sections, leaf)]
        scored = [
            (sum(json_at(layer.sections, leaf) == candidate.value(leaf) for leaf in given), rid)
            for rid, candidate in self._main_rulesets()
        ]
        best = max(scored, key=lambda item: item[0], default=None)
        return best[1] if best is not None else None

    def _main_rulesets(self) -> Iterator[tuple[str, Ruleset]]:
        """The main shipped rulesets that load (not the examples), in the library's order."""
        if self._shipped_dir is None:
            return
        for rid in self.ids():
            if self._build_index()[rid].parent != self._shipped_dir:
                continue
            try:
                candidate = self.load(rid)
            except RulesetError:
                continue
            yield rid, candidate


class _Index:
    """The ruleset files of some folders by id, the files that could not be indexed, and the
    ids two files claim (each with every file claiming it)."""

    def __init__(self, folders: Sequence[Path], *, recursive: bool) -> None:
        self.paths: dict[str, Path] = {}
        self.problems: list[Problem] = []
        self.duplicates: dict[str, list[Path]] = {}
        for folder in folders:
            try:
                paths = sorted(folder.rglob("*.yaml") if recursive else folder.glob("*.yaml"))
            except OSError as exc:
                self.problems.append(
                    Problem(str(folder), None, "", f"cannot list the folder: {_os_reason(exc)}")
                )
                continue
            for path in paths:
                if SOURCES_FOLDER not in path.relative_to(folder).parts[:-1]:  # records
                    self._add(path)

    def _add(self, path: Path) -> None:
        loaded = load_yaml(path)
        rid = loaded.data.get("id") if isinstance(loaded.data, Mapping) else None
        if loaded.problems or not isinstance(rid, str):
            self.problems.extend(
                loaded.problems or [Problem(str(path), 1, "id", "a ruleset file needs an id")]
            )
        elif not re.fullmatch(ID_PATTERN, rid):
            self.problems.append(
                Problem(
                    str(path),
                    loaded.line(("id",)),
                    "id",
                    f"{rid[:80]!r} is not an id: lower-case letters, digits, - . _",
                )
            )
        elif rid in self.paths and self.paths[rid] != path:
            self.problems.append(
                Problem(
                    str(path),
                    loaded.line(("id",)),
                    "id",
                    f"id {rid!r} is taken already by {self.paths[rid]}",
                )
            )
            self.duplicates.setdefault(rid, [self.paths[rid]]).append(path)
        else:
            self.paths[rid] = path

    def file_of(self, ruleset_id: str) -> Path | str | None:
        """The file of an id; why not, when two files claim it; None if none does."""
        if ruleset_id in self.duplicates:
            files = " and ".join(str(p) for p in self.duplicates[ruleset_id])
            return f"two files have the id {ruleset_id!r}: {files}; give one of them another id"
        return self.paths.get(ruleset_id)


def _folder(given: Path | str, what: str) -> Path:
    """A folder of ``what`` given to the library, resolved; a :class:`RulesetError` if not one."""
    folder = _checked(given, folder=True)
    if isinstance(folder, str):
        why = f"not a folder of {what} ({folder})" if folder else f"not a folder of {what}"
        raise RulesetError([Problem(_shown_path(given), None, "", why)])
    return folder


def _with_source_folders(
    sources: Sources, given: Sequence[Path | str]
) -> tuple[Sources, tuple[Path, ...]]:
    """The sources with the records of each folder given; the folders, each once."""
    folders: tuple[Path, ...] = ()
    for folder in (_folder(each, "sources") for each in given):
        if folder not in folders:
            sources = joined(sources, load_sources(folder), folder)
            folders += (folder,)
    return sources, folders


def _os_reason(exc: OSError | ValueError) -> str:
    """What the file system said, without the path (the problem names it already)."""
    if isinstance(exc, OSError):
        return str(exc.strerror or exc).lower()
    return str(exc)


def _shown_path(path: object) -> str:
    """A path as a problem names it: a very long one cut short."""
    text = str(path)
    return text if len(text) <= 300 else f"{text[:140]}...{text[-140:]} ({len(text)} characters)"


@functools.cache
def shipped_library() -> Library:
    """The library of shipped rulesets (cached: rulesets are immutable)."""
    return Library()


def load_ruleset(ref: str | Path, folders: Iterable[Path | str] = ()) -> Ruleset:
    """A ruleset by id or file path; extra folders add rulesets to look in."""
    folders = tuple(folders)
    library = Library(folders) if folders else shipped_library()
    return library.load(ref)
