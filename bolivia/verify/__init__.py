"""Verification of engines: the rules oracle (``oracle``: JSON Lines requests answered by
:mod:`bolivia.engine`, the protocol any engine can speak; ``wire``: a line read as JSON and an
answer written as JSON, both held to RFC 8259) and the conformance runner
(``conformance``) with its case files (``suites/``), run in-process or against another
engine's process (``engines``, whose stderr ``tail`` keeps), its reports (``reporting``: text
and JSON; ``junit``) and ``runner``, ``bolivia conform`` without the command line.

May import: :mod:`bolivia.play` (the oracle answers positions through the hand of play: the
protocol's ``act`` and ``moves``), :mod:`bolivia.engine`, :mod:`bolivia.rules` and the ground
floor.
"""
