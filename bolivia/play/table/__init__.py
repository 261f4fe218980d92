"""The hand's rules: what a player may do, and what it does.

The actions (``actions``); what a hand holds (``state``) and its one verify/apply path
(``verifier`` checks each action, ``hand`` dispatches and applies it); the legal actions of a
state (``moves``) and the exact search for a way out (``ways_out``, with ``places``,
``bounds``, ``runs``, ``signatures``, ``multisets`` and ``starts``; the compiled build answers
the bounds in C, ``_bounds.c``, the Python staying the reference); the bots' short list of
actions worth a look (``candidates``, with ``suit_runs``); a moment of a hand as data
(``position``).

May import: :mod:`bolivia.engine`, :mod:`bolivia.rules` and the ground floor.
"""
