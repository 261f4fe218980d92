"""Many hands at once: simulation, matches and replays.

Seeded hands and games over worker processes, the same whatever the number of workers
(``simulate``, its seeds in ``seeds``); bots against bots on the same deals (``match``);
recorded hands played back through the hand's one verify path (``replay``).

May import: :mod:`bolivia.play.bots`, :mod:`bolivia.play.table`, :mod:`bolivia.engine`,
:mod:`bolivia.rules` and the ground floor.
"""
