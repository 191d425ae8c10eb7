# The two commands a fresh machine needs (see README.md):
#   make serve   install, build the site (strict) and its offline zip, and serve it at http://127.0.0.1:8000
#   make test    install everything (incl. PyTorch CPU and Debian Chromium) and run the whole test suite
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
SITE   ?= site
HOST   ?= 127.0.0.1
PORT   ?= 8000
PYTEST_ARGS ?=
# Test workers (pytest-xdist); each takes a whole test file, so a module's fixtures are built once. Two on two cores
# (a fresh clone's pytest: 600 s on two workers, 696 s on three).
PYTEST_WORKERS ?= 2

export NO_MKDOCS_2_WARNING := 1
export PYTHONDONTWRITEBYTECODE := 1

.PHONY: serve build dev test lint bench check-pages check-snippets chromium java bwrap clean

$(VENV)/.site-installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet .
	touch $@

$(VENV)/.test-installed: $(VENV)/.site-installed
	$(BIN)/pip install --quiet ".[test,torch]"
	touch $@

## build: the hosted site into $(SITE)/ (fails on any warning or bad release page), with the offline zip
build: $(VENV)/.site-installed
	$(BIN)/mkdocs build --strict --site-dir $(SITE)
	$(BIN)/python -m scripts.tools.offline --site-dir $(SITE)

## serve: build, then serve exactly what would be published, as a static host does (the site's 404 page for a
## missing URL, status 404; scripts/tools/serve.py)
serve: build
	$(BIN)/python -m scripts.tools.serve --directory $(SITE) --bind $(HOST) --port $(PORT)

## dev: live-reloading preview while writing
dev: $(VENV)/.site-installed
	$(BIN)/mkdocs serve --dev-addr $(HOST):$(PORT)

## check-pages: validate every release page's front matter without building
check-pages: $(VENV)/.site-installed
	$(BIN)/python -m scripts.checks.pages

## node_modules: the checkers the tests run (axe-core, the Nu HTML checker's vnu.jar) and Lighthouse for
## the benchmark, pinned in package-lock.json. Nothing from here is served to readers.
node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund --ignore-scripts
	touch $@

## java, bwrap, chromium: what the tests need from Debian, each installed if missing. The Nu HTML checker runs on
## Java 11+, the code examples in a bubblewrap sandbox (no network, read-only system, unprivileged), the browser tests
## drive Debian's Chromium (Playwright cannot download one here).
java:
	@$(call apt_if_missing,java)
bwrap:
	@$(call apt_if_missing,bwrap)
chromium:
	@$(call apt_if_missing,chromium)

## system-packages: the three at once, in one apt-get (two apt-gets cannot run at a time)
system-packages:
	@$(call apt_if_missing,java bwrap chromium)

# apt_if_missing: install the Debian package of each command in $(1) that is not on the PATH, with one apt-get.
DEBIAN_PACKAGE_java     := default-jre-headless
DEBIAN_PACKAGE_bwrap    := bubblewrap
DEBIAN_PACKAGE_chromium := chromium
apt_if_missing = missing="$(foreach command,$(1),$$(command -v $(command) >/dev/null 2>&1 || echo $(DEBIAN_PACKAGE_$(command))))"; \
	[ -z "$$(echo $$missing)" ] || { apt-get update -qq && apt-get install -y -qq $$missing >/dev/null; }

## check-snippets: every code example parses, matches its translation, runs on torch / compiles against libtorch.
## Writes to .cache/ and compares with the committed docs/.snippet-status.json, so a changed outcome fails.
check-snippets: $(VENV)/.test-installed bwrap
	$(BIN)/python -m scripts.snippets check --status-file .cache/snippet-status.json
	@cmp -s .cache/snippet-status.json docs/.snippet-status.json || { \
	  echo "docs/.snippet-status.json is stale: run 'python -m scripts.snippets check' and commit it"; \
	  diff docs/.snippet-status.json .cache/snippet-status.json | head -40; exit 1; }

## lint: the code's habits, in seconds: ruff (lint and format) and mypy over scripts/, overrides/ and tests/, and
## zizmor over the GitHub workflows (offline: pinned actions, least permissions, no persisted credentials)
lint: $(VENV)/.test-installed
	$(BIN)/ruff check scripts overrides tests
	$(BIN)/ruff format --check scripts overrides tests
	$(BIN)/mypy
	$(BIN)/zizmor --offline --persona pedantic --no-progress .github/workflows

## test: the whole suite, as CI runs it. What it needs is installed side by side first: pip unpacking PyTorch
## (about a minute, one core) while npm and apt-get fetch theirs.
test:
	$(MAKE) --no-print-directory -j3 --output-sync=target test-needs
	$(MAKE) --no-print-directory lint
	$(BIN)/python -m pytest -n $(PYTEST_WORKERS) --dist loadfile $(PYTEST_ARGS)
	$(MAKE) --no-print-directory check-snippets

.PHONY: test-needs system-packages
test-needs: $(VENV)/.test-installed node_modules/.installed system-packages

## check-upstream: ask PyPI (network) for torch/torchvision/torchaudio files newer than docs/.pypi-evidence.json and
## print what a maintainer must do (exit 1 when the site is behind); UPDATE=1 also rewrites the evidence, dated today
.PHONY: check-upstream
check-upstream: $(VENV)/.site-installed
	$(BIN)/python -m scripts.checks.upstream$(if $(filter 1,$(UPDATE)), --update)

## bench: the figures (build time, scaling, bytes per view, Lighthouse, search); minutes, not a test
bench: $(VENV)/.test-installed node_modules/.installed chromium
	$(BIN)/python -m scripts.bench.site
	$(BIN)/python -m scripts.bench.search --offline

clean:
	rm -rf $(SITE) .cache .pytest_cache
