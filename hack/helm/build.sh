#!/usr/bin/env bash
# Builds the helm CLI from its Go module, pinned in hack/helm/go.mod + go.sum
# (a `tool` directive), into a cache outside the work tree, the way
# hack/control-plane/build.sh builds the Kubernetes binaries. The tests lint,
# render and install manifests/helm/dra-controller with it. A second run with
# the same pins is a no-op.
set -euo pipefail
source "$(dirname "$0")/../lib/common.sh"

MODULE_DIR="${REPO_ROOT}/hack/helm"
SELF="${MODULE_DIR}/build.sh"
HELM_MODULE="helm.sh/helm/v4"

pin_hash() {
  cat "${MODULE_DIR}/go.mod" "${MODULE_DIR}/go.sum" "${SELF}" | sha256sum | cut -d' ' -f1
}

cached() {
  local stamp="${HELM_BIN_DIR}/.pins"
  [[ -f "$stamp" && "$(cat "$stamp")" == "$(pin_hash)" && -x "${HELM_BIN}" ]]
}

# The version go.mod pins, e.g. v4.3.2.
helm_version() {
  awk -v m="${HELM_MODULE}" '$1 == m { print $2 }' "${MODULE_DIR}/go.mod"
}

main() {
  command -v go >/dev/null || die "go is required to build helm (hack/install-deps.sh)"
  if cached; then
    log "helm $("${HELM_BIN}" version --short) cached in ${HELM_BIN_DIR}"
    return 0
  fi
  local version start=$SECONDS
  version="$(helm_version)"
  [[ -n "$version" ]] || die "no ${HELM_MODULE} requirement in ${MODULE_DIR}/go.mod"
  mkdir -p "${HELM_BIN_DIR}"
  rm -f "${HELM_BIN_DIR}/.pins"
  log "building helm ${version} (first time only; cached afterwards)"
  cd "${MODULE_DIR}"
  GOFLAGS="-buildvcs=false -mod=readonly" CGO_ENABLED=0 \
    go build -p "${BUILD_JOBS:-2}" -trimpath \
    -ldflags "-s -w -X ${HELM_MODULE}/internal/version.version=${version} -X ${HELM_MODULE}/internal/version.gitTreeState=clean" \
    -o "${HELM_BIN}.tmp" "${HELM_MODULE}/cmd/helm" \
    || die "go build of helm failed (module ${HELM_MODULE} ${version}); see output above"
  mv "${HELM_BIN}.tmp" "${HELM_BIN}"
  pin_hash > "${HELM_BIN_DIR}/.pins"
  log "built helm ${version} in $((SECONDS - start)) s into ${HELM_BIN_DIR} ($(du -sh "${HELM_BIN}" | cut -f1))"
}

main "$@"
