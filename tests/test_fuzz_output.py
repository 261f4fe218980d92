"""Fuzzing what the toolkit writes: any text as a ruleset's name, notes, a house reason or a
canasta's name comes out of the Markdown, the HTML and the terminal as the same characters,
never as a live link, a script, markup or a raw control character.

The escaping functions run the profile's number of examples; the end-to-end tests (a whole
rulebook, a whole report, a command) a fraction of it, so ``ci`` stays fast and
``HYPOTHESIS_PROFILE=thorough`` runs twenty times more of each (2,000 examples of
the escapes, 100 rulebooks and reports, 40 runs of the commands).
"""

from __future__ import annotations

import dataclasses
import html
import json
import re
import tempfile
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import markdown as markdown_lib
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from markupsafe import escape

from bolivia.authoring.rulebook import Rulebook
from bolivia.cli import cli
from bolivia.compare.findings import Comparison, build
from bolivia.compare.report import render_html, render_markdown
from bolivia.rules.library import Library, LibrarySpec
from bolivia.rules.ruleset import Ruleset
from bolivia.text import SAFE_TAGS, code, json_for_terminal, md, safe_html, terminal, yaml_text
from bolivia.verify.oracle import Oracle

from .strategies import hostile_texts

# what no output may hold raw: C0 controls but newline and tab, DEL, C1, bidi controls
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
UNSAFE_URL = re.compile(r"(?i)^\s*(javascript|data|vbscript):")


def _fraction(divisor: int) -> settings:
    """A fraction of the profile's examples, for tests that render a whole document."""
    return settings(
        max_examples=max(2, settings.default.max_examples // divisor),
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow],
    )


class _Tags(HTMLParser):
    """Every tag of an HTML text, its attributes, and its text."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str]]] = []
        self.text: list[str] = []
        self.feed(text)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, {name: value or "" for name, value in attrs}))

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def _words(text: str) -> str:
    return " ".join(text.split())


def _shown(text: str) -> str:
    """How a text should read once escaped and rendered: visible, on one line."""
    return _words(re.sub("[\n\u2028\u2029]", " ", terminal(text, lines=True)))


def _no_live_link(page: str, *, own: tuple[str, ...] = ("#",)) -> list[tuple[str, dict[str, str]]]:
    """Check a page: no script, no event handler, no unsafe URL, links only to its own parts."""
    tags = _Tags(page).tags
    for tag, attrs in tags:
        assert tag != "script", page
        for name, value in attrs.items():
            assert not name.startswith("on"), (tag, attrs)
            assert not UNSAFE_URL.match(value), (tag, attrs)
            if name in ("href", "src"):
                assert value.startswith(own), (tag, attrs)
    assert not RAW.search(page), RAW.findall(page)
    return tags


# --------------------------------------------------------------------------- the escapes


@given(hostile_texts(max_size=300))
def test_terminal_and_json_for_terminal_leave_no_raw_control(text: str) -> None:
    shown = terminal(text)
    assert not RAW.search(shown) and "\n" not in shown and "\t" not in shown  # one line
    assert terminal(shown) == shown  # escaping twice changes nothing
    lines = terminal(text, lines=True)
    assert not RAW.search(lines)
    assert lines.count("\n") == text.count("\n") and lines.count("\t") == text.count("\t")
    data = json_for_terminal({"name": text})
    assert not RAW.search(data)
    assert json.loads(data) == {"name": text}  # the same data, only written safely


@given(hostile_texts(max_size=300))
def test_md_reads_back_as_the_text_and_never_as_markup(text: str) -> None:
    escaped = md(text)
    assert "\n" not in escaped and not RAW.search(escaped)
    # nothing GFM would link by itself: bare URLs, www. names, e-mail addresses
    assert "://" not in escaped and "@" not in escaped
    assert not re.search(r"(?i)www\.", escaped)
    rendered = markdown_lib.markdown(escaped, extensions=["tables", "toc"])
    parsed = _Tags(rendered)
    assert {tag for tag, _ in parsed.tags} <= {"p"}, rendered
    assert all(not attrs for _, attrs in parsed.tags), rendered
    assert _words("".join(parsed.text)) == _shown(text)


@given(hostile_texts(max_size=120))
def test_md_and_code_keep_a_table_cell_whole(text: str) -> None:
    for filtered, read_back in ((md, True), (code, False)):
        table = f"| a | b | c |\n|---|---|---|\n| x | {filtered(text)} | y |\n"
        rendered = markdown_lib.markdown(table, extensions=["tables"])
        cells = re.findall(r"<td>(.*?)</td>", rendered, re.S)
        assert len(cells) == 3 and cells[0] == "x" and cells[2] == "y", rendered
        tags = {tag for tag, _ in _Tags(cells[1]).tags}
        assert tags <= ({"p"} if read_back else {"code"}), rendered
        if read_back:
            assert _words(html.unescape(cells[1])) == _shown(text)


@given(hostile_texts(max_size=300))
def test_safe_html_keeps_only_plain_markup(text: str) -> None:
    for fragment in (text, markdown_lib.markdown(text, extensions=["tables", "toc"])):
        page = str(safe_html(fragment))
        for tag, attrs in _no_live_link(page, own=()):
            assert tag in SAFE_TAGS and set(attrs) <= {"id"}, (tag, attrs)


# --------------------------------------------------------------------------- whole outputs


@pytest.fixture(scope="module")
def house(tmp_path_factory: pytest.TempPathFactory) -> Ruleset:
    """A house ruleset that changes a canasta's name and a bonus, each with a reason."""
    folder = tmp_path_factory.mktemp("house")
    (folder / "house.yaml").write_text(
        "id: house\nextends: bolivia-da\nname: House\nnotes: Notes.\n"
        "canastas: {natural: {name: pure}}\ngoing_out: {bonus: 150}\n"
        "provenance:\n  extends: {house: ours}\n  canastas.natural.name: {house: why}\n"
        "  going_out.bonus: {house: why}\n",
        encoding="utf-8",
    )
    return Library([folder]).load(folder / "house.yaml")


def _hostile(ruleset: Ruleset, name: str, notes: str, reason: str, canasta: str) -> Ruleset:
    """The ruleset with the texts put where its author writes them."""
    rules = ruleset.rules
    natural = rules.canastas.natural.model_copy(update={"name": canasta})
    canastas = rules.canastas.model_copy(update={"natural": natural})
    provenance = dict(ruleset.provenance)
    for path in ("going_out.bonus", "canastas.natural.name"):
        provenance[path] = dataclasses.replace(provenance[path], reason=reason)
    return dataclasses.replace(
        ruleset,
        name=name,
        notes=notes,
        rules=rules.model_copy(update={"canastas": canastas}),
        provenance=provenance,
    )


texts = {
    "name": hostile_texts(max_size=200, min_size=1),
    "notes": hostile_texts(max_size=400),
    "reason": hostile_texts(max_size=200, min_size=1),
    "canasta": hostile_texts(max_size=40, min_size=1),
}


@_fraction(20)
@given(**texts)
def test_the_rulebook_of_any_text(
    house: Ruleset, name: str, notes: str, reason: str, canasta: str
) -> None:
    ruleset = _hostile(house, name, notes, reason, canasta)
    book = Rulebook(ruleset, ruleset.base)
    text = book.markdown()
    assert not RAW.search(text)
    rendered = markdown_lib.markdown(text, extensions=["tables", "toc"])
    tags = _no_live_link(rendered, own=())
    assert not {tag for tag, _ in tags} - SAFE_TAGS, rendered
    assert [tag for tag, _ in tags].count("h1") == 1  # the title; notes make no heading
    page = book.html()
    tags = _no_live_link(page, own=())
    assert not {"a", "img", "iframe", "object", "form"} & {tag for tag, _ in tags}
    assert str(escape(terminal(name, lines=True))) in page  # the name, escaped, in the title


@pytest.fixture(scope="module")
def comparison(house: Ruleset) -> Comparison:
    assert house.path is not None
    library = Library([house.path.parent])
    return build(
        [library.load("bolivia-da"), house],
        hands=10,
        games=0,
        bots=("expert", "greedy"),  # the report's text, not the search's play, is fuzzed here
        seed=1,
        workers=1,
        oracle=Oracle(library),
        where=LibrarySpec((str(house.path.parent),)),
    )


@_fraction(20)
@given(**texts)
def test_the_report_of_any_text(
    comparison: Comparison, name: str, notes: str, reason: str, canasta: str
) -> None:
    hostile = _hostile(comparison.rulesets[1], name, notes, reason, canasta)
    rows = [
        dataclasses.replace(row, values={**row.values, "house": json.dumps(canasta)})
        if row.path == "canastas.natural.name"
        else row
        for row in comparison.rows
    ]
    silences = [(path, dict.fromkeys(reasons, reason)) for path, reasons in comparison.silences]
    changed = dataclasses.replace(
        comparison, rulesets=[comparison.rulesets[0], hostile], rows=rows, silences=silences
    )
    text = render_markdown(changed, {"points": "plots/points.svg"})
    assert not RAW.search(text)
    rendered = markdown_lib.markdown(text, extensions=["tables"])
    _no_live_link(rendered, own=("#", "plots/"))
    page = render_html(changed, {})
    _no_live_link(page)
    assert str(escape(terminal(name, lines=True))) in page


@_fraction(50)
@given(**texts)
def test_commands_print_any_text_escaped(name: str, notes: str, reason: str, canasta: str) -> None:
    data: dict[str, Any] = {
        "id": "house",
        "extends": "bolivia-da",
        "name": name,
        "notes": notes,
        "canastas": {"natural": {"name": canasta}},
        "provenance": {"extends": {"house": reason}, "canastas.natural.name": {"house": reason}},
    }
    runner = CliRunner()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "house.yaml"
        path.write_text(yaml_text(data), encoding="utf-8")  # NEL kept (safe_dump folds it)
        for args in (
            ["show", str(path)],
            ["show", str(path), "--json"],
            ["rulesets", "--rulesets", folder],
            ["rulebook", str(path)],
            ["lint", str(path)],
        ):
            result = runner.invoke(cli, args)
            assert result.exception is None or isinstance(result.exception, SystemExit), (
                args,
                result.exception,
            )
            assert not RAW.search(result.stdout + result.stderr), (args, result.stdout)
        shown = runner.invoke(cli, ["show", str(path), "--standalone"]).stdout
        (Path(folder) / "flat").mkdir()
        (Path(folder) / "flat" / "house.yaml").write_text(shown, encoding="utf-8")
        again = Library([Path(folder) / "flat"]).load(Path(folder) / "flat" / "house.yaml")
        assert again.name == name and again.rules.canastas.natural.name == canasta
