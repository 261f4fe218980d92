"""The package's layers: every import runs down them (rules <- engine <- play's table <-
its bots <- its batch runs <- verify <- compare <- authoring <- profiles <- sweeps <- console <-
options <- play_cli <- sweep_cli <- cli), no modules import each other in a circle, and modules
stay small enough to read.

Every import counts: late ones in functions and those made for type checking only.
"""

from __future__ import annotations

import ast
from collections.abc import Collection
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "bolivia"

# the part a module belongs to -> its layer; the ground floor (0) is shared by all
LAYERS = {
    "cards": 0,
    "errors": 0,
    "kept": 0,
    "output": 0,
    "defaults": 0,  # what every command defaults to (the seed)
    "formats": 0,  # the JSON documents written: each one's format name and version
    "resources": 0,
    "language": 0,  # the language the people layer is written in (gettext catalogs, Babel)
    "text": 0,
    "values": 0,
    "version": 0,
    "rules": 1,
    "engine": 2,
    "play.table": 3,  # the hand's rules
    "play.bots": 4,  # who chooses among the legal actions
    "play.batch": 5,  # many hands: simulation, matches, replays
    "play": 5,  # the package's own docstring
    "verify": 6,  # the oracle answers positions through the hand of play
    "compare": 7,
    "authoring": 8,
    "profiles": 9,  # an engine's rules read off its answers, written as a ruleset
    "sweeps": 10,  # rule values swept: derived rulesets (authoring) played and measured (compare)
    "console": 11,  # the command line's terminal plumbing
    "options": 12,  # --rulesets and --sources, shared by every command that takes a ruleset
    "play_cli": 13,  # the bodies of the commands that play (simulate, match)
    "rules_cli": 13,  # the bodies of the commands about ruleset files
    "sweep_cli": 14,  # the body of bolivia sweep (uses play_cli's checks of players and bots)
    "compare_cli": 14,  # which rulesets, bots and formats bolivia compare takes (play_cli names
    # the bots), its progress line
    "ladder_cli": 15,  # bolivia ladder: every pair of bots, and their ratings
    "cli": 16,
    "__init__": 16,
    "__main__": 17,  # python -m bolivia: runs the cli
}
MAX_LINES = 800


def _part(module: str) -> str:
    """The part of ``bolivia.x.y`` (``x``; ``play.x`` in play, cut by what each piece
    decides); the package itself is its ``__init__``."""
    parts = module.split(".")
    if len(parts) > 2 and parts[1] == "play":
        return f"play.{parts[2]}"
    return parts[1] if len(parts) > 1 else "__init__"


def _imported(base: str, name: str, known: Collection[str]) -> str:
    """The module ``from base import name`` imports: ``base.name`` if a module, else ``base``."""
    candidate = f"{base}.{name}"
    if candidate in known or (base == "bolivia" and name in LAYERS):
        return candidate
    return base


def _imports(
    tree: ast.AST, module: str, is_package: bool, known: Collection[str] | None = None
) -> list[tuple[int, str]]:
    """Every module of ``bolivia`` imported anywhere in the tree (functions and
    ``TYPE_CHECKING`` blocks included), with its line."""
    known = MODULE_NAMES if known is None else known
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
            # from package import x: x may be a module of the package or a name in it
            found += [(node.lineno, _imported(base, alias.name, known)) for alias in node.names]
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
MODULE_NAMES = frozenset(module for _, module, _ in MODULES)


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
        ("from bolivia.play.table.hand import Hand\n", "bolivia.engine.melds", "play.table is not"),
        ("from bolivia.play.bots import registry\n", "bolivia.play.table.hand", "play.bots is not"),
        ("from bolivia.play.batch.seeds import x\n", "bolivia.play.bots.search", "play.batch is"),
        ("import bolivia.compare.report\n", "bolivia.rules.model", "compare is not below"),
        ("from bolivia.verify.oracle import Oracle\n", "bolivia.play.bots", "verify is not below"),
        ("from bolivia.compare.report import x\n", "bolivia.verify.oracle", "compare is not below"),
        ("from bolivia import __version__\n", "bolivia.verify.oracle", "__init__ is not below"),
        ("from bolivia import cli\n", "bolivia.authoring.lint", "cli is not below"),
        ("from ..compare import report\n", "bolivia.engine.pile", "compare is not below"),
        ("def f():\n    from bolivia.cli import main\n", "bolivia.cards", "cli is not below"),
        ("from bolivia.rules.model import Rules\n", "bolivia.cards", "rules is not below"),
        ("from bolivia.misc import x\n", "bolivia.play.table.hand", "has no layer"),
    ],
)
def test_the_layer_check_catches_an_import_up_or_across(
    source: str, module: str, expected: str
) -> None:
    assert any(expected in problem for problem in violations(source, module))


@pytest.mark.parametrize(
    ("source", "module"),
    [
        ("from bolivia.engine.melds import Meld\n", "bolivia.play.table.moves"),
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


# --------------------------------------------------------------------------- circles

# Circles of imports known and not yet cut, each named for the modules in it (none now: the
# last, the hand with its moves and the bots' candidates, was cut in issue 37). When a circle is
# cut, its entry here must go: the test below fails while an allowance is no longer needed.
KNOWN_CIRCLES: dict[str, frozenset[str]] = {}


def import_graph(sources: dict[str, tuple[str, bool]]) -> dict[str, set[str]]:
    """Per module, the modules of ``sources`` it imports anywhere (late and
    ``TYPE_CHECKING`` imports included)."""
    graph: dict[str, set[str]] = {}
    for module, (source, is_package) in sources.items():
        tree = ast.parse(source)
        targets = {name for _, name in _imports(tree, module, is_package, sources.keys())}
        graph[module] = {t for t in targets if t in sources and t != module}
    return graph


def circles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The circles of a graph: its strongly connected parts of two modules or more."""
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[frozenset[str]] = []

    def visit(node: str) -> None:  # Tarjan's algorithm
        order[node] = low[node] = len(order)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph[node]):
            if target not in order:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], order[target])
        if low[node] == order[node]:
            part = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                part.add(member)
                if member == node:
                    break
            if len(part) > 1:
                found.append(frozenset(part))

    for node in sorted(graph):
        if node not in order:
            visit(node)
    return found


def _package_circles() -> list[frozenset[str]]:
    sources = {
        module: (path.read_text(encoding="utf-8"), is_package)
        for path, module, is_package in MODULES
    }
    return circles(import_graph(sources))


def test_no_circle_of_imports_between_modules() -> None:
    allowed = set(KNOWN_CIRCLES.values())
    found = [" <-> ".join(sorted(c)) for c in _package_circles() if c not in allowed]
    assert not found, "circles of imports:\n" + "\n".join(found)


def gone_circles(known: dict[str, frozenset[str]], found: list[frozenset[str]]) -> list[str]:
    """The names of the allowed circles no longer found: allowances to remove."""
    return [name for name, circle in sorted(known.items()) if circle not in found]


def test_every_allowed_circle_is_still_there() -> None:
    """An allowance goes once its circle is cut."""
    gone = gone_circles(KNOWN_CIRCLES, _package_circles())
    assert not gone, f"remove {', '.join(map(repr, gone))} from KNOWN_CIRCLES"


def test_an_allowance_whose_circle_is_cut_is_named() -> None:
    kept = frozenset({"bolivia.compare.a", "bolivia.compare.b"})
    cut = frozenset({"bolivia.play.x", "bolivia.play.y"})
    known = {"kept": kept, "cut": cut}
    assert gone_circles(known, [kept]) == ["cut"]
    assert gone_circles(known, [kept, cut]) == []
    assert gone_circles({}, []) == []


@pytest.mark.parametrize(
    ("sources", "expected"),
    [
        (  # a type-checking import back
            {
                "bolivia.compare.a": "from bolivia.compare.b import B\n",
                "bolivia.compare.b": "from typing import TYPE_CHECKING\n"
                "if TYPE_CHECKING:\n    from bolivia.compare.a import A\n",
            },
            [{"bolivia.compare.a", "bolivia.compare.b"}],
        ),
        (  # a late import back, through the package and relative
            {
                "bolivia.play.x": "from bolivia.play import y\n",
                "bolivia.play.y": "from . import z\n",
                "bolivia.play.z": "def f():\n    from .x import g\n",
            },
            [{"bolivia.play.x", "bolivia.play.y", "bolivia.play.z"}],
        ),
        (  # down only: no circle
            {
                "bolivia.compare.a": "from bolivia.compare.b import B\n",
                "bolivia.compare.b": "from bolivia.rules import model\n",
            },
            [],
        ),
    ],
)
def test_the_circle_check_finds_late_and_type_checking_imports(
    sources: dict[str, str], expected: list[set[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("tests.test_layout.MODULE_NAMES", MODULE_NAMES | set(sources), raising=True)
    graph = import_graph({module: (source, False) for module, source in sources.items()})
    assert [set(c) for c in circles(graph)] == expected
