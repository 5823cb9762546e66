"""Commands inside their limits from the user's view (issue 22 item 2): ``repdim``, ``cover``, ``growth``.

The limit counts from the start of the ``dimcalc`` process (interpreter and imports included), and a
heavy library or compiled kernel is not loaded when what is left of the limit cannot pay for it.  The
tests check the decisions (what was loaded, what was counted), not wall-clock speed; they run in fresh
interpreters where "not loaded yet" matters.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from dimcalc.cli.clock import command_deadline, process_age, slowdown
from dimcalc.reports import repdim_report
from dimcalc.representation import milp

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "data"
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def _python(code: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, env=ENV, timeout=120, check=False
    )


def test_the_dimcalc_process_counts_its_start_up_against_the_limit():
    """In the ``dimcalc`` process the deadline starts when the process did (a second of start-up here)."""
    code = (
        "import sys, time\n"
        "sys.argv[0] = 'dimcalc'\n"
        "time.sleep(1.0)\n"
        "from dimcalc.cli.clock import command_deadline, process_age\n"
        "print(process_age(), command_deadline(1.5).remaining(), command_deadline(0.5).expired())\n"
    )
    proc = _python(code)
    age, left, expired = proc.stdout.split()
    assert float(age) >= 0.95 and float(left) <= 0.55 and expired == "True", proc.stdout + proc.stderr


def test_another_program_gets_the_library_limits_from_now():
    assert command_deadline(None).remaining() is None
    assert 4.9 < command_deadline(5.0).remaining() <= 5.0  # the test process is not dimcalc: from now
    assert slowdown() == 1.0 and process_age() > 0


def test_repdim_does_not_load_the_milp_solver_when_the_time_left_cannot_pay_for_it():
    """``repdim`` with less than :data:`~dimcalc.representation.milp.SCIPY_LOAD_SECONDS` left: no scipy load
    (which took 2-3 s of a 0.5 s limit), C itself as the witness, a stop by the time limit, sound bounds."""
    code = (
        "import sys, json\n"
        "from dimcalc.io.class_files import load\n"
        "from dimcalc.reports import repdim_report\n"
        "H = load(sys.argv[1])\n"
        "r = repdim_report(H, '1/4', time_limit=0.3)\n"
        "rep = r.representation\n"
        "print(json.dumps([ 'scipy.optimize' in sys.modules, r.stopped, r.verified, rep.size_lower,\n"
        "                   rep.size_upper, rep.stats['milp_stopped']]))\n"
    )
    proc = _python(code, str(DATA / "boxes-b2-d2.json"))
    loaded, stopped, verified, lower, upper, milp_stopped = json.loads(proc.stdout)
    assert not loaded and stopped and verified and milp_stopped, proc.stderr
    assert 1 <= lower <= upper == 101  # C itself (101 boxes) represents C


def test_repdim_checks_its_witness_once(monkeypatch):
    """The MILP's witness is certified by ``is_representation`` in the solver; the report does not run the
    same exact check (an LP per concept) a second time past the limit."""
    import dimcalc.witnesses.representation as checker

    calls = []
    real = checker.is_representation

    def counted(*args, **kwargs):
        calls.append(Fraction(args[2]) if len(args) > 2 else kwargs.get("epsilon"))
        return real(*args, **kwargs)

    monkeypatch.setattr(checker, "is_representation", counted)
    monkeypatch.setattr(milp, "is_representation", counted)
    from dimcalc import HypothesisClass

    H = HypothesisClass.from_table([[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]])
    report = repdim_report(H, Fraction(1, 4))
    assert report.verified and report.representation.exact and report.representation.size == 4
    assert calls.count(Fraction(1, 4)) == 1  # (the communication bound represents at 2ε = 1/2 too)
    assert report.representation.verify(H)  # the witness still passes the checker when asked


def test_repdim_milp_time_limit_stop_is_a_stop(monkeypatch):
    """HiGHS stopped by its own time limit (status 1) is a stop by the time limit (exit 3), not "bounds only"."""
    real = milp._milp_smallest

    def stopped(P, C, eps, deadline):
        chosen, lower, _, decided, _ = real(P, C, eps, deadline)
        return chosen, lower, False, decided, True

    monkeypatch.setattr(milp, "_milp_smallest", stopped)
    from dimcalc.cli import main

    assert main(["repdim", str(DATA / "point-functions-8.json"), "--time-limit", "30"]) == 3


@pytest.mark.parametrize("argv0", ["dimcalc", "-c"])
def test_slowdown_is_measured_only_in_the_dimcalc_process(argv0):
    code = (
        f"import sys, time\nsys.argv[0] = {argv0!r}\n"
        "time.sleep(0.6)\n"
        "from dimcalc.cli.clock import slowdown\nprint(slowdown())\n"
    )
    value = float(_python(code).stdout)
    assert (value > 1.0) if argv0 == "dimcalc" else value == 1.0


#: In a fresh interpreter that calls itself ``dimcalc``: a slow start-up (a sleep), then the command, with the
#: library call it makes wrapped to record the ``time_limit`` it was given.
SLOW_START = """
import importlib, json, sys, time
sys.argv[0] = "dimcalc"
time.sleep(float(sys.argv[4]))
module = importlib.import_module("dimcalc.cli." + sys.argv[1])
name = sys.argv[2]
real = getattr(module, name)
given = []

def recorded(*args, **kwargs):
    given.append(kwargs.get("time_limit"))
    return real(*args, **kwargs)

setattr(module, name, recorded)
from dimcalc.cli import main
import contextlib, io
with contextlib.redirect_stdout(io.StringIO()):
    status = main(json.loads(sys.argv[3]))
print(json.dumps([status, given]))
"""

COMMANDS = [
    ("covers", "cover_report", ["cover", str(DATA / "boxes-b2-d2.json"), "--depth", "10"]),
    ("growth", "growth_table", ["growth", str(DATA / "boxes-b2-d2.json")]),
    ("repdim", "repdim_report", ["repdim", str(DATA / "boxes-b2-d2.json")]),
    ("check", "check_class", ["check", str(DATA / "thresholds-15.json")]),
    ("theorems", "theorem_report", ["theorems", str(DATA / "thresholds-15.json")]),
]


# make test-fast runs check; make test runs every command.
@pytest.mark.parametrize(
    ("module", "call", "argv"),
    [c if c[0] == "check" else pytest.param(*c, marks=pytest.mark.slow) for c in COMMANDS],
    ids=[c[0] for c in COMMANDS],
)
def test_every_command_counts_the_start_up_of_its_process(module, call, argv):
    """``--time-limit 1.5`` after a 1.2 s start-up leaves the library call at most the 0.3 s that are left
    (it was given the whole 1.5 s: ``cover`` took 3.95 s at 0.5 s from the user's view)."""
    proc = _python(SLOW_START, module, call, json.dumps([*argv, "--time-limit", "1.5"]), "1.2")
    status, given = json.loads(proc.stdout.strip().splitlines()[-1])
    assert len(given) == 1 and given[0] is not None and given[0] <= 0.31, proc.stderr
    assert status in (0, 3)


def test_sweep_search_keeps_time_aside_to_print_and_write_the_best_class(tmp_path, monkeypatch, capsys):
    """``sweep --search --size 1000x1000x1000 --time-limit 5`` ran 12.9 s: printing and writing the best
    1000 x 1000 class (a second each) came after a search given the whole limit.  The search now gets
    what is left once that output time is kept aside (at most half the limit)."""
    import dimcalc.cli.sweep_modes as modes
    from dimcalc.cli import main

    given = []
    real = modes.local_search

    def recorded(*args, **kwargs):
        given.append(kwargs["total_time"])
        return real(*args, **{**kwargs, "total_time": 1e-3, "time_limit": 1e-3})

    monkeypatch.setattr(modes, "local_search", recorded)
    argv = ["sweep", "--search", "littlestone - vc", "--time-limit", "4", "-o", str(tmp_path / "best.json")]
    assert main([*argv, "--size", "1000x1000x1000"]) in (0, 3)
    assert main([*argv, "--size", "6x4x2", "--force"]) in (0, 3)
    capsys.readouterr()
    big, small = given
    assert big <= 2.0 and 3.9 < small <= 4.0
