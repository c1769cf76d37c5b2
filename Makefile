# Two commands do everything on a fresh machine (see README):
#   make run    set up, then serve the API on the embedded SQLite store
#   make test   set up, then lint, type-check and run the test suite (all but the tests marked slow)
#   make test-slow   the tests marked slow (many seeds), which make test leaves out
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cksum pyproject.toml | cut -d' ' -f1)

.PHONY: run test test-slow lint types pytest bench coverage clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[dev]"
	rm -f $(VENV)/.installed-*
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/ringside serve

test: lint types pytest coverage

lint: $(STAMP)
	$(BIN)/ruff check .

types: $(STAMP)
	$(BIN)/mypy

pytest: $(STAMP)
	$(BIN)/python -m pytest -n 2 --dist loadgroup

test-slow: $(STAMP)
	$(BIN)/python -m pytest -m slow -n 2 --dist loadgroup

coverage: $(STAMP)
	@if [ -f ../shared/tools/rule_coverage.py ]; then $(BIN)/python ../shared/tools/rule_coverage.py; fi

bench: $(STAMP)
	$(BIN)/python -m pytest benchmarks --benchmark-enable --benchmark-only -p no:xdist

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache
