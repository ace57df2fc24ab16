# `make run`: install everything and start the app on the embedded default.
# `make test`: install everything and run the whole test suite.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
# Bytecode in a cache outside the checkout. Machines that set PYTHONDONTWRITEBYTECODE (container images do) would
# otherwise compile every module of the app again in each of the hundreds of Python processes the suite starts
# (servers, workers, commands, pytest's assertion rewriting): some 0.25 s of each Django start's 2.5 s of CPU.
export PYTHONPYCACHEPREFIX ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/loop-designer/pycache
unexport PYTHONDONTWRITEBYTECODE
FRONTEND_SOURCES := $(shell find frontend/src frontend/index.html frontend/vite.config.ts frontend/tsconfig.json frontend/eslint.config.js -type f 2>/dev/null)

.PHONY: install frontend run worker test lint-python migrations test-python test-frontend chromium sandbox services bench clean contract api-types

install: $(BIN)/.installed

$(BIN)/.installed: requirements.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --disable-pip-version-check -r requirements.txt
	touch $@

frontend: frontend/dist/index.html

frontend/node_modules/.installed: frontend/package.json frontend/package-lock.json
	cd frontend && npm ci --no-audit --no-fund --loglevel=error
	touch $@

frontend/dist/index.html: frontend/node_modules/.installed $(FRONTEND_SOURCES)
	cd frontend && npm run build --silent

# Served by daphne (HTTP and websockets), as in production. No collectstatic: WhiteNoise serves
# frontend/dist and the apps' static files straight from where they are (WHITENOISE_USE_FINDERS).
run: install frontend sandbox
	$(BIN)/python manage.py migrate --noinput
	@echo "Loop Designer: open http://$(HOST):$(PORT)/"
	@if [ -n "$$REDIS_URL" ] || [ "$$RUNTIME_BACKEND" = "celery" ]; then \
		echo "Celery backend: starting a worker beside the server"; \
		trap 'kill 0' EXIT; \
		$(BIN)/celery -A config worker --loglevel=INFO --concurrency=2 & \
		$(BIN)/daphne -b $(HOST) -p $(PORT) config.asgi:application; \
	else \
		exec $(BIN)/daphne -b $(HOST) -p $(PORT) config.asgi:application; \
	fi

worker: install sandbox
	$(BIN)/celery -A config worker --loglevel=INFO

# Browser tests drive Debian's Chromium headless shell, the benches its full browser; install them when missing.
chromium:
	@command -v chromium >/dev/null 2>&1 && command -v chromium-headless-shell >/dev/null 2>&1 || \
	{ apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium chromium-headless-shell; }

# Agents' `bash` runs under bubblewrap (docs/tools.md); install it when it is missing.
sandbox:
	@command -v bwrap >/dev/null 2>&1 || { apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q bubblewrap; }

# The suite talks to the real Redis and PostgreSQL on this machine; start them if they are down.
services:
	@redis-cli -h 127.0.0.1 ping >/dev/null 2>&1 || redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no
	@pg_isready -h 127.0.0.1 -q 2>/dev/null || pg_ctlcluster --skip-systemctl-redirect $$(ls /etc/postgresql) main start
	@for i in $$(seq 1 30); do redis-cli -h 127.0.0.1 ping >/dev/null 2>&1 && pg_isready -h 127.0.0.1 -q && exit 0; sleep 1; done; echo "Redis or PostgreSQL did not start" >&2; exit 1

# Types, lint and Vitest side by side (tsc and eslint use one core each); each one's words printed whole, in turn.
test-frontend: frontend
	@out=$$(mktemp -d) && trap 'rm -rf "$$out"' EXIT && cd frontend && rc=0 && \
	{ npm run typecheck --silent > "$$out/types" 2>&1 & types=$$!; npm run lint --silent > "$$out/lint" 2>&1 & lint=$$!; \
	  npm test --silent || rc=1; wait $$types || rc=1; wait $$lint || rc=1; } && \
	cat "$$out/types" "$$out/lint" && exit $$rc

# The rules the Python code follows (ruff.toml) and its types (mypy.ini). Neither writes into the checkout: mypy's
# Django plugin reads config/settings_for_type_checks.py, whose data folder is a temporary one.
lint-python: install
	$(BIN)/ruff check .
	$(BIN)/mypy

# Every model change comes with its migration. The test settings give the check a temporary data folder.
migrations: install
	DJANGO_SETTINGS_MODULE=tests.support.settings $(BIN)/python manage.py makemigrations --check --dry-run

# The suite, then how much of designer/ and runtime/ it ran (.coveragerc: lines and branches, and the floor
# it may not fall below). Three parts (pytest.ini's markers, tests/conftest.py):
# 1. the tests that run in the pytest process, three at a time, each worker taking the next test when done
#    (pytest-xdist, --dist worksteal): alone they keep two cores only three-quarters busy (tests that wait on a
#    server's start, a race's deadline), and a fixed split left one worker idle at the end. With coverage, on
#    2026-11-29: -n 2 4:51, -n 2 worksteal 4:31, -n 3 worksteal 4:14 and 4:20, -n 4 worksteal 4:43;
# 2. the live and browser tests, which start their own servers, workers and Chromium: three pytest processes side
#    by side, each with its own coverage data, combined after: tests/e2e, on two xdist workers (each with its own
#    server and Chromium, a file's tests on one: --dist loadfile); the live tests that kill, fill or
#    restart a real part (LIVE_FAULTS: they wait on restarts and slow runs more than they compute); the rest of
#    tests/live. The resume tests, which kill servers and workers, joined the faults when those ended 4.6 minutes
#    before the rest (vmstat: the cores a quarter idle from then on). (Not one xdist run with --dist loadgroup:
#    that ended having run 340 of its 481 tests, here and on CI, with no word of the rest; nor the rest of tests/live
#    on two workers: the API fuzz's generated tests never reported, 43 of 251 did. tests/support/every_test_reported.py
#    now fails a run that loses tests that way.) Each prints its
#    fifteen slowest tests: these set how long `make test` takes. On one worker the browser tests went at their own
#    pace (13:08, the cores 40-65 % idle once the live tests had ended at 10:04); on two: 9:20, the live tests
#    11:34, `make test` 18:43 -> 17:14 at rest (2026-11-29).
# 3. the tests marked serial, which hold the app to a wall-clock limit of its own: alone, with nothing beside them.
# Every part runs, whatever the one before gave. Coverage's data goes to a temporary folder, not into the checkout.
LIVE_FAULTS := tests/live/test_faults_*.py tests/live/test_a_*.py tests/live/test_resume*.py
LIVE_PYTEST := $(BIN)/python -m pytest --cov --cov-report= --cov-fail-under=0 -p no:cacheprovider --durations=15
test-python: install frontend chromium sandbox services
	@covered=$$(mktemp -d) && trap 'rm -rf "$$covered"' EXIT && export COVERAGE_FILE="$$covered/.coverage" && rc=0 && \
	{ $(BIN)/python -m pytest -n 3 --dist worksteal -m 'not serial and not own_servers' --cov --cov-report= --cov-fail-under=0 || rc=1; } && \
	{ COVERAGE_FILE="$$covered/.coverage.faults" $(LIVE_PYTEST) $(LIVE_FAULTS) > "$$covered/faults.log" 2>&1 & faults=$$!; \
	  COVERAGE_FILE="$$covered/.coverage.live" $(LIVE_PYTEST) tests/live $(foreach f,$(LIVE_FAULTS),--ignore-glob='$(f)') \
	    > "$$covered/live.log" 2>&1 & live=$$!; \
	  COVERAGE_FILE="$$covered/.coverage.browser" $(LIVE_PYTEST) -n 2 --dist loadfile tests/e2e || rc=1; \
	  wait $$faults || rc=1; wait $$live || rc=1; \
	  echo "== tests/live: the faults of real parts (run beside tests/e2e)"; cat "$$covered/faults.log"; \
	  echo "== tests/live: the rest (run beside tests/e2e)"; cat "$$covered/live.log"; } && \
	$(BIN)/coverage combine --append -q "$$covered/.coverage.faults" "$$covered/.coverage.live" "$$covered/.coverage.browser" && \
	{ $(BIN)/python -m pytest -m serial --cov --cov-append --cov-report=term || rc=1; } && \
	$(BIN)/coverage json -q -o "$$covered/coverage.json" && \
	$(BIN)/python -c 'import json, sys; t = json.load(open(sys.argv[1]))["totals"]; both = t["percent_covered"]; \
	lines, branches = 100 * t["covered_lines"] / t["num_statements"], 100 * t["covered_branches"] / t["num_branches"]; \
	print(f"designer/ and runtime/ (in-process code): lines {lines:.1f} %, branches {branches:.1f} %, both {both:.1f} %")' \
	"$$covered/coverage.json" && exit $$rc

# The checks that need no server run side by side (each its output whole, once done), then the suite.
test:
	@$(MAKE) --no-print-directory -j3 --output-sync=target lint-python migrations test-frontend
	@$(MAKE) --no-print-directory test-python

# The front end's event types come from runtime/contract.py; a test fails while they are stale.
contract: install
	$(BIN)/python manage.py event_types --write

# The front end's API types come from the API's OpenAPI document (ninja Schemas); a test fails while they are stale.
api-types: install frontend
	$(BIN)/python manage.py api_types --write

# Every benchmark, one after another (15 to 25 minutes, with the machine's load); each prints its figures beside its baseline
# and the load average. The README's table is what they printed last.
BENCHES := validate runtime events editor hostile tools liveview lists bundles mcp durable messaging debugger snapshot evals tracing pins
bench: install services sandbox chromium frontend
	@for b in $(BENCHES); do echo "== bench/$$b.py (load $$(cut -d' ' -f1-3 /proc/loadavg))"; \
		$(BIN)/python bench/$$b.py || exit 1; done

clean:
	rm -rf $(VENV) frontend/node_modules frontend/dist data
