r"""Text for people: user-written strings made safe for Markdown, HTML and the terminal, and
the jinja2 environment every template of the toolkit is rendered with (``StrictUndefined``; HTML
autoescaped; the ``md``, ``code`` and ``json`` filters). The ground floor: it knows nothing of
rules, so the report, the rulebook and the command line share it.

>>> md("a *bold* | claim")
'a \\*bold\\* \\| claim'
>>> code("melds.group.max_wild")
'`melds.group.max_wild`'
"""

from __future__ import annotations

import html
import json

import jinja2

__all__ = ["code", "environment", "md", "terminal"]

# C0 controls, DEL, C1 controls, and the marks, embeddings, overrides and isolates that reorder
# text (the Unicode bidirectional algorithm): shown as escapes, never acted on
_TERMINAL = {
    **{c: f"\\x{c:02x}" for c in (*range(0x20), *range(0x7F, 0xA0))},
    **{ord("\t"): "\\t", ord("\n"): "\\n", ord("\r"): "\\r"},
    **{
        c: f"\\u{c:04x}"
        for c in (0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A))
    },
}


def md(text: object) -> str:
    """User-written text made safe inside Markdown (and the HTML a Markdown renderer allows)."""
    escaped = html.escape(str(text), quote=False)
    return (
        escaped.replace("|", "\\|")
        .replace("\n", " ")
        .replace("`", "\\`")
        .replace("*", "\\*")
        .replace("_", "\\_")
        .replace("[", "\\[")
        .replace("]", "\\]")
    )


def terminal(text: str) -> str:
    r"""Untrusted text made safe to print on a terminal, on one line: control characters (C0,
    DEL, C1: newlines and escape sequences included) and bidirectional controls are shown as
    escapes. Backslashes are kept, so escaping twice changes nothing.

    >>> terminal("ok\x1b[2J\n\x9b\u202egnp.exe")
    'ok\\x1b[2J\\n\\x9b\\u202egnp.exe'
    >>> terminal(terminal("\x07")) == terminal("\x07")
    True
    """
    return text.translate(_TERMINAL)


def code(value: object) -> str:
    """A value shown as code in Markdown (backticks inside are not possible in our values)."""
    text = str(value).replace("`", "'").replace("|", "\\|")
    return f"`{text}`"


def environment(package: str, *, autoescape: bool) -> jinja2.Environment:
    """The environment for the templates in ``package``'s ``templates`` folder."""
    env = jinja2.Environment(
        loader=jinja2.PackageLoader(package, "templates"),
        undefined=jinja2.StrictUndefined,
        autoescape=autoescape,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["md"] = md
    env.filters["code"] = code
    env.filters["json"] = lambda v: json.dumps(v, ensure_ascii=False, sort_keys=True)
    return env
