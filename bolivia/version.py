"""The toolkit's version, in one place: the package, the oracle's ``hello``, the report and the
wheel's metadata (``[tool.hatch.version]``) all read it from here; and which build runs."""

__version__ = "0.1.0"


def compiled() -> bool:
    """Whether the hot modules run compiled with mypyc (the default build) or as Python source
    (built with ``BOLIVIA_PURE=1``, or run from a checkout), so that benchmarks and CI can say
    which build ran: ``bolivia --version`` says it too.

    >>> compiled() in (True, False)
    True
    """
    from importlib.util import find_spec

    spec = find_spec("bolivia.cards")  # found, not imported: the command line's start is light
    return spec is not None and str(spec.origin).endswith((".so", ".pyd"))
