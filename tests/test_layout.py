"""The package's layers: every import runs down them (rules <- engine <- play <- verify <-
compare <- authoring <- profiles <- sweeps <- console <- options <- play_cli <- sweep_cli <-
cli), and modules stay small enough to read."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "bolivia"

# the part a module belongs to -> its layer; the ground floor (0) is shared by all
LAYERS = {
    "cards": 0,
    "errors": 0,
    "kept": 0,
    "output": 0,
    "resources": 0,
    "text": 0,
    "values": 0,
    "version": 0,
    "rules": 1,
    "engine": 2,
    "play": 3,
    "verify": 4,  # the oracle answers positions through the hand of play
    "compare": 5,
    "authoring": 6,
    "profiles": 7,  # an engine's rules read off its answers, written as a ruleset
    "sweeps": 8,  # rule values swept: derived rulesets (authoring) played and measured (compare)
    "console": 9,  # the command line's terminal plumbing
    "options": 10,  # --rulesets and --sources, shared by every command that takes a ruleset
    "play_cli": 11,  # the bodies of the commands that play (simulate, match)
    "rules_cli": 11,  # the bodies of the commands about ruleset files
    "sweep_cli": 12,  # the body of bolivia sweep (uses play_cli's checks of players and bots)
    "cli": 13,
    "__init__": 13,
    "__main__": 14,  # python -m bolivia: runs the cli
}
MAX_LINES = 800


def _part(module: str) -> str:
    """The part of ``bolivia.x.y`` (``x``); the package itself is its ``__init__``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def _imports(tree: ast.AST, module: str, is_package: bool) -> list[tuple[int, str]]:
    """Every module of ``bolivia`` imported anywhere in the tree (functions and
    ``TYPE_CHECKING`` blocks included), with its line."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: resolved against this module's package
                package = module.split(".")
                if not is_package:
                    package = package[:-1]
                package = package[: len(package) - (node.level - 1)]
                base = ".".join([*package, *([node.module] if node.module else [])])
            else:
                base = node.module or ""
            if base == "bolivia":  # from bolivia import x: x may be a module or a name
                found += [
                    (node.lineno, f"bolivia.{alias.name}" if alias.name in LAYERS else base)
                    for alias in node.names
                ]
            else:
                found.append((node.lineno, base))
    return [(line, name) for line, name in found if name.split(".")[0] == "bolivia"]


def violations(source: str, module: str, is_package: bool = False) -> list[str]:
    """The imports of a module's source that run up or across the layers."""
    own = _part(module)
    if own not in LAYERS:
        return [f"{module}: part {own!r} has no layer (add it to LAYERS)"]
    out = []
    for line, target in _imports(ast.parse(source), module, is_package):
        theirs = _part(target)
        if theirs == own:
            continue
        if theirs not in LAYERS:
            out.append(f"{module}:{line}: imports {target}, which has no layer")
        elif LAYERS[theirs] >= LAYERS[own] and not LAYERS[theirs] == LAYERS[own] == 0:
            out.append(f"{module}:{line}: imports {target} ({theirs} is not below {own})")
    return out


def _modules() -> list[tuple[Path, str, bool]]:
    out = []
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(PACKAGE.parent).with_suffix("")
        parts = list(relative.parts)
        is_package = parts[-1] == "__init__"
        if is_package:
            parts = parts[:-1]
        module = ".".join(parts)
        out.append((path, module, is_package))
    return out


MODULES = _modules()


def test_every_import_runs_down_the_layers() -> None:
    found = [
        problem
        for path, module, is_package in MODULES
        for problem in violations(path.read_text(encoding="utf-8"), module, is_package)
    ]
    assert not found, "\n".join(found)


@pytest.mark.parametrize(
    ("source", "module", "expected"),
    [
        ("from bolivia.play.hand import Hand\n", "bolivia.engine.melds", "play is not below"),
        ("import bolivia.compare.report\n", "bolivia.rules.model", "compare is not below"),
        ("from bolivia.verify.oracle import Oracle\n", "bolivia.play.bots", "verify is not below"),
        ("from bolivia.compare.report import x\n", "bolivia.verify.oracle", "compare is not below"),
        ("from bolivia import __version__\n", "bolivia.verify.oracle", "__init__ is not below"),
        ("from bolivia import cli\n", "bolivia.authoring.lint", "cli is not below"),
        ("from ..compare import report\n", "bolivia.engine.pile", "compare is not below"),
        ("def f():\n    from bolivia.cli import main\n", "bolivia.cards", "cli is not below"),
        ("from bolivia.rules.model import Rules\n", "bolivia.cards", "rules is not below"),
        ("from bolivia.misc import x\n", "bolivia.play.hand", "has no layer"),
    ],
)
def test_the_layer_check_catches_an_import_up_or_across(
    source: str, module: str, expected: str
) -> None:
    assert any(expected in problem for problem in violations(source, module))


@pytest.mark.parametrize(
    ("source", "module"),
    [
        ("from bolivia.engine.melds import Meld\n", "bolivia.play.moves"),
        ("from . import coherence\n", "bolivia.rules.library"),
        ("from bolivia.errors import Illegal\n", "bolivia.cards"),
        ("from bolivia.compare.report import write_report\n", "bolivia.cli"),
    ],
)
def test_the_layer_check_lets_imports_down_pass(source: str, module: str) -> None:
    assert violations(source, module) == []


def test_every_part_says_what_it_decides_and_may_import() -> None:
    for path, module, is_package in MODULES:
        if is_package and module != "bolivia":
            doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
            assert "May import" in doc, f"{module} does not say what it may import"


def test_no_module_is_too_long_to_read() -> None:
    long = [
        f"{module}: {n} lines"
        for path, module, _ in MODULES
        if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    ]
    assert not long, long
