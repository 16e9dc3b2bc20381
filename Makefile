# rackclock: two commands on a fresh Linux machine with python3.11+ and make.
#   make run    set everything up and open the main job
#   make test   set everything up and run the whole test suite (lint, types, tests)
PYTHON ?= python3
UV_VERSION := 0.13.8
TOOLS := .tools
VENV := .venv
UV := $(TOOLS)/bin/uv

.PHONY: run test setup system-deps lint typecheck pytest bench clean

$(UV):
	$(PYTHON) -m venv $(TOOLS)
	$(TOOLS)/bin/python -m pip install --quiet "uv==$(UV_VERSION)"

$(VENV)/.synced: $(UV) pyproject.toml uv.lock
	UV_PROJECT_ENVIRONMENT=$(VENV) $(UV) sync --locked --python $(PYTHON)
	touch $@

setup: $(VENV)/.synced

system-deps:
	./scripts/system-deps

run: setup
	$(VENV)/bin/rackclock $(or $(RUN_ARGS),table)

lint: setup
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

typecheck: setup
	$(VENV)/bin/mypy

pytest: setup system-deps
	REQUIRE_SYSTEM_DEPS=1 $(VENV)/bin/pytest $(or $(PYTEST_ARGS),-n 2)

test: lint typecheck pytest

bench: setup
	$(VENV)/bin/python -m bench.gcg
	$(VENV)/bin/python -m bench.lexicon
	$(VENV)/bin/python -m bench.replay
	$(VENV)/bin/python -m bench.press
	$(VENV)/bin/python -m bench.pairing
	$(VENV)/bin/python -m bench.event

clean:
	rm -rf $(VENV) $(TOOLS) .mypy_cache .ruff_cache .pytest_cache .hypothesis
