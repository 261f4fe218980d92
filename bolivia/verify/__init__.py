"""Verification of engines: the rules oracle and the conformance runner.

- ``oracle``: JSON Lines requests answered by :mod:`bolivia.engine`. This is the protocol
  any engine can speak.
- ``wire``: a line read as JSON and an answer written as JSON, both held to RFC 8259.
- ``conformance``: the conformance runner, with its case files in ``suites/``. It runs
  in-process or against another engine's process.
- ``engines``: another engine's process. ``tail`` keeps its stderr.
- ``reporting``: the run's reports, as text and JSON. ``junit``: as JUnit XML.
- ``runner``: ``bolivia conform`` without the command line.

May import: :mod:`bolivia.play`, :mod:`bolivia.engine`, :mod:`bolivia.rules` and the ground
floor. The oracle answers positions through the hand of play: the protocol's ``act`` and
``moves``.
"""
