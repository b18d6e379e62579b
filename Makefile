# ScaleView: `make run` opens the desktop app on the bundled sample logs, `make test` runs every test.
# Each target installs the Debian 12 packages it needs first (as root; apt-get update once).

BUILD      ?= build
ASAN_BUILD ?= build-asan
FUZZ_BUILD ?= build-fuzz
BENCH_BUILD?= build-bench
JOBS       ?= $(shell nproc)
SAMPLES    := resources/samples/logs/ngc/mxnet/resnet50

# What building and testing need; the launcher's and GUI's runtime tools are here too, since the
# tests run them for real.
BUILD_DEPS := cmake ninja-build g++ clang git pkg-config python3 python3-numpy dpkg-dev \
              nlohmann-json3-dev libgtest-dev libgmock-dev libbenchmark-dev \
              qt6-base-dev qt6-base-dev-tools libgl-dev \
              qt6-charts-dev libqt6opengl6-dev qt6-svg-dev fonts-dejavu-core \
              xvfb xauth imagemagick libqt6sql6-sqlite libqt6sql6-psql libre2-dev \
              zlib1g-dev libssl-dev
TEST_DEPS  := $(BUILD_DEPS) time appstream desktop-file-utils
BENCH_DEPS := $(BUILD_DEPS) time grep
# The launcher's tests run sshd, ssh, mpirun and the PyTorch CPU workload for real.
TEST_DEPS  += openssh-server openssh-client openmpi-bin python3-torch python3-torchvision
# The Slurm tests bring up a private cluster (munged, slurmctld, two slurmd); srun --mpi=pmix
# dlopens libpmix.so, which only libpmix-dev ships.
TEST_DEPS  += slurmctld slurmd slurm-client munge libpmix-dev
# slurm/spank.h, for the tests' SPANK double of pyxis (tests/launcher/slurmpyxisdouble.c).
TEST_DEPS  += libslurm-dev
# A private dockerd for the container tests (tests/launcher/dockerd.h).
TEST_DEPS  += docker.io
# A real browser opens the exported report offline (tests/test_cli_report.cpp).
TEST_DEPS  += chromium-headless-shell
# The shared history's tests start a private PostgreSQL 15 (tests/history/postgresserver.h).
TEST_DEPS  += postgresql

SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

define install_missing
	@missing=""; for p in $(1); do dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "Installing:$$missing"; \
	  $(SUDO) apt-get update && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y --no-install-recommends $$missing; \
	fi
endef

.PHONY: all deps build run test quick asan fuzz bench package samples format clean

all: build

deps:
	$(call install_missing,$(TEST_DEPS))

$(BUILD)/build.ninja:
	cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSCALEVIEW_WERROR=ON

build: deps $(BUILD)/build.ninja
	cmake --build $(BUILD) -j $(JOBS)

# The desktop app on the bundled samples (under Xvfb when there is no display).
run: build
	@echo "Opening the bundled example logs ($(SAMPLES)): DLPerf's own NGC MXNet ResNet-50 logs shipped with ScaleView, not your measurements."
	@if [ -n "$$DISPLAY$$WAYLAND_DISPLAY" ]; then $(BUILD)/app/scaleview $(SAMPLES); \
	else echo "No display: running under xvfb-run"; xvfb-run -a -s "-screen 0 1600x1000x24" $(BUILD)/app/scaleview $(SAMPLES); fi

# Screenshots of each view, from the real app under Xvfb, into docs/screenshots/.
screenshots: build
	for page in results throughput speedup runs; do \
	  rm -f $(BUILD)/screenshot.ini; \
	  xvfb-run -a -s "-screen 0 1600x1000x24" $(BUILD)/app/scaleview --settings $(BUILD)/screenshot.ini \
	    --screenshot docs/screenshots/$$page.png --page $$page --run 13 $(SAMPLES) || exit 1; \
	done
	rm -f $(BUILD)/screenshot.ini
	xvfb-run -a -s "-screen 0 1600x1000x24" $(BUILD)/app/scaleview --settings $(BUILD)/screenshot.ini \
	  --screenshot docs/screenshots/efficiency.png --page speedup --efficiency $(SAMPLES)
	rm -f $(BUILD)/screenshot.ini
	xvfb-run -a -s "-screen 0 1600x1000x24" $(BUILD)/app/scaleview --settings $(BUILD)/screenshot.ini \
	  --screenshot docs/screenshots/results-1024x700.png --page results --size 1024x700 $(SAMPLES)
	rm -f $(BUILD)/screenshot.ini
	xvfb-run -a -s "-screen 0 1600x1000x24" $(BUILD)/app/scaleview --settings $(BUILD)/screenshot.ini \
	  --screenshot docs/screenshots/first-start.png --size 1024x700
	rm -f $(BUILD)/screenshot.ini
	# Two campaigns compared (the second faster at 1n4g and 1n8g, slower at 2n8g), and a tree of
	# three frameworks' logs in the Compare frameworks view.
	rm -rf $(BUILD)/shots && T=1n1g,1n2g,1n4g,1n8g,2n8g; F=$(BUILD)/shots/dlperf-frameworks/logs/ngc; \
	python3 tools/genlogs.py $(BUILD)/shots/campaign-2026-10 --topologies $$T --repeats 5 --seed 1 && \
	python3 tools/genlogs.py $(BUILD)/shots/campaign-2026-11 --topologies $$T --repeats 5 --seed 2 \
	  --speed 1n4g=1.05,1n8g=1.08,2n8g=0.93 && \
	python3 tools/genlogs.py $$F/mxnet/resnet50 --topologies 1n1g,1n4g,1n8g,2n8g --seed 3 && \
	python3 tools/genlogs.py $$F/pytorch/resnet50 --format ngc-pytorch-rn50 --iterations 150 \
	  --topologies 1n1g,1n4g,1n8g,2n8g --seed 4 --speed 1n1g=0.96,1n4g=0.95,1n8g=0.94,2n8g=0.9 && \
	python3 tools/genlogs.py $$F/tensorflow/resnet50 --format ngc-tf-rn50 \
	  --topologies 1n1g,1n4g,1n8g,2n8g --seed 5 --speed 1n1g=0.88,1n4g=0.87,1n8g=0.86,2n8g=0.85
	xvfb-run -a -s "-screen 0 1600x1000x24" $(BUILD)/app/scaleview --settings $(BUILD)/screenshot.ini \
	  --screenshot docs/screenshots/compare.png --page results --size 1400x900 \
	  $(BUILD)/shots/campaign-2026-10 $(BUILD)/shots/campaign-2026-11
	rm -f $(BUILD)/screenshot.ini
	xvfb-run -a -s "-screen 0 1600x1000x24" $(BUILD)/app/scaleview --settings $(BUILD)/screenshot.ini \
	  --screenshot docs/screenshots/compare-throughput.png --page throughput --size 1400x900 \
	  $(BUILD)/shots/campaign-2026-10 $(BUILD)/shots/campaign-2026-11
	rm -f $(BUILD)/screenshot.ini
	xvfb-run -a -s "-screen 0 1600x1000x24" $(BUILD)/app/scaleview --settings $(BUILD)/screenshot.ini \
	  --screenshot docs/screenshots/compare-frameworks.png --page throughput --size 1400x900 \
	  $(BUILD)/shots/dlperf-frameworks
	rm -f $(BUILD)/screenshot.ini
	tools/historyshots.sh $(BUILD)
	# Where the scaling goes (Speedup page) and the Nodes page (issue 28), generated figures.
	tools/lossshots.sh $(BUILD)

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS) --timeout 300

# The quick set: every test but the slow ones (real workloads, campaigns, servers, probes).
quick: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS) --timeout 300 -LE slow

# The tests labelled "core" (parser, statistics, CLI) under AddressSanitizer and
# UndefinedBehaviorSanitizer.
ASAN_TARGETS := test_core test_cli scaleview-cli
asan: deps
	cmake -S . -B $(ASAN_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Debug -DSCALEVIEW_SANITIZE=ON -DSCALEVIEW_WERROR=ON
	cmake --build $(ASAN_BUILD) -j $(JOBS) --target $(ASAN_TARGETS)
	cd $(ASAN_BUILD) && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  ctest --output-on-failure -j $(JOBS) --timeout 600 -L core

# A short libFuzzer run of each reader and of the outputs (FUZZ_SECONDS each, default 60): the
# log parser, user formats (and the match hint against RE2), scaleview.json, every output form,
# and a campaign's records (probes.json, campaign.json, journal.jsonl).
FUZZ_SECONDS ?= 60
fuzz: deps
	CXX=clang++ cmake -S . -B $(FUZZ_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSCALEVIEW_FUZZ=ON -DSCALEVIEW_TESTS=OFF
	cmake --build $(FUZZ_BUILD) -j $(JOBS) --target fuzz_logparser fuzz_userformat fuzz_sidecar fuzz_outputs fuzz_records
	mkdir -p $(FUZZ_BUILD)/corpus $(FUZZ_BUILD)/corpus-userformat $(FUZZ_BUILD)/corpus-sidecar $(FUZZ_BUILD)/corpus-outputs $(FUZZ_BUILD)/corpus-records
	$(FUZZ_BUILD)/fuzz/fuzz_logparser -max_total_time=$(FUZZ_SECONDS) -max_len=4096 $(FUZZ_BUILD)/corpus fuzz/seeds
	$(FUZZ_BUILD)/fuzz/fuzz_userformat -max_total_time=$(FUZZ_SECONDS) -max_len=1024 $(FUZZ_BUILD)/corpus-userformat fuzz/seeds-userformat
	$(FUZZ_BUILD)/fuzz/fuzz_sidecar -max_total_time=$(FUZZ_SECONDS) -max_len=4096 $(FUZZ_BUILD)/corpus-sidecar fuzz/seeds-sidecar
	$(FUZZ_BUILD)/fuzz/fuzz_outputs -max_total_time=$(FUZZ_SECONDS) -max_len=2048 $(FUZZ_BUILD)/corpus-outputs
	$(FUZZ_BUILD)/fuzz/fuzz_records -max_total_time=$(FUZZ_SECONDS) -max_len=4096 $(FUZZ_BUILD)/corpus-records fuzz/seeds-records

# DLPERF_SCRIPT=path/to/extract_mxnet_logs.py times DLPerf's own script as well.
bench:
	$(call install_missing,$(BENCH_DEPS))
	cmake -S . -B $(BENCH_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release -DSCALEVIEW_BENCH=ON -DSCALEVIEW_TESTS=OFF
	cmake --build $(BENCH_BUILD) -j $(JOBS) --target scaleview-cli bench_parser
	python3 bench/run_bench.py --cli $(BENCH_BUILD)/app/scaleview-cli --micro $(BENCH_BUILD)/bench/bench_parser \
	  $(if $(DLPERF_SCRIPT),--dlperf-script $(DLPERF_SCRIPT))

# The .deb (CPack), in $(BUILD).
package: build
	cd $(BUILD) && cpack -G DEB

# Regenerates the bundled sample logs (deterministic).
samples:
	rm -rf resources/samples/logs
	python3 tools/genlogs.py $(SAMPLES) --repeats 3 --truncate 2n8g:3:900

format:
	clang-format -i $$(git ls-files '*.cpp' '*.h')

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(FUZZ_BUILD) $(BENCH_BUILD)
