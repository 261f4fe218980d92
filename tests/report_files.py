"""Written outputs against the committed ones: every file byte for byte, except that a plot
(an SVG file, or an SVG inline in a page) is compared by what it plots, the JSON
:func:`bolivia.compare.report.plotted` writes into its description, so that another matplotlib,
drawing the same data otherwise, changes nothing. CI's main job and the tests use it alike:

    python -c "from tests.report_files import main; main()" COMMITTED WRITTEN
"""

from __future__ import annotations

import html
import re
import sys
from pathlib import Path

_SVG = re.compile(r"<svg\b.*?</svg>", re.DOTALL)
_DESCRIPTION = re.compile(r"<dc:description>(.*?)</dc:description>", re.DOTALL)
NOT_WRITTEN = {"README.md"}  # reports/README.md says what the folder holds; compare keeps it


def as_data(text: str) -> str:
    """The text with every SVG replaced by what it plots; one that says nothing is kept whole,
    so that it is compared byte for byte."""

    def data(svg: re.Match[str]) -> str:
        found = _DESCRIPTION.search(svg.group())
        return f"<svg plotting {html.unescape(found.group(1))}>" if found else svg.group()

    return _SVG.sub(data, text)


def stale(committed: Path, written: Path) -> list[str]:
    """The files that differ: written and not committed, committed and not written, or
    different (bytes; plots by their data)."""
    ours = {p.relative_to(written) for p in written.rglob("*") if p.is_file()}
    theirs = {p.relative_to(committed) for p in committed.rglob("*") if p.is_file()}
    out = [f"{rel}: not committed" for rel in sorted(ours - theirs)]
    out += [
        f"{rel}: not written" for rel in sorted(theirs - ours) if rel.as_posix() not in NOT_WRITTEN
    ]
    for rel in sorted(ours & theirs):
        new, old = (written / rel).read_bytes(), (committed / rel).read_bytes()
        plots = rel.suffix in (".svg", ".html")
        if new == old or (plots and as_data(new.decode()) == as_data(old.decode())):
            continue
        out.append(f"{rel}: differs")
    return out


def main() -> None:
    committed, written = map(Path, sys.argv[1:3])
    found = stale(committed, written)
    for line in found:
        print(line)
    sys.exit(1 if found else 0)
