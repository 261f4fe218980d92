"""The variant comparison: how rulesets differ, in rules and in play.

Its modules:

- ``differences``: which rules differ between rulesets, by area.
- ``witnesses``: the smallest situations in which they rule differently.
- ``statistics``: statistics with intervals.
- ``playing``: the report's play on the same deals under each bot.
- ``paired``, ``play_text``: the paired differences between columns.
- ``findings``: everything the report says, computed once as data. Its records are in
  ``comparison``.
- ``report``, with ``templates/``: the report written as Markdown, HTML and JSON.

May import: :mod:`bolivia.play`, :mod:`bolivia.verify`, :mod:`bolivia.engine`,
:mod:`bolivia.rules` and the ground floor.
"""
