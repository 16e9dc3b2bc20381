# rackclock: two commands on a fresh Linux machine with python3.11+ and make.
#   make run    set everything up and open the main job
#   make test   set everything up and run the whole test suite (lint, types, tests)
PYTHON ?= python3
UV_VERSION := 0.13.8
TOOLS := .tools
VENV := .venv
UV := $(TOOLS)/bin/uv
# the venue broker's client-id plugin (docs/mqtt.md, "Security"), where rackclock
# venue looks for it: lib/rackclock/ in the environment
ID_PLUGIN := $(VENV)/lib/rackclock/id_owner.so
ID_PLUGIN_SRC := firmware_bridge/venue/broker_plugin/id_owner.c

.PHONY: run test setup system-deps lint typecheck pytest bench clean

$(UV):
	$(PYTHON) -m venv $(TOOLS)
	$(TOOLS)/bin/python -m pip install --quiet "uv==$(UV_VERSION)"

$(VENV)/.synced: $(UV) pyproject.toml uv.lock
	UV_PROJECT_ENVIRONMENT=$(VENV) $(UV) sync --locked --python $(PYTHON)
	touch $@

# without a C compiler or mosquitto's headers, or when it does not compile, it says so
# in one line and goes on: rackclock venue starts without the plugin (and says that
# client ids are not tied to logins). With REQUIRE_SYSTEM_DEPS=1 (CI) it fails instead.
PLUGIN_NEEDS := sudo apt-get install gcc mosquitto-dev libmosquitto-dev, then make setup
$(ID_PLUGIN): $(ID_PLUGIN_SRC) $(VENV)/.synced
	@if ! command -v cc >/dev/null || [ ! -f /usr/include/mosquitto_broker.h ] \
	    || [ ! -f /usr/include/mosquitto.h ]; then \
	  echo "setup: not building the venue broker's client-id plugin ($(PLUGIN_NEEDS))" >&2; \
	  [ "$$REQUIRE_SYSTEM_DEPS" != 1 ]; \
	elif ! err=$$(mkdir -p $(@D) 2>&1 && cc -shared -fPIC -O2 -Wall -Wextra -Werror \
	    -o $@ $(ID_PLUGIN_SRC) 2>&1); then \
	  rm -f $@; \
	  if [ "$$REQUIRE_SYSTEM_DEPS" = 1 ]; then echo "$$err" >&2; exit 1; fi; \
	  echo "setup: the venue broker's client-id plugin did not compile; going on without it: $$(printf '%s\n' "$$err" | head -n 1)" >&2; \
	fi

setup: $(VENV)/.synced $(ID_PLUGIN)

system-deps:
	./scripts/system-deps

run: setup
	$(VENV)/bin/rackclock $(or $(RUN_ARGS),table)

lint: setup
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

typecheck: setup
	$(VENV)/bin/mypy

pytest: system-deps setup
	REQUIRE_SYSTEM_DEPS=1 $(VENV)/bin/pytest $(or $(PYTEST_ARGS),-n 2)

test: system-deps lint typecheck pytest

# every benchmark, then one line each: its figure, its floor, the ratio, met or NOT MET
# (a floor not met does not fail: the machine may be busy; docs/benchmarks.md)
bench: setup
	$(VENV)/bin/python -m bench.suite

clean:
	rm -rf $(VENV) $(TOOLS) .mypy_cache .ruff_cache .pytest_cache .hypothesis
