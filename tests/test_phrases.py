"""The phrase table (bolivia/rules/phrases.py): every field of the rule tree and every choice
value has words, and no rendered text (rulebook and report, for every shipped ruleset and a few
house rulesets) lets a raw value, a key path or an unformatted number through."""

from __future__ import annotations

import re
import types
import typing
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from bolivia.authoring.house import derive
from bolivia.authoring.rulebook import Rulebook
from bolivia.rules.library import Library, shipped_library
from bolivia.rules.phrases import PHRASES, answer, sentence
from bolivia.rules.tree import field_at, leaf_paths

from .reading import people_markdown

LIBRARY = shipped_library()


def _annotation(path: str) -> Any:
    found = field_at(path)
    assert found is not None
    record, name = found
    return record.model_fields[name].annotation


def _needed_words(annotation: Any) -> set[str]:
    """The words keys a field's type needs: choice values, ``none``, ``empty``."""
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin is typing.Annotated:
        return _needed_words(args[0])
    if origin is typing.Literal:
        return {str(a) for a in args}
    if origin in (typing.Union, types.UnionType):
        out = {"none"} if type(None) in args else set()
        for arg in args:
            if arg is not type(None):
                out |= _needed_words(arg)
        return out
    if origin is tuple:
        return {"empty"} | _needed_words(args[0])
    if origin is dict:
        return set()
    if annotation is bool:
        return {"true", "false"}
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        out = set()
        for info in annotation.model_fields.values():
            literal = typing.get_args(info.annotation)
            if typing.get_origin(info.annotation) is typing.Literal and len(literal) == 1:
                out.add(str(literal[0]))  # a named choice's name
        return out
    return set()


@pytest.mark.parametrize("path", list(leaf_paths()))
def test_every_field_and_every_choice_has_words(path: str) -> None:
    assert path in PHRASES, f"{path} has no phrase"
    phrase = PHRASES[path]
    assert phrase.label and phrase.question.endswith("?")
    missing = _needed_words(_annotation(path)) - set(phrase.words)
    if path == "initial_meld.bands":  # at least one band
        missing.discard("empty")
    assert not missing, f"{path}: no words for {sorted(missing)}"
    for key, words in phrase.words.items():
        assert words and words == words.strip(), (path, key)


def test_no_phrase_is_left_over() -> None:
    assert set(PHRASES) == set(leaf_paths())


@pytest.mark.parametrize("rid", LIBRARY.ids())
def test_every_shipped_value_reads_as_words(rid: str) -> None:
    ruleset = LIBRARY.load(rid)
    for path in leaf_paths():
        assert answer(path, ruleset.value(path))
        text = sentence(path, ruleset.value(path))  # "May ...? No."
        assert raw_leaks(text) == [], (path, text)


# ------------------------------------------------------------------ the rendered texts

_KEY_PATH = re.compile(r"\b[a-z]+(?:_[a-z]+)*\.[a-z_]+(?:\.[a-z_]+)*\b")
_RAW = re.compile(
    r"\b(?:null|true|false|True|False|None)\b|(?:^|[:(]\s*|at most |among: )none\b"
    r"|\bnone(?=\s*(?:[.;,)]|$))",
    re.MULTILINE,
)
_BARE_NO = re.compile(r"(?:^|[:(]\s*)(?:no|yes)\s*(?:[.;,)]|$)", re.MULTILINE)
_SNAKE = re.compile(r"\b[a-z]+_[a-z_]+\b")
_BIG = re.compile(r"(?<![\d,.])\d{4,}(?![\d,])")
_ODD = re.compile(r"\b1 (?:canastas|cards|points|players|wild cards|hands)\b|at most none")


def raw_leaks(text: str, ids: tuple[str, ...] = ()) -> list[str]:
    """What in a text for people reads as data: a raw value, a key path, snake_case, a
    number of four digits or more without separators, "1 canastas", "at most none"."""
    for rid in sorted(ids, key=len, reverse=True):
        text = text.replace(rid, "RULESET")
    found = []
    for pattern in (_KEY_PATH, _RAW, _BARE_NO, _SNAKE, _BIG, _ODD):
        found += [m.group().strip() for m in pattern.finditer(text)]
    return found


def prose_of_markdown(text: str) -> str:
    """The Markdown a person reads as sentences: code spans, code blocks, HTML comments and
    image links taken out (key paths may stand there, as secondary labels)."""
    text = re.sub(r"```.*?```", " ", text, flags=re.DOTALL)
    text = re.sub(r"`[^`\n]*`", " ", text)
    text = re.sub(r"!\[[^\]]*\]\([^)]*\)", " ", text)
    text = re.sub(r"\]\(#[^)]*\)", "]", text)
    text = re.sub(r"<a id=\"[^\"]*\"></a>", " ", text)
    return re.sub(r"<!--.*?-->", " ", text, flags=re.DOTALL)


def house_rulesets(folder: Path) -> list[Any]:
    settings = [
        ["melds.group.max_wild=null", "going_out.requirement={rule: canastas, count: 1}"],
        ["game.target=10000", "game.hand_cap=null", "pile.take_frozen=[]"],
        ["red_threes.plus_when={condition: canastas, count: 1}", "melds.wild.allowed=false"],
    ]
    out = []
    for n, (base, chosen) in enumerate(
        zip(("bolivia-da", "bolivia-zh", "bolivia-fr"), settings, strict=True)
    ):
        target = folder / f"club{n}.yaml"
        derive(f"club{n}", base, chosen, target, LIBRARY, why="the club's way")
        out.append(Library([folder]).load(target))
    return out


def test_the_rulebooks_read_as_sentences(tmp_path: Path) -> None:
    rulesets = [LIBRARY.load(rid) for rid in LIBRARY.ids()] + house_rulesets(tmp_path)
    ids = (*tuple(r.id for r in rulesets), "canasta", "samba")
    for ruleset in rulesets:
        # the people layer: key paths and values as data stand in the appendix, for committees
        text = prose_of_markdown(people_markdown(Rulebook(ruleset, ruleset.base).markdown()))
        assert raw_leaks(text, ids) == [], ruleset.id


def test_the_committed_report_reads_as_sentences() -> None:
    """The committed report's Markdown and HTML text: rules in words, key paths only in code
    spans and small labels, no raw value, numbers with separators."""
    reports = Path(__file__).resolve().parents[1] / "reports"
    ids = (*LIBRARY.ids(), "canasta", "samba")
    markdown = prose_of_markdown((reports / "comparison.md").read_text(encoding="utf-8"))
    markdown = re.sub(r"\([a-z]+:[a-z0-9-]+(?:, [a-z]+:[a-z0-9-]+)*\)", " ", markdown)
    assert raw_leaks(_without_claims(markdown), ids) == []
    page = (reports / "comparison.html").read_text(encoding="utf-8")
    page = re.sub(r"<svg.*?</svg>|<style>.*?</style>|<pre>.*?</pre>", " ", page, flags=re.DOTALL)
    page = re.sub(r'<span class="key">.*?</span>|<code>.*?</code>', " ", page)
    page = re.sub(r"<[^>]+>", " ", page)
    assert raw_leaks(_without_claims(page), ids) == []


def _without_claims(text: str) -> str:
    """Claim ids (``da:going-out-bonus``) and the oracle's reasons' ids taken out."""
    return re.sub(r"\b[a-z]+:[a-z0-9][a-z0-9-]*", " ", text)


def test_a_canasta_is_named_with_its_article() -> None:
    """``an escalera canasta``, ``a natural canasta``: in the oracle's reason and the words."""
    from bolivia.rules.phrases import a_or_an
    from bolivia.verify.oracle import Oracle

    assert a_or_an("escalera") == "an escalera" and a_or_an("mixed") == "a mixed"
    run = ["4H", "5H", "6H", "7H", "8H", "9H", "10H"]
    answer = Oracle().handle({"id": 1, "op": "meld", "ruleset": "bolivia-da", "cards": run})
    assert answer["ok"] and ", an escalera canasta (" in answer["result"]["reason"], answer
