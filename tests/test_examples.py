"""Every example a user reads runs: README's shell and Python blocks, each command's ``--help`` examples,
and docs/interface.md's library example (issue 13: examples naming files that do not exist).

Shell lines run through ``dimcalc.cli.main`` in a scratch folder whose ``data/`` is the shipped one;
``echo '...' > FILE`` and ``dimcalc ... > FILE`` are honoured, placeholders (``FILE``, ``<command>``)
are filled in.  Benchmark examples run with ``--quick`` added (tiny instances of the same cases: the
full suites take minutes).  ``dimcalc sweep`` examples (minutes of work, one needs a Dask scheduler)
are parsed, not run: their options and the files they read are checked; ``tests/test_sweep_*.py``
run sweeps.  Everything else runs as written.
"""

from __future__ import annotations

import contextlib
import io
import re
import shlex
from pathlib import Path

import pytest

from dimcalc.cli import build_parser, main

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()
INTERFACE = (ROOT / "docs" / "interface.md").read_text()

#: Benchmark runs: run with --quick (the full suites take minutes).
SLOW = ("dimcalc bench --suite",)


#: Examples parsed but not run (see the module docstring).
PARSED_ONLY = ("dimcalc sweep",)


def _quick(line: str) -> str:
    """``line`` with ``--quick`` added to a benchmark command (before a ``> FILE`` redirection, so it is kept), and
    ``--repeat 1`` added to a quick benchmark run that gives no repeat count: the example must run, its timings
    are not read."""
    command, redirect, target = line.partition(" > ")
    if line.startswith(SLOW) and "--quick" not in command:
        command += " --quick"
    if command.startswith("dimcalc bench") and "--quick" in command and "--repeat" not in command:
        command += " --repeat 1"
    return f"{command}{redirect}{target}"


def _blocks(text: str, lang: str) -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", text, flags=re.S)


def _shell_line(line: str) -> str | None:
    line = line.strip()
    if line.startswith("$ "):
        line = line[2:]
    if line.startswith(("dimcalc ", "echo ")) and "<command>" not in line:
        return line.replace(" FILE ", " data/random-multiclass.json ")
    return None


def _readme_steps() -> list[tuple[str, str]]:
    """README's examples in document order: ("sh", one command line) and ("python", one block)."""
    steps = []
    for lang, block in re.findall(r"```(sh|python)\n(.*?)```", README, flags=re.S):
        if lang == "python":
            steps.append(("python", block))
            continue
        for raw in block.splitlines():
            line = _shell_line(raw)
            if line is not None:
                steps.append(("sh", line))
    return steps


def _readme_shell_lines() -> list[str]:
    return [text for lang, text in _readme_steps() if lang == "sh"]


def _help_examples() -> list[tuple[str, list[str]]]:
    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    out = [
        (
            "dimcalc",
            [
                ln.strip()
                for ln in (parser.epilog or "").splitlines()
                if ln.strip().startswith("dimcalc ") and "<command>" not in ln
            ],
        )
    ]
    for name, p in sub.choices.items():
        lines = []
        for ln in (p.epilog or "").splitlines():
            ln = ln.strip()
            if ln.startswith(("dimcalc ", "echo ")):
                lines.append(ln.split("  #")[0].strip())
        out.append((name, lines))
    return out


def _run_line(line: str, folder: Path) -> tuple[int, str, str]:
    words = shlex.split(line, comments=True)
    target = None
    if ">" in words:
        i = words.index(">")
        words, target = words[:i], words[i + 1]
    if words[0] == "echo":
        (folder / target).write_text(" ".join(words[1:]) + "\n")
        return 0, "", ""
    assert words[0] == "dimcalc", line
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(words[1:])
    if target is not None:
        (folder / target).write_text(out.getvalue())
    return status, out.getvalue(), err.getvalue()


@pytest.fixture
def scratch(tmp_path, monkeypatch):
    (tmp_path / "data").symlink_to(ROOT / "data")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _check(lines: list[str], folder: Path) -> None:
    assert lines
    for line in lines:
        if line.startswith(PARSED_ONLY):
            words = shlex.split(line, comments=True)
            build_parser().parse_args(words[1:])  # a bad option exits (SystemExit) and fails the test
            continue
        status, out, err = _run_line(line, folder)
        assert status in (0, 3), (line, status, err)  # 3: an example that shows a time limit stopping
        assert "error" not in err, (line, err)


@pytest.mark.slow  # every README example in turn: make test runs it, make test-fast does not
def test_readme_examples_run(scratch):
    """README's shell lines and Python blocks, in order, in one scratch folder (blocks make files lines use)."""
    steps = _readme_steps()
    assert any(lang == "python" for lang, _ in steps) and any(lang == "sh" for lang, _ in steps)
    for lang, text in steps:
        if lang == "python":
            exec(compile(text, "README.md", "exec"), {})
        else:
            _check([_quick(text)], scratch)


def test_quick_goes_before_a_redirection():
    """A bench example writing a file keeps ``--quick`` (after ``> FILE`` it was dropped: the full suite ran)."""
    assert (
        _quick("dimcalc bench --suite vc --markdown > b.md")
        == "dimcalc bench --suite vc --markdown --quick --repeat 1 > b.md"
    )
    assert _quick("dimcalc bench --suite vc --repeat 3") == "dimcalc bench --suite vc --repeat 3 --quick"
    assert _quick("dimcalc bench --quick") == "dimcalc bench --quick --repeat 1"
    assert _quick("dimcalc bench --list") == "dimcalc bench --list"
    assert _quick("dimcalc check data/x.json > out.txt") == "dimcalc check data/x.json > out.txt"
    line = _quick("dimcalc bench --suite vc --markdown > b.md")
    assert "--quick" in shlex.split(line)[: shlex.split(line).index(">")]


#: Commands whose --help examples take over a minute (bench runs its suites): make test only.
SLOW_EXAMPLES = frozenset({"bench"})


@pytest.mark.parametrize(
    "command",
    [pytest.param(name, marks=pytest.mark.slow) if name in SLOW_EXAMPLES else name for name, _ in _help_examples()],
)
def test_help_examples_run(command, scratch):
    _check([_quick(ln) for ln in dict(_help_examples())[command]], scratch)


def test_help_examples_name_files_that_exist():
    produced = set()
    for _, lines in _help_examples():
        for line in lines:
            words = shlex.split(line, comments=True)
            for flag in ("-o", ">", "--witness-file", "--save-max"):
                if flag in words:
                    produced.add(words[words.index(flag) + 1])
            for w in words:
                if w.startswith("data/"):
                    assert (ROOT / w).exists(), (line, w)
                elif w.endswith((".json", ".csv")) and w not in produced and not w.startswith("-"):
                    assert w in produced or any(w in ln and ("echo" in ln or "-o" in ln) for ln in lines), line
    for path in re.findall(r"data/[\w.-]+\.(?:json|csv)", README + INTERFACE):
        assert (ROOT / path).exists(), path


def test_interface_library_example_runs(monkeypatch):
    monkeypatch.chdir(ROOT)
    code = _blocks(INTERFACE, "python")[0]
    exec(compile(code, "docs/interface.md", "exec"), {})
