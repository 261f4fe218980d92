"""The wheel's build hook: the hot modules compiled with mypyc, or pure Python with BOLIVIA_PURE=1.

The compiled build also builds the native cores (C extensions built by setuptools: the
valuation's, ``bolivia/play/bots/_core.c``, and the way-out search's bounds,
``bolivia/play/table/_bounds.c``) beside the modules mypyc compiles; the pure build has none and
runs the Python they stand for. hatch-mypyc does the compiling; this hook only decides whether it
runs, because hatchling can switch a hook on by an environment variable but not off (short of
``HATCH_BUILD_NO_HOOKS``, which would switch off every hook). A pure build asks for neither
hatch-mypyc nor mypy, and a compiled build leaves no extension modules in the source tree, so
that tests run from the checkout import the Python source and a later pure build cannot pick
them up.
"""

from __future__ import annotations

import glob
import os
import tempfile
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

#: build-time requirements of the compiled build (the pure build needs none): the compiler, and
#: what mypy needs to type the modules the compiled ones import
COMPILER = ["hatch-mypyc>=0.16", "mypy>=1.10", "pydantic>=2.6", "types-PyYAML", "setuptools>=68"]
#: the native cores: each one's module, and its source
CORES = {
    "bolivia.play.bots._core": "bolivia/play/bots/_core.c",
    "bolivia.play.table._bounds": "bolivia/play/table/_bounds.c",
}
#: build-time requirements of every build: Babel compiles the message catalogs
CATALOGS = ["babel>=2.14"]


def pure() -> bool:
    """``BOLIVIA_PURE`` set to anything but ``""`` or ``0`` builds pure Python."""
    return os.environ.get("BOLIVIA_PURE", "") not in ("", "0")


class MypycUnlessPure(BuildHookInterface):  # type: ignore[type-arg]
    PLUGIN_NAME = "custom"

    def dependencies(self) -> list[str]:
        return [*CATALOGS, *([] if pure() else COMPILER)]

    def _compile_catalogs(self, build_data: dict[str, Any]) -> None:
        """Each language's ``.po`` compiled by Babel into the ``.mo`` the wheel ships beside
        it (a checkout without them reads the ``.po``, compiling it in memory)."""
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po

        out = tempfile.mkdtemp(prefix="bolivia-catalogs-")
        for po in glob.glob(
            os.path.join(self.root, "bolivia", "locale", "*", "LC_MESSAGES", "*.po")
        ):
            code = po.split(os.sep)[-3]
            target = os.path.join(out, code + ".mo")
            with open(po, "rb") as source:
                catalog = read_po(source, locale=code)
            with open(target, "wb") as compiled:
                write_mo(compiled, catalog)
            inside = os.path.relpath(po, self.root)[: -len(".po")] + ".mo"
            build_data["force_include"][target] = inside.replace(os.sep, "/")

    def _build_cores(self, build_data: dict[str, Any]) -> None:
        """The native cores built into a folder of their own and put in the wheel.

        Built without contracting a product and a sum into one fused operation (``-ffp-contract=
        off``; MSVC contracts none by default), so that they add and multiply as Python does.
        """
        from setuptools import Distribution, Extension

        flags = [] if os.name == "nt" else ["-O2", "-ffp-contract=off"]
        exts = [
            Extension(
                module,
                sources=[os.path.join(self.root, *source.split("/"))],
                extra_compile_args=flags,
            )
            for module, source in CORES.items()
        ]
        out = tempfile.mkdtemp(prefix="bolivia-core-")
        build = Distribution({"name": "bolivia-core", "ext_modules": exts}).get_command_obj(
            "build_ext"
        )
        build.build_lib = out
        build.build_temp = os.path.join(out, "temp")
        build.ensure_finalized()
        build.run()
        for path in build.get_outputs():
            inside = os.path.relpath(path, out).replace(os.sep, "/")
            build_data["force_include"][path] = inside

    def _compiled_files(self) -> list[str]:
        """Extension modules in the source tree, left by this build or an earlier one."""
        found: list[str] = []
        for ext in ("so", "pyd"):
            found += glob.glob(os.path.join(self.root, f"*__mypyc*.{ext}"))
            found += glob.glob(os.path.join(self.root, "bolivia", "**", f"*.{ext}"), recursive=True)
        return found

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel":
            return
        self._compile_catalogs(build_data)
        for path in self._compiled_files():  # left by an earlier build: never shipped as data
            os.remove(path)
        if pure():
            return
        from hatch_mypyc.plugin import MypycBuildHook  # type: ignore[import-untyped]

        self._mypyc = MypycBuildHook(
            self.root,
            self.config,
            self.build_config,
            self.metadata,
            self.directory,
            self.target_name,
            self.app,
        )
        self._mypyc.initialize(version, build_data)
        self._build_cores(build_data)

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        if self.target_name == "wheel" and not pure():
            for path in self._compiled_files():
                os.remove(path)
