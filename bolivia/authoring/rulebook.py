"""The rulebook: a resolved ruleset written out as rules a table can play from.

One jinja2 template (``templates/rulebook.md.j2``) writes the rules in prose from the data.
Every rule value it uses goes through ``v(path)``, which records it. So a test can prove that
every field of the format appears. Where a rule is moot under the others, the text says so and
still names it.

The HTML page is the same Markdown turned into HTML, in a self-contained page. User-written
text is escaped for Markdown (``bolivia.text.md``). The HTML is kept to plain text markup
(``bolivia.text.safe_html``): no link, image or script can come of any text.

A ruleset built on another gets a box listing what it changes.
"""

from __future__ import annotations

import itertools
import re
from typing import Any

import markdown as markdown_lib
from markupsafe import Markup

from bolivia.rules.model import leaf_paths
from bolivia.rules.phrases import answer, in_words, question, special_composition
from bolivia.rules.resolution import NO_REASON
from bolivia.rules.ruleset import Ruleset
from bolivia.text import environment, md, safe_html, terminal

__all__ = ["Rulebook", "place_marks", "render_rulebook"]

HOUSE, ASSUMED = "\x1e", "\x1f"  # place-holders of the marks, before they are placed
MARKS = {HOUSE: " (house rule)", ASSUMED: " \N{DAGGER}"}
_END = re.compile(r"[.!?:;]\**(?=\s|$)")  # where a sentence ends: its stop, any bold closing


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
    """One sentence with its place-holders gone and its marks once each, before its stop."""
    found = [mark for mark in MARKS if mark in sentence]
    if not found:
        return sentence
    for mark in MARKS:
        sentence = sentence.replace(mark, "")
    marks = "".join(MARKS[mark] for mark in found)
    stop = _END.search(sentence.rstrip(), max(0, len(sentence.rstrip()) - 6))
    at = stop.start() if stop is not None else len(sentence.rstrip())
    return sentence[:at] + marks + sentence[at:]


def place_marks(text: str) -> str:
    """The rulebook's marks, once a sentence: `` (house rule)`` where a sentence states a house
    rule, `` †`` where it states an assumed value; in a table, at each cell's value.

    >>> place_marks(f"Played with 3 decks{HOUSE} and 6 jokers{HOUSE} (162 cards). Twos are wild.")
    'Played with 3 decks and 6 jokers (162 cards) (house rule). Twos are wild.'
    """
    lines = []
    for line in text.split("\n"):
        if line.lstrip().startswith("|"):
            for mark, shown in MARKS.items():
                line = line.replace(mark, shown)
        elif HOUSE in line or ASSUMED in line:
            cuts = [0, *_sentence_ends(line), len(line)]
            line = "".join(_marked(line[a:b]) for a, b in itertools.pairwise(cuts))
        lines.append(line)
    return "\n".join(lines)


class Rulebook:
    """Renders one ruleset; ``used`` holds the key paths the text has named."""

    def __init__(self, ruleset: Ruleset, base: Ruleset | None = None) -> None:
        self.ruleset = ruleset
        self.base = base
        self.used: set[str] = set()

    def value(self, path: str) -> Any:
        """The raw JSON value of a rule (recorded as used); of a table by number of players,
        only the entries for numbers who may sit (an inherited entry for others never
        applies, and a rulebook does not print it)."""
        self.used.add(path)
        found = self.ruleset.value(path)
        if path.endswith("_by_players") and isinstance(found, dict):
            seated = {int(n) for n in self.ruleset.rules.players.seats}
            found = {n: entry for n, entry in found.items() if int(n) in seated}
        return found

    def mark(self, path: str) -> Markup:
        """Where a value is assumed (no source of the ruleset states it) or a house rule: a
        place-holder, which :func:`place_marks` turns into one mark for the sentence."""
        self.used.add(path)
        status = self.ruleset.provenance[path].status
        # trusted markup, so that the templates' escaping of control characters leaves it be
        return Markup({"house": HOUSE, "assumed": ASSUMED}.get(status, ""))

    def text(self, path: str) -> Markup:
        """A rule's value in words (the phrase table's answer), marked as :meth:`mark` says."""
        return Markup(terminal(md(answer(path, self.value(path))), lines=True)) + self.mark(path)

    def number(self, path: str) -> Markup:
        """A number rule as a figure (``1,500``), marked."""
        return Markup(f"{self.value(path):,}") + self.mark(path)

    def first_meld_counts(self) -> tuple[Markup, Markup]:
        """What counts toward the first meld's minimum, and what does not (marked), each a
        list in words ("" for none)."""
        what = {
            "initial_meld.several_melds": "several melds laid in the same turn, together",
            "initial_meld.counts_sequences": "sequences",
            "initial_meld.counts_wild_melds": "wild melds",
            "initial_meld.counts_bonuses": "canasta bonuses",
            "initial_meld.counts_top_card": "the pile's top card, when the pile is taken",
        }
        counted: list[Markup] = []
        not_counted: list[Markup] = []
        for path, words in what.items():
            (counted if self.value(path) else not_counted).append(Markup(words) + self.mark(path))
        return Markup("; ").join(counted), Markup("; ").join(not_counted)

    def specials(self) -> list[dict[str, str]]:
        """The special canastas in order: name, what each holds, its bonus (escaped)."""
        return [
            {
                "name": md(entry["name"]),
                "holds": md(
                    special_composition(entry, self.ruleset.value(f"canastas.{entry['kind']}.name"))
                ),
                "bonus": f"{entry['bonus']:,}",
            }
            for entry in self.value("canastas.special")
        ]

    def assumed(self) -> list[dict[str, str]]:
        """The rules no source of the ruleset states: question, answer, why assumed."""
        out = []
        for path in leaf_paths():
            prov = self.ruleset.provenance[path]
            if prov.status == "assumed":
                out.append(
                    {
                        "question": question(path),
                        "answer": answer(path, self.ruleset.value(path)),
                        "why": in_words(prov.reason),
                    }
                )
        return out

    def changes(self) -> list[dict[str, str]]:
        """The rules this ruleset sets differently from its base, as questions and answers."""
        if self.base is None:
            return []
        out = []
        for path in leaf_paths():
            mine, theirs = self.ruleset.value(path), self.base.value(path)
            if mine != theirs:
                out.append(
                    {
                        "path": path,
                        "question": question(path),
                        "old": answer(path, theirs),
                        "new": answer(path, mine),
                        "why": self._why(path),
                    }
                )
        return out

    def _why(self, path: str) -> str:
        """Why the ruleset sets a rule its own way: the house's reason, or "" for none."""
        reason = self.ruleset.provenance[path].reason
        return "" if reason in ("", NO_REASON) else in_words(reason)

    def markdown(self) -> str:
        env = environment("bolivia.authoring", autoescape=False)
        env.filters["cap"] = lambda text: text[:1].upper() + text[1:]
        env.filters["num"] = lambda n: f"{n:,}"
        template = env.get_template("rulebook.md.j2")
        changes = self.changes()
        reasons = {c["why"] for c in changes}
        return place_marks(
            template.render(
                r=self.ruleset,
                base=self.base,
                changes=changes,
                # one reason for every change is said once, above the list
                why=reasons.pop() if len(reasons) == 1 and len(changes) > 1 else None,
                assumed=self.assumed(),
                v=self.value,
                t=self.text,
                m=self.mark,
                n=self.number,
                first_meld=self.first_meld_counts(),
                specials=self.specials(),
            )
        )

    def html(self) -> str:
        body = markdown_lib.markdown(
            self.markdown(), extensions=["tables", "toc"], output_format="html"
        )
        env = environment("bolivia.authoring", autoescape=True)
        return env.get_template("rulebook.html.j2").render(
            title=f"{self.ruleset.name}: rules", body=safe_html(body)
        )


def render_rulebook(ruleset: Ruleset, fmt: str = "md") -> str:
    """The rulebook of a ruleset, as Markdown or a self-contained HTML page."""
    book = Rulebook(ruleset, ruleset.base)
    return book.html() if fmt == "html" else book.markdown()
