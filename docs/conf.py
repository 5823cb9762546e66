"""Sphinx configuration of dimcalc's documentation site (``make docs`` builds it into ``docs/_build/html``).

The guides are the Markdown files of ``docs/`` (myst-parser); the API reference
(``docs/api/``) is generated from the numpydoc docstrings (autodoc + numpydoc);
the notebooks are rendered by myst-nb from the committed ``notebooks/*.ipynb``
with their stored outputs, never re-executed.  Warnings are errors
(``sphinx-build -W --keep-going``).
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path
from typing import Any

DOCS = Path(__file__).resolve().parent
sys.path.insert(0, str(DOCS.parent))
os.environ.setdefault("MPLBACKEND", "Agg")

import dimcalc  # noqa: E402

project = "dimcalc"
author = "the dimcalc authors"
copyright = "the dimcalc authors"  # noqa: A001
version = release = dimcalc.__version__

extensions = [
    "myst_nb",  # Markdown guides (myst-parser, which myst-nb loads) and the notebooks
    "sphinx.ext.autodoc",
    "sphinx.ext.mathjax",
    "sphinx.ext.viewcode",
    "numpydoc",
]

# The guides are docs/*.md; the notebooks are linked in from notebooks/ by docs/notebooks/*.
source_suffix = {".md": "myst-nb", ".ipynb": "myst-nb", ".rst": "restructuredtext"}
exclude_patterns = ["_build", "README.md", "Thumbs.db", ".DS_Store", "**.ipynb_checkpoints", "jupyter_execute"]
root_doc = "index"

# Notebooks: rendered with their stored outputs, never executed while building.
nb_execution_mode = "off"
nb_merge_streams = True
myst_enable_extensions = ["dollarmath", "colon_fence", "deflist"]
myst_heading_anchors = 3

# API reference: numpydoc sections; class members listed by autodoc, not by numpydoc's tables.
autodoc_default_options = {"members": True, "show-inheritance": False}
autodoc_member_order = "bysource"
autodoc_typehints = "none"
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_validation_checks: set[str] = set()

# An unreferenced entry of a References list is fine; interface.md shows JSON with placeholders
# (TREE, RESULT) that the JSON lexer cannot colour.
suppress_warnings = ["ref.citation", "misc.highlighting_failure"]

html_theme = "pydata_sphinx_theme"
html_title = f"dimcalc {release}"
html_theme_options = {"navigation_with_keys": False, "show_toc_level": 2}
html_static_path: list[str] = []

#: Pages the index lists when they exist (written in parallel with the site): their toctree is dropped otherwise.
OPTIONAL_PAGES = ("architecture",)
_SUBSTITUTION = re.compile(r"(?<![\w|\\])\|(\w{1,12})\|(?![\w|_])")


def _drop_missing_pages(app: Any, docname: str, source: list[str]) -> None:
    """The index without the toctree of an optional page that does not exist (yet)."""
    if docname != "index":
        return
    for page in OPTIONAL_PAGES:
        if not (DOCS / f"{page}.md").exists():
            source[0] = re.sub(r"```\{toctree\}[^`]*\n" + page + r"\n```\n", "", source[0])


def _no_substitutions(line: str) -> str:
    """``|H|`` outside double backquotes is the size of H, not a reST substitution: escape its bars."""
    parts = line.split("``")
    return "``".join(_SUBSTITUTION.sub(r"\|\1\|", p) if i % 2 == 0 else p for i, p in enumerate(parts))


_SECTION_UNDERLINE = re.compile(r"^(-{3,}|={3,}|~{3,})\s*$")
_CITE_DEF = re.compile(r"^\s*\.\. \[([^\]]+)\]")
_CITE_REF = re.compile(r"\[([A-Za-z][\w-]*)\]_")


def _module_sections_as_rubrics(app: Any, what: str, name: str, obj: Any, options: Any, lines: list[str]) -> None:
    """Docstring clean-ups for the site (the docstrings themselves stay as they are for ``help()``).

    * A module docstring's sections ("Examples", "References", ...) become rubrics: on a page that
      documents several modules, section titles would clash as labels.
    * ``|H|`` (the size of a class) is text, not a reST substitution.
    * numpydoc scopes citations to one docstring: a ``[X]_`` whose ``.. [X]`` is in another docstring
      (the module's) is written as plain text ``X`` instead of a broken link.
    """
    if what == "module":
        out: list[str] = []
        for line in lines:
            if _SECTION_UNDERLINE.match(line) and out and out[-1].strip() and not out[-1].startswith(" "):
                out[-1] = f".. rubric:: {out[-1].strip()}"
                out.append("")
                continue
            out.append(line)
        lines[:] = out
    lines[:] = [line if line.lstrip().startswith((">>>", "...")) else _no_substitutions(line) for line in lines]
    defined = {m.group(1) for line in lines if (m := _CITE_DEF.match(line))}
    lines[:] = [_CITE_REF.sub(lambda m: m.group(0) if m.group(1) in defined else m.group(1), line) for line in lines]


def setup(app: Any) -> None:
    app.connect("autodoc-process-docstring", _module_sections_as_rubrics, priority=400)
    app.connect("source-read", _drop_missing_pages)
