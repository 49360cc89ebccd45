# The README's two commands: `make explore` (main job) and `make test` (whole suite).
# Both set up .venv on first use; nothing else needs to be installed by hand.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
LLM ?= offline
QUESTION ?= Who is the CTO and what is their retention bonus?
export HF_HUB_OFFLINE := 1

.PHONY: explore test lint bench data

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

explore: $(STAMP)
	$(BIN)/fsnb explore "$(QUESTION)" data/large_acquisition --llm $(LLM)

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

test: lint
	bash .ci/browser-deps
	$(BIN)/python -m pytest -n auto --dist loadfile  # every core; a file's tests stay together

bench: $(STAMP)
	$(BIN)/python bench/parse.py
	$(BIN)/python bench/quality.py
	$(BIN)/python bench/index.py
	$(BIN)/python bench/fs.py
	$(BIN)/python bench/extract.py

data: $(STAMP)
	$(BIN)/python data/generate.py
