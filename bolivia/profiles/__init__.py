"""Engine profiles: what an engine implements, as a ruleset. A battery of questions
(``battery``: the suites' cases and witnesses for one-field variants) is asked of the engine,
the smallest set of rule values that explains its answers is searched (``search``), and the
result is written as a ruleset file that extends the base, with text and JSON summaries
(``report``).

May import: :mod:`bolivia.authoring` and every layer below it; only :mod:`bolivia.console` and
:mod:`bolivia.cli` sit above.
"""
