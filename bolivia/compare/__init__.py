"""The variant comparison: which rules differ between rulesets, by area (``differences``);
the smallest situations in which they rule differently (``witnesses``); statistics with
intervals (``statistics``); everything the report says, computed once as data
(``findings``); and the report written as Markdown, HTML and JSON (``report``, with
``templates/``).

May import: :mod:`bolivia.play`, :mod:`bolivia.verify`, :mod:`bolivia.engine`,
:mod:`bolivia.rules` and the ground floor.
"""
