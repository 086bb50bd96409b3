# dra-controller: the two commands a newcomer needs are `make demo` and `make test`.
SHELL := /bin/bash
BUILD_DIR ?= build
BUILD_TYPE ?= RelWithDebInfo
JOBS ?= 2
CLUSTER_DIR ?= $(CURDIR)/.cluster
export CLUSTER_DIR
# ccache speeds rebuilds where it is installed; it is optional.
CCACHE := $(shell command -v ccache 2>/dev/null)
# Paths relative to the checkout, so every clone (CI's included) shares one cache.
ifneq ($(CCACHE),)
export CCACHE_BASEDIR ?= $(CURDIR)
export CCACHE_NOHASHDIR ?= 1
endif

.PHONY: k8s-matrix-binaries all deps k8s-binaries helm-binary node-binaries configure build test unit-test integration-test demo \
        cluster-up cluster-down cluster-status fleet image fmt lint clean help \
        test-versions agreement-soak test-asan test-tsan fuzz fuzz-merge build-clang bench-fleet bench-node chaos

all: build

help:
	@echo "make demo          install, build, start a local control plane with example GPUs and run the controller"
	@echo "make test          install, build, run unit and integration tests (control plane started and stopped)"
	@echo "make build         build/dra-controller and the test binaries"
	@echo "make image         container image dra-controller:dev with buildah (no Docker engine needed)"
	@echo "make cluster-up    start the control plane alone; admin kubeconfig in .cluster/kubeconfig"
	@echo "                   K8S_VERSION=v1.36.3 (any built release), DRA_FEATURES=all (its off-by-default DRA gates on)"
	@echo "                   NODE=1: and a real node (kubelet, containerd, a DRA driver reporting health)"
	@echo "make cluster-down  stop it"
	@echo "make fleet         publish the fake GPU fleet into the running cluster"
	@echo "make test-versions the VersionMatrix tests on each built release (v1.34.4-v1.37.2), gates off and on"
	@echo "make agreement-soak  inventory vs scheduler on 200 random fleets (fresh control plane)"
	@echo "make chaos         apiserver/etcd restarts and a leader SIGKILL every 30 s for CHAOS_MINUTES (10) (fresh control plane)"
	@echo "make test-asan     unit, fault-injection and fuzz-replay tests under ASan+UBSan (build-asan)"
	@echo "make test-tsan     the same under TSan (build-tsan); SAN_SET=runtime: the runtime's tests only"
	@echo "                   (test-asan/test-tsan also run every path that ends \`run\` on a control plane)"
	@echo "make fuzz          libFuzzer (clang) on every fuzz target, FUZZ_SECONDS each (60) (build-fuzz)"
	@echo "make bench-fleet   dra-controller run on a replayed 5,000-node, 150,000-Pod fleet (about 6 min)"
	@echo "make bench-node    on the real node: driver Unhealthy -> Pod stopped, Healthy -> reopened, 20 runs (root; about 4 min)"
	@echo "make fuzz-merge    add the inputs make fuzz found that reach new coverage to tests/fuzz/corpus"
	@echo "make build-clang   the whole project with clang++ and -Werror (build-clang)"
	@echo "make docs          regenerate docs/reference/ (flags, metrics, DeviceHealth) and the chart README"
	@echo "make release VERSION=x.y.z  image dra-controller:x.y.z and dist/dra-controller-x.y.z.tgz"
	@echo "                   from the commit tagged vx.y.z (DRY_RUN=1: checks only, prints the rest)"
	@echo "make fmt | lint | clean"

deps:
	@hack/install-deps.sh

k8s-binaries: deps
	@hack/control-plane/build.sh

# The release `make test` runs the version matrix on besides v1.37.2 (the one
# most fleets upgrade from next), cached like it. One Go build at a time.
MATRIX_K8S_VERSION ?= v1.36.3
k8s-matrix-binaries: k8s-binaries
	@K8S_VERSION=$(MATRIX_K8S_VERSION) hack/control-plane/build.sh

# helm for the chart's tests (manifests/helm/dra-controller), cached like the above.
helm-binary: deps
	@hack/helm/build.sh

# The real node's kubelet (K8S_VERSION), DRA driver and images (hack/node/),
# cached like the above.
node-binaries: deps
	@hack/node/build.sh

$(BUILD_DIR)/build.ninja:
	cmake -S . -B $(BUILD_DIR) -G Ninja -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) \
	  $(if $(CCACHE),-DCMAKE_CXX_COMPILER_LAUNCHER=$(CCACHE))

configure: deps $(BUILD_DIR)/build.ninja

build: configure
	cmake --build $(BUILD_DIR) -j $(JOBS)

# hack/test.sh installs and builds what is missing itself (timed, with the
# other phases: it prints each phase's time at the end).
test:
	@JOBS=$(JOBS) hack/test.sh $(BUILD_DIR)

unit-test: build
	cd $(BUILD_DIR) && ctest -L unit --output-on-failure -j $(JOBS)

integration-test: build k8s-binaries helm-binary node-binaries
	@hack/test.sh $(BUILD_DIR) integration

# DRA_AGREEMENT_SEEDS / DRA_AGREEMENT_FIRST_SEED / DRA_AGREEMENT_SHAPES=all tune it.
agreement-soak: build k8s-binaries
	@hack/agreement-soak.sh $(BUILD_DIR)
# CHAOS_MINUTES / CHAOS_KILL_INTERVAL / CHAOS_FAULT_ROUNDS / CHAOS_SEED tune it.
# Builds only what it runs: the controller and the chaos binary.
chaos: configure k8s-binaries
	cmake --build $(BUILD_DIR) -j $(JOBS) --target dra-controller chaos_tests
	@hack/chaos.sh $(BUILD_DIR)
# Sanitizer and fuzzing builds (hack/sanitize.sh; own build directories).
SAN_SET ?= all
FUZZ_SECONDS ?= 60
export FUZZ_SECONDS

# SAN_SET=all (the default) also runs every path that ends `run` against the
# sanitized binary on a fresh control plane, ASAN_SHUTDOWN_ROUNDS / TSAN_SHUTDOWN_ROUNDS
# times each; SAN_SET=shutdown runs only that.
ASAN_SHUTDOWN_ROUNDS ?= 20
TSAN_SHUTDOWN_ROUNDS ?= 10
test-asan: deps
	@if [[ "$(SAN_SET)" != shutdown ]]; then hack/sanitize.sh address $(SAN_SET); fi
	@if [[ "$(SAN_SET)" != runtime ]]; then $(MAKE) --no-print-directory build k8s-binaries && \
	  BUILD_DIR=$(abspath $(BUILD_DIR)) DRA_SHUTDOWN_ROUNDS=$(ASAN_SHUTDOWN_ROUNDS) \
	  hack/sanitize.sh address shutdown; fi

test-tsan: deps
	@if [[ "$(SAN_SET)" != shutdown ]]; then hack/sanitize.sh thread $(SAN_SET); fi
	@if [[ "$(SAN_SET)" != runtime ]]; then $(MAKE) --no-print-directory build k8s-binaries && \
	  BUILD_DIR=$(abspath $(BUILD_DIR)) DRA_SHUTDOWN_ROUNDS=$(TSAN_SHUTDOWN_ROUNDS) \
	  hack/sanitize.sh thread shutdown; fi

fuzz: deps
	@hack/sanitize.sh fuzz

fuzz-merge:
	@hack/sanitize.sh fuzz-merge

# Every target with clang++, to keep the code free of the warnings clang finds
# and g++ does not: `all` (controller, unit and integration tests, benchmarks,
# fuzz targets, memory gate) and chaos_tests, which `all` leaves out.
build-clang: deps
	cmake -S . -B build-clang -G Ninja -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) -DCMAKE_CXX_COMPILER=clang++ \
	  $(if $(CCACHE),-DCMAKE_CXX_COMPILER_LAUNCHER=$(CCACHE))
	cmake --build build-clang -j $(JOBS) --target all chaos_tests

demo: build k8s-binaries $(if $(filter 1,$(NODE)),node-binaries)
	@DRA_NODE=$(NODE) hack/demo.sh $(BUILD_DIR)

# The full-size fleet replay (README "Fleet results"); not part of `make test`.
.PHONY: bench-fleet
bench-fleet: configure
	cmake --build $(BUILD_DIR) -j $(JOBS) --target dra-controller FleetReplayBench
	$(BUILD_DIR)/tests/FleetReplayBench

# The real node's eviction and reopening times (docs/benchmarks.md "The real node").
.PHONY: bench-node
bench-node: configure k8s-binaries node-binaries
	cmake --build $(BUILD_DIR) -j $(JOBS) --target dra-controller RealNodeEvictionBench
	@hack/bench/node-eviction.sh $(BUILD_DIR)

# Builds the Dockerfile with buildah; base images and layers are cached in
# ~/.cache/dra-controller/images (README "Container image").
image: deps
	@hack/image/build.sh

# K8S_VERSION=v1.36.3 starts another release (built and cached on first use);
# DRA_FEATURES=all, DRA_FEATURE_GATES, DRA_RUNTIME_CONFIG: see hack/control-plane/cluster.sh.
# NODE=1 adds a real node: kubelet, containerd and a DRA driver (docs/control-plane.md).
NODE ?= 0
cluster-up: k8s-binaries $(if $(filter 1,$(NODE)),node-binaries)
	@DRA_NODE=$(NODE) hack/control-plane/cluster.sh up

# Builds no control plane: a release not yet cached fails with the command
# that builds it. TEST_VERSIONS, TEST_FEATURE_MODES: see hack/test-versions.sh.
test-versions: configure
	cmake --build $(BUILD_DIR) -j $(JOBS) --target integration_tests dra-controller
	@hack/test-versions.sh $(BUILD_DIR)

cluster-down:
	@hack/control-plane/cluster.sh down

cluster-status:
	@hack/control-plane/cluster.sh status

# The local control plane's fleet: its kubeconfig, whatever KUBECONFIG says.
fleet:
	@KUBECONFIG="$(CLUSTER_DIR)/kubeconfig" hack/fake-gpu-fleet.sh apply

# docs/reference/ as `dra-controller docs PAGE` prints it, and the chart
# README's values table from values.yaml; ReferencePagesTest and
# ChartReadmeTest (make test) fail while a checked-in page differs.
REFERENCE_PAGES := flags:flags metrics:metrics crd:devicehealth compatibility:compatibility
.PHONY: docs
docs: configure
	cmake --build $(BUILD_DIR) -j $(JOBS) --target dra-controller
	@for page in $(REFERENCE_PAGES); do \
	  out="docs/reference/$${page#*:}.md"; \
	  $(BUILD_DIR)/dra-controller docs "$${page%%:*}" >"$$out.tmp" && mv "$$out.tmp" "$$out" \
	    && echo "wrote $$out" || { rm -f "$$out.tmp"; exit 1; }; \
	done
	@python3 hack/chart-values-table.py --write
	@python3 hack/readme-compatibility.py docs/reference/compatibility.md README.md

fmt:
	@hack/lint.sh fix

lint: configure
	@hack/lint.sh check

clean:
	rm -rf $(BUILD_DIR) build-asan build-tsan build-fuzz build-clang

# Installs build/dra-controller into $(DESTDIR)$(PREFIX)/bin with a kubectl-dra
# link beside it, so `kubectl dra check` (kubectl's plugin convention) runs it.
PREFIX ?= /usr/local
.PHONY: install
install: configure
	cmake --build $(BUILD_DIR) -j $(JOBS) --target dra-controller
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 0755 $(BUILD_DIR)/dra-controller $(DESTDIR)$(PREFIX)/bin/dra-controller
	ln -sf dra-controller $(DESTDIR)$(PREFIX)/bin/kubectl-dra

# The release of the commit tagged vVERSION (docs/versioning.md): checks that
# VERSION, Chart.yaml and the tag agree, builds the image tagged VERSION and
# packages the chart into dist/. DRY_RUN=1 checks and prints the commands.
.PHONY: release
release: $(if $(filter 1,$(DRY_RUN)),,helm-binary)
	@hack/release.sh $(if $(filter 1,$(DRY_RUN)),--dry-run) $(VERSION)
