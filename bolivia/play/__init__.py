"""Play: hands and games under any ruleset.

Decides how a hand unfolds: the actions (``actions``), the hand's state and its one
verify/apply path (``hand``), the legal actions of a state and the search for a way out
(``moves``), the bots that choose among them (``bots``), recorded hands re-verified
(``replay``), and seeded simulation over worker processes (``simulate``).

Also positions (``position``: a moment of a hand as data, read and written) and the exact
search for a way out (``ways_out``), and the bots' short list of moves (``candidates``).

May import: :mod:`bolivia.engine`, :mod:`bolivia.rules` and the ground floor.
"""
