#!/usr/bin/env bash
# Builds etcd, kube-apiserver, kube-scheduler, kube-controller-manager and
# kubectl from the official Go modules pinned in k8s/go.mod + go.sum, into a
# cache outside the work tree. A second run with the same pins is a no-op.
set -euo pipefail
source "$(dirname "$0")/../lib/common.sh"

MODULE_DIR="${REPO_ROOT}/hack/control-plane/k8s"
SELF="${REPO_ROOT}/hack/control-plane/build.sh"
BINARIES=(etcd kube-apiserver kube-scheduler kube-controller-manager kubectl)

pin_hash() {
  cat "${MODULE_DIR}/go.mod" "${MODULE_DIR}/go.sum" "${MODULE_DIR}/cmd/etcd/main.go" \
    "${SELF}" | sha256sum | cut -d' ' -f1
}

cached() {
  local stamp="${K8S_BIN_DIR}/.pins"
  [[ -f "$stamp" && "$(cat "$stamp")" == "$(pin_hash)" ]] || return 1
  local b
  for b in "${BINARIES[@]}"; do [[ -x "${K8S_BIN_DIR}/$b" ]] || return 1; done
}

version_ldflags() {
  local minor="${K8S_VERSION#v1.}"; minor="${minor%%.*}"
  local pkg flags="-s -w"
  for pkg in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
    flags+=" -X ${pkg}.gitVersion=${K8S_VERSION} -X ${pkg}.gitMajor=1"
    flags+=" -X ${pkg}.gitMinor=${minor} -X ${pkg}.gitTreeState=clean"
    flags+=" -X ${pkg}.buildDate=1970-01-01T00:00:00Z"
  done
  echo "$flags"
}

package_of() {
  case "$1" in
    etcd) echo "./cmd/etcd" ;;
    *) echo "k8s.io/kubernetes/cmd/$1" ;;
  esac
}

main() {
  command -v go >/dev/null || die "go is required to build the test control plane (hack/install-deps.sh)"
  if cached; then
    log "Kubernetes ${K8S_VERSION} binaries cached in ${K8S_BIN_DIR}"
    return 0
  fi
  mkdir -p "${K8S_BIN_DIR}"
  rm -f "${K8S_BIN_DIR}/.pins"
  local start=$SECONDS b
  cd "${MODULE_DIR}"
  export GOFLAGS="-buildvcs=false -mod=readonly" CGO_ENABLED=0
  for b in "${BINARIES[@]}"; do
    log "building $b ${K8S_VERSION} (first time only; cached afterwards)"
    go build -p "${BUILD_JOBS:-2}" -trimpath -ldflags "$(version_ldflags)" \
      -o "${K8S_BIN_DIR}/$b.tmp" "$(package_of "$b")" \
      || die "go build of $b failed (module k8s.io/kubernetes ${K8S_VERSION}); see output above"
    mv "${K8S_BIN_DIR}/$b.tmp" "${K8S_BIN_DIR}/$b"
  done
  pin_hash > "${K8S_BIN_DIR}/.pins"
  log "built in $((SECONDS - start)) s into ${K8S_BIN_DIR} ($(du -sh "${K8S_BIN_DIR}" | cut -f1))"
}

main "$@"
