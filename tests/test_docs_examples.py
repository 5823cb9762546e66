"""The docs' Python examples say what the code gives: every ``expression  # literal`` line is checked.

Each ```` ```python ```` block of the pages below runs in order in one namespace; a line ending in a
comment that parses as a Python literal (``# (2, [1, 3], True)``) must evaluate to that literal.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

DOCS = Path(__file__).parents[1] / "docs"
PAGES = ["vc.md", "covers.md"]
_BLOCK = re.compile(r"```python\n(.*?)```", re.S)


def _claims(page: str):
    """``(code, expected, namespace)`` per claim line; the lines between claims run first, as one piece."""
    namespace: dict = {}
    for block in _BLOCK.findall((DOCS / page).read_text(encoding="utf-8")):
        pending: list[str] = []
        for line in block.splitlines():
            code, _, comment = line.partition("  #")
            try:
                expected = ast.literal_eval(comment.strip())
            except (ValueError, SyntaxError):
                pending.append(line)
                continue
            exec("\n".join(pending), namespace)
            pending = []
            yield code.strip(), expected, namespace
        exec("\n".join(pending), namespace)


@pytest.mark.parametrize("page", PAGES)
def test_doc_examples_give_what_they_say(page: str) -> None:
    checked = 0
    for code, expected, namespace in _claims(page):
        got = eval(code, namespace)
        assert got == expected, (page, code, got, expected)
        checked += 1
    assert checked >= 1
