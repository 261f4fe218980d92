"""The sweep report and ``bolivia show`` in every shipped language (issue 39).

A sweep of hands varying two rules and a sweep of games, run with ``--lang``: the page as it
opens has no English sentence and no engine word, the Markdown parses, the HTML says its
language and fits a phone and a desktop, and the JSON is the same bytes in every language (its
words are data, in English). ``show --lang`` writes its comments' prose in the language and the
same YAML values.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from bolivia.cli import cli
from bolivia.language import LANGUAGES, language
from bolivia.rules.sources import shipped_sources

from .browser import chromium, pages_too_wide
from .reading import engine_words, markdown_problems, people_html, people_markdown
from .test_languages import _ENGLISH

SHIPPED = [code for code in LANGUAGES if code != "en"]
SWEEPS = {
    "hands": ["--hands", "4", "--bots", "random", "--vary", "going_out.bonus=100,300",
              "--vary", "melds.group.max_wild=1,3"],
    "games": ["--games", "1", "--vary", "game.target=5000"],
}  # fmt: skip
APPENDIX = "Appendix: for rules committees and engine developers"


def _run(args: list[str]) -> str:
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.stderr
    return result.stdout


@pytest.fixture(scope="module")
def sweeps(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str], Path]:
    """(sweep, language) -> the report's folder."""
    root = tmp_path_factory.mktemp("sweeps")
    out = {}
    for name, args in SWEEPS.items():
        for code in LANGUAGES:
            folder = root / f"{name}-{code}"
            _run(["sweep", "bolivia-da", *args, "--workers", "1", "--lang", code,
                  "--store", str(root / "s.sqlite"), "--out", str(folder)])  # fmt: skip
            out[name, code] = folder
    return out


@pytest.mark.parametrize("code", SHIPPED)
@pytest.mark.parametrize("name", list(SWEEPS))
def test_the_sweep_reads_in_the_language(sweeps: dict, name: str, code: str) -> None:  # type: ignore[type-arg]
    folder = sweeps[name, code]
    markdown = (folder / "sweep.md").read_text(encoding="utf-8")
    html = (folder / "sweep.html").read_text(encoding="utf-8")
    people = people_markdown(markdown, language(code).gettext(APPENDIX))
    assert people != markdown  # the appendix found under its translated heading
    for text in (people, people_html(html)):
        lines = [line for line in text.splitlines() if _ENGLISH.search(line)]
        assert lines == [], lines[:5]
        assert engine_words(text, shipped_sources()) == []
    assert markdown_problems(markdown) == []
    assert f'<html lang="{code}">' in html


@pytest.mark.parametrize("name", list(SWEEPS))
def test_the_json_is_the_same_in_every_language(sweeps: dict, name: str) -> None:  # type: ignore[type-arg]
    texts = {(sweeps[name, code] / "sweep.json").read_bytes() for code in LANGUAGES}
    assert len(texts) == 1


def test_every_sweep_page_fits_a_phone_and_a_desktop(sweeps: dict) -> None:  # type: ignore[type-arg]
    pages = [folder / "sweep.html" for (_, code), folder in sweeps.items() if code != "en"]
    with chromium() as browser:
        assert pages_too_wide(browser, pages) == {}


@pytest.mark.parametrize("code", SHIPPED)
def test_show_writes_its_prose_in_the_language(code: str) -> None:
    english = _run(["show", "bolivia-fr"])
    shown = _run(["show", "bolivia-fr", "--lang", code])
    assert yaml.safe_load(shown) == yaml.safe_load(english)  # the same values
    comments = [line.split("#", 1)[1] for line in shown.splitlines() if line.startswith("#")]
    # the first three: what the ruleset is, its counts, what follows a value (the fourth quotes
    # the trailer's own words, "(from X via C)", which stay as the files write them)
    assert comments and not any(_ENGLISH.search(line) for line in comments[:3]), comments[:3]
    assert shown.count("# assumed") < english.count("# assumed")  # the reasons' label too
