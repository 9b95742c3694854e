# Two commands: `make run` and `make test`. Both set up, configure and build.
BUILD ?= build
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_FLAGS ?=

.PHONY: all setup configure build run test test-asan bench clean

all: build

setup:
	@bash third_party/setup-deps.sh

$(BUILD)/CMakeCache.txt:
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo $(CMAKE_FLAGS)

configure: setup $(BUILD)/CMakeCache.txt

build: configure
	cmake --build $(BUILD) -j $(JOBS)

run: build
	@if [ -x $(BUILD)/app/gui/swizzle-workbench ]; then \
	  $(BUILD)/app/gui/swizzle-workbench --preset transpose16x32; \
	else \
	  $(BUILD)/app/cli/swizzle analyze --preset transpose16x32; \
	fi

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

test-asan: setup
	cmake -S . -B $(BUILD)-asan -DCMAKE_BUILD_TYPE=Debug -DSWZ_SANITIZE=ON -DSWZ_BUILD_BENCH=OFF $(CMAKE_FLAGS)
	cmake --build $(BUILD)-asan -j $(JOBS)
	cd $(BUILD)-asan && ASAN_OPTIONS=detect_leaks=1 ctest --output-on-failure -j $(JOBS)

bench: build
	$(BUILD)/tests/bench/swz_bench

clean:
	rm -rf $(BUILD) $(BUILD)-asan
