"""The end of the ``dimcalc`` command (:func:`dimcalc._startup.exit_now`): status, output and exit handlers kept."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _run(script: str, tmp_path: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, cwd=tmp_path)


def test_with_numba_loaded_the_handlers_run_the_streams_flush_and_the_status_is_kept(tmp_path):
    pytest.importorskip("numba")
    script = (
        "import atexit, sys\nimport numba\nfrom dimcalc._startup import exit_now\n"
        "atexit.register(lambda: open('handler-ran', 'w').write('yes'))\n"
        "sys.stdout.write('unflushed output')\nsys.stderr.write('and its error line')\nexit_now(3)\n"
        "print('never here')\n"
    )
    proc = _run(script, tmp_path)
    assert proc.returncode == 3
    assert proc.stdout == "unflushed output" and proc.stderr == "and its error line"
    assert (tmp_path / "handler-ran").read_text() == "yes"


def test_a_running_thread_is_waited_for_as_usual(tmp_path):
    pytest.importorskip("numba")
    script = (
        "import threading, time\nimport numba\nfrom dimcalc._startup import exit_now\n"
        "def late():\n    time.sleep(0.3)\n    print('the thread finished', flush=True)\n"
        "threading.Thread(target=late).start()\nexit_now(0)\n"
    )
    proc = _run(script, tmp_path)
    assert proc.returncode == 0 and proc.stdout == "the thread finished\n"


def test_without_numba_it_is_sys_exit(tmp_path):
    script = (
        "import sys\nfrom dimcalc._startup import exit_now\n"
        "try:\n    exit_now(2)\nexcept SystemExit as stop:\n    print('SystemExit', stop.code, 'numba' in sys.modules)\n"
    )
    proc = _run(script, tmp_path)
    assert proc.stdout.split() == ["SystemExit", "2", "False"]


def test_python_m_dimcalc_prints_everything_and_keeps_its_status(tmp_path):
    edges = tmp_path / "petersen.txt"
    edges.write_text("".join(f"{i} {(i + 1) % 5}\n{i} {i + 5}\n{i + 5} {(i + 2) % 5 + 5}\n" for i in range(5)))
    cmd = [sys.executable, "-m", "dimcalc", "check", str(edges), "--graph", "--dims", "vc", "--json"]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.rstrip().endswith("}") and '"vc"' in proc.stdout
    limited = subprocess.run([*cmd, "--time-limit", "1e-3"], capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert limited.returncode in (0, 3) and limited.stdout.rstrip().endswith("}")
