"""The sweep on the terminal: a few measures for every value, within 100 columns.

Each row is a combination in words, the base marked. Each cell holds the value with its 95%
interval and, under it, the difference from the ruleset as it is. Words are wrapped to fit;
numbers are never cut. A measure that does not fit beside the others is left to the report,
and the table says so.
"""

from __future__ import annotations

import re
import textwrap
from typing import Any

from tabulate import tabulate

from bolivia.sweeps.report import rows_header, tables
from bolivia.sweeps.words import AS_IT_IS

__all__ = ["SHOWN", "WIDTH", "terminal_table"]

WIDTH = 100  # columns
SHOWN = ("went_out", "turns", "hands_per_game", "wins_1")  # the measures, the first three found
_GAP = 2  # columns between two of tabulate's "simple" columns
_LEAST = 18  # the narrowest the column of words is made


def _wrap(text: str, width: int) -> list[str]:
    """Words wrapped to ``width``, a number kept with the word before it (``side 1``)."""
    kept = re.sub(r" (?=\d)", "\u00a0", text)  # textwrap breaks at ASCII spaces only
    return [line.replace("\u00a0", " ") for line in textwrap.wrap(kept, width)]


def _fill(text: str, width: int) -> str:
    return "\n".join(_wrap(text, width))


def _cells(t: dict[str, Any]) -> list[str]:
    """A measure's cells: the value, and under it the difference from the base."""
    return [
        row["value"] + (f"\n{row['difference']}" if row["difference"] else "") for row in t["rows"]
    ]


def _width(lines: list[str]) -> int:
    return max(len(line) for text in lines for line in text.split("\n"))


def _column(t: dict[str, Any]) -> int:
    """A measure's column width: its numbers', widened until its head takes two lines at
    most (tabulate adds 2 to a head's longest line)."""
    width = _width(_cells(t))
    while len(_wrap(t["label"], width - _GAP)) > 2:
        width += 1
    return width


def _fitting(shown: list[dict[str, Any]], width: int) -> list[dict[str, Any]]:
    """As many of the measures as fit beside the column of words."""
    out: list[dict[str, Any]] = []
    used = _LEAST
    for t in shown:
        need = _GAP + _column(t)
        if used + need > width:
            break
        out.append(t)
        used += need
    return out


def terminal_table(data: dict[str, Any], width: int = WIDTH) -> str:
    """The first measures for every combination, within ``width`` columns."""
    found = {t["name"]: t for t in tables(data)}
    wanted = [found[name] for name in SHOWN if name in found][:3]
    shown = _fitting(wanted, width)
    columns = [_cells(t) for t in shown]
    widths = [_column(t) for t in shown]
    left = width - sum(w + _GAP for w in widths)
    words = max(_LEAST, min(left, 40))
    # tabulate widens a column to its head's longest line and 2 more (its MIN_PADDING)
    heads = [_fill(rows_header(data), words - _GAP)] + [
        _fill(t["label"], w - _GAP) for t, w in zip(shown, widths, strict=True)
    ]
    rows = [
        [_fill(row["label"], words), *[cells[i] for cells in columns]]
        for i, row in enumerate(shown[0]["rows"] if shown else [])
    ]
    table = tabulate(rows, headers=heads, tablefmt="simple", disable_numparse=True)
    return _spaced(table, heads, rows) + "\n\n" + _note(wanted, shown, width)


def _height(cells: list[str]) -> int:
    return max(cell.count("\n") + 1 for cell in cells)


def _spaced(table: str, heads: list[str], rows: list[list[str]]) -> str:
    """The table with a blank line between two combinations, no spaces at line ends."""
    lines = [line.rstrip() for line in table.splitlines()]
    at = _height(heads) + 1  # the head and its rule
    out = lines[:at]
    for i, row in enumerate(rows):
        out += [""] if i else []
        out += lines[at : at + _height(row)]
        at += _height(row)
    return "\n".join(out)


def _note(wanted: list[dict[str, Any]], shown: list[dict[str, Any]], width: int) -> str:
    """What the second line of a cell is, and the measures left to the report."""
    note = (
        f"Under each figure: its difference from {AS_IT_IS} [95% interval]; * where it holds "
        "after Holm's correction."
    )
    left_out = [t["label"] for t in wanted if t not in shown]
    if left_out:
        note += " Not shown here (too wide): " + "; ".join(left_out) + "."
    return textwrap.fill(note, width)
