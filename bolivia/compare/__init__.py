"""The variant comparison: how rulesets differ, in rules and in play.

Its modules:

- ``differences``: which rules differ between rulesets, by area.
- ``witnesses``: the smallest situations in which they rule differently.
- ``statistics``: statistics with intervals.
- ``playing``: the report's play on the same deals under each bot; ``matches``: a match's
  figures.
- ``paired``, ``play_text``: the paired differences between columns.
- ``findings``: everything the report says, computed once as data. Its records are in
  ``comparison``.
- ``summary``: the first page, the differences ranked by their effect.
- ``situations``: witnesses laid out as a player sees them.
- ``context``: what the templates print.
- ``report``, with ``templates/``: the report written as Markdown, HTML and JSON.

May import: :mod:`bolivia.play`, :mod:`bolivia.verify`, :mod:`bolivia.engine`,
:mod:`bolivia.rules` and the ground floor.
"""
