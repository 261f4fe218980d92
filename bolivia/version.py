"""The toolkit's version, in one place: the package, the oracle's ``hello``, the report and the
wheel's metadata (``[tool.hatch.version]``) all read it from here."""

__version__ = "0.1.0"
