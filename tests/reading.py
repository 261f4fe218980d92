"""Reading an output as a person does: its people layer, and the engine's words left in it.

What a club reads is the page as it opens: in HTML everything outside a ``<details>`` element
(and outside ``<style>`` and ``<script>``); in Markdown everything before the appendix (the
heading :data:`APPENDIX`). The details layer holds what a rules committee or an engine
developer wants: key paths, claim ids, card codes, requests.

:func:`engine_words` finds in a people layer what a player would not say: a key path
(``canastas.escalera.bonus``), a claim id (``da:escalera-canasta``), a card code (``3C``,
``10H``), YAML (``{rule: canastas, count: 2}``, ``key: value`` pairs), a doubled word
("the the") and sentences glued together ("any other.The top card").
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from html.parser import HTMLParser
from typing import Any

from bolivia.language import LANGUAGES, language
from bolivia.rules.sources import Sources
from bolivia.rules.tree import leaf_paths

APPENDIX = "Appendix"  # the first word of the Markdown heading that opens the details layer

_SKIPPED = {"details", "style", "script", "title"}
_BLOCKS = {
    "p", "li", "tr", "td", "th", "h1", "h2", "h3", "h4", "div", "section", "br", "dt", "dd",
    "caption", "figcaption", "summary", "table", "ul", "ol", "nav", "main",
}  # fmt: skip


class _People(HTMLParser):
    """The text of a page outside its folded details, block by block."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.depth = 0  # inside how many skipped elements
        self.parts: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _SKIPPED:
            self.depth += 1
        elif tag in _BLOCKS:
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIPPED:
            self.depth = max(0, self.depth - 1)
        elif tag in _BLOCKS:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if not self.depth:
            self.parts.append(data)


def people_html(page: str) -> str:
    """The text a reader sees on the page as it opens."""
    parser = _People()
    parser.feed(page)
    parser.close()
    return "".join(parser.parts)


def people_markdown(text: str, appendix: str = APPENDIX) -> str:
    """The Markdown before its appendix (a heading starting with ``appendix``, the word in
    the page's language), ``<details>`` blocks left out."""
    head = re.split(rf"^#+ {re.escape(appendix)}\b.*$", text, maxsplit=1, flags=re.M)[0]
    return re.sub(r"<details>.*?</details>", "", head, flags=re.S)


def _key_path_pattern() -> re.Pattern[str]:
    """Every field's path and the paths of the sections above it (``melds.sequence``), the
    longest first; a file name such as ``canastas.svg`` is none of them."""
    paths = set()
    for path in leaf_paths():
        parts = path.split(".")
        paths.update(".".join(parts[:n]) for n in range(2, len(parts) + 1))
    alternatives = "|".join(re.escape(p) for p in sorted(paths, key=len, reverse=True))
    return re.compile(rf"(?<![\w.])(?:{alternatives})(?![\w])")


_KEY_PATH = _key_path_pattern()
_CARD = re.compile(r"(?<![\w-])(?:10|[2-9JQKA])[SHDC](?![\w-])|(?<![\w-])JK(?![\w-])")
_YAML = re.compile(r"\{\s*[a-z_]+:\s|\b[a-z]+_[a-z_]+:\s")
# a word twice in a row ("the the"), on one line; cards shown as faces may repeat (joker joker,
# in every language its face is written in)
_JOKERS = "|".join(sorted({re.escape(language(code).gettext("joker")) for code in LANGUAGES}))
_DOUBLED = re.compile(rf"\b(?!(?:{_JOKERS})\b)(\w{{2,}})[ \t]+\1\b", re.I)
_GLUED = re.compile(r"[a-z†‡)][.;:][A-Z][a-z]")


def _claim_pattern(source_ids: Iterable[str]) -> re.Pattern[str]:
    return re.compile(rf"\b(?:{'|'.join(sorted(source_ids))}):[a-z0-9][a-z0-9-]*")


def engine_words(text: str, sources: Sources) -> list[str]:
    """What a player would not write, found in ``text``, each with its kind."""
    claim = _claim_pattern(sources)
    found = []
    for kind, pattern in (
        ("key path", _KEY_PATH),
        ("claim id", claim),
        ("card code", _CARD),
        ("YAML", _YAML),
        ("doubled word", _DOUBLED),
        ("glued sentences", _GLUED),
    ):
        found += [f"{kind}: {m.group(0)!r}" for m in pattern.finditer(text)]
    return found


def markdown_problems(text: str) -> list[str]:
    """Where the Markdown does not parse to the structure it means: a list item, a table row
    or a heading glued into the paragraph before it (each line of a paragraph is read as the
    paragraph's text), and tables whose rows are not all of one width."""
    from markdown_it import MarkdownIt

    tokens = MarkdownIt("commonmark").enable("table").parse(text)
    found = []
    for i, token in enumerate(tokens):
        if token.type != "inline" or tokens[i - 1].type != "paragraph_open":
            continue
        for line in token.content.splitlines()[1:]:
            if re.match(r"\s*(?:[-*+]|\d+[.)])\s", line):
                found.append(f"a list item glued into a paragraph: {line.strip()[:60]!r}")
            elif line.lstrip().startswith("|"):
                found.append(f"a table row read as text: {line.strip()[:60]!r}")
            elif re.match(r"#{1,6}\s", line):
                found.append(f"a heading glued into a paragraph: {line.strip()[:60]!r}")
    found += _uneven_tables(tokens)
    return found


def _uneven_tables(tokens: list[Any]) -> list[str]:
    """Tables with a row of another width than their header."""
    found = []
    width = cells = 0
    for token in tokens:
        if token.type == "tr_open":
            cells = 0
        elif token.type in ("th_open", "td_open"):
            cells += 1
        elif token.type == "tr_close":
            width = width or cells
            if cells != width:
                found.append(f"a table row of {cells} cells under a header of {width}")
        elif token.type == "table_close":
            width = 0
    return found
