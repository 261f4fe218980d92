"""The public API (``bolivia.__all__``): every name resolves from the package, lazily, to the
object its module defines; what a developer plays a hand with is among them."""

from __future__ import annotations

import subprocess
import sys

import bolivia


def test_every_public_name_resolves_to_its_modules_object() -> None:
    import importlib

    for name in bolivia.__all__:
        value = getattr(bolivia, name)
        home = bolivia._HOMES[name]
        assert value is getattr(importlib.import_module(home), name), name
    assert set(bolivia.__all__) == set(bolivia._HOMES)
    assert set(bolivia.__all__) <= set(dir(bolivia))


def test_a_hand_its_actions_the_refusal_and_the_oracle_are_public() -> None:
    wanted = {"Hand", "HandResult", "Action", "Draw", "TakePile", "Discard", "GoOut", "Illegal"}
    assert wanted | {"Oracle", "Lay", "Extend", "Ask", "Answer"} <= set(bolivia.__all__)
    assert issubclass(bolivia.Illegal, ValueError)


def test_importing_the_package_loads_no_public_module_yet() -> None:
    """The names are imported on first use (PEP 562): ``import bolivia`` alone stays light."""
    code = (
        "import sys, bolivia\n"
        "heavy = [m for m in ('bolivia.play.table.hand', 'bolivia.verify.oracle', "
        "'bolivia.rules.library') if m in sys.modules]\n"
        "print(heavy)"
    )
    done = subprocess.run(
        [sys.executable, "-P", "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert done.stdout.strip() == "[]"
