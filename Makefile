# Every target that needs the project depends on .venv, so each works as the first command on a fresh machine.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
RUN_STAMP := $(VENV)/.installed-run

.PHONY: install run test lint bench clean mpy-wasm systemd-tools map fast test-fast parsed

# The real MicroPython (WebAssembly port, run by node) for tests/firmware; pinned, kept out of git under build/.
MPY_WASM_DIR := build/micropython-wasm
MPY_WASM := $(MPY_WASM_DIR)/node_modules/@micropython/micropython-webassembly-pyscript/micropython.mjs

# setuptools' editable build warns, in a framed banner that -q does not quiet, that folders named like the package
# may be imported instead of it: the layout (host/conquista) is made so that none is. Filtered for these builds only.
QUIET_BUILD := PYTHONWARNINGS="ignore:Editable installation"

# Two stamps: `run` needs only the runtime (to play), everything else the development tools too (`install`).
$(RUN_STAMP): pyproject.toml setup.py
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(QUIET_BUILD) $(BIN)/python -m pip install -q -e .
	touch $(RUN_STAMP)

$(STAMP): $(RUN_STAMP)
	$(QUIET_BUILD) $(BIN)/python -m pip install -q -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

run: $(RUN_STAMP)
	$(BIN)/conquista sim --rules italian --players 3 --bots blue,yellow

# MicroPython's stubs for the rp2 port, to type-check the firmware against what the Pico really has.
FW_STUBS := build/fw-stubs/machine.pyi

$(FW_STUBS): $(STAMP)
	$(BIN)/python -m pip install -q --no-user --upgrade --target build/fw-stubs micropython-rp2-stubs==1.27.0.post1

lint: install $(FW_STUBS)
	$(BIN)/ruff check host simulator tests benchmarks firmware
	$(BIN)/mypy
	$(BIN)/mypy --config-file firmware/mypy.ini
	$(BIN)/lint-imports

$(MPY_WASM):
	mkdir -p $(MPY_WASM_DIR)
	npm install --prefix $(MPY_WASM_DIR) --no-save --no-audit --no-fund @micropython/micropython-webassembly-pyscript@1.27.0

# Debian's Chromium for the web app's browser tests (Playwright drives it; it never downloads a browser).
CHROMIUM := /usr/bin/chromium

$(CHROMIUM):
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium

# systemd-analyze and systemctl check the boot unit of `conquista service` (tests/service); Debian's systemd package.
systemd-tools:
	@command -v systemd-analyze >/dev/null 2>&1 || ! command -v apt-get >/dev/null 2>&1 || \
		{ SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo -n ); $$SUDO apt-get update -qq && $$SUDO apt-get install -y -q systemd >/dev/null; } || true
	@command -v systemd-analyze >/dev/null 2>&1 || [ -z "$$CI" ] || \
		{ echo "systemd-analyze is missing and could not be installed: apt-get install systemd" >&2; exit 1; }

test: lint $(MPY_WASM) $(CHROMIUM) systemd-tools
	$(BIN)/python -m pytest

mpy-wasm: $(MPY_WASM)

# The public board's world map: web/mapgen draws it from Natural Earth land (world-atlas, public domain) with
# spherical Voronoi cells; its SVG is committed, so only a change to the map or the script needs this (and node).
MAPGEN := build/mapgen
MAPGEN_PACKAGES := world-atlas@2.0.2 d3-geo@3.1.1 d3-geo-projection@4.0.0 d3-geo-voronoi@2.1.0 \
	d3-geo-polygon@2.0.1 topojson-client@3.1.0

map:
	mkdir -p $(MAPGEN)
	npm install --prefix $(MAPGEN) --no-save --no-audit --no-fund $(MAPGEN_PACKAGES)
	node host/conquista/web/mapgen/classic-42.mjs $(abspath $(MAPGEN))/node_modules \
		host/conquista/data/maps/classic-42.json host/conquista/web/static/classic-42.svg

# The package's maps, rulesets and board profiles parsed ahead (host/conquista/data/parsed.py: a board starts without
# parsing them); run after changing one of them (tests/rules/test_parsed_data.py says so), and commit the result.
parsed: $(RUN_STAMP)
	$(BIN)/python -m conquista.data.make_parsed

# Not a prerequisite: benchmarks/run.py installs it (make mpy-wasm) or says how, and the other benchmarks still run.
# PYRISK=DIR (a checkout of chronitis/pyrisk, which no registry serves) adds the side-by-side engine comparison;
# without it bench_pyrisk says so and is skipped.
bench: install
	$(if $(PYRISK),CONQUISTA_PYRISK_DIR=$(PYRISK)) $(BIN)/python benchmarks/run.py

# The optional compiled core (issue 22 §5): mypyc compiles the rules, the bots and the simulate loop into build/fast,
# a copy of the package apart from the sources, so the editable install keeps running the pure ones. Never required;
# a process uses it with PYTHONPATH=build/fast. Rebuilt when a source changed.
FAST_STAMP := build/fast/.built
FAST_SOURCES := $(wildcard host/conquista/rules/*.py host/conquista/bots/*.py) host/conquista/dice/ready_rolls.py \
	benchmarks/build_fast.py

$(FAST_STAMP): $(STAMP) $(FAST_SOURCES)
	$(BIN)/python benchmarks/build_fast.py
	touch $(FAST_STAMP)

fast: $(FAST_STAMP)

# The rules and bots tests against the compiled core (.ci/run runs them after `make test`).
test-fast: $(FAST_STAMP)
	CONQUISTA_EXPECT_COMPILED=1 PYTHONPATH=build/fast $(BIN)/python -m pytest -q -p no:cacheprovider tests/rules tests/bots tests/dice/test_ready_rolls.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .import_linter_cache
