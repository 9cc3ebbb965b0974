# Two commands on a fresh machine:  make run  |  make test
# Re-running is fast: each install step has a stamp that only its inputs invalidate.

PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV   := .venv
BIN    := $(VENV)/bin
FRONT  := frontend
PY_STAMP    := $(VENV)/.installed
NODE_STAMP  := $(FRONT)/node_modules/.installed
FRONT_BUILD := $(FRONT)/dist/index.html
FRONT_SRC   := $(shell find $(FRONT)/src $(FRONT)/public -type f 2>/dev/null) \
               $(wildcard $(FRONT)/index.html $(FRONT)/vite.config.ts $(FRONT)/tsconfig.json)

export EXCHANGE_ENV ?= development

.PHONY: run test loadtest install test-python test-frontend lint seed i18n clean

run: install $(FRONT_BUILD)
	exec $(BIN)/exchange up

test: install $(FRONT_BUILD)
	$(BIN)/mypy  # the type checker over actors, store, serve, config ([tool.mypy] in pyproject.toml)
	cd $(FRONT) && npm test --silent
	cd $(FRONT) && npm run size:home --silent  # the home page's gzip JS against its 250 KB budget
	EXCHANGE_ENV=test $(BIN)/pytest

install: $(PY_STAMP) $(NODE_STAMP)

$(PY_STAMP): pyproject.toml constraints.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --disable-pip-version-check -c constraints.txt -e '.[dev]'
	touch $@

$(NODE_STAMP): $(FRONT)/package.json $(FRONT)/package-lock.json
	cd $(FRONT) && npm ci --no-audit --no-fund --loglevel=error
	touch $@

$(FRONT_BUILD): $(NODE_STAMP) $(FRONT_SRC)
	cd $(FRONT) && npm run build --silent

# Against a running instance in development mode (make run in another terminal): a headless, bounded
# Locust run that prints requests/s, failures and percentiles per request type (WS = push delivery).
LOAD_HOST  ?= http://127.0.0.1:8000
LOAD_USERS ?= 40
LOAD_RATE  ?= 4
LOAD_TIME  ?= 5m
loadtest: install
	$(BIN)/locust -f loadtest/locustfile.py --headless --host $(LOAD_HOST) -u $(LOAD_USERS) -r $(LOAD_RATE) \
		-t $(LOAD_TIME) --stop-timeout 10 --only-summary

lint: install
	$(BIN)/ruff check actors serve store config tests bench loadtest
	$(BIN)/ruff format --check actors serve store config tests bench loadtest
	$(BIN)/mypy

seed: install
	$(BIN)/exchange seed

# Re-extract server messages and merge them into every catalogue (then translate the new entries).
i18n: install
	$(BIN)/pybabel -q extract -k N_ --no-location --omit-header -o config/locales/messages.pot actors serve store
	$(BIN)/pybabel -q update -i config/locales/messages.pot -d config/locales -D messages --no-fuzzy-matching

clean:
	rm -rf $(VENV) $(FRONT)/node_modules $(FRONT)/dist var/test
