"""Play: hands and games under any ruleset.

Three sub-packages, each by what it decides:

- :mod:`bolivia.play.table`: the hand's rules. What a player may do at each moment and what
  it does: the actions, the hand's state and its one verify/apply path, the legal actions
  and the ways out, the bots' short list of them, positions as data.
- :mod:`bolivia.play.bots`: who chooses among the legal actions (random, greedy, expert,
  search).
- :mod:`bolivia.play.batch`: many hands at once. Seeded simulation over worker processes,
  matches between bots, and recorded hands played back and checked.

May import: :mod:`bolivia.engine`, :mod:`bolivia.rules` and the ground floor. Inside,
``batch`` may import ``bots`` and ``table``, ``bots`` may import ``table``.
"""
