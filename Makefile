# Lease Lab: `make serve` serves the app, `make test` runs every test layer.
# Every tool version is pinned here, in Cargo.lock (wasm-bindgen) or in package.json
# (npm tools, binaryen's wasm-opt); `make tool-versions` checks that Trunk.toml agrees.

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

TRUNK_VERSION := 0.21.14
WASM_BINDGEN_VERSION := $(shell awk '/^name = "wasm-bindgen"$$/ { getline; gsub(/[^0-9.]/, ""); print; exit }' Cargo.lock)
WASM_OPT_VERSION := $(shell node -p "require('./package.json').devDependencies.binaryen.split('.')[0]" 2>/dev/null)
CHROMIUM := /usr/bin/chromium
CHROMEDRIVER := /usr/bin/chromedriver
FIREFOX := /usr/bin/firefox-esr
GECKODRIVER_VERSION := 0.37.1
GECKODRIVER := $(HOME)/.cargo/bin/geckodriver
PORT ?= 8080

export PATH := $(CURDIR)/node_modules/.bin:$(HOME)/.cargo/bin:$(PATH)
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD := 1
export CARGO_TERM_COLOR := never

.PHONY: help setup setup-test setup-package serve build package test size yew-floor load-timing bench fuzz fuzz-heavy tool-versions clean

help:
	@echo "make serve   build the release bundle and serve it at http://127.0.0.1:$(PORT)/"
	@echo "make test    run every test layer (formatting, lints, native, wasm and end-to-end, each in Chromium and Firefox)"
	@echo "make package the SCORM 1.2 and 2004 course packages, packages/lease-lab-scorm*.zip"
	@echo "make size    each file's raw, gzip and brotli size; fails when a first-load budget is exceeded"
	@echo "make yew-floor  the gzip bytes of the smallest hydrating Yew page, built like the lesson"
	@echo "make load-timing  first paint against a bare page, readable and interactive, and the slow profile (BASELINE=dir compares, LEVERS=1)"
	@echo "make bench   measure the model natively and in wasm, and the playback alone"

# --- installing what is missing (each step is skipped when already done) ---------------

setup: tool-versions
	@rustup target list --installed | grep -qx wasm32-unknown-unknown \
		|| rustup target add wasm32-unknown-unknown
	@if ! wasm-bindgen --version 2>/dev/null | grep -q " $(WASM_BINDGEN_VERSION)$$"; then \
		echo "Installing wasm-bindgen-cli $(WASM_BINDGEN_VERSION) (a few minutes)"; \
		cargo install wasm-bindgen-cli --version $(WASM_BINDGEN_VERSION) --force; \
	fi
	@if ! trunk --version 2>/dev/null | grep -q " $(TRUNK_VERSION)$$"; then \
		echo "Installing Trunk $(TRUNK_VERSION) (about 15 minutes on 2 cores, once)"; \
		cargo install --locked trunk --version $(TRUNK_VERSION) --force; \
	fi
	@if [ ! -x node_modules/.bin/wasm-opt ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then \
		npm ci --no-audit --no-fund; \
	fi

setup-test: setup setup-package
	@if [ ! -x $(CHROMIUM) ] || [ ! -x $(CHROMEDRIVER) ]; then \
		if command -v apt-get >/dev/null && [ "$$(id -u)" = 0 ]; then \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver; \
		else \
			echo "The browser tests need Debian's chromium and chromium-driver:"; \
			echo "  sudo apt-get install chromium chromium-driver"; \
			exit 1; \
		fi; \
	fi
	@if [ ! -x $(FIREFOX) ]; then \
		if command -v apt-get >/dev/null && [ "$$(id -u)" = 0 ]; then \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq firefox-esr; \
		else \
			echo "The Firefox layer needs Debian's firefox-esr:"; \
			echo "  sudo apt-get install firefox-esr"; \
			exit 1; \
		fi; \
	fi
	@if ! $(GECKODRIVER) --version 2>/dev/null | grep -q "^geckodriver $(GECKODRIVER_VERSION)"; then \
		echo "Installing geckodriver $(GECKODRIVER_VERSION) for the wasm tests in Firefox (a few minutes, once)"; \
		cargo install --locked geckodriver --version $(GECKODRIVER_VERSION) --force; \
	fi

# The course packages are zipped with zip, checked with xmllint and unzipped by the tests.
setup-package:
	@if ! command -v xmllint >/dev/null || ! command -v zip >/dev/null || ! command -v unzip >/dev/null; then \
		if command -v apt-get >/dev/null && [ "$$(id -u)" = 0 ]; then \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libxml2-utils zip unzip; \
		else \
			echo "The course packages need xmllint, zip and unzip:"; \
			echo "  sudo apt-get install libxml2-utils zip unzip"; \
			exit 1; \
		fi; \
	fi

tool-versions:
	@grep -q '^wasm_bindgen = "$(WASM_BINDGEN_VERSION)"$$' Trunk.toml \
		|| { echo "Trunk.toml [tools] wasm_bindgen must equal Cargo.lock's wasm-bindgen $(WASM_BINDGEN_VERSION)"; exit 1; }
	@grep -q '^wasm_opt = "version_$(WASM_OPT_VERSION)"$$' Trunk.toml \
		|| { echo "Trunk.toml [tools] wasm_opt must be version_$(WASM_OPT_VERSION), binaryen's version in package.json"; exit 1; }

# --- the two commands ----------------------------------------------------------------------

build: setup
	trunk build --release

serve: build
	node tools/static-server.mjs dist $(PORT)

# SCORM 1.2 and 2004 packages of the release build, manifests checked against the ADL schemas.
package: build setup-package
	node tools/package.mjs dist packages

test: setup-test
	CHROMIUM=$(CHROMIUM) CHROMEDRIVER=$(CHROMEDRIVER) FIREFOX=$(FIREFOX) GECKODRIVER=$(GECKODRIVER) scripts/test-all.sh

# --- measurements --------------------------------------------------------------------------

size: build
	node scripts/engine-size.mjs dist
	@echo
	node scripts/size.mjs dist

# What a hydrating Yew page costs before the lesson's own code and text (scripts/yew-floor).
yew-floor: setup
	scripts/yew-floor.sh

# Alone on the machine, or the figures are noise. BASELINE=<an older dist/> adds the
# Sandbox-link comparison; RUNS=<n> loads each page n times (default 9); LEVERS=1 adds the
# first paint of the page's variants, one lever changed each.
load-timing: setup-test build
	CHROMIUM=$(CHROMIUM) node scripts/load-timing.mjs dist --runs $${RUNS:-9} $${BASELINE:+--baseline $$BASELINE} $${LEVERS:+--levers}

bench: setup-test
	CHROMIUM=$(CHROMIUM) CHROMEDRIVER=$(CHROMEDRIVER) scripts/bench.sh

# Share-link decoding on millions of generated links, optimised (a few minutes); set
# SHARE_FUZZ_CASES and SHARE_FUZZ_SEED to change the run, the seed printed reproduces it.
fuzz:
	SHARE_FUZZ_CASES=$${SHARE_FUZZ_CASES:-3000000} SHARE_FUZZ_SEED=$${SHARE_FUZZ_SEED:-$$(date +%s)} \
		cargo test --profile bench --test share_link decoding_any_text -- --nocapture

# Heavy links (hour-long runs, 10 ms slices, many clients, comparisons) through decode,
# validation, the lab's first bounded simulation and the first render's questions: a
# million by default (tens of minutes); HEAVY_FUZZ_CASES and HEAVY_FUZZ_SEED change the run.
# Reports the worst time per link; the figure means something on a quiet machine only.
fuzz-heavy:
	HEAVY_FUZZ_CASES=$${HEAVY_FUZZ_CASES:-1000000} HEAVY_FUZZ_SEED=$${HEAVY_FUZZ_SEED:-$$(date +%s)} \
		cargo test --profile bench --test heavy_links -- --nocapture

clean:
	cargo clean
	rm -rf dist packages artifacts test-results www/vendor
