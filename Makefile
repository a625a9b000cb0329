# The two commands of the README's quick start: `make run` and `make test`.
# Both install any missing Debian package first, then configure and build in release mode.
BUILD ?= build
JOBS  ?= $(shell nproc)
ARIADNE = $(BUILD)/ariadne

.PHONY: all deps configure build run test test-quick bench bench-engines bench-cores clean

all: build

deps:
	@scripts/install-deps.sh

configure: deps
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release >/dev/null

build: configure
	@cmake --build $(BUILD) -j$(JOBS)

# Two bundled examples: one linearizable (prints its witness), one not (prints the
# offending operations). The second exits 1 by design, which is not a failure here.
run: build
	@echo; echo '$$ ariadne check corpus/classic/lecture-example-1.edn --model register'
	@$(ARIADNE) check corpus/classic/lecture-example-1.edn --model register
	@echo; echo '$$ ariadne check corpus/classic/worked-example-abcd.edn --model register --init 0'
	@$(ARIADNE) check corpus/classic/worked-example-abcd.edn --model register --init 0; \
	  status=$$?; [ $$status -eq 1 ] || { echo "unexpected exit status $$status"; exit 1; }

test: build
	@cd $(BUILD) && ctest --output-on-failure -j$(JOBS)

# Skips the suites labelled slow (the corpora and the long differential runs).
test-quick: build
	@cd $(BUILD) && ctest --output-on-failure -j$(JOBS) -LE slow

bench: build
	@scripts/bench.py --ariadne $(ARIADNE)

# Each engine alone and the race, side by side: crash storms, Porcupine's c50-bad per
# key, and the race's cost on the easy corpora. Takes about 20 minutes (timeouts of 60 s).
bench-engines: build
	@scripts/bench_engines.py --ariadne $(ARIADNE)

# Minimal cores and proofs for every refuted row of the shared corpora (about 2 minutes).
# DRAT_TRIM=/path/to/drat-trim checks each proof with drat-trim too.
bench-cores: build
	@scripts/bench_cores.py --ariadne $(ARIADNE) $(if $(DRAT_TRIM),--drat-trim $(DRAT_TRIM))

clean:
	@rm -rf $(BUILD)
