# The command index. `make run` and `make test` work on a fresh machine with Python 3.11 or newer
# and make.
# The newest Python 3.11+ on the PATH that actually runs (a pyenv shim of a version that is not
# installed fails its check and is passed over); `make PYTHON=/path/to/python …` chooses another.
PYTHON ?= $(shell for candidate in python3.14 python3.13 python3.12 python3.11 python3; do \
	$$candidate -c 'import sys; sys.exit(sys.version_info < (3, 11))' >/dev/null 2>&1 \
	&& command -v $$candidate && break; done)
VENV := .venv
BIN := $(VENV)/bin
INSTALLED := $(VENV)/.installed
PORT ?= 8000

.PHONY: install run test bench lint format clean which-python

install: $(INSTALLED)

which-python:
	@echo "$(PYTHON)"

$(INSTALLED): pyproject.toml package-lock.json
	@test -n "$(PYTHON)" || { echo "Python 3.11 or newer is needed (none found on the PATH)"; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	@# editable_mode=compat: the project is on the path through a one-line .pth. The default
	@# mode's import hook costs every process, `python -m competition.keizer` too, some 25 ms
	@# of start-up (pathlib, importlib.util, fnmatch, re).
	$(BIN)/pip install --quiet -e '.[dev]' --config-settings editable_mode=compat
	@# Test tools from the npm registry (axe-core), pinned by package-lock.json; never served.
	@if command -v npm >/dev/null; then npm ci --silent --no-audit --no-fund; \
	else echo "npm not found: the accessibility checks of the browser tests will be skipped"; fi
	touch $@

# The site with the demo season, for development (DEBUG on, SQLite unless DATABASE_URL is set).
# `make run CLUB=de-toren`: a second club's demo (dsc_site/demo_clubs.py) in a database of its
# own, db-de-toren.sqlite3: a site holds one club.
CLUB ?= dsc
ifneq ($(CLUB),dsc)
run: export DATABASE_URL ?= sqlite:///$(CURDIR)/db-$(CLUB).sqlite3
endif
run: export DEBUG ?= true
# The links in e-mails and the calendar lead to the port the site is served on.
run: export SITE_URL ?= http://127.0.0.1:$(PORT)
# Each e-mail a line on the console and a whole file in .mail/ (operations/dev_mail.py).
run: export EMAIL_BACKEND ?= operations.dev_mail.EmailBackend
run: $(INSTALLED)
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py load_demo --club $(CLUB)
	@echo "Serving http://127.0.0.1:$(PORT) (the publication worker runs beside it)"
	$(BIN)/python manage.py run_worker --loop & worker=$$!; \
	trap 'kill $$worker 2>/dev/null' EXIT INT TERM; \
	$(BIN)/python manage.py runserver 127.0.0.1:$(PORT)

# One test process per core (pytest-xdist); each has its own test database.
test: $(INSTALLED)
	$(BIN)/pytest -n auto -rs

bench: $(INSTALLED)
	$(BIN)/python -m benchmarks

lint: $(INSTALLED)
	$(BIN)/ruff check .

format: $(INSTALLED)
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

clean:
	rm -rf $(VENV) staticfiles .hypothesis
