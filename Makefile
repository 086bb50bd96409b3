# dra-controller: the two commands a newcomer needs are `make demo` and `make test`.
SHELL := /bin/bash
BUILD_DIR ?= build
BUILD_TYPE ?= RelWithDebInfo
JOBS ?= 2
CLUSTER_DIR ?= $(CURDIR)/.cluster
export CLUSTER_DIR
# ccache speeds rebuilds where it is installed; it is optional.
CCACHE := $(shell command -v ccache 2>/dev/null)

.PHONY: all deps k8s-binaries configure build test unit-test integration-test demo \
        cluster-up cluster-down cluster-status fleet image fmt lint clean help

all: build

help:
	@echo "make demo          install, build, start a local control plane with example GPUs and run the controller"
	@echo "make test          install, build, run unit and integration tests (control plane started and stopped)"
	@echo "make build         build/dra-controller and the test binaries"
	@echo "make image         container image dra-controller:dev with buildah (no Docker engine needed)"
	@echo "make cluster-up    start the control plane alone; admin kubeconfig in .cluster/kubeconfig"
	@echo "make cluster-down  stop it"
	@echo "make fleet         publish the fake GPU fleet into the running cluster"
	@echo "make fmt | lint | clean"

deps:
	@hack/install-deps.sh

k8s-binaries: deps
	@hack/control-plane/build.sh

$(BUILD_DIR)/build.ninja:
	cmake -S . -B $(BUILD_DIR) -G Ninja -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) \
	  $(if $(CCACHE),-DCMAKE_CXX_COMPILER_LAUNCHER=$(CCACHE))

configure: deps $(BUILD_DIR)/build.ninja

build: configure
	cmake --build $(BUILD_DIR) -j $(JOBS)

test: build k8s-binaries
	@hack/test.sh $(BUILD_DIR)

unit-test: build
	cd $(BUILD_DIR) && ctest -L unit --output-on-failure -j $(JOBS)

integration-test: build k8s-binaries
	@hack/test.sh $(BUILD_DIR) integration

demo: build k8s-binaries
	@hack/demo.sh $(BUILD_DIR)

# Builds the Dockerfile with buildah; base images and layers are cached in
# ~/.cache/dra-controller/images (README "Container image").
image: deps
	@hack/image/build.sh

cluster-up: k8s-binaries
	@hack/control-plane/cluster.sh up

cluster-down:
	@hack/control-plane/cluster.sh down

cluster-status:
	@hack/control-plane/cluster.sh status

fleet:
	@hack/fake-gpu-fleet.sh apply

fmt:
	@hack/lint.sh fix

lint: configure
	@hack/lint.sh check

clean:
	rm -rf $(BUILD_DIR)

# Installs build/dra-controller into $(DESTDIR)$(PREFIX)/bin with a kubectl-dra
# link beside it, so `kubectl dra check` (kubectl's plugin convention) runs it.
PREFIX ?= /usr/local
.PHONY: install
install: configure
	cmake --build $(BUILD_DIR) -j $(JOBS) --target dra-controller
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 0755 $(BUILD_DIR)/dra-controller $(DESTDIR)$(PREFIX)/bin/dra-controller
	ln -sf dra-controller $(DESTDIR)$(PREFIX)/bin/kubectl-dra
