"""Hypothesis profiles, chosen by HYPOTHESIS_PROFILE: dev (default), ci, thorough; and which
build of the package the tests run (the header says it)."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# no deadline in any profile: a test's pace is the machine's, not the code's (the README's test
# command runs this one, on shared and loaded machines too); speed is measured in benchmarks/
settings.register_profile("dev", max_examples=100, deadline=None)
settings.register_profile(
    "ci",
    max_examples=100,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("thorough", max_examples=2_000, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))

# The tests run side by side already (pytest -n auto): the commands they run start one worker
# process unless a test asks for more (BOLIVIA_WORKERS is --workers' default)
os.environ.setdefault("BOLIVIA_WORKERS", "1")

# A shell starts a background job with SIGINT ignored, and every process it starts inherits
# that: the commands the Ctrl-C tests interrupt would never see the interrupt. Give the tests'
# own processes, and so their children, the interrupt back.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_report_header() -> str:
    import bolivia
    from bolivia.version import compiled

    build = "compiled" if compiled() else "pure Python"
    return f"bolivia: {build}, from {Path(bolivia.__file__).parent}"


class _CompiledModules:
    """Leave out the doctests of modules that run compiled: the doctest finder sees nothing in a
    compiled module, and pytest would refuse its ``.py`` beside the ``.so``. The pure build runs
    them (``.ci/run``)."""

    def pytest_ignore_collect(self, collection_path: Path) -> bool | None:
        if collection_path.suffix == ".py" and any(
            collection_path.parent.glob(f"{collection_path.stem}.*.so")
        ):
            return True
        return None


def pytest_configure(config: pytest.Config) -> None:
    # registered as a plugin, not a conftest hook: the installed package lies outside tests/
    config.pluginmanager.register(_CompiledModules(), "bolivia-compiled-modules")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """A compiled class's methods cannot be replaced (its callers do not look them up): tests
    that do so run in the pure build only, which .ci/run runs them in."""
    from bolivia.version import compiled

    if not compiled():
        return
    skip = pytest.mark.skip(
        reason="replaces or reads what compiled code hides: run by the pure build (.ci/run)"
    )
    for item in items:
        if item.get_closest_marker("pure_only") is not None:
            item.add_marker(skip)
