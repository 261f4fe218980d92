"""The bots: who chooses among the legal actions.

What a bot is and the bot a spec names (``registry``); random and greedy (``simple``); the
expert, which weighs a position (``expert``, its valuation in ``valuation``, with the tables a
run's positions share in ``tables``; the compiled build works their numbers out in C,
``_core.c``, the Python staying the reference and the pure build's); the search, which plays
each candidate out on sampled deals (``search``, ``sampling``).

May import: :mod:`bolivia.play.table`, :mod:`bolivia.engine`, :mod:`bolivia.rules` and the
ground floor.
"""
