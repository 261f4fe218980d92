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

from bolivia.rules.model import leaf_paths
from bolivia.rules.sources import Sources

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


def people_markdown(text: str) -> str:
    """The Markdown before its appendix, ``<details>`` blocks left out."""
    head = re.split(rf"^#+ {APPENDIX}\b.*$", text, maxsplit=1, flags=re.M)[0]
    return re.sub(r"<details>.*?</details>", "", head, flags=re.S)


def _key_path_pattern() -> re.Pattern[str]:
    sections = sorted({path.split(".")[0] for path in leaf_paths()})
    return re.compile(rf"\b(?:{'|'.join(sections)})\.[a-z_]+(?:\.[a-z_0-9]+)*")


_KEY_PATH = _key_path_pattern()
_CARD = re.compile(r"(?<![\w-])(?:10|[2-9JQKA])[SHDC](?![\w-])|(?<![\w-])JK(?![\w-])")
_YAML = re.compile(r"\{\s*[a-z_]+:\s|^\s*[a-z_]+:\s+\S", re.M)
_DOUBLED = re.compile(r"\b(\w{2,})\s+\1\b", re.I)
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
