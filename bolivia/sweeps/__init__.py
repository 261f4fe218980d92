"""Rule sweeps: what a rule value does to the game. A grid of values for some fields of a
base ruleset (``grid``), every combination a derived ruleset validated as ``bolivia new``
validates it; the same seeded deals played under each, in chunks (``jobs``) run by local
worker processes or a Dask cluster (``backends``), each finished chunk kept in a SQLite store
(``store``) keyed by the resolved rules' digest, the bots and the deals, so that a sweep
resumes and extends without playing anything twice; the measures with intervals, paired with
the base on the same deals (``measures``), and the report (``report`` + ``templates/``).

May import: authoring (house rules), compare (statistics, the report's helpers), play, rules,
the ground floor; Dask only inside ``backends``, and only when a cluster is asked for.
"""
