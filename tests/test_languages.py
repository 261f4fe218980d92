"""The people layer in every language we ship (issue 39): French, Danish, Chinese, Korean.

The catalogs: every message translated (no English fallback, nothing fuzzy), every
placeholder and claim id kept, the plural rule CLDR's and each count in the right form for 0,
1, 2, 5 and 21; numbers and lists written the language's way. Then every shipped ruleset's
rulebook in every language, read as a club reads it: no English sentence, no engine words,
headings and lists that parse, the page's ``lang`` set; on a phone in
``test_the_rulebooks_fit_a_phone_in_every_language``.
"""

from __future__ import annotations

import functools
import gettext
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po

from bolivia.authoring.details import APPENDIX
from bolivia.authoring.rulebook import render_rulebook
from bolivia.language import LANGUAGES, LOCALE, decimal, join, language, number, speaking
from bolivia.rules.library import shipped_library
from bolivia.rules.phrases import COUNTED, count

from .browser import chromium, pages_too_wide
from .reading import engine_words, people_html
from .test_rulebook_reading import structure_problems

SHIPPED = [code for code in LANGUAGES if code != "en"]
LIBRARY = shipped_library()
IDS = LIBRARY.ids()


@functools.cache
def catalog(code: str) -> Catalog:
    with (LOCALE / code / "LC_MESSAGES" / "bolivia.po").open("rb") as handle:
        return read_po(handle, locale=code)


def _messages(code: str) -> list[tuple[Any, Any, bool]]:
    """Every message of a catalog but its header: (id, string, fuzzy)."""
    return [(m.id, m.string, m.fuzzy) for m in catalog(code) if m.id]


def _texts(value: Any) -> tuple[str, ...]:
    """A message's id or string as its forms (one, or the plural forms)."""
    return tuple(value) if isinstance(value, (tuple, list)) else (value or "",)


# --------------------------------------------------------------------------- the catalogs


def test_the_template_and_the_catalogs_hold_the_same_messages() -> None:
    """The catalogs are up to date with the code (``pybabel extract`` then ``update``)."""
    with (LOCALE / "bolivia.pot").open("rb") as handle:
        template = {m.id for m in read_po(handle) if m.id}
    assert len(template) > 500
    for code in SHIPPED:
        assert {m.id for m in catalog(code) if m.id} == template, code


ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.skipif(not (ROOT / "babel.cfg").exists(), reason="needs the checkout's babel.cfg")
def test_the_template_is_what_the_code_says_now(tmp_path: Path) -> None:
    """A sentence changed or added in the code, a template or a shipped ruleset changes the
    messages: ``pybabel extract`` (as docs/languages.md gives it) finds the template's."""
    fresh = tmp_path / "fresh.pot"
    keywords = ["-k", "N_", "-k", "NP_:1,2", "-k", "gettext_", "-k", "_", "-k", "said"]
    keywords += ["-c", "NOTE:"]
    subprocess.run(
        [sys.executable, "-m", "babel.messages.frontend", "extract", "-F", "babel.cfg",
         *keywords, "--no-wrap", "-o", str(fresh), "."],
        cwd=ROOT, check=True, capture_output=True,
    )  # fmt: skip
    with fresh.open("rb") as handle:
        found = {m.id for m in read_po(handle) if m.id}
    with (ROOT / "bolivia" / "locale" / "bolivia.pot").open("rb") as handle:
        kept = {m.id for m in read_po(handle) if m.id}
    assert sorted(found - kept, key=str) == [], "extract, update and translate (docs/languages.md)"
    assert sorted(kept - found, key=str) == []


@pytest.mark.parametrize("code", SHIPPED)
def test_every_message_is_translated(code: str) -> None:
    missing = [i for i, s, fuzzy in _messages(code) if fuzzy or not all(_texts(s))]
    assert missing == []


_BRACES = re.compile(r"\{[^{}]*\}")
_PERCENT = re.compile(r"%\([a-z_]+\)s")
_CLAIM = re.compile(r"\b[a-z]{2,4}:[a-z0-9][a-z0-9-]+\b")


def _kept(text: str) -> list[str]:
    return sorted({*_BRACES.findall(text), *_PERCENT.findall(text), *_CLAIM.findall(text)})


@pytest.mark.parametrize("code", SHIPPED)
def test_placeholders_and_claim_ids_are_kept(code: str) -> None:
    wrong = []
    for message_id, string, _ in _messages(code):
        ids = _texts(message_id)
        for n, text in enumerate(_texts(string)):
            source = ids[min(n, len(ids) - 1)] if n == 0 else ids[-1]
            if _kept(text) != _kept(source):
                wrong.append((source, text))
    assert wrong == []


# a message of three words or more that reads as its English is English left on the page
# (a word or two may be the language's own: "bonus", "minimum", "points" in French), except
# names: the Portuguese canastas', the games'
_NAMES = re.compile(r"^(?:canastra.*|Bolivia.*|Joker Canasta|Pennies from Heaven)$")


def _left_in_english(message_id: Any, string: Any) -> bool:
    if _texts(string) != _texts(message_id):
        return False
    words = _PERCENT.sub("", _BRACES.sub("", str(message_id)))
    return len(re.findall(r"[A-Za-z]{2,}", words)) >= 3 and not _NAMES.match(words)


@pytest.mark.parametrize("code", SHIPPED)
def test_no_message_is_left_as_its_english(code: str) -> None:
    same = [i for i, string, _ in _messages(code) if _left_in_english(i, string)]
    assert same == []


@pytest.mark.parametrize("code", SHIPPED)
def test_the_plural_rule_is_the_languages(code: str) -> None:
    """The header's rule is CLDR's for the language, and a count takes the form that rule
    gives it, for 0, 1, 2, 5 and 21."""
    rule = get_plural(code)
    assert catalog(code).num_plurals == rule.num_plurals
    assert catalog(code).plural_expr == rule.plural_expr
    index = gettext.c2py(rule.plural_expr)
    for noun, (singular, _) in COUNTED.items():
        forms = catalog(code)[singular]
        assert forms is not None, noun
        for n in (0, 1, 2, 5, 21):
            string = forms.string
            form = string[index(n)] if isinstance(string, tuple) else string
            with speaking(code):
                assert count(n, noun) == str(form).format(n=number(n)), (noun, n)
    assert Locale.parse(code).plural_form(1) == "one" or rule.num_plurals == 1


def test_counts_read_right_for_0_1_2_5_and_21() -> None:
    said = {}
    for code in LANGUAGES:
        with speaking(code):
            said[code] = [count(n, "card") for n in (0, 1, 2, 5, 21)]
    assert said["en"] == ["0 cards", "1 card", "2 cards", "5 cards", "21 cards"]
    fr = said["fr"]  # French counts 0 and 1 in the singular
    assert fr[0].startswith("0 ") and fr[0] == fr[1].replace("1", "0", 1) and fr[2] != fr[0]
    assert fr[4] == fr[2].replace("2", "21", 1)
    da = said["da"]
    assert da[1].startswith("1 ") and da[2] == da[0].replace("0", "2", 1)
    for code in ("zh", "ko"):  # one form: the number changes, nothing else
        assert {
            text.replace(str(n), "N", 1)
            for n, text in zip((0, 1, 2, 5, 21), said[code], strict=True)
        } == {said[code][0].replace("0", "N", 1)}


def test_numbers_and_lists_are_written_the_languages_way() -> None:
    written = {}
    for code in LANGUAGES:
        with speaking(code):
            written[code] = (
                number(15000),
                join(["a", "b", "c"], "or"),
                decimal(1234.56, 1, sign=True),
                decimal(-0.04, 1, sign=True),
            )
    assert written["en"] == ("15,000", "a, b or c", "+1,234.6", "-0.0")
    assert written["da"] == ("15.000", "a, b eller c", "+1.234,6", "-0,0")
    nnbsp = "\N{NARROW NO-BREAK SPACE}"
    assert written["fr"] == (f"15{nnbsp}000", "a, b ou c", f"+1{nnbsp}234,6", "-0,0")
    assert written["zh"][1] == "a、b或c" and written["ko"][1] == "a, b 또는 c"


# --------------------------------------------------------------------------- the rulebooks

# words an English sentence cannot do without, and no other language we ship uses
_ENGLISH = re.compile(
    r"\b(?:the|and|which|with|must|may|when|that|its|their|cards|player|players|each|"
    r"instead|rule|rules|taken|takes|until|below|from)\b"
)


@functools.cache
def rulebook(rid: str, code: str, fmt: str) -> str:
    ruleset = LIBRARY.load(rid)
    return render_rulebook(ruleset, fmt, LIBRARY.sources, code)


def people_layer(rid: str, code: str) -> str:
    """The Markdown up to the appendix, whose heading is translated."""
    with speaking(code):
        heading = re.escape(language(code).gettext(APPENDIX))
    markdown = rulebook(rid, code, "md")
    head, found, _ = re.split(rf"^(## {heading})$", markdown, maxsplit=1, flags=re.M)
    assert found, f"{rid} in {code}: no appendix"
    return head


@pytest.mark.parametrize("code", SHIPPED)
@pytest.mark.parametrize("rid", IDS)
def test_the_rulebook_has_no_english_sentence(rid: str, code: str) -> None:
    for page in (people_layer(rid, code), people_html(rulebook(rid, code, "html"))):
        text = page.replace("Pennies from Heaven", "")  # a game's name, as clubs say it
        english = sorted({m.group() for m in _ENGLISH.finditer(text)})
        lines = [line for line in text.splitlines() if _ENGLISH.search(line)]
        assert english == [], lines[:5]


@pytest.mark.parametrize("code", SHIPPED)
@pytest.mark.parametrize("rid", IDS)
def test_the_rulebook_reads_as_a_club_reads_it(rid: str, code: str) -> None:
    markdown = rulebook(rid, code, "md")
    people = people_layer(rid, code)
    assert engine_words(people, LIBRARY.sources) == []
    assert engine_words(people_html(rulebook(rid, code, "html")), LIBRARY.sources) == []
    assert structure_problems(markdown) == []
    assert people.count("\n## ") >= 10  # every section, each under its heading
    assert f'<html lang="{code}">' in rulebook(rid, code, "html")
    assert "\ue000" not in markdown  # every house mark placed


def test_the_danish_and_french_rulebooks_write_numbers_their_way() -> None:
    """As the page shows them (the Markdown may escape a full stop after digits)."""
    shown = {code: people_html(rulebook("bolivia-da", code, "html")) for code in SHIPPED}
    assert "15.000 point" in shown["da"] and "15,000" not in shown["da"]
    assert "15\N{NARROW NO-BREAK SPACE}000" in shown["fr"]
    assert "15,000" in shown["zh"] and "15,000" in shown["ko"]


@pytest.mark.parametrize("code", SHIPPED)  # an item per language: the workers share them
def test_the_rulebooks_fit_a_phone_in_every_language(tmp_path: Path, code: str) -> None:
    files = []
    for rid in IDS:
        path = tmp_path / f"{rid}-{code}.html"
        path.write_text(rulebook(rid, code, "html"), encoding="utf-8")
        files.append(path)
    with chromium() as browser:
        assert pages_too_wide(browser, files) == {}


def test_a_catalog_compiled_before_its_last_edit_is_not_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A ``.mo`` left in a checkout (``pybabel compile -d`` writes one there) older than its
    ``.po`` would hide the edits: the ``.po`` is read instead; a current one is read."""
    import os

    from babel.messages.mofile import write_mo

    from bolivia import language as module

    folder = tmp_path / "fr" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    source = folder / "bolivia.po"
    source.write_bytes((LOCALE / "fr" / "LC_MESSAGES" / "bolivia.po").read_bytes())
    with source.open("rb") as handle:
        stale = read_po(handle, locale="fr")
    stale["yes"].string = "ancien oui"
    with (folder / "bolivia.mo").open("wb") as handle:
        write_mo(handle, stale)
    monkeypatch.setattr(module, "LOCALE", tmp_path)
    os.utime(folder / "bolivia.mo", (1_000_000, 1_000_000))
    assert module._catalog("fr").gettext("yes") == catalog("fr")["yes"].string
    os.utime(folder / "bolivia.mo", None)
    os.utime(source, (1_000_000, 1_000_000))
    assert module._catalog("fr").gettext("yes") == "ancien oui"


class _Shown:
    """A stand-in for a paired difference, as play_sentence reads one."""

    def __init__(self, figure: Any, bot: str, value: float, shown: bool) -> None:
        self.figure, self.bot, self.shown = figure, bot, shown
        self.interval = type("Estimate", (), {"value": value, "low": value - 1, "high": value + 1})


@pytest.mark.parametrize("code", SHIPPED)
def test_the_reports_play_sentences_read_in_every_language(code: str) -> None:
    """Every figure, larger and smaller, shown under one bot and not the other, and the bots
    disagreeing: whole sentences in the language, numbers its way."""
    from bolivia.compare.paired import DEAL_FIGURES, GAME_FIGURES
    from bolivia.compare.play_text import play_sentence

    said = []
    with speaking(code):
        for figure, _measure in (*DEAL_FIGURES, *GAME_FIGURES):
            for value in (12.25, -12.25):
                figures = [
                    _Shown(figure, "expert", value, True),
                    _Shown(figure, "greedy", 0, False),
                ]
                said.append(play_sentence("bolivia-da", "bolivia-fr", figures))
            disagree = [_Shown(figure, "expert", 3, True), _Shown(figure, "greedy", -3, True)]
            said.append(play_sentence("bolivia-da", "bolivia-fr", disagree))
    for sentence in said:
        assert sentence is not None and "bolivia-da" in sentence and "bolivia-fr" in sentence
        assert not _ENGLISH.search(sentence), sentence
        assert "12.2" not in sentence or code in ("zh", "ko"), sentence  # 12,2 in fr and da
