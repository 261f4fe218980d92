r"""Text for people: user-written strings made safe for the terminal, Markdown and HTML, and
the jinja2 environment every template of the toolkit is rendered with (``StrictUndefined``; HTML
autoescaped; the ``md``, ``code`` and ``json`` filters; no raw control character in any
output). The ground floor: it knows nothing of rules, so the report, the rulebook and the
command line share it.

>>> terminal("name\x1b]0;owned\x07 \u202eevil")
'name\\x1b]0;owned\\x07 \\u202eevil'
>>> md("a *bold* | claim")
'a \\*bold\\* \\| claim'
>>> md(r"\[x\](javascript:alert(1))")
'\\\\\\[x\\\\\\](javascript:alert(1))'
>>> md("# not a heading, see www.example.com <b>")
'\\# not a heading, see www\\.example.com &lt;b&gt;'
>>> code("melds.group.max_wild")
'`melds.group.max_wild`'
"""

from __future__ import annotations

import contextlib
import html
import json
import re
from functools import cache
from html.parser import HTMLParser
from pathlib import Path
from typing import TYPE_CHECKING, Any

from markupsafe import Markup

from bolivia.language import gettext_, ngettext
from bolivia.resources import cache_dir

if TYPE_CHECKING:  # imported where used: the command line's start needs neither
    import jinja2
    import yaml

__all__ = [
    "code",
    "environment",
    "json_for_terminal",
    "md",
    "safe_html",
    "terminal",
    "yaml_comment",
]

# C0 controls, DEL, C1 controls, and the marks, embeddings, overrides and isolates that reorder
# text (the Unicode bidirectional algorithm): shown as escapes, never acted on
_BIDI = (0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A))
_TERMINAL = {
    **{c: f"\\x{c:02x}" for c in (*range(0x20), *range(0x7F, 0xA0))},
    **{ord("\t"): "\\t", ord("\n"): "\\n", ord("\r"): "\\r"},
    **{c: f"\\u{c:04x}" for c in _BIDI},
}
_TERMINAL_LINES = {c: shown for c, shown in _TERMINAL.items() if c not in (0x09, 0x0A)}
# the same characters as JSON escapes (json.dumps already escapes C0, but not DEL, C1, bidi)
_JSON = {c: f"\\u{c:04x}" for c in _TERMINAL if c not in (0x09, 0x0A)}


def terminal(text: str, *, lines: bool = False) -> str:
    r"""Untrusted text made safe to print on a terminal, on one line: control characters (C0,
    DEL, C1: newlines and escape sequences included) and bidirectional controls are shown as
    escapes. Backslashes are kept, so escaping twice changes nothing. With ``lines``, newline
    and tab are kept (a document of several lines, such as ``bolivia show``'s).

    >>> terminal("ok\x1b[2J\n\x9b\u202egnp.exe")
    'ok\\x1b[2J\\n\\x9b\\u202egnp.exe'
    >>> terminal(terminal("\x07")) == terminal("\x07")
    True
    >>> terminal("a:\n\tb\r\x1b[2J", lines=True)
    'a:\n\tb\\r\\x1b[2J'
    """
    return text.translate(_TERMINAL_LINES if lines else _TERMINAL)


@cache
def _dumper() -> type[yaml.SafeDumper]:
    """The safe dumper, writing in double quotes a string :func:`terminal` would escape."""
    import yaml

    class Dumper(yaml.SafeDumper):
        pass

    Dumper.add_representer(str, _yaml_string)
    return Dumper


def _yaml_string(dumper: yaml.SafeDumper, text: str) -> yaml.ScalarNode:
    # in double quotes the escape (\x1b, \x85) reads back as the character; PyYAML writes
    # NEL (\x85) raw in single quotes, where reading folds it to a space
    style = '"' if terminal(text, lines=True) != text else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", text, style=style)


def yaml_text(value: Any, **options: Any) -> str:
    r"""YAML of ``value`` that reads back as the same data, keys in their order, Unicode
    kept; a string with a control character is written in double quotes.

    >>> yaml_text({"name": "x\x85y"})
    'name: "x\\Ny"\n'
    >>> import yaml
    >>> yaml.safe_load(yaml_text({"name": "x\x85y"}))["name"] == "x\x85y"
    True
    """
    import yaml

    return str(yaml.dump(value, Dumper=_dumper(), sort_keys=False, allow_unicode=True, **options))


# what YAML reads as a line break, and what it takes nowhere (not even in a comment)
_NOT_IN_COMMENT = re.compile("[\x85\u2028\u2029\ud800-\udfff\ufffe\uffff]")


def yaml_comment(text: object) -> str:
    r"""Text for one YAML comment line: control and bidirectional characters as
    :func:`terminal` escapes them, and what YAML would read as a line break or refuse as
    ``\uNNNN``, so that nothing written after ``#`` ends the comment or spoils the file.

    >>> yaml_comment("a\nb\u2028c\x85d\ufffe")
    'a\\nb\\u2028c\\x85d\\ufffe'
    """
    return _NOT_IN_COMMENT.sub(lambda m: f"\\u{ord(m[0]):04x}", terminal(str(text)))


def json_for_terminal(value: Any, *, indent: int | None = 2) -> str:
    """JSON as ``json.dumps(..., ensure_ascii=False)`` writes it, with the characters
    :func:`terminal` escapes written as JSON ``\\uNNNN`` escapes (the same data)."""
    return json.dumps(value, indent=indent, ensure_ascii=False).translate(_JSON)


def _one_line(text: object) -> str:
    """Visible (see :func:`terminal`) and on one line: a line break would end a table row or
    start a block."""
    return re.sub("[\n\u2028\u2029]", " ", terminal(str(text), lines=True))


# punctuation that means something anywhere in a line (CommonMark and Python-Markdown both
# take a backslash before each); ``~`` and ``@`` are written as character references, which
# both read, since Python-Markdown takes no backslash before them
_INLINE = re.compile(r"[`*_\[\]|#]")
_BLOCK_START = re.compile(r"^(?:[-+]|\d+[.)])")  # a list item when it starts a line
_AUTOLINK = re.compile(r"(?i):(?=//)|(?<=www)\.")  # GFM links bare URLs and www. names


def md(text: object) -> str:
    """User-written text made safe inside Markdown: it reads as the same characters and never
    as markup (no link, heading, list, emphasis, table cell, HTML or control character).

    The backslash first, then ``&<>`` as HTML, then the inline punctuation, the bare URLs GFM
    would link, and a list marker or ``=`` at the start (the text is one line; a template may
    put it at the start of one)."""
    escaped = _one_line(text).lstrip().replace("\\", "\\\\")
    escaped = html.escape(escaped, quote=False)
    escaped = _INLINE.sub(r"\\\g<0>", escaped)
    escaped = escaped.replace("~", "&#126;").replace("@", "&#64;")
    escaped = _AUTOLINK.sub(lambda m: "&#58;" if m.group() == ":" else "\\.", escaped)
    if escaped.startswith("="):  # a setext heading's underline
        return "&#61;" + escaped[1:]
    return _BLOCK_START.sub(lambda m: m.group()[:-1] + "\\" + m.group()[-1], escaped, count=1)


def code(value: object) -> str:
    """A value shown as code in Markdown (backticks inside are not possible in our values)."""
    text = _one_line(value).replace("`", "'").replace("|", "\\|")
    return f"`{text}`"


# --------------------------------------------------------------------------- HTML

SAFE_TAGS = frozenset(
    {"p", "br", "hr", "ul", "ol", "li", "blockquote", "pre", "em", "strong", "code", "sub"}
    | {"sup", "table", "thead", "tbody", "tr", "th", "td"}
    | {f"h{level}" for level in range(1, 7)}
)
SAFE_ATTRIBUTES = frozenset({"id"})  # the headings' anchors


class _Sanitizer(HTMLParser):
    """Writes the HTML again, keeping only tags of :data:`SAFE_TAGS` with attributes of
    :data:`SAFE_ATTRIBUTES`; anything else is shown as text, never dropped."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []

    def _tag(self, tag: str, attrs: list[tuple[str, str | None]], close: str) -> None:
        if tag not in SAFE_TAGS or any(name not in SAFE_ATTRIBUTES for name, _ in attrs):
            self.out.append(html.escape(terminal(self.get_starttag_text() or "", lines=True)))
            return
        shown = "".join(f' {name}="{html.escape(value or "")}"' for name, value in attrs)
        self.out.append(f"<{tag}{shown}{close}>")

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._tag(tag, attrs, "")

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._tag(tag, attrs, " /")

    def handle_endtag(self, tag: str) -> None:
        self.out.append(f"</{tag}>" if tag in SAFE_TAGS else html.escape(f"</{tag}>"))

    def handle_data(self, data: str) -> None:
        self.out.append(html.escape(terminal(data, lines=True), quote=False))

    def handle_comment(self, data: str) -> None:
        self.out.append(html.escape(f"<!--{data}-->"))

    def handle_decl(self, decl: str) -> None:
        self.out.append(html.escape(f"<!{decl}>"))

    def unknown_decl(self, data: str) -> None:
        self.out.append(html.escape(f"<![{data}]>"))

    def handle_pi(self, data: str) -> None:
        self.out.append(html.escape(f"<?{data}>"))


def safe_html(fragment: str) -> Markup:
    """An HTML fragment (a Markdown renderer's) kept to plain text markup: headings,
    paragraphs, lists, quotes, tables, emphasis and code; no link, image, script, style,
    event handler or URL of any scheme survives as markup (each is shown as text)."""
    sanitizer = _Sanitizer()
    sanitizer.feed(fragment)
    sanitizer.close()
    return Markup("".join(sanitizer.out))


# --------------------------------------------------------------------------- templates


def _visible(value: Any) -> Any:
    """Every value a template writes, its control characters made visible (trusted markup,
    such as a plot's SVG, is left alone)."""
    if isinstance(value, str) and not isinstance(value, Markup):
        return terminal(value, lines=True)
    return value


def _gettext(context: jinja2.runtime.Context, message: str, /, **values: Any) -> str:
    """A template's message in the language, its values put in (as newstyle gettext does)."""
    return _formatted(context, gettext_(message), values)


def _ngettext(
    context: jinja2.runtime.Context, singular: str, plural: str, count: int, /, **values: Any
) -> str:
    """A template's counted message in the language, its values put in (the parameters are
    positional only: a message's values may have any name)."""
    values.setdefault("num", count)
    return _formatted(context, ngettext(singular, plural, count), values)


def _formatted(context: jinja2.runtime.Context, message: str, values: dict[str, Any]) -> str:
    """The message with its values, each made visible; markup escapes them where the page
    is HTML."""
    shown = {key: _visible(value) for key, value in values.items()}
    if context.eval_ctx.autoescape:
        return Markup(message) % shown
    return message % shown


def environment(package: str, *, autoescape: bool) -> jinja2.Environment:
    """The environment for the templates in ``package``'s ``templates`` folder."""
    import jinja2

    env = jinja2.Environment(
        # the package's own templates, then the pieces every page shares (bolivia/templates)
        loader=jinja2.ChoiceLoader(
            [
                jinja2.PackageLoader(package, "templates"),
                jinja2.PackageLoader("bolivia", "templates"),
            ]
        ),
        undefined=jinja2.StrictUndefined,
        autoescape=autoescape,
        finalize=_visible,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        extensions=["jinja2.ext.i18n"],
        bytecode_cache=_compiled_templates(package, autoescape),
    )
    # {% trans %} blocks and _() in the language being written (bolivia.language), their
    # whitespace trimmed as Babel extracts them (babel.cfg)
    env.install_gettext_callables(  # type: ignore[attr-defined]
        gettext=gettext_, ngettext=ngettext, newstyle=True
    )
    # ... their values made visible as every value a template writes is (finalize does not
    # see what a {% trans %} block puts in its sentence)
    gettext = jinja2.pass_context(_gettext)  # the call is given the template's context
    env.globals.update(gettext=gettext, _=gettext, ngettext=jinja2.pass_context(_ngettext))
    env.policies["ext.i18n.trimmed"] = True
    env.filters["md"] = md
    env.filters["code"] = code
    env.filters["json"] = lambda v: json.dumps(v, ensure_ascii=False, sort_keys=True).translate(
        _JSON
    )
    return env


def _compiled_templates(package: str, autoescape: bool) -> jinja2.BytecodeCache | None:
    """The templates compiled once and kept in the cache folder, so that a command renders
    them without compiling them again (a third of a second for the report's two). Kept apart by
    everything the compiled code depends on: the environment's settings (this module's text),
    the package, autoescaping, jinja2's and Python's versions (jinja2 checks the last and each
    template's text itself). A folder that cannot be made, read or written is passed over: the
    templates are compiled, as without a cache."""
    import hashlib  # (here: a command that renders nothing does not start OpenSSL)

    import jinja2

    try:
        folder = cache_dir() / "templates"
        key = hashlib.sha256(
            b"\0".join(
                [
                    Path(__file__).read_bytes(),
                    package.encode(),
                    str(autoescape).encode(),
                    jinja2.__version__.encode(),
                ]
            )
        ).hexdigest()[:16]
        folder = folder / key
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    except (OSError, RuntimeError):  # a folder that cannot be made, or no home to find
        return None
    return _passed_over()(str(folder))


@cache
def _passed_over() -> type[jinja2.FileSystemBytecodeCache]:
    """jinja2's cache of compiled templates in a folder, a file it cannot read or write passed
    over (made when first asked for: the command line's start does not import jinja2)."""
    import jinja2

    class PassedOver(jinja2.FileSystemBytecodeCache):
        def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
            try:
                super().load_bytecode(bucket)
            except OSError:
                bucket.reset()

        def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
            with contextlib.suppress(OSError):
                super().dump_bytecode(bucket)

    return PassedOver
