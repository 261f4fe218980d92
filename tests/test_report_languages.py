"""The comparison report in every shipped language (issue 39), read as a club reads it.

The default comparison and a house ruleset's comparison with its base, rendered in French,
Danish, Chinese and Korean from one comparison: no English sentence and no engine word in the
people layer, the Markdown parses, every link of the contents reaches its heading (anchors are
made from the headings as written in the language), the HTML says its language and fits a
phone and a desktop. A refusal, whose sentence the oracle writes in English, is said by the
rule it names.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bolivia.compare.comparison import Comparison
from bolivia.compare.findings import build
from bolivia.compare.report import render_html, render_markdown, slug
from bolivia.compare.situations import refusal_words
from bolivia.language import LANGUAGES, speaking
from bolivia.language import gettext_ as _
from bolivia.rules.library import Library, shipped_library

from .browser import chromium, pages_too_wide
from .reading import engine_words, markdown_problems, people_html, people_markdown
from .test_languages import _ENGLISH

LIBRARY = shipped_library()
SHIPPED = [code for code in LANGUAGES if code != "en"]
BOLIVIAS = ["bolivia-da", "bolivia-fr", "bolivia-ko", "bolivia-zh"]
APPENDIX = "Appendix: for rules committees and engine developers"


@pytest.fixture(scope="module")
def comparisons(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Comparison]:
    """The shipped Bolivia rulesets, and a club's house rules against their base."""
    folder = tmp_path_factory.mktemp("house")
    (folder / "club.yaml").write_text(
        "id: club\nextends: bolivia-da\ngoing_out: {bonus: 300}\n"
        "provenance:\n  going_out.bonus: {house: '500'}\n",
        encoding="utf-8",
    )
    library = Library([folder])
    return {
        "default": build([LIBRARY.load(r) for r in BOLIVIAS], hands=12, games=2, seed=3),
        "house": build(
            [library.load("bolivia-da"), library.load("club")],
            hands=6,
            games=2,
            bots=("expert", "greedy"),  # the default's search bots are read in every language
        ),
    }


@pytest.fixture(scope="module")
def pages(comparisons: dict[str, Comparison]) -> dict[tuple[str, str], tuple[str, str]]:
    """(comparison, language) -> (Markdown, HTML)."""
    out = {}
    for name, comparison in comparisons.items():
        for code in LANGUAGES:
            with speaking(code):
                out[name, code] = (render_markdown(comparison, {}), render_html(comparison, {}))
    return out


def _people(markdown: str, code: str) -> str:
    with speaking(code):
        return people_markdown(markdown, _(APPENDIX))


@pytest.mark.parametrize("code", SHIPPED)
@pytest.mark.parametrize("name", ["default", "house"])
def test_no_english_sentence_is_left(pages: dict, name: str, code: str) -> None:  # type: ignore[type-arg]
    markdown, html = pages[name, code]
    for text in (_people(markdown, code), people_html(html)):
        lines = [line for line in text.splitlines() if _ENGLISH.search(line)]
        assert lines == [], lines[:5]


@pytest.mark.parametrize("code", LANGUAGES)
@pytest.mark.parametrize("name", ["default", "house"])
def test_the_report_reads_as_a_club_reads_it(pages: dict, name: str, code: str) -> None:  # type: ignore[type-arg]
    markdown, html = pages[name, code]
    assert engine_words(_people(markdown, code), LIBRARY.sources) == []
    assert engine_words(people_html(html), LIBRARY.sources) == []
    assert markdown_problems(markdown) == []
    assert f'<html lang="{code}">' in html
    assert _people(markdown, code) != markdown  # the appendix is found under its heading


@pytest.mark.parametrize("code", LANGUAGES)
def test_every_link_reaches_its_heading(pages: dict, code: str) -> None:  # type: ignore[type-arg]
    """The contents and the witnesses link to anchors the page has: a heading's, made from
    the heading as written in the language, or an explicit one."""
    markdown, _html = pages["default", code]
    anchors = {slug(h) for h in re.findall(r"^#+ (.+)$", markdown, flags=re.M)}
    anchors |= set(re.findall(r'<a id="([^"]+)"></a>', markdown))
    links = set(re.findall(r"\]\(#([^)]+)\)", markdown))
    assert len(links) >= 9 and links - anchors == set()


def test_slug_is_the_anchor_markdown_viewers_make() -> None:
    assert slug("Appendix: for rules committees and engine developers") == (
        "appendix-for-rules-committees-and-engine-developers"
    )
    assert slug("6. Où les sources divergent") == "6-où-les-sources-divergent"
    assert slug("1. 规则集与来源") == "1-规则集与来源"


def test_a_refusal_is_said_by_its_rule_outside_english() -> None:
    ruleset = LIBRARY.load("bolivia-da")
    refusal = {
        "legal": False,
        "reason": "a group may hold at most 2 wild cards, not 3 (bolivia-da, from da:x)",
        "code": "group-too-many-wilds",
        "rule": "melds.group.max_wild",
    }
    with speaking("en"):
        assert refusal_words(refusal, ruleset) == "a group may hold at most 2 wild cards, not 3"
    with speaking("fr"):
        said = refusal_words(refusal, ruleset)
    assert "2" in said and not re.search(r"\bgroup\b", said)
    with speaking("da"):  # no rule named: what the code means
        said = refusal_words({"code": "too-many-copies", "message": "the request names 3C"})
    assert said and "3C" not in said and not _ENGLISH.search(said)


def test_every_language_fits_a_phone_and_a_desktop(pages: dict, tmp_path: Path) -> None:  # type: ignore[type-arg]
    files = []
    for (name, code), (_markdown, html) in pages.items():
        if code != "en":  # English: test_report_reading
            path = tmp_path / f"{name}-{code}.html"
            path.write_text(html, encoding="utf-8")
            files.append(path)
    with chromium() as browser:
        assert pages_too_wide(browser, files) == {}
