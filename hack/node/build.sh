#!/usr/bin/env bash
# Builds what the real node runs beside containerd, into the cache outside the
# work tree (a second run with the same pins is a no-op):
#   the kubelet of K8S_VERSION   hack/control-plane/build.sh --node (its wrapper module, node.mod)
#   dra-test-gpu-driver          hack/node/dra-driver (go.mod + go.sum pin k8s.io/kubernetes v1.37.2)
# and the node's images (hack/node/images.sh). BUILD_JOBS sets go build -p (default 2).
# `build.sh --check` builds nothing: it exits 0 when all of it is current, 1 when not.
set -euo pipefail
source "$(dirname "$0")/../lib/common.sh"

MODULE_DIR="${REPO_ROOT}/hack/node/dra-driver"
DRIVER_BIN_DIR="${DRA_CACHE_DIR}/dra-driver/bin"
DRIVER_BIN="${DRIVER_BIN_DIR}/dra-test-gpu-driver"

build_driver_binary() {
  GOFLAGS="-buildvcs=false -mod=readonly" CGO_ENABLED=0 \
    go build -p "${BUILD_JOBS:-2}" -trimpath -ldflags "-s -w" -o "${DRIVER_BIN}.tmp" .
}

pin_hash() {
  { cat "${MODULE_DIR}/go.mod" "${MODULE_DIR}/go.sum" "${MODULE_DIR}"/*.go
    declare -f build_driver_binary; } | sha256sum | cut -d' ' -f1
}

driver_cached() {
  [[ -f "${DRIVER_BIN_DIR}/.inputs" && "$(cat "${DRIVER_BIN_DIR}/.inputs")" == "$(pin_hash)" \
     && -x "${DRIVER_BIN}" ]]
}

build_driver() {
  if driver_cached; then
    log "dra-test-gpu-driver cached in ${DRIVER_BIN_DIR}"
    return 0
  fi
  command -v go >/dev/null || die "go is required to build the node's DRA driver (hack/install-deps.sh)"
  local start=$SECONDS
  mkdir -p "${DRIVER_BIN_DIR}"
  rm -f "${DRIVER_BIN_DIR}/.inputs"
  log "building dra-test-gpu-driver (first time only; cached afterwards)"
  (cd "${MODULE_DIR}" && build_driver_binary) \
    || die "go build of hack/node/dra-driver failed; see output above"
  mv "${DRIVER_BIN}.tmp" "${DRIVER_BIN}"
  pin_hash > "${DRIVER_BIN_DIR}/.inputs"
  log "built dra-test-gpu-driver in $((SECONDS - start)) s into ${DRIVER_BIN_DIR}"
}

main() {
  if [[ "${1:-}" == --check ]]; then
    local rc=0
    "${REPO_ROOT}/hack/control-plane/build.sh" --node --check || rc=1
    driver_cached || { log "dra-test-gpu-driver is not built (or its pins changed): hack/node/build.sh"; rc=1; }
    return "$rc"
  fi
  "${REPO_ROOT}/hack/control-plane/build.sh" --node
  build_driver
  "${REPO_ROOT}/hack/node/images.sh"
}

main "$@"
