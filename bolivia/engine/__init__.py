"""The rule engine: every rule question, decided by ruleset data alone.

There is one module per rule area:

- ``melds``: which cards make a legal meld, and what a meld becomes as it grows.
- ``groups``: the limits of groups, black threes and wild cards alone.
- ``sequences``: the limits of sequences.
- ``meld``: the meld itself, as a value.
- ``canastas``: which melds are canastas, what each is called and what it pays.
- ``initial_meld``: the first meld's minimum.
- ``pile``: taking the pile or its top card, and what freezes it.
- ``going_out``: what going out needs.
- ``scoring``: what a hand scores.
- ``game_end``: when the game ends.
- ``limits``: the rule values the hot path reads, as plain attributes.

A refusal is an :class:`~bolivia.errors.Illegal` naming the rule and the claims behind it.

May import: :mod:`bolivia.rules` and the ground floor. The oracle and the hand of play both
ask these modules, so the two cannot disagree.
"""
