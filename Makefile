# The README's two commands: `make explore` (main job) and `make test` (whole suite).
# Both set up .venv on first use; nothing else needs to be installed by hand.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
export HF_HUB_OFFLINE := 1

.PHONY: explore test lint bench data

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

explore: $(STAMP)
	$(BIN)/fsnb scan data/large_acquisition

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

test: lint
	$(BIN)/python -m pytest

bench: $(STAMP)
	$(BIN)/python bench/parse.py

data: $(STAMP)
	$(BIN)/python data/generate.py
