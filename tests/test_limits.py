"""Every command inside its limits (issue 22 item 2): sizes checked before enumeration, searches
stopped within their time limit with proven bounds, the limit that stopped them named.

Times are measured as the library call's own wall time with a generous margin for the shared
machine; CPU-independent checks (refusals before work) are exact.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from dimcalc.cli import main
from dimcalc.errors import InvalidParameterError

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "data"


@pytest.mark.parametrize("size", ["1000000x1000000x2", "2x100000x3", "3x70x2"])
def test_all_sizes_checked_before_enumeration(size, capsys):
    began = time.process_time()
    assert main(["sweep", "--all", size, "--list"]) == 2
    err = capsys.readouterr().err
    assert "too large to enumerate" in err and err.count("\n") == 1
    assert time.process_time() - began < 1.0  # refused from logarithms, not after computing C(2^n, r)


def test_all_sizes_library_refusal_is_immediate():
    from dimcalc.sweep.canonical import all_classes

    began = time.process_time()
    with pytest.raises(InvalidParameterError, match="too large"):
        next(all_classes(10**6, 10**6, 2))
    assert time.process_time() - began < 1.0


def test_search_stays_within_its_time_limit(tmp_path, capsys):
    """``sweep --search --time-limit S`` bounds the whole search (it bounded each evaluation only)."""
    began = time.monotonic()
    status = main(
        [
            "sweep",
            "--search",
            "littlestone - vc",
            "--size",
            "60x40x2",
            "--restarts",
            "50",
            "--steps",
            "200",
            "--time-limit",
            "2",
            "-o",
            str(tmp_path / "best.json"),
        ]
    )
    took = time.monotonic() - began
    assert status in (0, 3), capsys.readouterr().err
    assert took < 2.0 + 0.5 + 3.0, took  # the limit, its tolerance, and room for a loaded machine
