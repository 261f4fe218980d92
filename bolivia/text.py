r"""Text for people: user-written strings made safe for Markdown and HTML, and the jinja2
environment every template of the toolkit is rendered with (``StrictUndefined``; HTML
autoescaped; the ``md``, ``code`` and ``json`` filters). The ground floor: it knows nothing of
rules, so the report and the rulebook share it.

>>> md("a *bold* | claim")
'a \\*bold\\* \\| claim'
>>> code("melds.group.max_wild")
'`melds.group.max_wild`'
"""

from __future__ import annotations

import html
import json

import jinja2

__all__ = ["code", "environment", "md"]


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
