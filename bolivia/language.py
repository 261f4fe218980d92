"""The languages the people layer is written in: English, French, Danish, Chinese, Korean.

What a club reads (the rulebook, the report, the sweep) is written in one language, chosen with
``--lang``. Its sentences are messages of a gettext catalog (``bolivia/locale/LANG/
LC_MESSAGES/bolivia.po``, extracted from the code and templates with Babel, ``babel.cfg``):
each message a whole sentence or noun phrase, its values as named placeholders. Counts take
their plural form from the catalog's plural rule; numbers and lists are written by Babel in
the language's way (``15.000`` in Danish, ``15 000`` in French; ``a, b et c``).

The language in use is a context variable, set by :func:`speaking` around what is written, so
that the phrase table and the templates read it wherever they are called from.

>>> with speaking("da"):
...     number(15000), join(["a", "b", "c"], "or"), decimal(1234.5, 1, sign=True)
('15.000', 'a, b eller c', '+1.234,5')
>>> number(15000), join(["a", "b", "c"], "or"), decimal(1234.5, 1, sign=True)
('15,000', 'a, b or c', '+1,234.5')
"""

from __future__ import annotations

import gettext
import re
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

__all__ = [
    "LANGUAGES",
    "NP_",
    "N_",
    "Language",
    "Said",
    "current",
    "decimal",
    "gettext_",
    "join",
    "language",
    "ngettext",
    "number",
    "percent",
    "said",
    "speaking",
    "worded",
]

#: the languages shipped, English first (the default, and the language of the messages' ids)
LANGUAGES = ("en", "fr", "da", "zh", "ko")
#: each language named in itself, for a reader choosing one
NAMES = {"en": "English", "fr": "français", "da": "dansk", "zh": "中文", "ko": "한국어"}
LOCALE = Path(__file__).resolve().parent / "locale"
DOMAIN = "bolivia"


@dataclass(frozen=True)
class Language:
    """One language: its code, its catalog, and how it writes numbers and lists."""

    code: str
    translations: gettext.NullTranslations

    def gettext(self, message: str) -> str:
        return self.translations.gettext(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self.translations.ngettext(singular, plural, n)

    def number(self, n: int) -> str:
        if self.code == "en":
            return f"{n:,}"
        from babel.numbers import format_decimal

        return str(format_decimal(n, locale=self.code))

    def decimal(self, value: float, digits: int, *, sign: bool = False) -> str:
        """A number with ``digits`` decimals (``16.7``; ``16,7`` in French and Danish), signed
        (``+16.7``, ``-3.0``) with ``sign``."""
        if self.code == "en":
            return f"{value:+,.{digits}f}" if sign else f"{value:,.{digits}f}"
        from babel.numbers import format_decimal

        pattern = "#,##0" + ("." + "0" * digits if digits else "")
        text = str(format_decimal(round(value, digits), format=pattern, locale=self.code))
        negative = text.startswith(("-", "\u2212"))  # a minus as the language writes it
        return f"+{text}" if sign and not negative else text

    def spaced(self, text: str) -> str:
        """Text whose sentences a template set apart by spaces, spaced as the language does:
        Chinese sets none after a full-width stop."""
        if self.code != "zh":
            return text
        return re.sub("([\u3002\uff01\uff1f\uff1b\uff1a]) +", r"\1", text)

    def join(self, items: Sequence[str], joiner: str = "and") -> str:
        """``a``, ``a or b``, ``a, b or c`` (in English: items of more than 30 characters are
        set apart by semicolons, which reads better); in another language, as Babel writes a
        list in it."""
        if len(items) <= 1:
            return "".join(items)
        if self.code == "en":
            separator = "; " if any(len(item) > 30 for item in items) else ", "
            last = f"{separator.strip()} {joiner} " if separator == "; " else f" {joiner} "
            return separator.join(items[:-1]) + last + items[-1]
        from babel.lists import format_list

        if joiner == "or":
            return str(format_list(list(items), style="or", locale=self.code))
        return str(format_list(list(items), style="standard", locale=self.code))


class UnknownLanguage(ValueError):
    """A language code the toolkit does not ship."""


def _catalog(code: str) -> gettext.NullTranslations:
    """The catalog of a language: its compiled ``.mo`` where the build made one (and the
    ``.po`` has not changed since), else its ``.po`` read (and compiled in memory) by Babel."""
    folder = LOCALE / code / "LC_MESSAGES"
    compiled, source = folder / f"{DOMAIN}.mo", folder / f"{DOMAIN}.po"
    if compiled.exists() and compiled.stat().st_mtime >= source.stat().st_mtime:
        with compiled.open("rb") as handle:
            return gettext.GNUTranslations(handle)
    import io

    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with source.open("rb") as handle:
        catalog = read_po(handle, locale=code)
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    return gettext.GNUTranslations(buffer)


@cache
def language(code: str) -> Language:
    """A shipped language by its code."""
    if code not in LANGUAGES:
        raise UnknownLanguage(f"no language {code!r}: choose one of {', '.join(LANGUAGES)}")
    translations = gettext.NullTranslations() if code == "en" else _catalog(code)
    return Language(code, translations)


_CURRENT: ContextVar[Language | None] = ContextVar("bolivia_language", default=None)


def current() -> Language:
    """The language being written in (English unless :func:`speaking` says otherwise)."""
    found = _CURRENT.get()
    return found if found is not None else language("en")


@contextmanager
def speaking(code: str) -> Iterator[Language]:
    """Write in the language ``code`` within the block."""
    token = _CURRENT.set(language(code))
    try:
        yield current()
    finally:
        _CURRENT.reset(token)


def gettext_(message: str) -> str:
    """A message in the current language (an empty text stays empty: gettext would give the
    catalog's header)."""
    return current().gettext(message) if message else message


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a counted message for ``n`` in the current language."""
    return current().ngettext(singular, plural, n)


def N_(message: str) -> str:
    """Marks a message for the catalog where it is defined; it is translated where used."""
    return message


def NP_(singular: str, plural: str) -> tuple[str, str]:
    """Marks a counted message (its singular and plural) for the catalog; see :func:`N_`."""
    return singular, plural


# the keys of a ruleset file or a source record whose text a club reads: a ruleset's and a
# canasta's name, notes, why a value is assumed or a house's own, how a source is named and
# what its document is
DATA_TEXT = frozenset({"name", "notes", "note", "assumed", "house", "called", "title"})


def extract_yaml(
    fileobj: Any, keywords: Any, comment_tags: Any, options: Any
) -> Iterator[tuple[int, str, str, list[str]]]:
    """A Babel extractor (``babel.cfg``) for the shipped rulesets and source records: the text
    of every :data:`DATA_TEXT` key, as a message. A ruleset a club writes is not in the
    catalog, and is printed as written."""
    import yaml

    def walk(node: Any, key: str = "") -> Iterator[tuple[int, str, str, list[str]]]:
        if isinstance(node, yaml.MappingNode):
            for name, value in node.value:
                yield from walk(value, str(name.value))
        elif isinstance(node, yaml.SequenceNode):
            for item in node.value:
                yield from walk(item, key)
        elif isinstance(node, yaml.ScalarNode) and key in DATA_TEXT and node.value:
            line = node.start_mark.line + 1
            yield line, "", node.value, [f"the {key} in this file; keep any claim id (xx:yy)"]

    document = yaml.compose(fileobj.read().decode("utf-8"), Loader=yaml.SafeLoader)
    yield from walk(document)


@dataclass(frozen=True)
class Said:
    """A message with its values, put into words only when shown, in the language current
    then: data made once (a comparison) can be read in every language. Whole numbers are
    written as the language writes them; a value that is itself :class:`Said` is put into
    words too.

    >>> str(Said("{n} points for a side in {where}", (("n", 1500), ("where", "a game"))))
    '1,500 points for a side in a game'
    """

    message: str
    values: tuple[tuple[str, Any], ...] = ()

    def __str__(self) -> str:
        shown = {
            key: number(value) if isinstance(value, int) and not isinstance(value, bool) else value
            for key, value in self.values
        }
        return gettext_(self.message).format(**{k: str(v) for k, v in shown.items()})


def said(message: str, **values: Any) -> Said:
    """A :class:`Said` of ``message`` (marked for the catalog where it is written, with
    :func:`N_`) and its values by name."""
    return Said(message, tuple(values.items()))


def number(n: int) -> str:
    """A whole number as the current language writes it (``15,000``, ``15.000``)."""
    return current().number(n)


def worded(table: Mapping[str, str], key: str, otherwise: str) -> str:
    """The message a table holds for ``key``, in the current language; for a key it does not
    hold, the message ``otherwise`` with the key as its ``{key}`` (a name no catalog knows,
    such as a bot or a canasta a ruleset names, shown as it is written)."""
    if key in table:
        return gettext_(table[key])
    return gettext_(otherwise).format(key=key)


def percent(value: float, digits: int = 0) -> str:
    """A percentage as the current language writes it (``95%``, ``95 %``): its number and
    sign together, so that no message holds a percent sign before a word (which gettext's
    tools would read as a ``%`` placeholder)."""
    return gettext_("{value}%").format(value=decimal(value, digits))


def join(items: Sequence[str], joiner: str = "and") -> str:
    """Items as a list in the current language, joined by "and" or "or"."""
    return current().join(items, joiner)


def decimal(value: float, digits: int, *, sign: bool = False) -> str:
    """A number with ``digits`` decimals as the current language writes it."""
    return current().decimal(value, digits, sign=sign)
