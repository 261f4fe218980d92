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

import json
from typing import Any

import markdown as markdown_lib

from bolivia.rules.model import leaf_paths
from bolivia.rules.ruleset import Ruleset
from bolivia.rules.wording import humanize
from bolivia.text import environment, md, safe_html

__all__ = ["Rulebook", "render_rulebook"]


_CLASSES = {"wild": "a wild card", "red_three": "a red three", "black_three": "a black three"}
_WAYS = {
    "natural_pair": "a natural pair",
    "natural_and_wild": "a natural card and a wild card",
    "onto_meld": "putting the top card onto a meld",
}
_PHRASES: dict[str, dict[str, str]] = {
    "deal.upcard_covered_if": _CLASSES,
    "pile.blocked_by_top": _CLASSES,
    "pile.take_frozen": _WAYS,
    "pile.take_unfrozen": _WAYS,
    "pile.frozen_when": {
        "side_not_melded": "the side has not melded yet",
        "contains_wild": "the pile holds a wild card",
        "contains_black_three": "the pile holds a black three",
        "contains_red_three": "the pile holds a red three",
        "always": "always",
    },
    "stock.short_draw": {"take_remaining": "they take what is left", "end_hand": "the hand ends"},
    "going_out.ask_partner": {"never": "not done", "optional": "allowed", "required": "required"},
    "going_out.concealed_when": {
        "player_not_melded": "the player has not melded before",
        "side_not_melded": "the side has not melded before",
    },
    "game.ties": {"draw": "the game is a draw", "play_on": "another hand is played"},
    "melds.black_threes.when": {
        "never": "never",
        "going_out": "only by a player going out",
        "always": "at any time",
    },
    "melds.group.ratio": {
        "any": "any, within the limits",
        "naturals_exceed_wilds": "more natural cards than wild cards",
        "naturals_twice_wilds": "at least twice as many natural cards as wild cards",
    },
}
_JOINERS = {
    "deal.upcard_covered_if": " or ",
    "pile.blocked_by_top": " or ",
    "pile.take_frozen": " or ",
    "pile.take_unfrozen": " or ",
    "pile.frozen_when": "; ",
}


def _phrase(path: str, value: Any) -> str | None:
    if path == "red_threes.plus_when":
        return {
            "side_melded": "the side has melded",
            "going_out_requirement": "the side's melds meet the going-out requirement",
            "always": "always (they never count minus)",
        }.get(value["condition"], f"the side has {value.get('count')} canastas")
    words = _PHRASES.get(path)
    if words is None:
        return None
    if isinstance(value, list):
        return _JOINERS.get(path, ", ").join(words.get(v, str(v)) for v in value) or "nothing"
    return words.get(value) if isinstance(value, str) else None


class Rulebook:
    """Renders one ruleset; ``used`` holds the key paths the text has named."""

    def __init__(self, ruleset: Ruleset, base: Ruleset | None = None) -> None:
        self.ruleset = ruleset
        self.base = base
        self.used: set[str] = set()

    def value(self, path: str) -> Any:
        """The raw JSON value of a rule (recorded as used)."""
        self.used.add(path)
        return self.ruleset.value(path)

    def text(self, path: str) -> str:
        """A rule's value in words, marked when it is a house rule or assumed."""
        raw = self.value(path)
        value = _phrase(path, raw) or humanize(path, raw)
        status = self.ruleset.provenance[path].status
        mark = {"house": " (house rule)", "assumed": ""}.get(status, "")
        return f"{md(value)}{mark}"

    def changes(self) -> list[dict[str, str]]:
        """The rules this ruleset sets differently from its base."""
        if self.base is None:
            return []
        out = []
        for path in leaf_paths():
            mine, theirs = self.ruleset.value(path), self.base.value(path)
            if mine != theirs:
                out.append(
                    {
                        "path": path,
                        "old": humanize(path, theirs),
                        "new": humanize(path, mine),
                        "why": self.ruleset.provenance[path].reason,
                    }
                )
        return out

    def markdown(self) -> str:
        env = environment("bolivia.authoring", autoescape=False)
        template = env.get_template("rulebook.md.j2")
        return template.render(
            r=self.ruleset,
            base=self.base,
            changes=self.changes(),
            v=self.value,
            t=self.text,
            j=json.dumps,
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
