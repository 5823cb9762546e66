# dimcalc: two commands set everything up on a fresh machine with Python 3.11+ and make.
#   make demo   create .venv, install dimcalc, check a class shipped in data/
#   make test   create .venv, install with test extras, run the whole suite
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
DEMO   ?= data/thresholds-15.json

.PHONY: demo test test-fast audit bench notebooks install clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed-base: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(VENV)/.installed-base $@

install: $(VENV)/.installed-base

demo: $(VENV)/.installed-base
	$(BIN)/dimcalc check $(DEMO)

test: $(VENV)/.installed-test
	$(BIN)/python -m pytest -q -m "not audit"

test-fast: $(VENV)/.installed-test
	$(BIN)/python -m pytest -q -x -m "not audit and not slow"

audit: $(VENV)/.installed-test
	$(BIN)/python -m pytest -q -m audit

bench: $(VENV)/.installed-base
	$(BIN)/dimcalc bench

notebooks: $(VENV)/.installed-test
	$(BIN)/python scripts/build_notebooks.py
	$(BIN)/python scripts/run_notebooks.py --write

clean:
	rm -rf $(VENV) build *.egg-info
