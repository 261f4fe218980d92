"""Writing files: every file the toolkit writes is written whole or not at all.

Each file goes to a temporary file in its own folder. It is then put in place with
``os.replace``. So a full disk, a killed process or a place that cannot be written leaves the
older file (or none), never a truncated one. Files written together (a report and its plots)
are all staged before any of them replaces an older one.

A target that is not a regular file (``/dev/null``, ``/dev/stdout``, a pipe) is written to
directly. A folder that is not there yet is made, as ``compare --out`` has always made its
own. Every failure is an :class:`OutputError`, one line naming the file and the reason.

This is the ground floor: report, rulebook, house rules, schema and replays all write through
it.

>>> import tempfile
>>> folder = Path(tempfile.mkdtemp())
>>> write_text(folder / "a.txt", "whole")
>>> (folder / "a.txt").read_text(), sorted(p.name for p in folder.iterdir())
('whole', ['a.txt'])
"""

from __future__ import annotations

import contextlib
import os
import re
import stat
from collections.abc import Mapping
from pathlib import Path

from bolivia.errors import BoliviaError

__all__ = ["OutputError", "prepare_folder", "temporary_of", "write_files", "write_text"]

_TEMPORARY = re.compile(r"\.(.+)\.[0-9a-f]{8}\.tmp")


class OutputError(BoliviaError):
    """A file or folder that could not be written: ``cannot write PATH: reason``."""


def _reason(exc: OSError) -> str:
    return exc.strerror or str(exc)


def temporary_of(name: str) -> str | None:
    """The file a temporary file of this module (left by a killed run) was to become."""
    found = _TEMPORARY.fullmatch(name)
    return found.group(1) if found else None


def prepare_folder(folder: Path) -> None:
    """Make ``folder`` (and its parents) unless it exists; :class:`OutputError` otherwise."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise OutputError(f"cannot write into {folder}: it is not a folder") from None
    except OSError as exc:
        raise OutputError(f"cannot make the folder {folder}: {_reason(exc)}") from None


def _stage(path: Path, data: bytes) -> tuple[Path, Path] | None:
    """Write ``data`` beside ``path``; (temporary file, where it goes), or None when ``path``
    is not a regular file and was written to directly."""
    try:
        mode: int | None = os.stat(path).st_mode
    except FileNotFoundError:
        mode = None
    if mode is not None and stat.S_ISDIR(mode):
        raise IsADirectoryError(21, "it is a folder")
    if mode is not None and not stat.S_ISREG(mode):
        with open(path, "wb") as stream:
            stream.write(data)
        return None
    target = Path(os.path.realpath(path)) if mode is not None else path
    import secrets  # here: the command line's start does without hashlib

    temporary = target.with_name(f".{target.name[:200]}.{secrets.token_hex(4)}.tmp")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        with os.fdopen(fd, "wb") as stream:
            if mode is not None:
                os.fchmod(stream.fileno(), stat.S_IMODE(mode))
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
    except BaseException:
        _remove(temporary)
        raise
    return temporary, target


def _remove(temporary: Path) -> None:
    with contextlib.suppress(OSError):
        temporary.unlink(missing_ok=True)


def write_files(files: Mapping[Path, str | bytes]) -> None:
    """Write every file (text as UTF-8), making the folders it goes in: all are staged
    first, then each replaces its older version; on a failure none is replaced and nothing
    temporary is left."""
    staged: list[tuple[Path, Path]] = []
    current = Path()
    try:
        for current, content in files.items():
            prepare_folder(current.parent)
            data = content.encode("utf-8") if isinstance(content, str) else content
            done = _stage(current, data)
            if done is not None:
                staged.append(done)
        while staged:
            temporary, current = staged[0]
            os.replace(temporary, current)
            staged.pop(0)
    except OSError as exc:
        raise OutputError(f"cannot write {current}: {_reason(exc)}") from None
    finally:
        for temporary, _ in staged:
            _remove(temporary)


def write_text(path: Path, text: str) -> None:
    """Write one file whole (see :func:`write_files`)."""
    write_files({path: text})
