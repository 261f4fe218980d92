"""The rule engine: every rule question decided by ruleset data alone, one module per rule
area -- which melds are legal and what they are (``melds``), the first meld's minimum
(``initial_meld``), taking the pile or its top card and what freezes it (``pile``), what going
out needs (``going_out``), what a hand scores (``scoring``), when the game ends (``game_end``);
the rule values the hot path reads, as plain attributes (``limits``).
A refusal is an :class:`~bolivia.errors.Illegal` naming the rule and the claims behind it.

May import: :mod:`bolivia.rules` and the ground floor. The oracle and the hand of play both
ask these modules, so the two cannot disagree.
"""
