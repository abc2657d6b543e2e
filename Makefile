# Two commands, on a fresh machine with Python 3.11 and make:
#   make run    set everything up, then run the server with a demo table (SQLite default)
#   make test   set everything up, then lint, type-check and run the whole test suite
#               (installing Debian's chromium for the browser tests if it is missing)
PYTHON   ?= python3
VENV     := .venv
BIN      := $(VENV)/bin
STAMP    := $(VENV)/.installed-dev
CHROMIUM := /usr/bin/chromium
# Where make run serves: make run PORT=9000 HOST=0.0.0.0. Set on make's command line
# only (:=, not ?=), so a HOST or PORT in the environment (tcsh sets HOST) changes nothing.
HOST     := 127.0.0.1
PORT     := 8765

.PHONY: setup run test lint browser bench stress lock clean

$(STAMP): requirements/dev.txt pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit("pokerroom needs Python >= 3.11, found " + sys.version.split()[0]) if sys.version_info < (3, 11) else None'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements/dev.txt
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --no-deps -e .
	touch $@

setup: $(STAMP)

run: setup
	$(BIN)/pokerroom serve --demo --host $(HOST) --port $(PORT)

lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy --strict engine
	$(BIN)/mypy server bench tests
	$(BIN)/python -m engine.tablegen --check

# The browser tests (tests/web) drive Debian's chromium through Playwright; Playwright's
# own browser downloads are never used. DejaVu fonts come with chromium's dependencies;
# fonts-liberation (a recommends, which --no-install-recommends leaves out) gives the
# page's sans-serif the metrics of Arial/Helvetica; fonts-noto-color-emoji draws the chat's
# reactions (without it chromium shows empty boxes in the screenshots). Needs root or sudo.
$(CHROMIUM):
	@echo "make: $@ is missing: installing Debian's chromium for the browser tests"
	@command -v apt-get >/dev/null || { echo "make: $@ is missing and there is no apt-get:" \
		"install Chromium at $@ for the browser tests (tests/web)" >&2; exit 1; }
	@if [ "$$(id -u)" = 0 ]; then sudo=; elif command -v sudo >/dev/null; then sudo=sudo; \
	else echo "make: $@ is missing and installing it needs root or sudo:" \
		"run 'apt-get install chromium' as root" >&2; exit 1; fi; \
	set -x; $$sudo apt-get update -q && $$sudo env DEBIAN_FRONTEND=noninteractive \
		apt-get install -y -q --no-install-recommends chromium fonts-liberation \
		fonts-noto-color-emoji \
	|| { set +x; echo "make: could not install chromium with apt-get (see above)" >&2; exit 1; }
	@test -x $@ || { echo "make: apt-get installed chromium but there is no $@" >&2; exit 1; }

browser: $(CHROMIUM)

# pytest-xdist: a worker a core (tests marked alone have the machine to themselves).
test: browser lint
	$(BIN)/pytest -n auto

$(VENV)/.installed-bench: $(STAMP) requirements/bench.txt
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements/bench.txt
	touch $@

bench: $(VENV)/.installed-bench
	$(BIN)/python -m bench.evaluator
	$(BIN)/python -m bench.all7
	$(BIN)/python -m bench.engine
	$(BIN)/python -m bench.games
	$(BIN)/python -m bench.store
	$(BIN)/python -m bench.server
	$(BIN)/python -m bench.cli

# The fault-injection loops with full counts (CI runs tests/stress and test_restart.py
# with small ones): 2000 idle connections, 200 slowloris sockets, 300 spectators that never
# read, ten crash-restart rounds, 60 s broker cuts under a remote spectator, 50 two-second
# database cuts and a 120 s database blackhole under three fast tables, then each broker
# and tournament test file 50 times alone on the shared Mosquitto.
stress: setup
	POKERROOM_STRESS_RUNS=10 POKERROOM_STRESS_CONNECTIONS=2000 POKERROOM_STRESS_SLOW=200 \
		POKERROOM_STRESS_SLOW_READERS=300 POKERROOM_STRESS_OUTBOX_BYTES=1048576 \
		POKERROOM_STRESS_BROKER_CUT_SECONDS=60 POKERROOM_STRESS_CUTS=50 POKERROOM_STRESS_OUTAGE=120 \
		POKERROOM_STRESS_API_FLOODS=all \
		$(BIN)/pytest tests/stress tests/server/test_restart.py tests/server/test_slumbot_hostile.py \
		-p no:cacheprovider
	$(BIN)/python -m tests.stress.broker_loop --runs 50

# Re-pin every dependency (needs uv: pip install uv).
lock:
	uv pip compile pyproject.toml --python-version 3.11 --extra dev -o requirements/dev.txt
	uv pip compile pyproject.toml --python-version 3.11 --extra dev --extra bench -o requirements/bench.txt
	uv pip compile pyproject.toml --python-version 3.11 -c requirements/dev.txt -o requirements/server.txt

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache .hypothesis artifacts
