"""The package layout: moved modules still import under their old names, for one release."""

from __future__ import annotations

import importlib
import sys
import warnings

import pytest

import dimcalc


@pytest.mark.parametrize("old", sorted(dimcalc.MOVED_MODULES))
def test_moved_module_imports_under_its_old_name(old: str) -> None:
    new = importlib.import_module(f"dimcalc.{dimcalc.MOVED_MODULES[old]}")
    sys.modules.pop(f"dimcalc.{old}", None)  # imported by an earlier test: import it afresh
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        module = importlib.import_module(f"dimcalc.{old}")
    assert module is new
    moved = [w for w in caught if issubclass(w.category, FutureWarning)]
    if old == "operations":  # public (docs/classes.md): kept for good, no warning
        assert moved == []
    else:
        assert moved and dimcalc.MOVED_MODULES[old] in str(moved[0].message)


def test_unknown_module_still_fails() -> None:
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("dimcalc.no_such_module")
