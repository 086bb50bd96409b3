#!/usr/bin/env bash
# Installs every Debian package that building, testing and the demo need.
# Idempotent: packages already present are skipped, and apt is not touched at
# all when nothing is missing. Go (build tooling for the test control plane
# only) must already be on PATH; this script checks for it.
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"

PACKAGES=(
  # toolchain
  g++ cmake ninja-build pkg-config make clang-format clang-tidy
  # every clone (CI's included) shares one compiler cache (Makefile: CCACHE_BASEDIR)
  ccache
  # make fuzz: clang with libFuzzer and the sanitizer runtimes (libclang-rt-14-dev)
  clang libclang-rt-14-dev
  # libraries (see README "Dependencies")
  nlohmann-json3-dev libyaml-cpp-dev libssl-dev prometheus-cpp-dev
  libspdlog-dev libsimdjson-dev libre2-dev
  # Boost.Beast and Boost.Asio (header-only) for the HTTP client and server:
  # Debian 12's default Boost (1.74).
  libboost-dev
  # tests and benchmarks
  libgtest-dev libgmock-dev libbenchmark-dev
  # control plane scripts: certificates, health probes
  openssl curl ca-certificates
  # metrics: a real Prometheus for PrometheusTest, promtool for the alert rules,
  # a real Alertmanager for AlertmanagerEndToEndTest
  prometheus prometheus-alertmanager
  # container image without a Docker engine (make image, hack/image/)
  buildah mmdebstrap
  # the real node (NODE=1, hack/node/): its container runtime, OCI runtime,
  # Pod network (bridge, host-local, loopback), the busybox its images hold,
  # ip(8) for its bridge and iptables for the kubernetes Service Pods reach
  containerd runc containernetworking-plugins busybox-static iproute2 iptables
)

missing_packages() {
  local p
  for p in "${PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || echo "$p"
  done
}

sudo_prefix() {
  if [[ $(id -u) -eq 0 ]]; then return; fi
  command -v sudo >/dev/null || die "not root and no sudo: install as root: apt-get install $*"
  echo sudo
}

main() {
  command -v dpkg-query >/dev/null || die "this script expects a Debian/Ubuntu system (dpkg-query not found)"
  mapfile -t missing < <(missing_packages)
  if ((${#missing[@]} == 0)); then
    log "all ${#PACKAGES[@]} Debian packages already installed"
  else
    local sudo; sudo="$(sudo_prefix "${missing[@]}")"
    log "installing: ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get update -qq || die "apt-get update failed; check the network and /etc/apt/sources.list"
    $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null \
      || die "apt-get install failed for: ${missing[*]}"
    mapfile -t still < <(missing_packages)
    ((${#still[@]} == 0)) || die "still missing after install: ${still[*]}"
  fi
  command -v go >/dev/null \
    || die "go not found on PATH; it is needed only to build the test control plane (Go >= 1.26)"
}

main "$@"
