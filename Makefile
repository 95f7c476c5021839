# Every target that needs the project depends on .venv, so each works as the first command on a fresh machine.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install run test lint bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

run: install
	$(BIN)/conquista sim --rules italian --players 3 --bots 1,2

lint: install
	$(BIN)/ruff check host simulator tests benchmarks
	$(BIN)/mypy

test: lint
	$(BIN)/python -m pytest

bench: install
	$(BIN)/python benchmarks/run.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
