"""Where the shipped data lives: inside the wheel (``bolivia/_data``) or, in a source checkout,
at the top of the repository (``rulesets/``, ``seeds/``, ``docs/``); and the folder the toolkit
keeps what it can work out again in (:func:`cache_dir`)."""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["cache_dir", "data_dir", "docs_dir", "rulesets_dir", "seeds_dir"]

_PACKAGE = Path(__file__).resolve().parent


def data_dir(name: str) -> Path:
    """The folder of shipped data called ``name``."""
    installed = _PACKAGE / "_data" / name
    if installed.is_dir():
        return installed
    checkout = _PACKAGE.parent / name
    if checkout.is_dir():
        return checkout
    raise FileNotFoundError(f"the shipped data folder {name!r} is missing from {_PACKAGE}")


def rulesets_dir() -> Path:
    return data_dir("rulesets")


def seeds_dir() -> Path:
    return data_dir("seeds")


def docs_dir() -> Path:
    """The documents: the oracle protocol, checking an engine, how the engine reads the rules."""
    return data_dir("docs")


def cache_dir() -> Path:
    """The folder the toolkit keeps what it can work out again in (the sweeps' results, the
    compiled templates): ``bolivia`` in ``$XDG_CACHE_HOME``, or in ``~/.cache`` where that is
    not set. :class:`RuntimeError` where there is no home folder to find."""
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(cache) / "bolivia"
