# SPDX-License-Identifier: MIT
# The two commands a newcomer needs: `make demo` (the main job) and `make test` (every test).
# Both install what they need first (scripts/deps.sh), so they work on a fresh Debian 12 machine.
PRESET ?= release
BUILD  := build/$(PRESET)
JOBS   ?= $(shell nproc)

.PHONY: all deps configure build demo test soak bench fuzz install format clean

all: build

deps:
	@bash scripts/deps.sh

configure: deps
	@cmake --preset $(PRESET) >/dev/null

build: configure
	@cmake --build $(BUILD) -j $(JOBS)

demo: build
	@$(BUILD)/tools/critter/critter demo

# Under the asan preset LeakSanitizer skips the third-party leaks listed in tests/lsan.supp.
test: build
	@LSAN_OPTIONS="suppressions=$(CURDIR)/tests/lsan.supp:print_suppressions=0" \
	  ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS)

# The full soak test: SOAK_CREATURES creatures (a controller with a config, legacy rigs, the
# simple player) for SOAK_FRAMES frames with random states, parameters and hostile dt; `make test`
# runs a short one. The default size takes hours; pass smaller numbers for a quicker run.
SOAK_CREATURES ?= 10000
SOAK_FRAMES    ?= 100000
soak: build
	@CRITTER_SOAK_CREATURES=$(SOAK_CREATURES) CRITTER_SOAK_FRAMES=$(SOAK_FRAMES) \
	  $(BUILD)/tests/creature_tests --gtest_filter='Soak.*'

bench: build
	@for b in $(BUILD)/bench/bench_*; do echo "== $$b"; $$b --benchmark_min_time=0.2; done

# Builds the libFuzzer targets (clang, ASan + UBSan; the fuzz preset) and runs each for
# FUZZ_SECONDS; FUZZ_TARGETS picks some (gltf gltf_roundtrip insomniac config expression assimp
# image crit). A crash, leak, timeout or out-of-memory fails it and keeps the input (path printed).
# FUZZ_SEED fixes the mutation sequence; FUZZ_RUNS runs a fixed number of inputs per target
# instead ("2000 expression=90000": a default and per-target counts), as CI does (.ci/run).
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?=
FUZZ_SEED    ?=
FUZZ_RUNS    ?=
fuzz: deps
	@cmake --preset fuzz >/dev/null
	@cmake --build build/fuzz -j $(JOBS)
	@FUZZ_SEED="$(FUZZ_SEED)" FUZZ_RUNS="$(FUZZ_RUNS)" \
	  bash fuzz/run_fuzz.sh build/fuzz $(FUZZ_SECONDS) $(FUZZ_TARGETS)

# Installs the critter and critter-viewer programs, the headers, the libraries, the CMake package
# (find_package(critter)) and critter.pc under PREFIX.
PREFIX ?= /usr/local
install: build
	@cmake --install $(BUILD) --prefix $(PREFIX)

format:
	@git ls-files '*.h' '*.cpp' | xargs clang-format -i

clean:
	@rm -rf build
