"""The errors a person can act on. Everything the toolkit raises on bad input is a BoliviaError."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

__all__ = [
    "BadRequest",
    "BoliviaError",
    "CardError",
    "Illegal",
    "Problem",
    "RulesetError",
    "SourceError",
]

_NOTATION: Final = (
    "ranks are 2-10 (T for 10), J, Q, K, A; suits C, D, H, S (or ♣ ♦ ♥ ♠); "
    "JK is a joker; case does not matter"
)


class BoliviaError(Exception):
    """Root of the toolkit's errors; the CLI prints them as one clear message, exit 1."""

    def lines(self) -> list[str]:
        """The error as lines for a terminal."""
        return [str(self)]


class CardError(BoliviaError, ValueError):
    """A card that is not in the notation."""

    def __init__(self, text: object) -> None:
        self.text = text
        shown = repr(text) if isinstance(text, str) else f"{text!r} ({type(text).__name__})"
        super().__init__(f"card {shown} is not a card: {_NOTATION}")


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a ruleset or source file, where it is and what was expected."""

    file: str
    line: int | None
    path: str
    message: str

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}: {self.path}: {self.message}" if self.path else f"{where}: {self.message}"


class RulesetError(BoliviaError):
    """A ruleset that cannot be loaded; carries every problem found, not just the first."""

    def __init__(self, problems: list[Problem]) -> None:
        if not problems:
            raise ValueError("a RulesetError needs at least one problem")
        self.problems = list(problems)
        first = self.problems[0]
        more = len(self.problems) - 1
        tail = f" (and {more} more problem{'s' if more > 1 else ''})" if more else ""
        super().__init__(f"{first}{tail}")

    def lines(self) -> list[str]:
        return [str(problem) for problem in self.problems]


class SourceError(RulesetError):
    """A source record (seeds/) that cannot be loaded."""


class Illegal(BoliviaError, ValueError):
    """An action or meld the rules forbid.

    It carries a machine-readable code, the sentence naming the rule, and the rule's key path
    (``melds.group.max_wild``). A ``ValueError``, as python-chess's illegal move is.
    """

    def __init__(self, code: str, message: str, rule: str = "", **facts: Any) -> None:
        self.code = code
        self.rule = rule
        self.facts = facts  # figures the refusal rests on (points, minimum, ...)
        super().__init__(message)


class BadRequest(BoliviaError, ValueError):
    """A question that cannot be asked.

    The facts cannot hold together, or cards are not where they are said to be. ``code`` is
    an oracle error code.
    """

    def __init__(self, message: str, code: str = "bad-request") -> None:
        self.code = code
        super().__init__(message)
