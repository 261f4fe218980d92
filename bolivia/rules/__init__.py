"""The rule data: what a rulebook says, as typed, frozen records.

Decides what a ruleset *is*. Its modules:

- ``model``: the rule tree. Every rulebook choice is a field of it.
- ``files``, ``resolution``, ``library``: ruleset files and their ``extends`` chains.
- ``ruleset``: the resolved :class:`~bolivia.rules.ruleset.Ruleset`.
- ``loading``: safe, bounded YAML.
- ``sources``, ``provenance``: where each value comes from.
- ``coherence``: rules that cannot work together.
- ``schema``: the JSON Schema and the field list.
- ``rendering``: a ruleset printed back as YAML or JSON.
- ``edits``: values set by key path (``--set``), lists appended to.
- ``variants``: one-field variants, a few other values for every field.
- ``phrases``: every rule in words, a question and its answers. The report and the
  rulebook share them.

May import: the ground floor (:mod:`bolivia.cards`, :mod:`bolivia.errors`,
:mod:`bolivia.resources`, :mod:`bolivia.text`, :mod:`bolivia.version`) only. Nothing here
plays a card.
"""
