# Two commands: `make run` and `make test`. Both set up, configure and build. Each target installs
# what it needs and no more (third_party/setup-deps.sh TARGET): make run the workbench's and the
# CLI's packages, make test adds the tests', make web emscripten and Chromium, make test-sanitize clang.
BUILD ?= build
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_FLAGS ?=
SETUP = bash third_party/setup-deps.sh
# Debian's interpreter: the one its python3-build, pybind11 and pytest belong to.
PYTHON ?= /usr/bin/python3

.PHONY: all setup configure build run test web test-web test-sanitize test-scalar test-asan fuzz fuzz-long bench wheel clean

all: build

# Every target's packages at once.
setup:
	@$(SETUP) all

# The first configure of $(BUILD) (make run's leaves the tests out: they need packages it does not
# install); later ones keep its cache, and what a user set there.
CONFIGURE = cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo
configure:
	@$(SETUP) run
	@[ -f $(BUILD)/CMakeCache.txt ] || $(CONFIGURE) -DSWZ_BUILD_TESTS=OFF -DSWZ_BUILD_BENCH=OFF $(CMAKE_FLAGS)

# Everything, tests included: a tree make run configured turns its tests on here (configured again,
# which also finds the Python module's packages the test setup just installed).
build:
	@$(SETUP) test
	@if [ ! -f $(BUILD)/CMakeCache.txt ]; then $(CONFIGURE) $(CMAKE_FLAGS); \
	elif grep -q '^SWZ_BUILD_TESTS:BOOL=OFF' $(BUILD)/CMakeCache.txt; then \
	  cmake -S . -B $(BUILD) -DSWZ_BUILD_TESTS=ON -DSWZ_BUILD_BENCH=ON $(CMAKE_FLAGS); fi
	cmake --build $(BUILD) -j $(JOBS)

# The window first: only the workbench (or, without the GUI, the CLI) is built, not the tests.
run: configure
	cmake --build $(BUILD) -j $(JOBS) --target swz_run
	@if [ -x $(BUILD)/app/gui/swizzle-workbench ]; then \
	  $(BUILD)/app/gui/swizzle-workbench --preset transpose16x32; \
	else \
	  $(BUILD)/app/cli/swizzle analyze --preset transpose16x32; \
	fi

# One virtual display for the whole run where there is none (GUI tests open real windows).
WITH_DISPLAY = $(CURDIR)/tests/gui/run-with-display.sh

test: build
	cd $(BUILD) && $(WITH_DISPLAY) ctest --output-on-failure -j $(JOBS)

# CI's second build, three checks from one compile: the whole suite under ASan + UBSan,
# compiled by clang with libFuzzer's instrumentation and with the portable sweep kernel only
# (-DSWZ_SIMD=OFF: no x86 instantiations, the build an aarch64 machine gets), then a short run
# of every fuzzer from the same build. test-scalar, test-asan and fuzz below run each alone.
# No Python module here (-DSWZ_PYTHON=OFF): an ASan-instrumented extension cannot load into the
# uninstrumented interpreter; make test runs its tests. The grid replays (label grid-replay: the
# same audits over every program of four measured grids, minutes under the sanitizers) are left to
# make test too.
SANITIZE_FLAGS = -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	"-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only -DNDEBUG" -DSWZ_FUZZ=ON -DSWZ_SIMD=OFF \
	-DSWZ_BUILD_BENCH=OFF -DSWZ_ENABLE_CUDA=OFF -DSWZ_PYTHON=OFF
SANITIZE_ENV = UBSAN_OPTIONS=print_stacktrace=1 LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp
test-sanitize:
	@$(SETUP) sanitize
	cmake -S . -B $(BUILD)-sanitize $(SANITIZE_FLAGS) $(CMAKE_FLAGS)
	cmake --build $(BUILD)-sanitize -j $(JOBS)
	cd $(BUILD)-sanitize && ASAN_OPTIONS=detect_leaks=1 $(SANITIZE_ENV) ctest --output-on-failure -j $(JOBS) -LE 'fuzz|gui|grid-replay'
	# Tests that open a GL window: no leak report (blocks the GL driver keeps until exit carry
	# no stack a suppression could name).
	cd $(BUILD)-sanitize && ASAN_OPTIONS=detect_leaks=0 $(SANITIZE_ENV) $(WITH_DISPLAY) ctest --output-on-failure -j $(JOBS) -L gui
	cd $(BUILD)-sanitize && ctest --output-on-failure -j $(JOBS) -L fuzz

# The core, the CLI and their tests with the portable scalar sweep only (no x86 intrinsics: the
# build an aarch64 machine gets).
test-scalar:
	@$(SETUP) test
	cmake -S . -B $(BUILD)-scalar -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSWZ_SIMD=OFF -DSWZ_BUILD_GUI=OFF -DSWZ_BUILD_BENCH=OFF \
	  -DSWZ_ENABLE_CUDA=OFF $(CMAKE_FLAGS)
	cmake --build $(BUILD)-scalar -j $(JOBS)
	cd $(BUILD)-scalar && ctest --output-on-failure -j $(JOBS) -LE 'fuzz|gui'

# The whole suite under ASan + UBSan (the CUDA backend is left out: its runtime and ASan do not mix;
# the grid replays, as in test-sanitize).
test-asan:
	@$(SETUP) test
	cmake -S . -B $(BUILD)-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSWZ_SANITIZE=ON -DSWZ_BUILD_BENCH=OFF -DSWZ_ENABLE_CUDA=OFF $(CMAKE_FLAGS)
	cmake --build $(BUILD)-asan -j $(JOBS)
	cd $(BUILD)-asan && ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp \
	  UBSAN_OPTIONS=print_stacktrace=1 ctest --output-on-failure -j $(JOBS) -LE 'fuzz|gui|grid-replay'
	# Tests that open a GL window: the same checks, but no leak report, because blocks the
	# GL driver keeps until exit carry no stack a suppression could name.
	cd $(BUILD)-asan && ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=print_stacktrace=1 \
	  $(WITH_DISPLAY) ctest --output-on-failure -j $(JOBS) -L gui


# Every parser under libFuzzer (clang, ASan + UBSan): a short run of each (make fuzz),
# or at least a million executions each (make fuzz-long).
FUZZ_FLAGS = -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSWZ_FUZZ=ON -DSWZ_BUILD_GUI=OFF \
	-DSWZ_BUILD_BENCH=OFF -DSWZ_ENABLE_CUDA=OFF
fuzz:
	@$(SETUP) sanitize
	cmake -S . -B $(BUILD)-fuzz $(FUZZ_FLAGS) $(CMAKE_FLAGS)
	cmake --build $(BUILD)-fuzz -j $(JOBS) --target $$(cd tests/fuzz && ls fuzz_*.cpp | sed 's/\.cpp//')
	cd $(BUILD)-fuzz && ctest -L fuzz --output-on-failure

fuzz-long: fuzz
	@for f in $(BUILD)-fuzz/tests/fuzz/fuzz_*; do \
	  n=$$(basename $$f | sed 's/fuzz_//'); \
	  echo "== $$n"; $$f -runs=1000000 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
	    $(BUILD)-fuzz/tests/fuzz/corpus_$$n tests/fuzz/corpus/$$n 2>&1 | grep -E 'stat::number_of_executed_units|ERROR|Done' ; \
	done

# The browser build (app/web): the same workbench compiled by emcc into a static folder,
# $(WEB_BUILD)/site (index.html, .js, .wasm, .data). Debian's emscripten ships its system libraries
# (libc, libc++, GL, the GLFW library) prebuilt in a frozen cache, so nothing but our code compiles.
# NODE_PATH: emcc's JS passes require Debian's node modules (acorn), which a node from elsewhere
# (nodesource's) does not look for in /usr/share/nodejs.
WEB_BUILD ?= build-web
WEB_ENV = NODE_PATH=/usr/share/nodejs
web:
	@$(SETUP) web
	$(WEB_ENV) emcmake cmake -S app/web -B $(WEB_BUILD) -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS)
	$(WEB_ENV) cmake --build $(WEB_BUILD) -j $(JOBS)

# The page in headless Chromium, served from 127.0.0.1 (tests/web/browser_test.py).
test-web: web
	python3 tests/web/browser_test.py $(WEB_BUILD)/site $(if $(wildcard $(BUILD)/app/cli/swizzle),--cli $(BUILD)/app/cli/swizzle)

# The Python module as a wheel in dist/ (pyproject.toml, setup.py): the same CMake target,
# swz_python, built in $(BUILD) (configured again, so a tree configured before pybind11 was there
# gets the module), packaged by setuptools offline from Debian's packages.
wheel:
	@$(SETUP) wheel
	@if [ -f $(BUILD)/CMakeCache.txt ]; then cmake -S . -B $(BUILD) $(CMAKE_FLAGS); \
	else $(CONFIGURE) -DSWZ_BUILD_TESTS=OFF -DSWZ_BUILD_BENCH=OFF $(CMAKE_FLAGS); fi
	SWZ_CMAKE_BUILD_DIR=$(CURDIR)/$(BUILD) CMAKE_BUILD_PARALLEL_LEVEL=$(JOBS) \
	  $(PYTHON) -m build --wheel --no-isolation --outdir dist .

bench: build
	$(BUILD)/tests/bench/swz_bench

clean:
	rm -rf $(BUILD) $(BUILD)-sanitize $(BUILD)-asan $(BUILD)-scalar $(BUILD)-fuzz $(WEB_BUILD) build-python dist
