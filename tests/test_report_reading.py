"""The comparison report read as a person reads it (issue 38).

The committed report (kept current by ``test_report.py``) and a house ruleset's comparison with
its base: on the page as it opens, no key path, claim id, card code or YAML; the Markdown parses
to the lists and tables it means; in Chromium at 400 and 1280 px no table or figure is wider
than the screen; and what the people layer leaves out is in the details layer.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bolivia.compare.findings import build
from bolivia.compare.report import render_html, render_markdown
from bolivia.rules.library import Library, shipped_library
from bolivia.rules.tree import leaf_paths

from .browser import WIDTHS, chromium, too_wide
from .reading import engine_words, markdown_problems, people_html, people_markdown

REPORTS = Path(__file__).resolve().parent.parent / "reports"
LIBRARY = shipped_library()


@pytest.fixture(scope="module")
def house(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """A club's house rules compared with their base: Markdown and HTML."""
    folder = tmp_path_factory.mktemp("house")
    (folder / "club.yaml").write_text(
        "id: club\nextends: bolivia-da\ngoing_out: {bonus: 300}\n"
        "melds.group.max_wild: 3\n"
        "provenance:\n  extends: {house: our club}\n"
        "  going_out.bonus: {house: we pay more for going out}\n"
        "  melds.group.max_wild: {house: three wild cards in a group}\n",
        encoding="utf-8",
    )
    library = Library([folder])
    comparison = build([library.load("bolivia-da"), library.load("club")], hands=6, games=2)
    html = folder / "club.html"
    html.write_text(render_html(comparison, {}), encoding="utf-8")
    return {"md": render_markdown(comparison, {}), "html": str(html)}


def _pages(house: dict[str, str]) -> list[tuple[str, str, str]]:
    """(name, kind, text) of every page checked."""
    return [
        ("comparison.md", "md", (REPORTS / "comparison.md").read_text(encoding="utf-8")),
        ("comparison.html", "html", (REPORTS / "comparison.html").read_text(encoding="utf-8")),
        ("club.md", "md", house["md"]),
        ("club.html", "html", Path(house["html"]).read_text(encoding="utf-8")),
    ]


def test_the_people_layer_holds_no_engine_words(house: dict[str, str]) -> None:
    for name, kind, text in _pages(house):
        people = people_markdown(text) if kind == "md" else people_html(text)
        found = engine_words(people, LIBRARY.sources)
        assert not found, f"{name}: {len(found)} engine words, first {found[:8]}"


def test_the_scan_finds_what_it_looks_for() -> None:
    """The scan is not blind: each kind it names, written in a page, is found."""
    text = (
        "canastas.escalera.bonus; da:escalera-canasta; the request names 3C; "
        "{rule: canastas, count: 2}; the the pile; any other †.The top card"
    )
    kinds = {found.split(":")[0] for found in engine_words(text, LIBRARY.sources)}
    assert kinds == {"key path", "claim id", "card code", "YAML", "doubled word", "glued sentences"}
    assert engine_words("plots/canastas.svg, joker joker, 10♥ 10♥", LIBRARY.sources) == []


def test_the_markdown_parses_to_what_it_means(house: dict[str, str]) -> None:
    for name, kind, text in _pages(house):
        if kind == "md":
            assert markdown_problems(text) == [], name
    assert markdown_problems("a paragraph\n2. glued\n")  # the check reads what it should


def test_the_details_layer_keeps_every_key_path_and_claim(house: dict[str, str]) -> None:
    """Every differing rule's key path and every claim id the page cites are still there, in
    the appendix (Markdown) or a folded <details> (HTML)."""
    markdown = (REPORTS / "comparison.md").read_text(encoding="utf-8")
    appendix = markdown.split("## Appendix", 1)[1]
    html = (REPORTS / "comparison.html").read_text(encoding="utf-8")
    folded = "".join(re.findall(r"<details class=\"for-committees\">.*?</details>", html, re.S))
    assert '<details class="for-committees" open' not in html
    paths = set(leaf_paths())
    for details in (appendix, folded):
        named = set(re.findall(r"\b[a-z_]+(?:\.[a-z_0-9]+)+\b", details)) & paths
        assert len(named) == len(paths), sorted(paths - named)[:5]
        claims = set(re.findall(r"\b(?:da|fr|ko|zh|ref):[a-z0-9-]+", details))
        assert "da:escalera-canasta" in claims and "fr:bonuses" in claims


def test_every_page_fits_a_phone_and_a_desktop(house: dict[str, str]) -> None:
    pages = [REPORTS / "comparison.html", Path(house["html"])]
    with chromium() as browser:
        for page in pages:
            for width in WIDTHS:
                found = too_wide(browser, page, width)
                assert not found, f"{page.name} at {width} px: {found[:6]}"
