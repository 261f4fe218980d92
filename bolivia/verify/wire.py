"""The oracle's wire: a request line read as JSON, an answer written as one line of JSON.

Both sides hold to RFC 8259. A request is UTF-8 text of at most :data:`MAX_LINE` bytes. It is
nested at most :data:`MAX_DEPTH` arrays and objects deep. Its strings are Unicode: a ``\\u``
escape of half a surrogate pair alone is refused. An answer is UTF-8 JSON with no ``NaN`` or
``Infinity``.

The request's ``id`` is echoed as it was written. A number keeps its digits (``1e400``, an
integer of 5,000 digits). No field of the protocol but the id takes a number too large for a
count, or one with a fraction.

>>> decode('{"op": "hello", "id": 1e400}')["id"]
1e400
>>> encode({"id": decode('{"id": 1e400}')["id"], "ok": True})
'{"id":1e400,"ok":true}'
>>> decode('{"id": "\\\\ud800"}')
Traceback (most recent call last):
...
bolivia.verify.wire.OracleError: a string holds \\ud800, half of a surrogate pair alone: ...
"""

from __future__ import annotations

import json
import re
from typing import Any

from bolivia.errors import BoliviaError

__all__ = [
    "MAX_DEPTH",
    "MAX_LINE",
    "Number",
    "OracleError",
    "TransportError",
    "decode",
    "encode",
    "error_answer",
]

MAX_LINE = 1024 * 1024
MAX_DEPTH = 100  # arrays and objects; a request of the protocol needs six
_SURROGATE = re.compile("[\ud800-\udfff]")


class OracleError(Exception):
    """An error response: a protocol code and a message a person can act on."""

    def __init__(self, code: str, message: str) -> None:
        self.code = code
        self.message = message
        super().__init__(message)


class TransportError(BoliviaError):
    """The oracle's input or output failed (a closed pipe, a full disk): it cannot go on."""


class Number:
    """A JSON number kept as it was written: an integer too long to be a count or a score, or
    a number with a fraction or an exponent. It is echoed back as its text."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text

    @property
    def integer(self) -> bool:
        """Written as a whole number (digits only)."""
        return not any(mark in self.text for mark in ".eE")

    def __repr__(self) -> str:
        return self.text


def _parse_int(text: str) -> int | Number:
    return int(text) if len(text) <= 18 else Number(text)


def _refuse_constant(text: str) -> Any:
    raise ValueError(f"{text} is not JSON")


def decode(line: bytes | str) -> Any:
    """The request on one line; :class:`OracleError` (``too-large``, ``bad-json``) when it is
    not JSON text the protocol reads."""
    size = len(line) if isinstance(line, bytes) else len(line.encode("utf-8", "surrogatepass"))
    if size > MAX_LINE:
        raise OracleError("too-large", f"the request line is over {MAX_LINE} bytes")
    if isinstance(line, bytes):
        try:
            line = line.decode("utf-8")
        except UnicodeDecodeError:
            raise OracleError("bad-json", "the line is not UTF-8 text") from None
    try:
        request = json.loads(
            line, parse_int=_parse_int, parse_float=Number, parse_constant=_refuse_constant
        )
    except RecursionError:
        raise OracleError("bad-json", "the JSON is nested too deeply to read") from None
    except ValueError as exc:
        raise OracleError("bad-json", f"not valid JSON: {exc}") from None
    # the walk is needed only where a string may hold a surrogate or the nesting may be deep
    if "\\u" in line or _SURROGATE.search(line) or line.count("[") + line.count("{") > MAX_DEPTH:
        _check(request)
    return request


def _check(value: Any) -> None:
    """Refuse nesting beyond :data:`MAX_DEPTH` and strings that are not Unicode text."""
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            found = _SURROGATE.search(item)
            if found:
                raise OracleError(
                    "bad-json",
                    f"a string holds \\u{ord(found.group()):04x}, half of a surrogate pair "
                    "alone: not a Unicode character",
                )
        elif isinstance(item, list | dict):
            if depth == MAX_DEPTH:
                raise OracleError(
                    "bad-json", f"the JSON is nested over {MAX_DEPTH} arrays and objects deep"
                )
            stack.extend((child, depth + 1) for child in item)
            if isinstance(item, dict):
                stack.extend((child, depth + 1) for child in item.values())


def _id_text(value: Any) -> str:
    if isinstance(value, Number):
        return value.text
    if isinstance(value, list):
        return "[" + ",".join(map(_id_text, value)) + "]"
    if isinstance(value, dict):
        return (
            "{" + ",".join(f"{_dumps(key)}:{_id_text(item)}" for key, item in value.items()) + "}"
        )
    return _dumps(value)


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))


def encode(response: dict[str, Any]) -> str:
    """One answer as a line of JSON (without the newline), its ``id`` as the request wrote it.

    Text from elsewhere than the request (a ruleset file's words in a message) that holds half
    a surrogate pair has it replaced by U+FFFD, so that the line is always UTF-8."""
    rest = _dumps({key: value for key, value in response.items() if key != "id"})
    text = '{"id":' + _id_text(response.get("id")) + ("," + rest[1:] if rest != "{}" else "}")
    return _SURROGATE.sub("\ufffd", text)


def error_answer(code: str, message: str, request_id: Any = None) -> str:
    """An error answer as a line of JSON."""
    return encode({"id": request_id, "ok": False, "error": {"code": code, "message": message}})
