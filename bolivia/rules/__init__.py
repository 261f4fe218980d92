"""The rule data: what a rulebook says, as typed, frozen records.

Decides what a ruleset *is*: the rule tree every rulebook choice is a field of (``model``),
ruleset files and their ``extends`` chains (``files``, ``resolution``, ``library``, with the
resolved :class:`~bolivia.rules.ruleset.Ruleset` in ``ruleset``), safe bounded YAML
(``loading``), where each value comes from (``sources``, ``provenance``), rules that cannot
work together (``coherence``), the JSON Schema and field list (``schema``), a ruleset printed
back as YAML or JSON (``rendering``) and every rule in words, a question and its answers
(``phrases``, shared by the report and the rulebook).

May import: the ground floor (:mod:`bolivia.cards`, :mod:`bolivia.errors`,
:mod:`bolivia.resources`, :mod:`bolivia.text`, :mod:`bolivia.version`) only. Nothing here
plays a card.
"""
