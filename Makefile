# dimcalc: two commands set everything up on a fresh machine with Python 3.11+ and make.
#   make demo   create .venv, install dimcalc, check a class shipped in data/
#   make test   create .venv, install with test extras, lint (ruff, mypy), run the whole suite
#   make docs   the documentation site (Sphinx) in docs/_build/html, warnings as errors
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
DEMO   ?= data/thresholds-15.json

# pytest-xdist workers for make test / make test-fast (`make test JOBS=1` runs in one process).
JOBS   ?= auto
# Tests marked with one xdist_group share a worker (a notebook's tests share its one execution).
DIST   ?= --dist loadgroup
LINTED := dimcalc tests scripts benchmarks notebooks docs/conf.py

.PHONY: demo test test-fast lint audit bench notebooks docs install clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# After installing, and before the tests, the compiled searches (numba: the dense VC kernel and the sparse
# set-system kernels) are built once into their disk cache when their sources changed: solvers with a time
# limit then load them in half a second instead of compiling them for several, and the test workers (and
# the processes they start) load them instead of each compiling them again.
WARM   := $(BIN)/python -c "from dimcalc.vc import closure, kernel, sparse_jit; \
	kernel.cached() or kernel.warm(); sparse_jit.cached() or sparse_jit.warm_up(); closure.warm()"

$(VENV)/.installed-base: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	$(WARM)
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test]'
	$(WARM)
	touch $(VENV)/.installed-base $@

$(VENV)/.installed-docs: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test,docs]'
	$(WARM)
	touch $(VENV)/.installed-base $(VENV)/.installed-test $@

install: $(VENV)/.installed-base

demo: $(VENV)/.installed-base
	$(BIN)/dimcalc check $(DEMO)

lint: $(VENV)/.installed-test
	$(BIN)/ruff check $(LINTED)
	$(BIN)/ruff format --check $(LINTED)
	$(BIN)/mypy

# Everything but the full audits: lint, then the unit, property and doctest suites, the reduced
# audits (marked slow) and the notebooks (marked notebooks), on $(JOBS) xdist workers.
test: lint
	$(WARM)
	$(BIN)/python -m pytest -q -n $(JOBS) $(DIST) -m "not audit" --durations=15

test-fast: $(VENV)/.installed-test
	$(WARM)
	DIMCALC_HYPOTHESIS_PROFILE=fast $(BIN)/python -m pytest -q -x -n $(JOBS) $(DIST) -m "not audit and not slow and not notebooks"

audit: $(VENV)/.installed-test
	$(BIN)/python -m pytest -q -m audit

bench: $(VENV)/.installed-base
	$(BIN)/dimcalc bench

# notebooks/NN-name.py (jupytext percent format) is the source of notebooks/NN-name.ipynb:
# sync each pair (the newer side wins, outputs are kept), then execute and store the outputs.
notebooks: $(VENV)/.installed-test
	$(BIN)/jupytext --sync notebooks/[0-9]*.py
	$(BIN)/python scripts/run_notebooks.py --write

# The site: the guides (docs/*.md), the API reference from the docstrings (docs/api/), the notebooks
# with their stored outputs (never re-executed). -E rereads every page, so every warning shows; -W makes
# a warning an error (broken internal links included: a Markdown link to a missing page or anchor).
DOCS_OUT ?= docs/_build/html
docs: $(VENV)/.installed-docs
	$(BIN)/python -m sphinx -E -b html -W --keep-going -q docs $(DOCS_OUT)

clean:
	rm -rf $(VENV) build *.egg-info docs/_build
