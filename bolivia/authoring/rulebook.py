"""The rulebook: a resolved ruleset written out as rules a table can play from.

Two layers. What a player reads is words only: the rules in prose, the sources named as
documents ("the Danish rules article"), values as a player says them. What a rules committee or
an engine developer wants (key paths, claim ids, values as data, file paths) is the details
layer (:mod:`bolivia.authoring.details`): folded ``<details>`` after each section in HTML, an
appendix in Markdown.

One jinja2 template (``templates/rulebook.md.j2``) writes the rules in prose from the data.
Every rule value it uses goes through ``v(path)``, which records it in the section that names
it; a rule the others make moot is named in the details layer only (``moot``). So a test can
prove that every field of the format appears. A house rule is marked "(house rule)" once a
sentence; the rules no source states are listed at the end, grouped by why they are assumed.

The HTML page is the same Markdown turned into HTML, section by section, each followed by its
details; its tables reflow into cards on a phone (``tables.html.j2``). User-written text is
escaped for Markdown (``bolivia.text.md``). The HTML is kept to plain text markup
(``bolivia.text.safe_html``): no link, image or script can come of any text.

A ruleset built on another gets a box listing what it changes.
"""

from __future__ import annotations

import itertools
import re
from typing import Any

import jinja2
import markdown as markdown_lib
from markdown.extensions.toc import TocExtension, slugify_unicode
from markupsafe import Markup

from bolivia.authoring.details import (
    APPENDIX,
    SUMMARY,
    Details,
    committee_notes,
    data,
    people_notes,
)
from bolivia.language import N_, current, ngettext, number, speaking
from bolivia.language import gettext_ as _
from bolivia.resources import rulesets_dir
from bolivia.rules.phrases import (
    CANASTA_WORDS,
    answer,
    capital,
    count,
    in_words,
    join_words,
    plural_rank,
    question,
    special_composition,
)
from bolivia.rules.resolution import DEFAULT_REASON, NO_REASON
from bolivia.rules.ruleset import Ruleset
from bolivia.rules.sources import Sources, shipped_sources
from bolivia.rules.tree import leaf_paths
from bolivia.text import environment, md, safe_html, terminal

__all__ = ["Rulebook", "place_marks", "render_rulebook"]

# the place-holder of the house mark, before it is placed: a private-use character, which the
# templates write as it is (a control character would be made visible); user text cannot hold
# one (the rulebook's md filter writes it as U+FFFD)
HOUSE = "\ue000"
MARK = N_(" (house rule)")
# where a sentence ends: its stop, any bold closing; a full-width stop (Chinese) needs no space
_END = re.compile(r"[.!?:;]\**(?=\s|$)|[\u3002\uff01\uff1f\uff1a\uff1b]\**")
# how the people layer words the reason of a rule no ruleset of the chain sets
DEFAULT_WORDS = N_(
    "No ruleset sets these: they are played as the game has them when nothing is said"
)
_POINT_ORDER = ("JK", "2", "A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3")


def _sentence_ends(line: str) -> list[int]:
    """Where the sentences of a line end (after their stops), outside brackets."""
    depth, ends = 0, []
    for found in re.finditer(r"[()]|" + _END.pattern, line):
        text = found.group()
        if text in "()":
            depth = max(0, depth + (1 if text == "(" else -1))
        elif depth == 0:
            ends.append(found.end())
    return ends


def _marked(sentence: str) -> str:
    """One sentence with its place-holders gone and the mark once, before its stop."""
    if HOUSE not in sentence:
        return sentence
    sentence = sentence.replace(HOUSE, "")
    stop = _END.search(sentence.rstrip(), max(0, len(sentence.rstrip()) - 6))
    at = stop.start() if stop is not None else len(sentence.rstrip())
    while at and sentence[at - 1] in " \u00a0\u202f":  # French sets a space before ; and :
        at -= 1
    return sentence[:at] + _(MARK) + sentence[at:]


def place_marks(text: str) -> str:
    """The house mark, `` (house rule)``, once a sentence that states a house rule; in a
    table, at each cell's value.

    >>> place_marks(f"Played with 3 decks{HOUSE} and 6 jokers{HOUSE} (162 cards). Twos are wild.")
    'Played with 3 decks and 6 jokers (162 cards) (house rule). Twos are wild.'
    """
    lines = []
    for line in text.split("\n"):
        if line.lstrip().startswith("|"):
            line = line.replace(HOUSE, _(MARK))
        elif HOUSE in line:
            cuts = [0, *_sentence_ends(line), len(line)]
            line = "".join(_marked(line[a:b]) for a, b in itertools.pairwise(cuts))
        lines.append(line)
    return "\n".join(lines)


def _sides(players: int, teams: int) -> str:
    return _("each for themselves") if teams == players else count(teams, "side")


def _seat_fields(n: int, new: dict[str, Any], old: dict[str, Any]) -> tuple[str, str]:
    """What changes in one seating, as (new, old): ``15 cards dealt``, ``13``."""
    said = {
        "teams": (_sides(n, new["teams"]), _sides(n, old["teams"])),
        "hand_size": (
            _("{cards} dealt").format(cards=count(new["hand_size"], "card")),
            number(old["hand_size"]),
        ),
        "draw": (_("{n} drawn").format(n=number(new["draw"])), number(old["draw"])),
    }
    changed = [pair for key, pair in said.items() if new[key] != old[key]]
    return join_words([a for a, b in changed], "and"), join_words([b for a, b in changed], "and")


def seat_change(mine: dict[str, Any], theirs: dict[str, Any]) -> list[tuple[str, str, str]]:
    """What changes in the seatings, briefly: (who, new, old) for each number of players that
    changes, only what changes (``6 players``, ``15 cards dealt``, ``13``)."""
    out = []
    for n in sorted({*mine, *theirs}, key=int):
        new, old = mine.get(n), theirs.get(n)
        if new == old:
            continue
        if new is None or old is None:
            shown = [answer("players.seats", {n: s}) if s else _("not allowed") for s in (new, old)]
            out.append((count(int(n), "player"), shown[0], shown[1]))
        else:
            out.append((count(int(n), "player"), *_seat_fields(int(n), new, old)))
    return out


def card_point_rows(points: dict[str, int]) -> list[tuple[str, str]]:
    """The card points as a player says them, cards of equal points together: (cards, points)."""
    groups: list[tuple[list[str], int]] = []
    for rank in (r for r in _POINT_ORDER if r in points):
        if groups and groups[-1][1] == points[rank]:
            groups[-1][0].append(rank)
        else:
            groups.append(([rank], points[rank]))
    names = {"JK": N_("jokers"), "3": N_("black threes")}
    return [
        (
            join_words([_(names[r]) if r in names else plural_rank(r) for r in ranks], "and"),
            number(value),
        )
        for ranks, value in groups
    ]


class Rulebook:
    """Renders one ruleset; ``used`` holds the key paths the text has named."""

    def __init__(
        self, ruleset: Ruleset, base: Ruleset | None = None, sources: Sources | None = None
    ) -> None:
        self.ruleset = ruleset
        self.base = base
        self.sources = sources if sources is not None else shipped_sources()
        self.used: set[str] = set()
        self.details = Details(ruleset, self.sources)

    def value(self, path: str) -> Any:
        """The raw JSON value of a rule (recorded as used); of a table by number of players,
        only the entries for numbers who may sit (an inherited entry for others never
        applies, and a rulebook does not print it)."""
        self.used.add(path)
        self.details.named(path)
        found = self.ruleset.value(path)
        if path.endswith("_by_players") and isinstance(found, dict):
            seated = {int(n) for n in self.ruleset.rules.players.seats}
            found = {n: entry for n, entry in found.items() if int(n) in seated}
        return found

    def mark(self, path: str) -> Markup:
        """Where a value is a house rule: a place-holder, which :func:`place_marks` turns into
        one mark for the sentence (trusted markup, which the escaping leaves be)."""
        self.value(path)
        return Markup(HOUSE if self.ruleset.provenance[path].status == "house" else "")

    def text(self, path: str) -> Markup:
        """A rule's value in words (the phrase table's answer), marked as :meth:`mark` says."""
        return Markup(terminal(md(answer(path, self.value(path))), lines=True)) + self.mark(path)

    def number(self, path: str) -> Markup:
        """A number rule as a figure (``1,500``), marked."""
        return Markup(number(self.value(path))) + self.mark(path)

    def section(self, title: str) -> str:
        """A section's heading; the rules named from now on are its details."""
        self.details.start(title)
        return f"## {title}"

    def full_groups(self) -> bool:
        """Whether a group is full once it is a canasta: ``melds.group.max_size`` no larger
        than a natural or mixed canasta (then nothing goes onto a group canasta)."""
        most = self.value("melds.group.max_size")
        sizes = (self.value("canastas.natural.size"), self.value("canastas.mixed.size"))
        return most is not None and most <= min(sizes)

    def moot(self, why: str, *paths: str) -> str:
        """Rules the others make moot: named in the details layer only, with why."""
        self.used.update(paths)
        self.details.does_not_apply(why, *paths)
        return ""

    def first_meld_counts(self) -> tuple[Markup, Markup]:
        """What counts toward the first meld's minimum, and what does not (marked), each a
        list in words ("" for none)."""
        what = {
            "initial_meld.several_melds": N_("several melds laid in the same turn, together"),
            "initial_meld.counts_sequences": N_("sequences"),
            "initial_meld.counts_wild_melds": N_("wild melds"),
            "initial_meld.counts_bonuses": N_("canasta bonuses"),
            "initial_meld.counts_top_card": N_("the pile's top card, when the pile is taken"),
        }
        counted: list[Markup] = []
        not_counted: list[Markup] = []
        for path, words in what.items():
            said = Markup(md(_(words))) + self.mark(path)
            (counted if self.value(path) else not_counted).append(said)
        return Markup(_("; ")).join(counted), Markup(_("; ")).join(not_counted)

    def specials(self) -> list[dict[str, str]]:
        """The special canastas in order: name, what each holds, its bonus (escaped)."""
        return [
            {
                "name": md(_(entry["name"])),
                "holds": md(
                    special_composition(entry, self.ruleset.value(f"canastas.{entry['kind']}.name"))
                ),
                "bonus": number(entry["bonus"]),
            }
            for entry in self.value("canastas.special")
        ]

    def card_points(self) -> list[tuple[str, str]]:
        return card_point_rows(self.value("scoring.card_points"))

    def _reason(self, reason: str) -> str:
        """A written reason for players: claim ids as documents, key paths as labels."""
        if reason == DEFAULT_REASON:
            return _(DEFAULT_WORDS)
        return in_words(self.sources.in_words(_(reason))).rstrip(".")

    def assumed(self) -> dict[str, list[dict[str, Any]]]:
        """The rules no source of the ruleset states, grouped by why: each group a reason
        and its rules (question and answer), in the order of the rules; ``shared``: the
        reasons of several rules, ``single``: those of one."""
        groups: dict[str, list[dict[str, str]]] = {}
        for path in leaf_paths():
            prov = self.ruleset.provenance[path]
            if prov.status == "assumed":
                said = answer(path, self.ruleset.value(path))
                if path == "players.seats":
                    said = _("as the table under “{section}” gives").format(
                        section=_("The pack and the deal")
                    )
                groups.setdefault(self._reason(prov.reason), []).append(
                    {"question": question(path), "answer": said}
                )
        found = [{"why": why, "rules": rules} for why, rules in groups.items()]
        return {
            "shared": [group for group in found if len(group["rules"]) > 1],
            "single": [group for group in found if len(group["rules"]) == 1],
        }

    def changes(self) -> list[dict[str, str]]:
        """The rules this ruleset sets differently from its base, as questions and answers."""
        if self.base is None:
            return []
        out = []
        for path in leaf_paths():
            mine, theirs = self.ruleset.value(path), self.base.value(path)
            if mine == theirs:
                continue
            why = self._why(path)
            if path == "players.seats":
                out += [
                    {"path": path, "question": _("The seating of {players}:").format(players=who),
                     "new": new, "old": old,
                     "why": why, "mine": data(mine), "theirs": data(theirs)}
                    for who, new, old in seat_change(mine, theirs)
                ]  # fmt: skip
                continue
            out.append(
                {
                    "path": path,
                    "question": question(path),
                    "old": answer(path, theirs),
                    "new": answer(path, mine),
                    "why": why,
                    "mine": data(mine),
                    "theirs": data(theirs),
                }
            )
        return out

    def _why(self, path: str) -> str:
        """Why the ruleset sets a rule its own way: the house's reason, "assumed" for an
        assumed value (its reason is given with the rules no source states), or ""."""
        prov = self.ruleset.provenance[path]
        if prov.status == "assumed":
            return "assumed"
        return "" if prov.reason in ("", NO_REASON) else self._reason(prov.reason)

    def _documents(self) -> dict[str, list[str]]:
        """The sources named as documents: the ruleset's, those its base does not have
        (a house's own), and its base's."""
        named = self.sources.called
        mine = self.ruleset.sources
        theirs = self.base.sources if self.base is not None else ()
        return {
            "documents": [named(s) for s in mine],
            "own_documents": [named(s) for s in mine if s not in theirs],
            "base_documents": [named(s) for s in theirs],
        }

    def _context(self) -> dict[str, Any]:
        """What the templates are given."""
        changes = self.changes()
        reasons = {c["why"] for c in changes}
        r = self.ruleset
        return {
            "r": r,
            "base": self.base,
            "changes": changes,
            # one reason for every change is said once, above the list
            "why": reasons.pop() if len(reasons) == 1 and len(changes) > 1 else None,
            "assumed": self.assumed(),
            "assumed_count": sum(p.status == "assumed" for p in r.provenance.values()),
            **self._documents(),
            "notes": people_notes(_(r.notes), self.sources) if r.notes else "",
            "title": _(r.name),
            "base_title": _(self.base.name) if self.base is not None else "",
            "raw_notes": committee_notes(r.notes, self.sources),
            "v": self.value,
            "t": self.text,
            "m": self.mark,
            "n": self.number,
            "section": self.section,
            "moot": self.moot,
            "full_groups": self.full_groups,
            "first_meld": self.first_meld_counts,
            "specials": self.specials,
            "card_points": self.card_points,
            "details": self.details,
            "appendix": _(APPENDIX),
            "file": _file(r),
        }

    def _environment(self, *, autoescape: bool) -> jinja2.Environment:
        env = environment("bolivia.authoring", autoescape=autoescape)
        env.filters["md"] = lambda text: md(text).replace(HOUSE, "\ufffd")
        env.filters["cap"] = capital
        env.filters["num"] = number
        env.filters["words"] = join_words
        env.globals.update(
            count=count,
            canasta_kinds=lambda kinds: join_words([_(CANASTA_WORDS[k]) for k in kinds], "or"),
            sentence_of=lambda asked, said: _("{question} {answer}.").format(
                question=asked, answer=capital(said)
            ),
        )
        return env

    def people(self, context: dict[str, Any]) -> str:
        """The people layer, as Markdown (rendering it records the rules each section names)."""
        template = self._environment(autoescape=False).get_template("rulebook.md.j2")
        return current().spaced(place_marks(template.render(**context)))

    def _data(self, context: dict[str, Any]) -> Any:
        """The details layer's Markdown, as macros (``rulebook_data.md.j2``)."""
        template = self._environment(autoescape=False).get_template("rulebook_data.md.j2")
        return template.make_module(context)

    def markdown(self) -> str:
        context = self._context()
        people = self.people(context)
        appendix = str(self._data(context).appendix_text())
        return people.rstrip("\n") + "\n\n" + appendix.strip("\n") + "\n"

    def html(self) -> str:
        context = self._context()
        parts = re.split(r"^## (.+)$", self.people(context), flags=re.M)
        data = self._data(context)
        env = self._environment(autoescape=True)
        tables: Any = env.get_template("tables.html.j2").module  # its macros, as attributes
        cards = tables.cards
        sections = [
            {
                "body": _html(parts[0], cards),
                "summary": _("the ruleset, its sources and its changes as data"),
                "details": _html(str(data.about()), cards),
            }
        ]
        for title, body in zip(parts[1::2], parts[2::2], strict=True):
            keys = self.details.sections.get(title, [])
            sections.append(
                {
                    "body": _html(f"## {title}\n{body}", cards),
                    "summary": ngettext(
                        "the {n} rule of this section as data",
                        "the {n} rules of this section as data",
                        len(keys),
                    ).format(n=number(len(keys))),
                    "details": _html(str(data.keys(title)), cards) if keys else "",
                }
            )
        return env.get_template("rulebook.html.j2").render(
            title=_("{name}: rules").format(name=_(self.ruleset.name)),
            sections=sections,
            summary=_(SUMMARY),
            lang=current().code,
        )


_TABLE = re.compile(r"<table>(.*?)</table>", re.S)
_CELL = re.compile(r"<t[hd]>(.*?)</t[hd]>", re.S)


def _html(markdown: str, cards: Any) -> Markup:
    """A part of the book as HTML, its tables as tables that reflow into cards on a phone."""
    # headings' ids from their own letters, in every script (the default keeps ASCII only:
    # every Chinese or Korean heading would be "_1")
    toc = TocExtension(slugify=slugify_unicode)
    body = str(safe_html(markdown_lib.markdown(markdown, extensions=["tables", toc])))

    def reflowed(table: re.Match[str]) -> str:
        head, _, rows = table.group(1).partition("</thead>")
        headers = [Markup(cell) for cell in _CELL.findall(head)]
        found = [
            [Markup(cell) for cell in _CELL.findall(row)]
            for row in re.findall(r"<tr>(.*?)</tr>", rows, re.S)
        ]
        if len(headers) <= 2:  # a table of pairs fits a phone as it is
            return table.group()
        return str(cards(headers, found))

    return Markup(_TABLE.sub(reflowed, body))


def _file(ruleset: Ruleset) -> str:
    """Where the ruleset's file is: under the package's folder for a shipped one, else its name."""
    if ruleset.path is None:
        return ""
    try:
        return ruleset.path.relative_to(rulesets_dir().parent).as_posix()
    except ValueError:
        return ruleset.path.name


def render_rulebook(
    ruleset: Ruleset, fmt: str = "md", sources: Sources | None = None, lang: str = "en"
) -> str:
    """The rulebook of a ruleset, as Markdown or a self-contained HTML page, in the language
    ``lang`` (see :mod:`bolivia.language`)."""
    with speaking(lang):
        book = Rulebook(ruleset, ruleset.base, sources)
        return book.html() if fmt == "html" else book.markdown()
