"""Where the shipped data lives: inside the wheel (``bolivia/_data``) or, in a source checkout,
at the top of the repository (``rulesets/``, ``seeds/``, ``docs/``)."""

from __future__ import annotations

from pathlib import Path

__all__ = ["data_dir", "docs_dir", "rulesets_dir", "seeds_dir"]

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
