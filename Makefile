# The two commands of the README's quick start: `make run` and `make test`.
# Both install any missing Debian package first, then configure and build in release mode.
# `make run` builds the command line alone and needs no npm registry; `make test` also
# installs the browser test's npm packages (scripts/install-deps.sh).
BUILD ?= build
JOBS  ?= $(shell nproc)
ARIADNE = $(BUILD)/ariadne
# The fuzz targets (fuzz/, docs/fuzzing.md): their own clang build, instrumented.
FUZZ_BUILD ?= build-fuzz
# Seconds each fuzz target runs in `make test` (fuzz-smoke), and in `make fuzz`.
FUZZ_SMOKE_SECONDS ?= 8
FUZZ_SECONDS ?= 3600
# ON makes every compiler warning an error, in the release, debug and fuzz builds (CI).
WERROR ?= OFF
# The Debug build with libstdc++'s assertions (test-debug) and the configure-only tree
# whose compile_commands.json clang-tidy reads (tidy).
DEBUG_BUILD ?= build-debug
TIDY_BUILD ?= build-tidy
# The folders `make tidy` reads, as a regular expression: every layer of the library
# and the command line.
TIDY_DIRS = base|history|models|search|encoder|certify|solvers|engines|refute|explain|portfolio|capi|generators|systems|report|explore|answer|batch|follow|cli

.PHONY: all deps debian-deps npm-deps configure build run test test-quick test-debug tidy lint-js \
        fuzz-configure fuzz-build fuzz-smoke fuzz \
        bench bench-engines bench-cores bench-unique bench-readers bench-sequential bench-frontier bench-small clean

all: build

# Debian's packages and the npm packages of tests/browser; debian-deps and npm-deps
# install one kind alone.
deps: debian-deps npm-deps

debian-deps:
	@scripts/install-deps.sh --debian-only

npm-deps: debian-deps
	@scripts/install-deps.sh --npm-only

configure: debian-deps
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release -DARIADNE_WARNINGS_AS_ERRORS=$(WERROR) >/dev/null

build: configure
	@cmake --build $(BUILD) -j$(JOBS)

# Two bundled examples: one linearizable (prints its witness), one not (prints the
# offending operations). The second exits 1 by design, which is not a failure here.
# Builds the command line alone, not the test suite.
run: configure
	@cmake --build $(BUILD) -j$(JOBS) --target ariadne-cli
	@echo; echo '$$ ariadne check corpus/classic/lecture-example-1.edn --model register'
	@$(ARIADNE) check corpus/classic/lecture-example-1.edn --model register
	@echo; echo '$$ ariadne check corpus/classic/worked-example-abcd.edn --model register --init 0'
	@$(ARIADNE) check corpus/classic/worked-example-abcd.edn --model register --init 0; \
	  status=$$?; [ $$status -eq 1 ] || { echo "unexpected exit status $$status"; exit 1; }

# The test suite, then a short run of every fuzz target under ASan and UBSan
# (docs/fuzzing.md, "What it costs in CI"). The fuzz build starts at once, at the
# lowest priority: it takes only the CPU that the release build and ctest leave idle,
# so the tests' timings are not disturbed, and what is left of it runs after ctest.
# Its log is shown only if it fails. The fuzz run goes on even when a test failed, so
# one CI run reports both.
test: npm-deps configure fuzz-configure
	@status=0; \
	nice -n 19 cmake --build $(FUZZ_BUILD) -j$(JOBS) >$(FUZZ_BUILD)/build.log 2>&1 & fuzz_build=$$!; \
	if cmake --build $(BUILD) -j$(JOBS); then \
	  (cd $(BUILD) && ctest --output-on-failure -j$(JOBS)) || status=1; \
	else \
	  status=1; \
	fi; \
	if wait $$fuzz_build; then \
	  fuzz/run.sh --build $(FUZZ_BUILD) --seconds $(FUZZ_SMOKE_SECONDS) --parallel $(JOBS) || status=1; \
	else \
	  cat $(FUZZ_BUILD)/build.log; echo "make test: the fuzz build failed"; status=1; \
	fi; \
	exit $$status

# Skips the suites labelled slow (the corpora and the long differential runs) and the
# test bed's real clusters (label testbed).
test-quick: build
	@cd $(BUILD) && ctest --output-on-failure -j$(JOBS) -LE 'slow|testbed'

# The quick tests (test-quick's) on a Debug build with libstdc++'s assertions
# (_GLIBCXX_ASSERTIONS: a checked operator[] and front() of std::vector, std::string,
# std::span and the like), which the release build never checks, so an out-of-range
# index aborts with its place instead of reading past the end. At -O1, as the asan
# preset (docs/sanitizers.md): at -O0 the engines run several times slower, and the
# tests whose limits race an engine's speed (a memory limit that must be reached before
# a 20 s timeout) fail for that alone. At -O1 GCC 12 warns -Warray-bounds and
# -Wstringop-overflow inside std::string's inlined memcpy (its bug 105651, a false
# positive the tests turn off in the release build too), hence those two off here.
# CI runs it after `make test`. Measured on the shared 2-core machine: the build 14 min
# wall (9 min of CPU), the quick tests 4 min (3.6 min of CPU).
test-debug: debian-deps
	@cmake -S . -B $(DEBUG_BUILD) -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG='-g -O1' \
	  -DCMAKE_CXX_FLAGS='-D_GLIBCXX_ASSERTIONS -Wno-array-bounds -Wno-stringop-overflow' \
	  -DARIADNE_WARNINGS_AS_ERRORS=$(WERROR) >/dev/null
	@cmake --build $(DEBUG_BUILD) -j$(JOBS)
	@cd $(DEBUG_BUILD) && ctest --output-on-failure -j$(JOBS) -LE 'slow|testbed'

# clang-tidy 14 with the checks of .clang-tidy over the library and the command line
# (TIDY_DIRS; their headers too), every finding an error. It reads the compile commands
# of a tree configured for clang and without the unity build, so that each file is
# checked as itself; nothing is compiled. It takes 21.5 min of CPU (measured: 159 files,
# about 8 s each), so about 11 min on 2 free cores; 31 min wall on the shared machine.
tidy: debian-deps
	@CC=clang-14 CXX=clang++-14 cmake -S . -B $(TIDY_BUILD) -DARIADNE_UNITY_BUILD=OFF -DBUILD_TESTING=OFF >/dev/null
	@run-clang-tidy-14 -quiet -p $(TIDY_BUILD) -j $(JOBS) -header-filter='^$(CURDIR)/' \
	  '^$(CURDIR)/($(TIDY_DIRS))/' >$(TIDY_BUILD)/tidy.log 2>&1 \
	  || { sed 's/\x1b\[[0-9;]*m//g' $(TIDY_BUILD)/tidy.log \
	         | grep -v '^clang-tidy-14 \|warnings\? generated\.$$\|^Suppressed \|^Use -header-filter'; \
	       echo "make tidy: clang-tidy found the above (whole log: $(TIDY_BUILD)/tidy.log)"; exit 1; }

# ESLint's recommended rules over the report page's script (tests/browser/eslint.config.mjs),
# every warning a failure. ESLint comes from tests/browser's lockfile (npm-deps: its 88
# packages install in about 7 s). The lint itself takes about 3 s (1 s of CPU).
lint-js: npm-deps
	@tests/browser/node_modules/.bin/eslint --config tests/browser/eslint.config.mjs --max-warnings 0 \
	  report/page/report.js

fuzz-configure: debian-deps
	@CC=clang-14 CXX=clang++-14 cmake -S fuzz -B $(FUZZ_BUILD) -DARIADNE_WARNINGS_AS_ERRORS=$(WERROR) >/dev/null

fuzz-build: fuzz-configure
	@cmake --build $(FUZZ_BUILD) -j$(JOBS)

# What `make test` runs after ctest: every fuzz target for FUZZ_SMOKE_SECONDS.
fuzz-smoke: fuzz-build
	@fuzz/run.sh --build $(FUZZ_BUILD) --seconds $(FUZZ_SMOKE_SECONDS) --parallel $(JOBS)

# A long run (an hour a target by default, two at a time: about 4 hours), from every
# corpus file whatever its size; docs/fuzzing.md says what to do with what it finds.
fuzz: fuzz-build
	@fuzz/run.sh --build $(FUZZ_BUILD) --seconds $(FUZZ_SECONDS) --parallel $(JOBS) --max-seed-bytes 1000000

bench: build
	@scripts/bench.py --ariadne $(ARIADNE)

# Small and keyed histories (docs/performance.md, "Small histories"): Knossos' corpus,
# 10,000 generated histories of 6 to 20 ops, Porcupine's kv and etcd logs, the mutex
# core. OLD=path/to/another/ariadne measures a second build alternately with this one.
bench-small: build
	@scripts/bench_small.py --ariadne $(ARIADNE) --cache $(BUILD)/small-cache $(if $(OLD),--old $(OLD))

# Each engine alone and the race, side by side: crash storms, Porcupine's c50-bad per
# key, and the race's cost on the easy corpora. Takes about 20 minutes (timeouts of 60 s).
bench-engines: build
	@scripts/bench_engines.py --ariadne $(ARIADNE)

# Minimal cores beside the verdicts they explain, per family: the shared corpora, the
# reported Jepsen histories, generated 2,000-op collections and mutexes (a few minutes).
# PROOFS=1 also writes and verifies a proof per core; DRAT_TRIM=/path/to/drat-trim
# checks each proof with drat-trim too.
bench-cores: build
	@scripts/bench_cores.py --ariadne $(ARIADNE) $(if $(PROOFS),--proofs) \
	  $(if $(DRAT_TRIM),--proofs --drat-trim $(DRAT_TRIM))

# The unique-value engines: 10 seeds per model at the sizes they were built for (2,000-op
# collections, 20,000-op queues, 50,000-op registers), then 10^3 to 10^6 ops per model
# (docs/unique-values.md). Takes about 10 minutes, most of it generating the files.
bench-unique: build
	@scripts/bench_unique.py --ariadne $(ARIADNE)

# Each reader's MB/s on 10^6-op files, beside `grep -c` over the same bytes in the
# same run (scripts/bench_scale.py --formats; the files are generated once and kept).
bench-readers: build
	@scripts/bench_scale.py --ariadne $(ARIADNE) --formats --no-growth

# Sequential consistency beside linearizability on the same lagging-follower files, 2,000
# and 20,000 ops, 5 seeds, with and without a violation (a few minutes).
bench-sequential: build
	@scripts/bench_sequential.py --ariadne $(ARIADNE)

# Issue 42's frontier: on generated cas-register, register, etcd and one-key kv histories
# (values 3, 5; 5, 20, 40 processes; crash rates 0, 0.05, 0.2; linearizable and not; 3 seeds),
# the largest of 10^3 to 10^5 ops the default check and each engine alone decide in 60 s and
# 4 GiB, and WGL's steps per second (docs/frontier.md). The full grid should take roughly 12 to
# 20 hours on 2 cores (estimated from a subset); FRONTIER_ARGS picks a subset, e.g.
# FRONTIER_ARGS='--models register --seeds 1'.
# The cache lets an interrupted run continue where it stopped.
FRONTIER_ARGS ?=
bench-frontier: build
	@scripts/bench_frontier.py --ariadne $(ARIADNE) --cache $(BUILD)/frontier-cache.jsonl $(FRONTIER_ARGS)

clean:
	@rm -rf $(BUILD) $(FUZZ_BUILD) $(DEBUG_BUILD) $(TIDY_BUILD)
