"""Standard output for the duration of a command: a write failure is reported as such."""

from __future__ import annotations

import errno
import os
import sys
from typing import Any

__all__ = ["OutputError", "CheckedStdout", "discard_stdout"]


class OutputError(Exception):
    """Writing to standard output failed (disk full, closed descriptor, broken pipe)."""

    def __init__(self, exc: OSError) -> None:
        super().__init__(str(exc))
        self.exc = exc


#: Plain spellings of the symbols dimcalc prints, for a standard output that cannot encode them
#: (anything else left over is written as a backslash escape, never an error).
_PLAIN = str.maketrans(
    {
        "→": "->",
        "←": "<-",
        "≤": "<=",
        "≥": ">=",
        "≠": "!=",
        "×": "x",
        "·": "*",
        "—": "--",
        "–": "-",
        "…": "...",
        "Ψ": "Psi",
        "ψ": "psi",
        "ε": "eps",
        "α": "alpha",
        "β": "beta",
        "δ": "delta",
        "§": "S",
        "⌈": "ceil(",
        "⌉": ")",
        "⌊": "floor(",
        "⌋": ")",
        "√": "sqrt",
        "∞": "inf",
        "±": "+-",
        "Ω": "Omega",
        "Θ": "Theta",
    }
)


class CheckedStdout:
    """``sys.stdout`` for the duration of a command: a write failure becomes :class:`OutputError`,
    so it is reported as such rather than as an internal error.  A closed standard output
    (``sys.stdout is None``) fails on the first write instead of swallowing the output."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        if self._stream is None:
            raise OutputError(OSError(errno.EBADF, "standard output is closed"))
        try:
            return self._stream.write(text)
        except UnicodeEncodeError:  # an encoding without these characters (PYTHONIOENCODING=ascii, a C locale)
            encoding = getattr(self._stream, "encoding", None) or "ascii"
            safe = text.translate(_PLAIN).encode(encoding, "backslashreplace").decode(encoding)
            try:
                return self._stream.write(safe)
            except OSError as exc:
                raise OutputError(exc) from None
        except OSError as exc:
            raise OutputError(exc) from None

    def flush(self) -> None:
        if self._stream is None:
            return
        try:
            self._stream.flush()
        except OSError as exc:
            raise OutputError(exc) from None

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def discard_stdout() -> None:
    """Point descriptor 1 at /dev/null so the interpreter's final flush of what could not be
    written does not fail again (with a second message and exit status 120)."""
    try:
        fd = os.open(os.devnull, os.O_WRONLY)
        os.dup2(fd, sys.__stdout__.fileno() if sys.__stdout__ is not None else 1)
        os.close(fd)
    except (OSError, ValueError, AttributeError):
        pass
