"""The variant comparison: which rules differ between rulesets, by area (``differences``);
the smallest situations in which they rule differently (``witnesses``); statistics with
intervals (``statistics``); the report's play on the same deals under each bot
(``playing``) and the paired differences between columns (``paired``, ``play_text``);
everything the report says, computed once as data (``findings``, its records in
``comparison``); and the report written as Markdown, HTML and JSON (``report``, with
``templates/``).

May import: :mod:`bolivia.play`, :mod:`bolivia.verify`, :mod:`bolivia.engine`,
:mod:`bolivia.rules` and the ground floor.
"""
