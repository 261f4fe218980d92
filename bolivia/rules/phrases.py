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
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "PHRASES",
    "Phrase",
    "a_or_an",
    "answer",
    "count",
    "in_words",
    "join_words",
    "label",
    "plural_rank",
    "question",
    "sentence",
    "special_composition",
]


@dataclass(frozen=True)
class Phrase:
    """How one rule reads: its name, its question and its answers.

    ``label``: a name in words.
    ``question``: what a player asks.
    ``words``: the answer per choice value. The keys ``"true"``/``"false"`` are for yes/no,
      ``"none"`` for a missing limit, ``"empty"`` for an empty list or table, ``"0"`` for a zero
      count.
    ``number``: the template for a count.
    ``joiner``: the word that joins a list's items.
    """

    label: str
    question: str
    words: Mapping[str, str] = field(default_factory=dict)
    number: str = "{n:,}"
    joiner: str = "or"


_YES_NO = {"true": "yes", "false": "no"}
RANKS = {
    "2": "two",
    "3": "three",
    "4": "four",
    "5": "five",
    "6": "six",
    "7": "seven",
    "8": "eight",
    "9": "nine",
    "10": "ten",
    "J": "jack",
    "Q": "queen",
    "K": "king",
    "A": "ace",
}
_RANKS_PLURAL = {rank: ("sixes" if name == "six" else name + "s") for rank, name in RANKS.items()}
_CARD_CLASSES = {"wild": "a wild card", "red_three": "a red three", "black_three": "a black three"}
_MELD_KINDS = {"group": "a group", "sequence": "a sequence", "wild": "a wild meld"}
_CANASTA_KINDS = {"natural": "natural", "mixed": "mixed", "escalera": "escalera", "bolivia": "wild"}
_TAKE_WAYS = {
    "natural_pair": "with two natural cards from the hand matching the top card",
    "natural_and_wild": "with one matching natural card and a wild card from the hand",
    "onto_meld": "by putting the top card onto one of the side's melds",
    "empty": "not at all",
}
CANASTA_KINDS = {
    "natural": ("natural canasta", "a group of one rank without wild cards"),
    "mixed": ("mixed canasta", "a group of one rank with wild cards"),
    "escalera": ("escalera", "a sequence in one suit"),
    "bolivia": ("bolivia", "wild cards only"),
}
_ARTICLE = {"natural": "a", "mixed": "a", "escalera": "an", "bolivia": "a"}
_FIRST_MELD = "toward the first meld's minimum"


def _canasta_phrases() -> dict[str, Phrase]:
    out = {}
    for kind, (noun, what) in CANASTA_KINDS.items():
        a = f"{_ARTICLE[kind]} {noun}"
        out[f"canastas.{kind}.name"] = Phrase(
            f"name of the {noun} ({what})", f"What is the canasta of {what} called?"
        )
        out[f"canastas.{kind}.size"] = Phrase(
            f"cards in {a}", f"How many cards make {a} ({what})?", number="{n:card}"
        )
        out[f"canastas.{kind}.bonus"] = Phrase(
            f"{noun} bonus",
            f"What does {a} ({what}) score on top of its cards?",
            number="{n:point}",
        )
    return out


def _specials(value: list[dict[str, Any]]) -> str:
    """``canastas.special`` in words: each entry as what it is and what it pays, in order."""
    return "; ".join(
        f"{entry['name']} ({special_composition(entry)}): {count(entry['bonus'], 'point')}"
        for entry in value
    )


def _between(low: int, high: int | None, noun: str) -> str | None:
    """``1 wild card``, ``at least 2 jokers``, ``at most 1 joker``, ``no joker``, or None for
    no condition (at least 0, no limit)."""
    if high is None:
        return f"at least {count(low, noun)}" if low else None
    if high == 0:
        return f"no {noun}"
    if low == high:
        return count(low, noun)
    return f"{low:,} to {count(high, noun)}" if low else f"at most {count(high, noun)}"


def special_composition(entry: Mapping[str, Any], noun: str | None = None) -> str:
    """What a special canasta holds, in words (``a natural canasta of aces``, ``a bolivia
    with no joker``, ``an escalera of at least 13 cards with 1 wild card``); ``noun``: what
    the ruleset calls its kind (``samba``), else the kind's common name."""
    kind = entry["kind"]
    if noun is None:
        text = f"{_ARTICLE[kind]} {CANASTA_KINDS[kind][0]}"
    else:
        text = f"{'an' if noun[:1].lower() in 'aeiou' else 'a'} {noun}"
    if entry.get("rank") is not None:
        text += f" of {_RANKS_PLURAL[entry['rank']]}"
    if entry.get("min_size") is not None:
        text += f" of at least {count(entry['min_size'], 'card')}"
    held = [
        part
        for part in (
            _between(entry.get("min_wild", 0), entry.get("max_wild"), "wild card"),
            _between(entry.get("min_jokers", 0), entry.get("max_jokers"), "joker"),
        )
        if part is not None
    ]
    return text + (f" with {join_words(held, 'and')}" if held else "")


PHRASES: dict[str, Phrase] = {
    "pack.decks": Phrase(
        "decks in the pack", "How many standard decks are shuffled together?", number="{n:deck}"
    ),
    "pack.jokers": Phrase(
        "jokers in the pack", "How many jokers does the pack hold?", {"0": "no joker"}, "{n:joker}"
    ),
    "pack.wild_ranks": Phrase(
        "wild ranks",
        "Which cards are wild besides the jokers?",
        {**{r: f"the {p}" for r, p in _RANKS_PLURAL.items()}, "empty": "only the jokers"},
        joiner="and",
    ),
    "players.usual": Phrase(
        "usual number of players", "For how many players is the game written?", number="{n:player}"
    ),
    "players.seats": Phrase(
        "players, sides and cards",
        "How many may play, in how many sides, with how many cards dealt and drawn?",
    ),
    "deal.upcard_covered_if": Phrase(
        "first upcard covered",
        "Which card turned up to start the pile is covered by another?",
        {**_CARD_CLASSES, "empty": "no card: the first card turned up stays"},
    ),
    "melds.group.min_size": Phrase(
        "smallest group", "How few cards may a new group hold?", number="{n:card}"
    ),
    "melds.group.min_natural": Phrase(
        "natural cards in a group",
        "How many natural cards must a group hold?",
        number="{n:natural card}",
    ),
    "melds.group.max_wild": Phrase(
        "wild cards in a group",
        "How many wild cards may a group hold?",
        {"none": "any number", "0": "no wild card"},
        number="at most {n:wild card}",
    ),
    "melds.group.ratio": Phrase(
        "natural against wild cards",
        "How must a group's natural cards outnumber its wild cards?",
        {
            "any": "no rule beyond the limits",
            "naturals_exceed_wilds": "more natural cards than wild cards",
            "naturals_twice_wilds": "at least twice as many natural cards as wild cards",
        },
    ),
    "melds.group.max_size": Phrase(
        "largest group",
        "How many cards may a group hold?",
        {"none": "no limit"},
        "at most {n:card}",
    ),
    "melds.group.wild_onto_canasta": Phrase(
        "wild cards onto a canasta", "May a wild card be added to a canasta already made?", _YES_NO
    ),
    "melds.group.duplicate_ranks": Phrase(
        "two groups of one rank", "May a side hold two groups of the same rank?", _YES_NO
    ),
    "melds.group.combine": Phrase(
        "joining two groups", "May a side join its two groups of one rank into one?", _YES_NO
    ),
    "melds.sequence.allowed": Phrase(
        "sequences", "May a sequence (a run in one suit) be melded?", _YES_NO
    ),
    "melds.sequence.min_size": Phrase(
        "shortest sequence", "How few cards may a new sequence hold?", number="{n:card}"
    ),
    "melds.sequence.max_size": Phrase(
        "longest sequence",
        "How many cards may a sequence hold?",
        {"none": "no limit"},
        "at most {n:card}",
    ),
    "melds.sequence.lowest": Phrase(
        "lowest card of a sequence", "What is the lowest card a sequence may hold?", RANKS
    ),
    "melds.sequence.highest": Phrase(
        "highest card of a sequence", "What is the highest card a sequence may hold?", RANKS
    ),
    "melds.sequence.max_wild": Phrase(
        "wild cards in a sequence",
        "How many wild cards may a sequence hold?",
        {"0": "no wild card"},
        "at most {n:wild card}",
    ),
    "melds.sequence.extend_going_out": Phrase(
        "sequences extended in going out",
        "May a player going out add cards to a sequence past its size limit (the ends of an "
        "escalera)?",
        _YES_NO,
    ),
    "melds.sequence.two_aces": Phrase(
        "sequences from ace to ace",
        "May one sequence hold an ace at each end (fourteen cards, ace to ace)?",
        _YES_NO,
    ),
    "melds.wild.allowed": Phrase("wild melds", "May wild cards be melded on their own?", _YES_NO),
    "melds.wild.min_size": Phrase(
        "smallest wild meld", "How few cards may a new wild meld hold?", number="{n:card}"
    ),
    "melds.wild.max_size": Phrase(
        "largest wild meld",
        "How many cards may a wild meld hold?",
        {"none": "no limit"},
        "at most {n:card}",
    ),
    "melds.black_threes.when": Phrase(
        "melding black threes",
        "When may black threes be melded on their own?",
        {"never": "never", "going_out": "only by a player going out", "always": "at any time"},
    ),
    "melds.black_threes.min_size": Phrase(
        "fewest black threes",
        "How few black threes may be melded together?",
        number="{n:black three}",
    ),
    "melds.black_threes.max_size": Phrase(
        "most black threes",
        "How many black threes may be melded together?",
        {"none": "as many as there are"},
        "at most {n:black three}",
    ),
    "melds.black_threes.max_wild": Phrase(
        "wild cards with black threes",
        "How many wild cards may a meld of black threes hold?",
        {"0": "no wild card"},
        "at most {n:wild card}",
    ),
    **_canasta_phrases(),
    "canastas.special": Phrase(
        "special canastas",
        "Which canastas earn a bonus of their own for what they hold, instead of their kind's?",
        {"empty": "no canasta: every canasta earns its kind's bonus"},
    ),
    "initial_meld.bands": Phrase(
        "first meld's minimum", "How many points must a side's first meld reach, by its score?"
    ),
    "initial_meld.counts_top_card": Phrase(
        "pile's top card toward the first meld",
        f"Does the pile's top card count {_FIRST_MELD}?",
        _YES_NO,
    ),
    "initial_meld.several_melds": Phrase(
        "several melds toward the first meld",
        f"Do several melds laid in one turn count together {_FIRST_MELD}?",
        _YES_NO,
    ),
    "initial_meld.counts_sequences": Phrase(
        "sequences toward the first meld", f"Do sequences count {_FIRST_MELD}?", _YES_NO
    ),
    "initial_meld.counts_wild_melds": Phrase(
        "wild melds toward the first meld", f"Do wild melds count {_FIRST_MELD}?", _YES_NO
    ),
    "initial_meld.counts_bonuses": Phrase(
        "canasta bonuses toward the first meld",
        f"Do canasta bonuses count {_FIRST_MELD}?",
        _YES_NO,
    ),
    "pile.frozen_when": Phrase(
        "what freezes the pile",
        "What freezes the discard pile?",
        {
            "side_not_melded": "for a side that has not melded yet",
            "contains_wild": "when it holds a wild card",
            "contains_black_three": "when it holds a black three",
            "contains_red_three": "when it holds a red three",
            "always": "always",
            "empty": "nothing: it is never frozen",
        },
    ),
    "pile.take_frozen": Phrase(
        "taking a frozen pile", "How may a frozen pile be taken?", _TAKE_WAYS
    ),
    "pile.take_unfrozen": Phrase(
        "taking a pile not frozen", "How may a pile that is not frozen be taken?", _TAKE_WAYS
    ),
    "pile.onto_kinds": Phrase(
        "melds the top card may go onto",
        "Onto which of the side's melds may the top card go, to take the pile?",
        {**_MELD_KINDS, "empty": "no meld"},
    ),
    "pile.onto_canasta": Phrase(
        "top card onto a canasta",
        "May the top card go onto a canasta already made, to take the pile?",
        _YES_NO,
    ),
    "pile.blocked_by_top": Phrase(
        "top cards that block the pile",
        "Which top card stops anyone taking the pile?",
        {**_CARD_CLASSES, "empty": "no card"},
    ),
    "pile.pair_starts_new_meld": Phrase(
        "the pile's pair starts a new meld",
        "Does taking the pile with cards from the hand always start a new meld?",
        _YES_NO,
    ),
    "pile.take_top.allowed": Phrase(
        "taking only the top card", "May a player take only the top card of the pile?", _YES_NO
    ),
    "pile.take_top.onto_kinds": Phrase(
        "melds the top card alone may extend",
        "Onto which melds may a top card taken alone go?",
        {**_MELD_KINDS, "empty": "no meld"},
    ),
    "pile.take_top.below_canasta": Phrase(
        "top card alone only below a canasta",
        "Must the meld a top card taken alone extends be short of a canasta?",
        _YES_NO,
    ),
    "pile.one_card_rule": Phrase(
        "one card against a one-card pile",
        "Is a player holding a single card barred from taking a pile of a single card?",
        _YES_NO,
    ),
    "pile.for_first_meld": Phrase(
        "pile for the first meld",
        "May the pile be taken to make the side's first meld?",
        _YES_NO,
    ),
    "red_threes.value": Phrase(
        "each red three", "What is each red three worth?", number="{n:point}"
    ),
    "red_threes.all_value": Phrase(
        "all the red threes",
        "What are all the pack's red threes worth, held by one side?",
        number="{n:point}",
    ),
    # issue 17 (Brazilian Canasta): red threes by count
    "red_threes.value_by_count": Phrase(
        "red threes by count",
        "Do some numbers of red threes held by one side have a value of their own, in all?",
        {"empty": "no: each counts its value, all the pack's together their own"},
    ),
    "red_threes.plus_when": Phrase(
        "when red threes count plus",
        "When do a side's red threes count plus (otherwise they count minus)?",
        {
            "side_melded": "once the side has melded",
            "canastas": "once the side has {count:canasta}",
            "going_out_requirement": "once the side's melds meet the going-out requirement",
            "always": "always: they never count minus",
        },
    ),
    "red_threes.replaced": Phrase(
        "red threes replaced", "Is a red three laid out replaced from the stock?", _YES_NO
    ),
    "red_threes.replaced_from_pile": Phrase(
        "red threes from the pile replaced",
        "Is a red three that came with the pile replaced from the stock too?",
        _YES_NO,
    ),
    "going_out.requirement": Phrase(
        "what going out needs",
        "What must a side have melded before it may go out?",
        {"canastas": "{count:canasta}{including}", "0": "nothing"},
    ),
    "going_out.requirement_by_players": Phrase(
        "going out by number of players",
        "Does going out need something else for some numbers of players?",
        {"empty": "no: the same for any number of players"},
    ),
    "going_out.keep_cards": Phrase(
        "cards kept while the side may not go out",
        "How many cards must a player keep after melding while the side may not go out?",
        number="{n:card}",
    ),
    "going_out.discard_required": Phrase(
        "a last discard to go out", "Must a player going out discard a last card?", _YES_NO
    ),
    "going_out.ask_partner": Phrase(
        "asking the partner",
        'Does a player ask the partner "may I go out?" first?',
        {
            "never": "never asked",
            "optional": "may ask, and the answer binds",
            "required": "must ask, and the answer binds",
        },
    ),
    "going_out.bonus": Phrase("going-out bonus", "What does going out score?", number="{n:point}"),
    "going_out.concealed_bonus": Phrase(
        "concealed going-out bonus",
        "What does going out concealed (every card melded in one turn) score instead?",
        number="{n:point}",
    ),
    "going_out.concealed_when": Phrase(
        "who must not have melded, to go out concealed",
        "Going out concealed: who must not have melded before?",
        {"player_not_melded": "the player going out", "side_not_melded": "the whole side"},
    ),
    "stock.short_draw": Phrase(
        "drawing from a short stock",
        "What happens when a player must draw more cards than the stock holds?",
        {"take_remaining": "the player takes what is left", "end_hand": "the hand ends"},
    ),
    "stock.exhausted": Phrase(
        "once the stock is empty",
        "What happens once the stock is empty?",
        {"end_hand": "the hand ends", "take_discards": "play goes on with the discards{onto}"},
    ),
    "stock.going_out_bonus_when_exhausted": Phrase(
        "going-out bonus after the stock runs out",
        "Does a hand ended by the empty stock still pay a going-out bonus?",
        _YES_NO,
    ),
    "scoring.card_points": Phrase("card points", "What is each card worth?"),
    "scoring.meld_penalties": Phrase(
        "melds left on the table",
        "What do melds left on the table at the end of the hand cost their side?",
        {"empty": "nothing", **_MELD_KINDS},
    ),
    "scoring.black_three_in_hand": Phrase(
        "black three left in hand",
        "What does a black three left in hand cost?",
        number="{n:point}",
    ),
    "game.target": Phrase("target score", "What score ends the game?", number="{n:point}"),
    "game.target_options": Phrase(
        "other targets",
        "What other targets may a table choose?",
        {"empty": "no other target"},
        "{n:point}",
    ),
    "game.target_by_players": Phrase(
        "target by number of players",
        "Is the target different for some numbers of players?",
        {"empty": "no: the same for any number of players"},
    ),
    "game.hand_cap": Phrase(
        "a limit on hands",
        "Does the game stop after a number of hands?",
        {
            "none": "no limit",
            "draw": "after {hands:hand}, as a draw",
            "leader_wins": "after {hands:hand}, won by the leader",
        },
    ),
    "game.ties": Phrase(
        "level leaders",
        "What happens when the leaders are level at the end?",
        {"draw": "the game is a draw", "play_on": "another hand is played"},
    ),
}


class _Formatter(string.Formatter):
    """``{n:card}``: a count and its noun, singular for one; ``{n:,}``: thousands."""

    def format_field(self, value: Any, format_spec: str) -> str:
        if isinstance(value, int) and not isinstance(value, bool) and format_spec not in ("", ","):
            return count(value, format_spec)
        return format(value, format_spec)


_FORMAT = _Formatter()


def count(n: int, noun: str) -> str:
    """``1 card``, ``2 cards``, ``1,500 points``, ``0 wild cards``."""
    return f"{n:,} {noun}" if n == 1 else f"{n:,} {noun}s"


def a_or_an(word: str) -> str:
    """The word with its indefinite article: ``a mixed``, ``an escalera``.

    >>> a_or_an("escalera"), a_or_an("natural")
    ('an escalera', 'a natural')
    """
    return ("an " if word[:1].lower() in ("a", "e", "i", "o", "u") else "a ") + word


def join_words(items: list[str], joiner: str = "or") -> str:
    """``a``, ``a or b``, ``a, b or c``."""
    if len(items) <= 1:
        return "".join(items)
    separator = "; " if any(len(item) > 30 for item in items) else ", "  # long items: clearer
    last = f"{separator.strip()} {joiner} " if separator == "; " else f" {joiner} "
    return separator.join(items[:-1]) + last + items[-1]


def plural_rank(rank: str) -> str:
    """A rank as a player names its cards: ``twos``, ``sixes``, ``aces``."""
    return _RANKS_PLURAL[rank]


def label(path: str) -> str:
    return PHRASES[path].label


def question(path: str) -> str:
    return PHRASES[path].question


def _seats(value: Mapping[str, Any]) -> str:
    parts = []
    for n, seat in value.items():
        players, teams = int(n), seat["teams"]
        sides = "each for themselves" if teams == players else f"{teams} sides"
        parts.append(
            f"{players} players, {sides}, {count(seat['hand_size'], 'card')} dealt, "
            f"{seat['draw']:,} drawn"
        )
    return "; ".join(parts)


def _bands(value: list[dict[str, Any]]) -> str:
    parts = []
    for i, band in enumerate(value):
        if band["from"] is None:
            following = value[i + 1]["from"] if i + 1 < len(value) else None
            where = f"below {following:,}" if following is not None else "at any score"
        else:
            where = f"from {band['from']:,}"
        needed = count(band["minimum"], "point")
        kinds = band.get("canasta") or ()
        if kinds:
            canasta = f"a canasta ({join_words([_CANASTA_KINDS[k] for k in kinds])})"
            needed = f"{canasta} and {needed} in all" if band["minimum"] else canasta
        parts.append(f"{needed} {where}")
    return "; ".join(parts)


def _meld_penalties(phrase: Phrase, value: list[Mapping[str, Any]]) -> str:
    parts = []
    for penalty in value:
        kinds = join_words([phrase.words[k] for k in penalty["kinds"]], "or")
        size = penalty["fewer_than"]
        which = f"of fewer than {count(size, 'card')}" if size is not None else "short of a canasta"
        parts.append(f"{kinds} {which}: {count(penalty['points'], 'point')}")
    return "; then ".join(parts) if len(parts) > 1 else parts[0]


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
    names = {**{r: r for r in RANKS}, "JK": "joker", "3": "black 3"}
    return "; ".join(
        f"{join_words([names[r] for r in ranks])}: {count(points, 'point')}"
        for ranks, points in groups
    )


def _including(including: Mapping[str, int]) -> str:
    """The canastas of named kinds a requirement includes: ``, 1 of them an escalera``."""
    named = []
    for kind, n in including.items():
        noun = CANASTA_KINDS[kind][0]
        named.append(f"{_ARTICLE[kind]} {noun}" if n == 1 else count(n, noun))
    total = sum(including.values())
    return f", {total:,} of them {join_words(named, 'and')}" if named else ""


def _onto(must_take_onto_meld: bool) -> str:
    """Whether the last discard may be taken only onto a meld, as a clause."""
    if must_take_onto_meld:
        return ", a player taking the last discard only to put it onto a meld"
    return ", each player free to take the last discard"


def _choice(phrase: Phrase, value: Mapping[str, Any]) -> str:
    """A named choice in words: its name's template, filled with its parameters."""
    key = next(str(value[k]) for k in _CHOICE_KEYS if k in value)
    if key == "canastas" and value.get("count") == 0 and "0" in phrase.words:
        return phrase.words["0"]
    parts: dict[str, Any] = dict(value)
    if "including" in value:
        parts["including"] = _including(value["including"])
    if "must_take_onto_meld" in value:
        parts["onto"] = _onto(value["must_take_onto_meld"])
    return _FORMAT.format(phrase.words[key], **parts)


_CHOICE_KEYS = ("condition", "rule", "outcome")  # the key that names a named choice


def _scalar(phrase: Phrase, value: bool | int | str | None) -> str:
    """A single value in words: none, yes or no, a count, or a choice's name."""
    words = phrase.words
    if value is None:
        return words["none"]
    if isinstance(value, bool):
        return words["true" if value else "false"]
    if isinstance(value, int):
        if str(value) in words:
            return words[str(value)]
        return _FORMAT.format(phrase.number, n=value)
    return words.get(value, value)  # a canasta's name is free text


def _list(phrase: Phrase, value: list[Any] | tuple[Any, ...]) -> str:
    """A list in words: its choices, or its numbers (``2,500 or 5,000 points``)."""
    if not value:
        return phrase.words["empty"]
    if all(isinstance(v, int) for v in value):  # targets: "2,500 or 5,000 points"
        *first, last = value
        shown = _FORMAT.format(phrase.number, n=last)
        return join_words([*(f"{v:,}" for v in first), shown], phrase.joiner)
    return join_words([phrase.words[str(v)] for v in value], phrase.joiner)


def _red_threes(value: Mapping[str, int]) -> str:
    """``red_threes.value_by_count`` in words: what each count of red threes scores."""
    return "; ".join(
        f"{count(int(n), 'red three')}: {count(v, 'point')} in all"
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
        return phrase.words["empty"]
    if path == "red_threes.value_by_count":
        return _red_threes(value)
    inner = _BY_PLAYERS[path]
    return "; ".join(f"with {int(n)} players: {answer(inner, v)}" for n, v in value.items())


# Rules whose values have words of their own, by key path: tables, phrased whole.
_TABLES: dict[str, Callable[[Phrase, Any], str]] = {
    "players.seats": lambda phrase, value: _seats(value),
    "initial_meld.bands": lambda phrase, value: _bands(value),
    "scoring.card_points": lambda phrase, value: _card_points(value),
}
# Lists with words of their own, by key path, when they hold anything.
_LISTS: dict[str, Callable[[Phrase, Any], str]] = {
    "canastas.special": lambda phrase, value: _specials(value),
    "scoring.meld_penalties": _meld_penalties,
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
    return f"{question(path)} {text[:1].upper()}{text[1:]}."


_PATHS = re.compile(r"\b[a-z_]+(?:\.[a-z_0-9]+)+\b")


def in_words(text: str) -> str:
    """A written reason with the key paths it names given as the rules' labels instead
    (``(pile.pair_starts_new_meld)`` -> ``("the pile's pair starts a new meld")``)."""
    return _PATHS.sub(
        lambda m: f"“{PHRASES[m.group()].label}”" if m.group() in PHRASES else m.group(), text
    )
