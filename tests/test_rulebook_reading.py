"""The rulebooks read as a club member reads them (issue 38): words only on the page as it
opens, the engine's words (key paths, claim ids, values as data) in the details layer, the
Markdown's blocks what they mean, and the HTML within a phone's screen.

Every shipped ruleset and every example house ruleset (``rulesets/house/``), in Markdown and
in HTML.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

import pytest
from markdown_it import MarkdownIt
from markdown_it.token import Token

from bolivia.authoring.rulebook import Rulebook
from bolivia.rules.library import shipped_library
from bolivia.rules.resolution import DEFAULT_REASON
from bolivia.rules.tree import leaf_paths

from .browser import chromium, pages_too_wide, too_wide
from .reading import APPENDIX, engine_words, people_html, people_markdown

LIBRARY = shipped_library()
IDS = LIBRARY.ids()  # the shipped rulesets and the example house rulesets
HOUSE_IDS = [rid for rid in IDS if LIBRARY.load(rid).is_house]
SECTIONS = [
    "The pack and the deal",
    "A turn",
    "Melds",
    "The first meld",
    "The discard pile",
    "Red threes",
    "Going out",
    "When the stock runs out",
    "Scoring a hand",
    "The end of the game",
]


@functools.cache
def book(rid: str) -> tuple[Rulebook, str, str]:
    """The rulebook of a ruleset: the book (with what it named), its Markdown and its HTML."""
    ruleset = LIBRARY.load(rid)
    rulebook = Rulebook(ruleset, ruleset.base)
    return rulebook, rulebook.markdown(), rulebook.html()


def people(rid: str, fmt: str) -> str:
    _, markdown, page = book(rid)
    return people_markdown(markdown) if fmt == "md" else people_html(page)


def details_markdown(rid: str) -> str:
    """The Markdown's appendix: from its heading on."""
    markdown = book(rid)[1]
    found = re.search(rf"^## {APPENDIX}\b", markdown, flags=re.M)
    assert found is not None, f"{rid}: no appendix"
    return markdown[found.start() :]


def details_html(rid: str) -> str:
    """What the HTML page holds inside its folded details."""
    return "\n".join(re.findall(r"<details\b.*?</details>", book(rid)[2], flags=re.S))


def test_the_example_house_rulesets_are_among_them() -> None:
    assert set(HOUSE_IDS) >= {"bolivia-da-100", "bolivia-zh-10000"}
    assert {"canasta", "samba", "bolivia-da"} <= set(IDS)


# --------------------------------------------------------------------------- the people layer


@pytest.mark.parametrize("fmt", ["md", "html"])
@pytest.mark.parametrize("rid", IDS)
def test_the_page_as_it_opens_has_no_engine_words(rid: str, fmt: str) -> None:
    text = people(rid, fmt)
    assert "Melds" in text  # the scan reads the book, not an empty page
    assert engine_words(text, LIBRARY.sources) == []


@pytest.mark.parametrize("fmt", ["md", "html"])
@pytest.mark.parametrize("rid", IDS)
def test_the_people_layer_says_a_thing_once(rid: str, fmt: str) -> None:
    """No long sentence twice (an assumption's reason, a default's; a question may stand in
    the changes and again with the rules no source states), no file path, no marker after
    nearly every rule, no default explained as a field's."""
    text = people(rid, fmt)
    sentences = [s.strip(" *>-") for s in re.split(r"(?<=[.!?])\s+|\n", text)]
    long = [s for s in sentences if len(s.split()) >= 12 and not s.endswith("?")]
    assert sorted({s for s in long if long.count(s) > 1}) == []
    assert DEFAULT_REASON not in text
    assert not re.search(r"\brulesets/|\.ya?ml\b", text)
    assert text.count("\N{DAGGER}") <= 1


@pytest.mark.parametrize("rid", IDS)
def test_a_rule_that_does_not_apply_is_left_out_of_the_people_layer(rid: str) -> None:
    text = people(rid, "md")
    assert "do not matter" not in text and "do not apply" not in text


@pytest.mark.parametrize("rid", IDS)
def test_the_concealed_bonus_is_said_right(rid: str) -> None:
    """ "Instead" only where going out concealed earns something else."""
    ruleset = LIBRARY.load(rid)
    same = ruleset.value("going_out.concealed_bonus") == ruleset.value("going_out.bonus")
    said = re.search(r"[Gg]oing out concealed[^.]*\.", people(rid, "md"))
    assert said is not None
    assert ("instead" in said.group()) is not same, said.group()


@pytest.mark.parametrize("lang", ["en", "fr", "da", "zh", "ko"])
def test_red_threes_valued_by_a_table_of_every_count_do_not_also_score_all_value(
    lang: str,
) -> None:
    """A table by count that lists all the pack's red threes gives them their value: the
    rulebook does not also print the value of all of them (1,000 in bolivia-da) beside it, and
    says in its details that the rule does not apply; a table without that count does."""
    from bolivia.authoring.rulebook import render_rulebook
    from bolivia.rules.variants import with_values

    da = LIBRARY.load("bolivia-da")
    for table, says_all in (({"1": 150, "6": 2470}, False), ({"5": 2470}, True)):
        ruleset = with_values(da, {"red_threes.value_by_count": table}, "house")
        text = render_rulebook(ruleset, lang=lang)
        lines = people_markdown(text).splitlines()
        (line,) = [x for x in lines if re.search(_NUMBER % (2, 470), x) and x[0] not in ">-"]
        assert (re.search(_NUMBER % (1, 0), line) is not None) is says_all, line
        moot = "does not apply: the table of red threes by count"
        assert (moot in text) is not says_all


@pytest.mark.parametrize("lang", ["en", "fr", "da", "zh", "ko"])
def test_red_threes_valued_by_a_table_of_every_count_have_no_value_each(lang: str) -> None:
    """A table that gives every count from one to all the pack's red threes leaves nothing to
    the value each (100 in bolivia-da): the rulebook gives the table alone, the value each moot
    in its details; a table of some counts keeps it."""
    from bolivia.authoring.rulebook import render_rulebook
    from bolivia.rules.variants import with_values

    da = LIBRARY.load("bolivia-da")
    every = {str(n): 170 * n for n in range(1, 7)}
    for table, says_each in ((every, False), ({"1": 170, "2": 1020}, True)):
        ruleset = with_values(da, {"red_threes.value_by_count": table}, "h")
        text = render_rulebook(ruleset, lang=lang)
        lines = people_markdown(text).splitlines()
        (line,) = [x for x in lines if re.search(_NUMBER % (1, 20), x) and x[0] not in ">-"]
        assert (re.search(r"(?<![\d,.\u202f\u00a0])100(?!\d)", line) is not None) is says_each
        moot = "does not apply: the table of red threes by count gives every count"
        assert (moot in text) is not says_each


# 2,470 / 1,000 as each language writes them (2.470 escaped in Markdown as 2\.470)
_NUMBER = r"(?<!\d)%d\\?[,.\u202f\u00a0 ]?%03d(?!\d)"


def test_the_seatings_that_change_are_said_briefly() -> None:
    """bolivia-da deals 15 cards to six players, Samba 13: one short sentence, not every
    seating twice."""
    text = people("bolivia-da", "md")
    box = [line for line in text.splitlines() if line.startswith("> -") and "6 players" in line]
    assert len(box) == 1, box
    assert "15" in box[0] and "13" in box[0] and len(box[0].split()) <= 30, box[0]


# --------------------------------------------------------------------------- the Markdown


def _blocks(markdown: str) -> list[Token]:
    return MarkdownIt("commonmark").enable("table").parse(markdown)


_BLOCK_START = re.compile(r"(?:[-*+] |\d+[.)] |#|\|)|\*\*[^*]+\.\*\*")


def structure_problems(markdown: str) -> list[str]:
    """What does not read as the block it means: a list item, heading, table row or run-in
    heading (``**Wild melds.**``) glued into the paragraph before it, and a list, table or
    heading without a blank line before it (Python-Markdown, which writes the HTML, reads one
    only after a blank line)."""
    lines = markdown.splitlines()
    found = []
    for token in _blocks(markdown):
        if token.map is None:
            continue
        at = token.map[0]
        if token.type == "inline":
            found += [
                f"line {at + 1}: glued {line!r}"
                for line in token.content.splitlines()[1:]
                if _BLOCK_START.match(line.lstrip())
            ]
        opens = ("bullet_list_open", "ordered_list_open", "table_open", "heading_open")
        if token.type in opens and at and lines[at - 1].strip(" >") != "":
            found.append(f"line {at + 1}: no blank line before {lines[at]!r}")
    return found


def test_the_structure_check_finds_what_is_glued() -> None:
    text = "Text.\n\n**Sequences.** A sequence.\n**Wild melds.** Wild cards.\nA line.\n- an item\n"
    assert len(structure_problems(text)) == 2
    assert structure_problems(text.replace(".\n**W", ".\n\n**W").replace(".\n- ", ".\n\n- ")) == []


@pytest.mark.parametrize("rid", IDS)
def test_the_markdown_has_its_headings_and_lists(rid: str) -> None:
    markdown = book(rid)[1]
    tokens = _blocks(markdown)
    assert structure_problems(markdown) == []
    headings = [tokens[i + 1].content for i, t in enumerate(tokens) if t.type == "heading_open"]
    h2 = [tokens[i + 1].content for i, t in enumerate(tokens) if t.tag == "h2" and t.nesting == 1]
    assert headings[0] == LIBRARY.load(rid).name
    assert h2[: len(SECTIONS)] == SECTIONS, h2
    assert h2[-1].startswith(APPENDIX), h2
    assert sum(t.type == "bullet_list_open" for t in tokens) >= 2  # the appendix's at least
    assert sum(t.type == "table_open" for t in tokens) >= 4


# --------------------------------------------------------------------------- the details layer


@pytest.mark.parametrize("rid", IDS)
def test_the_details_layer_holds_every_key_path_and_claim(rid: str) -> None:
    rulebook, _, _ = book(rid)
    ruleset = rulebook.ruleset
    assert rulebook.used == set(leaf_paths())
    claims = {c for path in rulebook.used for c in ruleset.provenance[path].claims}
    for name, text in (("md", details_markdown(rid)), ("html", details_html(rid))):
        missing = [
            p
            for p in sorted(rulebook.used)
            if f"<code>{p}</code>" not in text and f"`{p}`" not in text
        ]
        assert missing == [], (name, missing)
        assert [c for c in sorted(claims) if c not in text] == [], name
        assert ruleset.id in text, name


@pytest.mark.parametrize("rid", ["bolivia-da", *HOUSE_IDS])
def test_the_details_layer_keeps_the_file_paths_and_ids(rid: str) -> None:
    ruleset = LIBRARY.load(rid)
    for text in (details_markdown(rid), details_html(rid)):
        assert f"bolivia rulebook {rid}" in text
        if ruleset.extends:
            assert ruleset.extends in text
    if rid == "bolivia-da":  # its notes point to the house rulesets
        assert "rulesets/house/" in details_markdown(rid)


def test_the_html_details_are_closed() -> None:
    page = book("bolivia-da")[2]
    opened = re.findall(r"<details\b[^>]*>", page)
    assert opened and all(tag == '<details class="for-committees">' for tag in opened)
    summaries = re.findall(r"<summary>(.*?)</summary>", page)
    assert summaries and all(
        s.startswith("For rules committees and engine developers: ") for s in summaries
    )


# --------------------------------------------------------------------------- phones


# a table in a box that scrolls sideways fits the screen, but hides its columns
_SCROLLING = (
    '<!DOCTYPE html><meta name="viewport" content="width=device-width">'
    '<table style="display: block; overflow-x: auto"><tr>'
    + "<td>a&nbsp;cell&nbsp;that&nbsp;will&nbsp;not&nbsp;wrap</td>" * 4
    + "</tr></table>"
)


def test_the_html_fits_a_phone_and_a_desktop(tmp_path: Path) -> None:
    """Every rulebook at 400 and 1280 px in Chromium, one browser for all of them: nothing
    wider than the screen, no table hiding columns in a box that scrolls."""
    files = []
    for rid in IDS:
        path = tmp_path / f"rulebook-{rid}.html"
        path.write_text(book(rid)[2], encoding="utf-8")
        files.append(path)
    scrolling = tmp_path / "scrolling.html"
    scrolling.write_text(_SCROLLING, encoding="utf-8")
    with chromium() as browser:
        assert too_wide(browser, scrolling, 400)  # the check sees a table that scrolls
        assert pages_too_wide(browser, files) == {}


@pytest.mark.parametrize("lang", ["en", "fr", "da", "zh", "ko"])
def test_the_html_rulebooks_headings_have_ids_of_their_own(lang: str) -> None:
    """Every heading's id is its own, in every script (Chinese and Korean headings once all
    got "_1")."""
    from bolivia.authoring.rulebook import render_rulebook

    page = render_rulebook(LIBRARY.load("bolivia-ko"), "html", lang=lang)
    ids = re.findall(r'<h[1-6] id="([^"]*)"', page)
    assert len(ids) > 10 and len(ids) == len(set(ids)), ids
    assert not any(re.fullmatch(r"_\d+", i) for i in ids), ids
