# Two commands, on a fresh machine with Python 3.11 and make:
#   make run    set everything up, then run the server with a demo table (SQLite default)
#   make test   set everything up, then lint, type-check and run the whole test suite
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-dev

.PHONY: setup run test lint bench lock clean

$(STAMP): requirements/dev.txt pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit("pokerroom needs Python >= 3.11, found " + sys.version.split()[0]) if sys.version_info < (3, 11) else None'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements/dev.txt
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --no-deps -e .
	touch $@

setup: $(STAMP)

run: setup
	$(BIN)/pokerroom serve --demo

lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy --strict engine
	$(BIN)/mypy server bench tests
	$(BIN)/python -m engine.tablegen --check

test: lint
	$(BIN)/pytest

$(VENV)/.installed-bench: $(STAMP) requirements/bench.txt
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements/bench.txt
	touch $@

bench: $(VENV)/.installed-bench
	$(BIN)/python -m bench.evaluator
	$(BIN)/python -m bench.all7
	$(BIN)/python -m bench.engine
	$(BIN)/python -m bench.store
	$(BIN)/python -m bench.server

# Re-pin every dependency (needs uv: pip install uv).
lock:
	uv pip compile pyproject.toml --python-version 3.11 --extra dev -o requirements/dev.txt
	uv pip compile pyproject.toml --python-version 3.11 --extra dev --extra bench -o requirements/bench.txt

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache .hypothesis
