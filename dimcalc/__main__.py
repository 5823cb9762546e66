"""``python -m dimcalc``: the same as the ``dimcalc`` command."""

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
