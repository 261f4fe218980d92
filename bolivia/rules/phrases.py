"""Every rule in words: a label, a question and its answers.

For each field of the rule tree, one table gives a short label, the question a player asks
about it, and the answer for each value. The comparison report and the rulebook share it. The
JSON outputs keep the exact data.

An answer is written from the value with a small template. ``{n:card}`` is a count with its
noun (``1 card``, ``2 cards``, ``1,500 points``). ``{n:,}`` is a number with thousands
separators. Choices, yes/no, "none" and empty lists have their own words. So no raw value
(``none``, ``true``, ``naturals_twice_wilds``) reaches a reader.

>>> answer("melds.group.max_wild", None)
'any number'
>>> answer("melds.group.wild_onto_canasta", False)
'no'
>>> answer("going_out.requirement", {"rule": "canastas", "count": 2, "including": {"escalera": 1}})
'2 canastas, 1 of them an escalera'
>>> answer("red_threes.plus_when", {"condition": "canastas", "count": 1})
'once the side has 1 canasta'
>>> question("melds.group.wild_onto_canasta")
'May a wild card be added to a canasta already made?'
"""

from __future__ import annotations

import re
import string
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bolivia.language import N_, NP_, current, join, ngettext, number
from bolivia.language import gettext_ as _
from bolivia.rules.phrasebook import (
    _CANASTA_KINDS,
    _RANK_LETTERS,
    _RANKS_PLURAL,
    CANASTA_KINDS,
    CANASTA_WORDS,
    PHRASES,
    Phrase,
)

__all__ = [
    "CANASTA_WORDS",
    "PHRASES",
    "Phrase",
    "a_or_an",
    "answer",
    "capital",
    "count",
    "in_words",
    "join_words",
    "label",
    "plural_rank",
    "question",
    "sentence",
    "special_composition",
]


def _specials(value: list[dict[str, Any]]) -> str:
    """``canastas.special`` in words: each entry as what it is and what it pays, in order."""
    return _("; ").join(
        _("{name} ({holds}): {bonus}").format(
            name=_(entry["name"]),
            holds=special_composition(entry),
            bonus=count(entry["bonus"], "point"),
        )
        for entry in value
    )


def _between(low: int, high: int | None, noun: str) -> str | None:
    """``1 wild card``, ``at least 2 jokers``, ``at most 1 joker``, ``no joker``, or None for
    no condition (at least 0, no limit). ``noun``: ``wild card`` or ``joker``."""
    if high is None:
        return _("at least {counted}").format(counted=count(low, noun)) if low else None
    if high == 0:
        return _(_NONE_OF[noun])
    if low == high:
        return count(low, noun)
    if low:
        return _("{low} to {counted}").format(low=number(low), counted=count(high, noun))
    return _("at most {counted}").format(counted=count(high, noun))


_NONE_OF = {"wild card": N_("no wild card"), "joker": N_("no joker")}
_HOLDS = {
    # what a special canasta is: its kind (or the ruleset's name for it), then of what
    (False, False): N_("{canasta}"),
    (True, False): N_("{canasta} of {ranks}"),
    (False, True): N_("{canasta} of at least {size}"),
    (True, True): N_("{canasta} of {ranks} of at least {size}"),
}


def special_composition(entry: Mapping[str, Any], noun: str | None = None) -> str:
    """What a special canasta holds, in words (``a natural canasta of aces``, ``a bolivia
    with no joker``, ``an escalera of at least 13 cards with 1 wild card``); ``noun``: what
    the ruleset calls its kind (``samba``), else the kind's common name."""
    kind = entry["kind"]
    canasta = _(_A_CANASTA[kind]) if noun is None else _called(noun, 1)
    rank, size = entry.get("rank"), entry.get("min_size")
    text = _(_HOLDS[rank is not None, size is not None]).format(
        canasta=canasta,
        ranks=_(_RANKS_PLURAL[rank]) if rank is not None else "",
        size=count(size, "card") if size is not None else "",
    )
    held = [
        part
        for part in (
            _between(entry.get("min_wild", 0), entry.get("max_wild"), "wild card"),
            _between(entry.get("min_jokers", 0), entry.get("max_jokers"), "joker"),
        )
        if part is not None
    ]
    if not held:
        return text
    return _("{canasta} with {held}").format(canasta=text, held=join(held, "and"))


_A_CANASTA = {
    "natural": N_("a natural canasta"),
    "mixed": N_("a mixed canasta"),
    "escalera": N_("an escalera"),
    "bolivia": N_("a bolivia"),
}


class _Formatter(string.Formatter):
    """``{n:card}``: a count and its noun, in the plural form the number takes; ``{n:,}``: a
    number as the language writes it."""

    def format_field(self, value: Any, format_spec: str) -> str:
        if isinstance(value, int) and not isinstance(value, bool):
            return number(value) if format_spec in ("", ",") else count(value, format_spec)
        return format(value, format_spec)


_FORMAT = _Formatter()

# the nouns counted in words, each its singular and plural message
COUNTED: dict[str, tuple[str, str]] = {
    "card": NP_("{n} card", "{n} cards"),
    "natural card": NP_("{n} natural card", "{n} natural cards"),
    "wild card": NP_("{n} wild card", "{n} wild cards"),
    "joker": NP_("{n} joker", "{n} jokers"),
    "black three": NP_("{n} black three", "{n} black threes"),
    "red three": NP_("{n} red three", "{n} red threes"),
    "deck": NP_("{n} deck", "{n} decks"),
    "player": NP_("{n} player", "{n} players"),
    "side": NP_("{n} side", "{n} sides"),
    "point": NP_("{n} point", "{n} points"),
    "canasta": NP_("{n} canasta", "{n} canastas"),
    "hand": NP_("{n} hand", "{n} hands"),
    "natural canasta": NP_("{n} natural canasta", "{n} natural canastas"),
    "mixed canasta": NP_("{n} mixed canasta", "{n} mixed canastas"),
    "escalera": NP_("{n} escalera", "{n} escaleras"),
    "bolivia": NP_("{n} bolivia", "{n} bolivias"),
    "deal": NP_("{n} deal", "{n} deals"),
    "game": NP_("{n} game", "{n} games"),
    "whole game": NP_("{n} whole game", "{n} whole games"),
    "house rule": NP_("{n} house rule", "{n} house rules"),
    "claim": NP_("{n} claim", "{n} claims"),
    "rule": NP_("{n} rule", "{n} rules"),
}


def count(n: int, noun: str) -> str:
    """``1 card``, ``2 cards``, ``1,500 points``, ``0 wild cards``: a count and its noun, in the
    current language (a noun with no message of its own takes an English ``s``)."""
    if noun not in COUNTED:
        return f"{number(n)} {noun}" if n == 1 else f"{number(n)} {noun}s"
    return ngettext(*COUNTED[noun], n).format(n=number(n))


def capital(text: str) -> str:
    """The text with its first letter in capitals (a sentence's start)."""
    return text[:1].upper() + text[1:]


def a_or_an(word: str) -> str:
    """The word with its indefinite article: ``a mixed``, ``an escalera``.

    >>> a_or_an("escalera"), a_or_an("natural")
    ('an escalera', 'a natural')
    """
    return ("an " if word[:1].lower() in ("a", "e", "i", "o", "u") else "a ") + word


def join_words(items: list[str], joiner: str = "or") -> str:
    """``a``, ``a or b``, ``a, b or c``, as the current language lists them."""
    return join(items, joiner)


def plural_rank(rank: str) -> str:
    """A rank as a player names its cards: ``twos``, ``sixes``, ``aces``."""
    return _(_RANKS_PLURAL[rank])


def label(path: str) -> str:
    return _(PHRASES[path].label)


def question(path: str) -> str:
    return _(PHRASES[path].question)


def _seats(value: Mapping[str, Any]) -> str:
    parts = []
    for n, seat in value.items():
        players, teams = int(n), seat["teams"]
        sides = _("each for themselves") if teams == players else count(teams, "side")
        parts.append(
            _("{players}, {sides}, {dealt} dealt, {drawn} drawn").format(
                players=count(players, "player"),
                sides=sides,
                dealt=count(seat["hand_size"], "card"),
                drawn=number(seat["draw"]),
            )
        )
    return _("; ").join(parts)


def _bands(value: list[dict[str, Any]]) -> str:
    parts = []
    for i, band in enumerate(value):
        if band["from"] is None:
            following = value[i + 1]["from"] if i + 1 < len(value) else None
            where = (
                _("below {score}").format(score=number(following))
                if following is not None
                else _("at any score")
            )
        else:
            where = _("from {score}").format(score=number(band["from"]))
        needed = count(band["minimum"], "point")
        kinds = band.get("canasta") or ()
        if kinds:
            canasta = _("a canasta ({kinds})").format(
                kinds=join([_(_CANASTA_KINDS[k]) for k in kinds], "or")
            )
            if band["minimum"]:
                needed = _("{canasta} and {points} in all").format(canasta=canasta, points=needed)
            else:
                needed = canasta
        parts.append(_("{needed} {where}").format(needed=needed, where=where))
    return _("; ").join(parts)


def _ranks(ranks: Sequence[str]) -> str:
    """Ranks as a player names their cards, joined: ``sevens or aces``."""
    return join([plural_rank(r) for r in ranks], "or")


def _meld_penalties(phrase: Phrase, value: list[Mapping[str, Any]]) -> str:
    parts = []
    for penalty in value:
        kinds = join([_(phrase.words[k]) for k in penalty["kinds"]], "or")
        if penalty.get("ranks"):
            kinds = _("{melds} of {ranks}").format(melds=kinds, ranks=_ranks(penalty["ranks"]))
        if penalty.get("natural_only"):
            kinds = _("{melds} with no wild card").format(melds=kinds)
        size, points = penalty["fewer_than"], count(penalty["points"], "point")
        if size is not None:
            said = _("{kinds} of fewer than {size}: {points}").format(
                kinds=kinds, size=count(size, "card"), points=points
            )
        else:
            said = _("{kinds} short of a canasta: {points}").format(kinds=kinds, points=points)
        parts.append(said)
    return _("; then ").join(parts) if len(parts) > 1 else parts[0]


def _hand_penalties(value: list[Mapping[str, Any]]) -> str:
    """``scoring.hand_penalties`` in words: ``3 or more sevens: 1,500 points``."""
    return _("; ").join(
        _("{least} or more {ranks} in a player's hand: {points}").format(
            least=number(penalty["at_least"]),
            ranks=_ranks(penalty["ranks"]),
            points=count(penalty["points"], "point"),
        )
        for penalty in value
    )


def _wild_by_rank(value: Mapping[str, Mapping[str, Any]]) -> str:
    """``melds.group.wild_by_rank`` in words: ``sevens: no wild card; aces: ...``."""
    parts = []
    for rank, limit in value.items():
        most = limit["max_wild"]
        said = (
            _("no wild card") if most == 0 else _("at most {n}").format(n=count(most, "wild card"))
        )
        if limit.get("first_meld"):
            said = _("{limit}, except in a group laid in the side's first meld of the hand").format(
                limit=said
            )
        parts.append(_("{ranks} take {limit}").format(ranks=plural_rank(rank), limit=said))
    return _("; ").join(parts)


_BAR_UNTIL = {
    "never": N_("{cards} at any time"),
    "side_canasta": N_("{cards} until the player's side has {canasta}"),
    "every_side_canasta": N_("{cards} until every side has {canasta}"),
    "first_round": N_("{cards} in the hand's first round of turns"),
}
_BARRED_CARDS = {**_RANKS_PLURAL, "black_three": N_("black threes"), "JK": N_("jokers")}


def _discard_bars(value: list[Mapping[str, Any]]) -> str:
    """Each bar on the discard: ``sevens until every side has a canasta of sevens, nor as the
    discard that goes out``."""
    parts = []
    for bar in value:
        cards = join([_(_BARRED_CARDS[c]) for c in bar["cards"]], "and")
        name = bar.get("canasta") or ""
        canasta = _(_A_CANASTA[name]) if name in _A_CANASTA else _called(name, 1)
        said = _(_BAR_UNTIL[bar["until"]]).format(cards=cards, canasta=canasta)
        if bar.get("going_out") and bar["until"] != "never":
            said = _("{bar}, nor as the discard that goes out").format(bar=said)
        parts.append(said)
    return _("; ").join(parts)


def _threes_aside(value: Mapping[str, Any]) -> str:
    """Black threes set aside from a pile taken: ``set aside, 5 points each, 100 points for all
    the pack's``."""
    each = count(value["value"], "point")
    if value.get("all_value") is None:
        return _("set aside out of play, {each} each to the side").format(each=each)
    return _("set aside out of play, {each} each to the side, {all} for all the pack's").format(
        each=each, all=count(value["all_value"], "point")
    )


def _foot(value: Mapping[str, Any]) -> str:
    """Each player's second packet: ``11 cards each, taken up on completing a canasta``."""
    cards = count(value["cards"], "card")
    if value["taken"] == "canasta":
        return _("{cards} each, taken into the hand on completing a canasta").format(cards=cards)
    return _("{cards} each, taken into the hand once it is played out").format(cards=cards)


_POINT_ORDER = ("JK", "2", "A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3")


def _card_points(value: Mapping[str, int]) -> str:
    groups: list[tuple[list[str], int]] = []
    for rank in _POINT_ORDER:
        if rank not in value:
            continue
        if groups and groups[-1][1] == value[rank]:
            groups[-1][0].append(rank)
        else:
            groups.append(([rank], value[rank]))
    names = {**_RANK_LETTERS, "JK": N_("joker"), "3": N_("black 3")}
    return _("; ").join(
        _("{cards}: {points}").format(
            cards=join([_(names[r]) for r in ranks], "or"), points=count(points, "point")
        )
        for ranks, points in groups
    )


def _including(including: Mapping[str, int], total_count: int = 0) -> str:
    """The canastas of named kinds a requirement includes: ``, 1 of them an escalera`` (a
    special canasta by the ruleset's name for it: ``a canasta of sevens``); where they are all
    the ``total_count`` canastas, the list alone (``: a canasta of sevens and a bolivia``)."""
    named = []
    for kind, n in including.items():
        if kind not in CANASTA_KINDS:
            named.append(_called(kind, n))
            continue
        noun = CANASTA_KINDS[kind][0]
        named.append(_(_A_CANASTA[kind]) if n == 1 else count(n, noun))
    total = sum(including.values())
    if not named:
        return ""
    if total == total_count:
        return _(": {named}").format(named=join(named, "and"))
    return _(", {total} of them {named}").format(total=number(total), named=join(named, "and"))


def _called(name: str, n: int) -> str:
    """``n`` special canastas by the ruleset's name for them (English says it as the players
    do: ``a canasta of sevens``)."""
    if n == 1 and current().code == "en":
        return a_or_an(name)
    said = _(name)
    if n == 1 and _("canasta").lower() in said.lower():  # the name says what it is
        # NOTE: a canasta by a name that holds the word canasta (canasta of sevens), with an article
        return _("a {name}").format(name=said)
    if n == 1:
        return _("a canasta called {name}").format(name=said)
    return _("{count} canastas called {name}").format(count=number(n), name=said)


def _onto(must_take_onto_meld: bool) -> str:
    """Whether the last discard may be taken only onto a meld, as a clause."""
    if must_take_onto_meld:
        return _(", a player taking the last discard only to put it onto a meld")
    return _(", each player free to take the last discard")


def _choice(phrase: Phrase, value: Mapping[str, Any]) -> str:
    """A named choice in words: its name's template, filled with its parameters."""
    key = next(str(value[k]) for k in _CHOICE_KEYS if k in value)
    if key == "canastas" and value.get("count") == 0 and "0" in phrase.words:
        return _(phrase.words["0"])
    parts: dict[str, Any] = dict(value)
    if value.get(_CHOICE_KEYS[0]) == "canastas" or "including" in value:
        parts["including"] = _including(value.get("including", {}), value.get("count", 0))
    if "must_take_onto_meld" in value:
        parts["onto"] = _onto(value["must_take_onto_meld"])
    return _FORMAT.format(_(phrase.words[key]), **parts)


_CHOICE_KEYS = ("condition", "rule", "outcome")  # the key that names a named choice


def _scalar(phrase: Phrase, value: bool | int | str | None) -> str:
    """A single value in words: none, yes or no, a count, or a choice's name."""
    words = phrase.words
    if value is None:
        return _(words["none"])
    if isinstance(value, bool):
        return _(words["true" if value else "false"])
    if isinstance(value, int):
        if str(value) in words:
            return _(words[str(value)])
        return _FORMAT.format(_(phrase.number), n=value)
    if value in words:
        return _(words[value])
    return _(value)  # a canasta's name is free text: the shipped ones have messages (NAMES)


def _list(phrase: Phrase, value: list[Any] | tuple[Any, ...]) -> str:
    """A list in words: its choices, or its numbers (``2,500 or 5,000 points``)."""
    if not value:
        return _(phrase.words["empty"])
    if all(isinstance(v, int) for v in value):  # targets: "2,500 or 5,000 points"
        *first, last = value
        shown = _FORMAT.format(_(phrase.number), n=last)
        return join([*(number(v) for v in first), shown], phrase.joiner)
    return join([_(phrase.words[str(v)]) for v in value], phrase.joiner)


def _red_threes(value: Mapping[str, int]) -> str:
    """``red_threes.value_by_count`` in words: what each count of red threes scores."""
    return _("; ").join(
        _("{threes}: {points} in all").format(
            threes=count(int(n), "red three"), points=count(v, "point")
        )
        for n, v in sorted(value.items(), key=lambda item: int(item[0]))
    )


# The tables by number of players, and the rule each entry is a value of.
_BY_PLAYERS = {
    "going_out.requirement_by_players": "going_out.requirement",
    "game.target_by_players": "game.target",
}


def _mapping(path: str, phrase: Phrase, value: Mapping[str, Any]) -> str:
    """A named choice or a table in words."""
    if any(k in value for k in _CHOICE_KEYS):
        return _choice(phrase, value)
    if not value:
        return _(phrase.words["empty"])
    if path == "red_threes.value_by_count":
        return _red_threes(value)
    inner = _BY_PLAYERS[path]
    return _("; ").join(
        _("with {players}: {value}").format(players=count(int(n), "player"), value=answer(inner, v))
        for n, v in value.items()
    )


# Rules whose values have words of their own, by key path: tables, phrased whole.
_TABLES: dict[str, Callable[[Phrase, Any], str]] = {
    "players.seats": lambda phrase, value: _seats(value),
    "initial_meld.bands": lambda phrase, value: _bands(value),
    "scoring.card_points": lambda phrase, value: _card_points(value),
    "pile.black_threes_aside": lambda phrase, value: _threes_aside(value),
    "deal.foot": lambda phrase, value: _foot(value),
}
# Lists with words of their own, by key path, when they hold anything.
_LISTS: dict[str, Callable[[Phrase, Any], str]] = {
    "canastas.special": lambda phrase, value: _specials(value),
    "scoring.meld_penalties": _meld_penalties,
    "pile.discard_barred": lambda phrase, value: _discard_bars(value),
    "scoring.hand_penalties": lambda phrase, value: _hand_penalties(value),
    "melds.group.wild_by_rank": lambda phrase, value: _wild_by_rank(value),
}


def answer(path: str, value: Any) -> str:
    """A rule value in words: the answer to the rule's question (lower case, no full stop)."""
    phrase = PHRASES[path]
    if value is None or isinstance(value, bool | int | str):
        return _scalar(phrase, value)
    if path in _TABLES:
        return _TABLES[path](phrase, value)
    if path in _LISTS and value:
        return _LISTS[path](phrase, value)
    if isinstance(value, list | tuple):
        return _list(phrase, value)
    if isinstance(value, Mapping):
        return _mapping(path, phrase, value)
    raise TypeError(f"{path}: no words for {value!r}")  # pragma: no cover


def sentence(path: str, value: Any) -> str:
    """The question and its answer: ``May a wild card be added ...? No.``"""
    text = answer(path, value)
    return _("{question} {answer}.").format(question=question(path), answer=capital(text))


_PATHS = re.compile(r"\b[a-z_]+(?:\.[a-z_0-9]+)+\b")


def reason_words(sources: Any, reason: str) -> str:
    """A ruleset's written reason (why a value is assumed, a house's why) for readers, in the
    current language: translated where the catalog holds it (the shipped rulesets' reasons),
    its claim ids given as documents (``sources``: :class:`bolivia.rules.sources.Sources`) and
    its key paths as the rules' labels."""
    return str(in_words(sources.in_words(_(reason))))


def in_words(text: str) -> str:
    """A written reason with the key paths it names given as the rules' labels instead
    (``(pile.pair_starts_new_meld)`` -> ``("the pile's pair starts a new meld")``)."""
    return _PATHS.sub(
        lambda m: (
            _("“{label}”").format(label=label(m.group())) if m.group() in PHRASES else m.group()
        ),
        text,
    )
