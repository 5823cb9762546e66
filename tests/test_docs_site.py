"""The documentation site's sources (``make docs`` builds them): the API reference covers the public API.

The build itself (Sphinx, warnings as errors) runs in CI through ``make docs``; these checks are quick.
"""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import dimcalc

DOCS = Path(__file__).resolve().parent.parent / "docs"
API = DOCS / "api"
#: Packages without a page: the command line (documented by its --help and docs/interface.md), the benchmarks.
NO_PAGE = {"cli", "bench"}


def _documented_modules() -> set[str]:
    text = "\n".join(p.read_text() for p in API.glob("*.md"))
    return set(re.findall(r"\.\. automodule:: dimcalc\.([\w.]+)", text))


def test_every_name_of_dimcalc_all_is_in_the_api_reference() -> None:
    page = (API / "dimcalc.md").read_text()
    documented = set(re.findall(r"\.\. auto(?:function|class):: (\w+)", page))
    modules = _documented_modules()
    for name in dimcalc.__all__:
        obj = getattr(dimcalc, name)
        if inspect.ismodule(obj):
            assert obj.__name__.removeprefix("dimcalc.") in modules, f"no API page for dimcalc.{name}"
        else:
            assert name in documented, f"dimcalc.{name} is missing from docs/api/dimcalc.md"


def test_every_package_has_an_api_page_listed_in_the_index() -> None:
    root = Path(dimcalc.__file__).parent
    packages = {p.parent.name for p in root.glob("*/__init__.py")} - NO_PAGE
    modules = _documented_modules()
    assert packages <= modules, f"packages without an API page: {sorted(packages - modules)}"
    index = (API / "index.md").read_text()
    for page in API.glob("*.md"):
        if page.stem != "index":
            assert f"\n{page.stem}\n" in index, f"docs/api/{page.name} is not in the toctree of docs/api/index.md"


def test_the_site_renders_stored_notebooks_and_links_the_architecture_page() -> None:
    conf = (DOCS / "conf.py").read_text()
    assert 'nb_execution_mode = "off"' in conf
    assert (DOCS / "examples").resolve() == (DOCS.parent / "notebooks").resolve()
    assert "\narchitecture\n" in (DOCS / "index.md").read_text()
