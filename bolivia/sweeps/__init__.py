"""Rule sweeps: what a rule value does to the game.

Its modules:

- ``grid``: a grid of values for some fields of a base ruleset. Every combination is a
  derived ruleset, validated as ``bolivia new`` validates it.
- ``jobs``: the same seeded deals played under each combination, in chunks.
- ``backends``: local worker processes or a Dask cluster, which run the chunks.
- ``store``: a SQLite store that keeps each finished chunk. Its key is the resolved rules'
  digest, the bots and the deals. So a sweep resumes and extends without playing anything
  twice.
- ``measures``: the measures with intervals, paired with the base on the same deals.
- ``words``: the varied rules and their values in words, through the rules' phrase table.
- ``report``, with ``templates/``: the report; ``plots``: its figures, one a measure.
- ``summary``: the table the command prints, within 100 columns.

May import: authoring (house rules), compare (statistics, the report's helpers), play, rules,
the ground floor. Dask is imported only inside ``backends``, and only when a cluster is asked
for.
"""
