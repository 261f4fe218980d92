"""The rulebook: a resolved ruleset written out as rules a table can play from.

One jinja2 template (``templates/rulebook.md.j2``) writes the rules in prose from the data;
every rule value it uses goes through ``v(path)``, which records it, so a test can prove that
every field of the format appears (where a rule is moot under the others, the text says so and
still names it). The HTML page is the same Markdown turned into HTML, in a self-contained page;
user-written text is escaped for Markdown (``bolivia.text.md``), and the HTML is kept to plain
text markup (``bolivia.text.safe_html``: no link, image or script can come of any text). A
ruleset built on another gets a box listing what it changes.
"""

from __future__ import annotations

from typing import Any

import markdown as markdown_lib

from bolivia.rules.model import leaf_paths
from bolivia.rules.phrases import answer, in_words, question, special_composition
from bolivia.rules.ruleset import Ruleset
from bolivia.text import environment, md, safe_html

__all__ = ["Rulebook", "render_rulebook"]


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

    def mark(self, path: str) -> str:
        """`` †`` after an assumed value (no source of the ruleset states it), `` (house
        rule)`` after a house rule, nothing after a value a source states."""
        self.used.add(path)
        status = self.ruleset.provenance[path].status
        return {"house": " (house rule)", "assumed": " †"}.get(status, "")

    def text(self, path: str) -> str:
        """A rule's value in words (the phrase table's answer), marked as :meth:`mark` says."""
        return md(answer(path, self.value(path))) + self.mark(path)

    def number(self, path: str) -> str:
        """A number rule as a figure (``1,500``), marked."""
        return f"{self.value(path):,}" + self.mark(path)

    def first_meld_counts(self) -> tuple[list[str], list[str]]:
        """What counts toward the first meld's minimum, and what does not (marked)."""
        what = {
            "initial_meld.several_melds": "several melds laid in the same turn, together",
            "initial_meld.counts_sequences": "sequences",
            "initial_meld.counts_wild_melds": "wild melds",
            "initial_meld.counts_bonuses": "canasta bonuses",
            "initial_meld.counts_top_card": "the pile's top card, when the pile is taken",
            "initial_meld.counts_pile_rest": "the rest of a taken pile",
        }
        counted: list[str] = []
        not_counted: list[str] = []
        for path, words in what.items():
            (counted if self.value(path) else not_counted).append(words + self.mark(path))
        return counted, not_counted

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
                        "why": in_words(self.ruleset.provenance[path].reason),
                    }
                )
        return out

    def markdown(self) -> str:
        env = environment("bolivia.authoring", autoescape=False)
        env.filters["cap"] = lambda text: text[:1].upper() + text[1:]
        env.filters["num"] = lambda n: f"{n:,}"
        template = env.get_template("rulebook.md.j2")
        return template.render(
            r=self.ruleset,
            base=self.base,
            changes=self.changes(),
            assumed=self.assumed(),
            v=self.value,
            t=self.text,
            m=self.mark,
            n=self.number,
            first_meld=self.first_meld_counts(),
            specials=self.specials(),
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
