"""Writing rules of one's own: house rulesets derived from a base (``house``), what a valid
ruleset may still get wrong (``lint``), and the rulebook a table plays from (``rulebook``,
with ``templates/``).

May import: :mod:`bolivia.compare` and every layer below it; only :mod:`bolivia.cli` sits
above.
"""
