"""The sweep report as a club member reads it (issue 38): words only on the page as it opens
(key paths, values as written and ruleset ids in the details layer), Markdown that parses to
the lists and tables it means, a page that fits a phone's screen and a desktop's in a real
browser, a terminal table within 100 columns, and derived ids that are short and unique."""

from __future__ import annotations

import itertools
import json
import os
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from markdown_it import MarkdownIt

from bolivia.cli import cli
from bolivia.rules.library import Library, shipped_library
from bolivia.rules.ruleset import ID_PATTERN
from bolivia.rules.sources import shipped_sources
from bolivia.sweeps.grid import Axis, derive_variants, derived_id, parse_axis
from bolivia.sweeps.report import difference_cell, value_cell
from bolivia.sweeps.summary import WIDTH, terminal_table
from tests.browser import WIDTHS, chromium, too_wide
from tests.reading import engine_words, people_html, people_markdown

BASE = shipped_library().load("bolivia-da")
REQUIREMENT = "going_out.requirement={rule: canastas, count: 2},{rule: canastas, count: 1}"
SWEEPS = {
    "requirement": [REQUIREMENT],
    "bonus": ["going_out.bonus=100,300"],
    "two-rules": ["going_out.bonus=100,300", "melds.group.max_wild=1,3"],
}


def _sweep(store: Path, out: Path, vary: list[str]) -> str:
    args = ["sweep", "bolivia-da", "--hands", "4", "--bots", "random"]
    args += [part for text in vary for part in ("--vary", text)]
    args += ["--workers", "1", "--store", str(store), "--out", str(out)]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.stderr
    return result.stdout


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, str]]:
    """Each sweep's report folder and what it printed."""
    root = tmp_path_factory.mktemp("sweeps")
    return {
        name: (root / name, _sweep(root / "s.sqlite", root / name, vary))
        for name, vary in SWEEPS.items()
    }


@pytest.mark.parametrize("name", list(SWEEPS))
def test_the_page_as_it_opens_is_words_only(
    reports: dict[str, tuple[Path, str]], name: str
) -> None:
    out, _ = reports[name]
    sources = shipped_sources()
    html = (out / "sweep.html").read_text()
    markdown = (out / "sweep.md").read_text()
    assert engine_words(people_html(html), sources) == []
    assert engine_words(people_markdown(markdown), sources) == []
    # what went to the details layer is there, and the page says the rules in words
    data = json.loads((out / "sweep.json").read_text())
    for axis in data["axes"]:
        assert axis["field"] in html and axis["field"] in markdown.split("## Appendix")[1]
        assert axis["field"] not in people_html(html)
    for c in data["combinations"]:
        assert c["label"] in people_html(html)
        assert c["ruleset"] not in people_html(html) or c["base"]


def test_the_requirement_reads_as_a_player_says_it(
    reports: dict[str, tuple[Path, str]],
) -> None:
    out, printed = reports["requirement"]
    page = people_html((out / "sweep.html").read_text())
    assert "2 canastas, 1 of them an escalera (as the ruleset has it)" in page
    assert "What going out needs" in page
    lines = printed.splitlines()
    dashes = next(line for line in lines if line.startswith("---"))
    width = dashes.index(" ")
    column = " ".join(line[:width] for line in lines[lines.index(dashes) + 1 :]).split()
    assert "2 canastas, 1 of them an escalera (as the ruleset has it)" in " ".join(column)
    assert "{rule" not in printed and "going_out" not in printed


def _tokens(markdown: str) -> list[Any]:
    return MarkdownIt("commonmark").enable("table").parse(markdown)


def test_the_markdown_parses_to_its_lists_and_tables(
    reports: dict[str, tuple[Path, str]],
) -> None:
    out, _ = reports["requirement"]
    data = json.loads((out / "sweep.json").read_text())
    tokens = _tokens((out / "sweep.md").read_text())
    items = [
        tokens[i + 2].content
        for i, t in enumerate(tokens)
        if t.type == "list_item_open" and tokens[i + 2].type == "inline"
    ]
    # the values in words, each its own item (the base marked), then the fields as written
    assert items[:3] == [
        "2 canastas, 1 of them an escalera (as the ruleset has it)",
        "2 canastas",
        "1 canasta",
    ]
    assert items[3].startswith("`going_out.requirement`")
    tables = sum(t.type == "table_open" for t in tokens)
    assert tables == len(data["measures"]) + 1  # one a measure, one in the appendix
    rows = sum(t.type == "tr_open" for t in tokens)
    assert rows == tables * (1 + len(data["combinations"]))
    images = [
        t for t in tokens if t.type == "inline" and any(c.type == "image" for c in t.children or [])
    ]
    assert len(images) == len(data["measures"])
    assert not [t.content for t in tokens if t.type == "inline" and "\n- " in t.content]


def test_the_page_fits_a_phone_and_a_desktop(reports: dict[str, tuple[Path, str]]) -> None:
    with chromium() as browser:
        found = {
            (name, width): too_wide(browser, out / "sweep.html", width, f"sweep-{name}")
            for (name, (out, _)), width in itertools.product(reports.items(), WIDTHS)
        }
    assert {key: wide for key, wide in found.items() if wide} == {}


def test_every_figure_has_the_same_size_and_one_measure(
    reports: dict[str, tuple[Path, str]],
) -> None:
    out, _ = reports["two-rules"]
    data = json.loads((out / "sweep.json").read_text())
    sizes = set()
    for m in data["measures"]:
        svg = (out / "plots" / f"{m['name']}.svg").read_text()
        size = re.search(r'<svg[^>]* width="([\d.]+)pt" height="([\d.]+)pt"', svg)
        assert size is not None
        sizes.add(size.groups())
        assert re.findall(r'id="axes_\d+"', svg) == ['id="axes_1"']
        assert m["label"][1:] in svg  # its title, in words
        # the other rule's values name the lines, in words
        assert "wild cards in a group: at most 1 wild card" in svg
    assert len(sizes) == 1


@pytest.mark.parametrize("name", list(SWEEPS))
def test_the_terminal_table_is_within_100_columns(
    reports: dict[str, tuple[Path, str]], name: str
) -> None:
    out, printed = reports[name]
    assert printed.strip()
    assert max(len(line) for line in printed.splitlines()) <= WIDTH
    data = json.loads((out / "sweep.json").read_text())
    # every number of the shown measures whole on its line: values and differences
    lines = printed.splitlines()
    for m in (m for m in data["measures"] if m["name"] in ("went_out", "turns", "wins_1")):
        for c in data["combinations"]:
            e = c["measures"][m["name"]]
            assert any(value_cell(e, m) in line for line in lines)
            if not c["base"]:
                assert any(difference_cell(e["difference"], m) in line for line in lines)
    # a blank line between two combinations, one before the note
    table = printed.split("\n\nUnder each figure")[0]
    assert table.count("\n\n") == len(data["combinations"]) - 1


def test_a_narrow_table_leaves_measures_to_the_report_and_says_so(
    reports: dict[str, tuple[Path, str]],
) -> None:
    out, _ = reports["requirement"]
    data = json.loads((out / "sweep.json").read_text())
    text = terminal_table(data, width=60)
    assert max(len(line) for line in text.splitlines()) <= 60
    assert "Not shown here (too wide)" in text


def test_derived_ids_are_short_unique_and_stable(tmp_path: Path) -> None:
    axes = [
        parse_axis(REQUIREMENT + ",{rule: canastas, count: 3}", BASE),
        parse_axis("going_out.bonus=0..400/100", BASE),
        parse_axis("canastas.escalera.bonus=1000,2000", BASE),
    ]
    grids = [axes[:1], axes[1:2], axes[:2], axes[1:], axes]
    for grid in grids:
        combos = list(itertools.product(*(a.values for a in grid)))
        ids = [derived_id(BASE.id, grid, combo) for combo in combos]
        assert len(set(ids)) == len(ids)
        assert all(re.fullmatch(ID_PATTERN, i) for i in ids)
        assert ids == [derived_id(BASE.id, grid, combo) for combo in combos]
    one = [derived_id(BASE.id, axes[1:2], (v,)) for v in axes[1].values]
    assert one == [f"bolivia-da.bonus-{v}" for v in axes[1].values]
    for grid, most in ((axes[:1], 36), (axes[:2], 56)):
        variants = derive_variants(BASE, "bolivia-da", grid, tmp_path, Library())
        assert max(len(v.ruleset.id) for v in variants) <= most
        assert len({v.ruleset.id for v in variants}) == len(variants)


def test_two_axes_that_end_alike_are_told_apart() -> None:
    grid = [
        Axis("going_out.bonus", (100,), 100, ""),
        Axis("canastas.escalera.bonus", (1000,), 1000, ""),
    ]
    assert derived_id("bolivia-da", grid, (100, 1000)) == (
        "bolivia-da.going-out-bonus-100.escalera-bonus-1000"
    )


def test_two_values_that_read_alike_get_ids_of_their_own(tmp_path: Path) -> None:
    """Two spellings of one requirement make the same words in an id: the second is named
    by a stable hash of its values instead, and both are kept."""
    axis = parse_axis(
        "going_out.requirement={rule: canastas, count: 1},"
        "{rule: canastas, count: 1, including: {}}",
        BASE,
    )
    ids = [v.ruleset.id for v in derive_variants(BASE, "bolivia-da", [axis], tmp_path, Library())]
    assert ids[1] == "bolivia-da.requirement-canastas-1"
    assert re.fullmatch(r"bolivia-da\.sweep-[0-9a-f]{12}", ids[2])
    assert len(set(ids)) == 3


README = Path(__file__).resolve().parent.parent / "README.md"
README_SWEEP = Path(__file__).resolve().parent / "data" / "sweep-readme.json"
REGENERATE = os.environ.get("BOLIVIA_REGENERATE") == "1"


def test_the_readme_shows_what_the_command_prints() -> None:
    """The README's table is the command's output for the sweep it shows; the sweep's JSON
    (tests/data/sweep-readme.json, from that command) is rendered again here.
    ``BOLIVIA_REGENERATE=1`` writes the table into the README."""
    data = json.loads(README_SWEEP.read_text())
    assert data["axes"][0]["field"] == "going_out.requirement" and data["deals"] == 300
    assert data["bots"] == ["greedy"] * 4
    text = README.read_text()
    section = text.index("### Rule sweeps")
    start = text.index("```text\n", section) + len("```text\n")
    end = text.index("\n```", start)
    printed = terminal_table(data)
    if REGENERATE:
        README.write_text(text[:start] + printed + text[end:])
        return
    assert text[start:end] == printed
