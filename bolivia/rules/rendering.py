"""A resolved ruleset written out: as commented YAML for people (``bolivia show``), as a
standalone ruleset file that loads back to the same ruleset (``bolivia show --standalone``),
and as JSON.

>>> from bolivia.rules.library import shipped_library
>>> text = show_yaml(shipped_library().load("bolivia-da"))
>>> "max_wild: 2  # da:groups-wild-limit, da:pure-wild-exemption" in text
True
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Mapping
from typing import Any

import yaml

from bolivia.language import N_, ngettext, speaking
from bolivia.language import gettext_ as _
from bolivia.rules.loading import number_key, plain
from bolivia.rules.model import Rules
from bolivia.rules.provenance import Alternative, ValueProvenance
from bolivia.rules.ruleset import Ruleset
from bolivia.rules.tree import is_section
from bolivia.text import terminal, yaml_comment, yaml_text

__all__ = ["ruleset_json", "show_yaml", "standalone_yaml"]

_WIDTH = 96


def _folded(text: str) -> list[str] | None:
    """``text`` as the lines of a folded block (``>-``), or None where such a block would not
    read back as ``text`` (a line break YAML knows but ``textwrap`` does not, such as U+2028;
    spaces a fold would lose)."""
    lines = textwrap.wrap(text, _WIDTH - 2, initial_indent="  ", subsequent_indent="  ")
    try:
        again = yaml.safe_load("\n".join(["notes: >-", *lines]))
    except yaml.YAMLError:
        return None
    return lines if isinstance(again, dict) and again.get("notes") == text else None


def _flow(value: Any) -> str:
    """One-line YAML for a value."""
    text = yaml_text(plain(value, key=number_key), default_flow_style=True, width=math.inf)
    return text.removesuffix("\n...\n").strip()


def _scalar_key(key: Any) -> str:
    return _flow(key) if not isinstance(key, int) else str(key)


def _block(value: Any, indent: int) -> list[str]:
    """A leaf value under its key, one item a line (used when the flow form is too long)."""
    pad = " " * indent
    if isinstance(value, Mapping):
        return [
            f"{pad}{_scalar_key(k)}: {_flow(v)}" for k, v in plain(value, key=number_key).items()
        ]
    return [f"{pad}- {_flow(v)}" for v in value]


# the comment above a value, by what it says (the reason, a note, another reading)
_SAYS = {
    "assumed": N_("assumed: {reason}"),
    "house": N_("house rule: {reason}"),
    "note": N_("note: {note}"),
    "alternative": N_("alternative: {value}{where}"),
    "alternative note": N_("alternative: {value}{where} - {note}"),
}


def _comment_lines(prov: ValueProvenance, indent: int) -> list[str]:
    """The comments above a value: why it is assumed or a house's, a note, the other readings
    (their prose in the current language; key paths, values and claims as written)."""
    pad = " " * indent
    head = []
    if prov.status != "stated":
        head.append(_(_SAYS[prov.status]).format(reason=_(prov.reason)))
    if prov.note:
        head.append(_(_SAYS["note"]).format(note=_(prov.note)))
    for alt in prov.alternatives:
        where = f" ({', '.join(alt.claims)})" if alt.claims else ""
        said = _(_SAYS["alternative note" if alt.note else "alternative"])
        value = f"{alt.path} = {alt.value_key}"
        head.append(said.format(value=value, where=where, note=_(alt.note)))
    out = []
    for paragraph in head:
        out.extend(
            textwrap.wrap(
                yaml_comment(paragraph),
                _WIDTH - indent - 2,
                initial_indent=f"{pad}# ",
                subsequent_indent=f"{pad}#   ",
            )
        )
    return out


def _trailer(prov: ValueProvenance) -> str:
    """The comment after a value: its claims, or its standing; whose it is when inherited
    (the words ``assumed``, ``house rule``, ``from`` and ``via`` stay English: this line is
    read against the ruleset files, where the keys are English)."""
    if prov.status == "stated":
        text = ", ".join(prov.claims)
    else:
        text = "assumed" if prov.status == "assumed" else "house rule"
        if prov.claims:
            text += f" [{', '.join(prov.claims)}]"
    if prov.set_in:
        text += f" (from {prov.set_in}" + (f" via {', '.join(prov.via)})" if prov.via else ")")
    return text


def _rules_lines(
    ruleset: Ruleset,
    data: Mapping[str, Any],
    model: type[Rules] | Any,
    prefix: str,
    indent: int,
    comments: bool,
) -> list[str]:
    lines: list[str] = []
    pad = " " * indent
    for name, info in model.model_fields.items():
        key = info.alias or name
        path = f"{prefix}{key}"
        value = data[key]
        if is_section(info.annotation):
            lines.append(f"{pad}{key}:")
            lines.extend(
                _rules_lines(ruleset, value, info.annotation, path + ".", indent + 2, comments)
            )
            continue
        prov = ruleset.provenance[path]
        if comments:
            lines.extend(_comment_lines(prov, indent))
        flow = _flow(value)
        trailer = f"  # {_trailer(prov)}" if comments else ""
        if (
            len(pad) + len(key) + len(flow) + 2 <= _WIDTH
            or not isinstance(value, Mapping | list)
            or not value
        ):
            lines.append(f"{pad}{key}: {flow}{trailer}")
        else:
            lines.append(f"{pad}{key}:{trailer}")
            lines.extend(_block(value, indent + 2))
    return lines


def _meta_lines(ruleset: Ruleset, *, standalone: bool) -> list[str]:
    meta: dict[str, Any] = {"id": ruleset.id, "name": ruleset.name}
    if not standalone and ruleset.extends:
        meta["extends"] = ruleset.extends
    meta["family"] = ruleset.family
    meta["sources"] = list(ruleset.sources)
    lines = [f"{key}: {_flow(value)}" for key, value in meta.items()]
    folded = (
        None if terminal(ruleset.notes, lines=True) != ruleset.notes else _folded(ruleset.notes)
    )
    if folded:
        lines.extend(["notes: >-", *folded])
    elif ruleset.notes:
        lines.append(f"notes: {_flow(ruleset.notes)}")
    return lines


def _counts_line(ruleset: Ruleset) -> str:
    """How many values, stated, assumed, the house's own, and as the base has them."""
    counts = ruleset.counts()
    values = {
        "n": len(ruleset.provenance),
        "stated": counts["stated"],
        "assumed": counts["assumed"],
        "house": counts["house"],
        "inherited": counts["inherited"],
        "base": ruleset.extends,
    }
    if counts["inherited"]:
        said = ngettext(
            "{n} values: {stated} stated by a source, {assumed} assumed, {house} house rule; "
            "{inherited} as {base} has them.",
            "{n} values: {stated} stated by a source, {assumed} assumed, {house} house rules; "
            "{inherited} as {base} has them.",
            counts["house"],
        )
    else:
        said = ngettext(
            "{n} values: {stated} stated by a source, {assumed} assumed, {house} house rule.",
            "{n} values: {stated} stated by a source, {assumed} assumed, {house} house rules.",
            counts["house"],
        )
    return said.format(**values)


def show_yaml(ruleset: Ruleset, lang: str = "en") -> str:
    """The resolved ruleset for a reader: every value with where it comes from. The comments'
    prose is in the language ``lang``; keys, values, claims and the file's own text (name,
    notes) are as written."""
    with speaking(lang):
        return _show_yaml(ruleset)


def _show_yaml(ruleset: Ruleset) -> str:
    chain = " -> ".join(ruleset.chain)
    head = [
        "# "
        + _("{name} ({id}), resolved: {chain}").format(
            name=yaml_comment(_(ruleset.name)), id=ruleset.id, chain=chain
        ),
        "# " + _counts_line(ruleset),
        "# " + _("After each value: the claims it encodes, or 'assumed' (reason above it);"),
        "# " + _("'(from X via C)': inherited from ruleset X, on the word of claim C."),
    ]
    if ruleset.extends_provenance is not None:
        head.extend(
            _comment_lines(ruleset.extends_provenance, 0)
            or [f"# extends: {', '.join(ruleset.extends_provenance.claims)}"]
        )
    body = _rules_lines(ruleset, ruleset.json, Rules, "", 0, comments=True)
    return "\n".join([*head, *_meta_lines(ruleset, standalone=False), "", *body]) + "\n"


# The key under which a value's standing gives its reason, by standing (stated gives none).
_REASON_KEYS = {"assumed": "assumed", "house": "house"}


def _entry(path: str, prov: ValueProvenance) -> dict[str, Any]:
    """A value's provenance as a ruleset file's entry writes it."""
    entry: dict[str, Any] = {}
    if prov.claims:
        entry["claims"] = list(prov.claims)
    if prov.status in _REASON_KEYS:
        entry[_REASON_KEYS[prov.status]] = prov.reason
    if prov.note:
        entry["note"] = prov.note
    if prov.set_in:
        entry["set_in"] = prov.set_in
    if prov.via:
        entry["via"] = list(prov.via)
    if prov.alternatives:
        entry["alternatives"] = [_alternative_entry(path, alt) for alt in prov.alternatives]
    return entry


def _alternative_entry(path: str, alt: Alternative) -> dict[str, Any]:
    """An alternative as an entry writes it: its path only where it is a part of the value."""
    return {
        "value": alt.value,
        **({"path": alt.path} if alt.path != path else {}),
        **({"claims": list(alt.claims)} if alt.claims else {}),
        **({"note": alt.note} if alt.note else {}),
    }


def standalone_yaml(ruleset: Ruleset) -> str:
    """A ruleset file with no ``extends`` that loads back to the same rules and provenance."""
    body = _rules_lines(ruleset, ruleset.json, Rules, "", 0, comments=False)
    prov = {path: _entry(path, p) for path, p in ruleset.provenance.items()}
    provenance = yaml_text({"provenance": plain(prov, key=number_key)}, width=_WIDTH)
    head = [
        f"# {yaml_comment(ruleset.name)}: {' -> '.join(ruleset.chain)}, flattened by "
        "`bolivia show --standalone`."
    ]
    return (
        "\n".join(
            [*head, *_meta_lines(ruleset, standalone=True), "", *body, "", provenance.rstrip()]
        )
        + "\n"
    )


def provenance_json(prov: ValueProvenance) -> dict[str, Any]:
    return {
        "status": prov.status,
        "claims": list(prov.claims),
        "reason": prov.reason,
        "note": prov.note,
        "set_in": prov.set_in or None,
        "via": list(prov.via),
        "alternatives": [
            {"path": alt.path, "value": alt.value, "claims": list(alt.claims), "note": alt.note}
            for alt in prov.alternatives
        ],
    }


def ruleset_json(ruleset: Ruleset) -> dict[str, Any]:
    """Everything about a resolved ruleset as JSON data."""
    return {
        "id": ruleset.id,
        "name": ruleset.name,
        "family": ruleset.family,
        "extends": ruleset.extends,
        "chain": list(ruleset.chain),
        "sources": list(ruleset.sources),
        "notes": ruleset.notes,
        "digest": ruleset.digest,
        "counts": ruleset.counts(),
        "rules": ruleset.json,
        "provenance": {path: provenance_json(p) for path, p in ruleset.provenance.items()},
    }
