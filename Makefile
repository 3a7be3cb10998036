# The command index. `make run` and `make test` work on a fresh machine with Python 3.11 and make.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
INSTALLED := $(VENV)/.installed
PORT ?= 8000

.PHONY: install run test bench lint format clean

install: $(INSTALLED)

$(INSTALLED): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $@

# The site with the demo season, for development (DEBUG on, SQLite unless DATABASE_URL is set).
run: export DEBUG ?= true
run: $(INSTALLED)
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py load_demo
	@echo "Serving http://127.0.0.1:$(PORT) (the publication worker runs beside it)"
	$(BIN)/python manage.py publish_due_rounds --loop & worker=$$!; \
	trap 'kill $$worker 2>/dev/null' EXIT INT TERM; \
	$(BIN)/python manage.py runserver 127.0.0.1:$(PORT)

test: $(INSTALLED)
	$(BIN)/pytest

bench: $(INSTALLED)
	$(BIN)/python -m benchmarks.keizer
	$(BIN)/python -m benchmarks.site

lint: $(INSTALLED)
	$(BIN)/ruff check .

format: $(INSTALLED)
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

clean:
	rm -rf $(VENV) staticfiles .hypothesis
