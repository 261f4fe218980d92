"""``python -m bolivia``: the command line."""

import sys

from bolivia.cli import main

if __name__ == "__main__":
    sys.exit(main())
