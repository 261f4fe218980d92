"""What the immutable values (melds, actions, results) share: pickling that works the same in
the compiled build and in pure Python, so that worker processes can send them."""

from __future__ import annotations

from dataclasses import fields
from typing import Any

__all__ = ["reduce_fields"]


def reduce_fields(value: Any) -> tuple[type[Any], tuple[Any, ...]]:
    """``__reduce__`` for a frozen dataclass: rebuilt by calling the class with its fields.

    Pickle's default makes a bare instance and sets its attributes, which a frozen dataclass
    compiled with mypyc refuses (its ``__setattr__`` raises, and mypyc offers no way round it);
    calling the class works in both builds.

    >>> from bolivia.play.table.actions import Discard
    >>> from bolivia.cards import Card
    >>> reduce_fields(Discard(Card.parse("7H")))
    (<class 'bolivia.play.table.actions.Discard'>, (7H,))
    """
    return (type(value), tuple(getattr(value, item.name) for item in fields(value)))
