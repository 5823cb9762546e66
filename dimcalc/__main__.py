"""``python -m dimcalc``: the same as the ``dimcalc`` command."""

from .cli import console_main

if __name__ == "__main__":
    console_main()
