"""Engine profiles: what an engine implements, as a ruleset.

The engine is asked a battery of questions (``battery``): the suites' cases, and witnesses for
one-field variants. Then ``search`` finds the smallest set of rule values that explains its
answers. ``report`` writes the result as a ruleset file that extends the base, with text and
JSON summaries.

May import: :mod:`bolivia.authoring` and every layer below it. Above it sit the sweeps, the
command line's plumbing and the commands.
"""
