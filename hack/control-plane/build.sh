#!/usr/bin/env bash
# Builds etcd, kube-apiserver, kube-scheduler, kube-controller-manager and
# kubectl for K8S_VERSION (default in hack/lib/common.sh) from the official Go
# modules pinned in its wrapper module, into a cache outside the work tree:
#   hack/control-plane/k8s/            the default release (v1.37.2)
#   hack/control-plane/k8s/v1.X.Y/     other releases (new-version.sh makes one)
# A second run with the same pins is a no-op. BUILD_JOBS sets go build -p
# (default 2); GOMAXPROCS is passed through to the Go toolchain.
# A release one minor below the default takes etcd and kubectl from the
# default's cache when it is built (kubectl's supported skew is one minor;
# etcd's v3 API serves every release here, proven by the version matrix), so
# `make test` on a new machine builds only the three binaries that differ.
# SHARE_BINARIES=0 builds all five.
# `build.sh --check` builds nothing: it exits 0 when the cache is current, 1 when not.
# `build.sh --node [--check]` builds the kubelet instead (hack/node/), from the
# same module with the alternative module file node.mod (go.mod plus the
# kubelet's extra pins, node.sum beside it) and a stamp of its own, so a
# control-plane cache stays valid when only the node's pins change.
set -euo pipefail
source "$(dirname "$0")/../lib/common.sh"

BINARIES=(etcd kube-apiserver kube-scheduler kube-controller-manager kubectl)

module_dir() {
  local base="${REPO_ROOT}/hack/control-plane/k8s"
  if [[ -f "${base}/${K8S_VERSION}/go.mod" ]]; then echo "${base}/${K8S_VERSION}"
  elif [[ "${K8S_VERSION}" == "${DEFAULT_K8S_VERSION}" ]]; then echo "${base}"
  else
    local known; known="${DEFAULT_K8S_VERSION} $(available_versions)"
    die "no wrapper module for Kubernetes ${K8S_VERSION}: known are ${known% }; hack/control-plane/new-version.sh ${K8S_VERSION} creates one"
  fi
}

available_versions() {
  local d
  for d in "${REPO_ROOT}"/hack/control-plane/k8s/v*/go.mod; do
    [[ -f "$d" ]] && basename "$(dirname "$d")"
  done | tr '\n' ' '
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

# The binaries this release takes from the default release's cache, if any.
shared_binaries() {
  [[ "${SHARE_BINARIES:-1}" == 1 && "${K8S_VERSION}" != "${DEFAULT_K8S_VERSION}" ]] || return 0
  local minor="${K8S_VERSION#v1.}" default_minor="${DEFAULT_K8S_VERSION#v1.}"
  minor="${minor%%.*}"; default_minor="${default_minor%%.*}"
  (( default_minor - minor == 1 )) || return 0
  local from="${DRA_CACHE_DIR}/k8s-${DEFAULT_K8S_VERSION}/bin"
  [[ -x "${from}/etcd" && -x "${from}/kubectl" && -f "${from}/${STAMP}" ]] || return 0
  echo "etcd kubectl"
}

# Hard links where the cache's filesystem allows them, else copies.
take_shared() {
  local from="${DRA_CACHE_DIR}/k8s-${DEFAULT_K8S_VERSION}/bin/$1"
  ln -f "$from" "${K8S_BIN_DIR}/$1" 2>/dev/null || cp -f "$from" "${K8S_BIN_DIR}/$1"
}

build_one() {
  go build -p "${BUILD_JOBS:-2}" -trimpath -ldflags "$(version_ldflags)" \
    -o "${K8S_BIN_DIR}/$1.tmp" "$(package_of "$1")"
}

# The inputs of a build: the pins, the etcd wrapper and the recipe (not the
# rest of this script, so editing a comment or a log line rebuilds nothing).
pin_hash() {
  {
    cat "$1/go.mod" "$1/go.sum" "$1/cmd/etcd/main.go"
    echo "${K8S_VERSION} ${BINARIES[*]}"
    declare -f version_ldflags package_of build_one
  } | sha256sum | cut -d' ' -f1
}

STAMP=".inputs"
NODE_BINARIES=(kubelet)
NODE_STAMP=".node-inputs"

# The node's inputs: node.mod, node.sum and the same recipe.
node_pin_hash() {
  {
    cat "$1/node.mod" "$1/node.sum"
    echo "${K8S_VERSION} ${NODE_BINARIES[*]}"
    declare -f version_ldflags package_of build_one
  } | sha256sum | cut -d' ' -f1
}

node_cached() { stamp_current "${NODE_STAMP}" "$(node_pin_hash "$1")" "${NODE_BINARIES[@]}"; }

# node.mod must select every module go.mod selects at the same version (it
# only adds the kubelet's), or the kubelet would not match the control plane.
check_node_pins() {
  local drift
  drift="$(cd "$1" && comm -23 <(go list -m all | sort) <(go list -modfile=node.mod -m all | sort))" \
    || die "go list -m all failed in $1 (see above)"
  [[ -z "$drift" ]] || die "$1/node.mod selects other versions than go.mod for: ${drift//$'\n'/, }; regenerate it (docs/control-plane.md, \"The node\")"
}

build_node() {
  local dir="$1"
  [[ -f "$dir/node.mod" && -f "$dir/node.sum" ]] \
    || die "no node.mod/node.sum in ${dir}: the kubelet is pinned for ${K8S_VERSION} only where they exist (docs/control-plane.md, \"The node\")"
  if [[ "${2:-}" == --check ]]; then
    node_cached "$dir" && return 0
    log "the kubelet ${K8S_VERSION} is not built (or its pins changed): K8S_VERSION=${K8S_VERSION} hack/control-plane/build.sh --node"
    return 1
  fi
  command -v go >/dev/null || die "go is required to build the kubelet (hack/install-deps.sh)"
  if node_cached "$dir"; then
    log "kubelet ${K8S_VERSION} cached in ${K8S_BIN_DIR}"
    return 0
  fi
  check_node_pins "$dir"
  mkdir -p "${K8S_BIN_DIR}"
  rm -f "${K8S_BIN_DIR}/${NODE_STAMP}"
  local start=$SECONDS b
  cd "$dir"
  export GOFLAGS="-buildvcs=false -mod=readonly -modfile=node.mod" CGO_ENABLED=0
  for b in "${NODE_BINARIES[@]}"; do
    log "building $b ${K8S_VERSION} (first time only; cached afterwards)"
    build_one "$b" \
      || die "go build of $b failed (module k8s.io/kubernetes ${K8S_VERSION} in ${dir}, node.mod); see output above"
    mv "${K8S_BIN_DIR}/$b.tmp" "${K8S_BIN_DIR}/$b"
  done
  node_pin_hash "$dir" > "${K8S_BIN_DIR}/${NODE_STAMP}"
  log "built the kubelet ${K8S_VERSION} in $((SECONDS - start)) s into ${K8S_BIN_DIR}"
}

# stamp_current STAMP HASH BINARY...: the stamp file holds HASH and every binary is built.
stamp_current() {
  local stamp="${K8S_BIN_DIR}/$1" hash="$2" b
  shift 2
  [[ -f "$stamp" && "$(cat "$stamp")" == "$hash" ]] || return 1
  for b in "$@"; do [[ -x "${K8S_BIN_DIR}/$b" ]] || return 1; done
}

cached() { stamp_current "${STAMP}" "$(pin_hash "$1")" "${BINARIES[@]}"; }

main() {
  local dir; dir="$(module_dir)"
  if [[ "${1:-}" == --node ]]; then
    build_node "$dir" "${2:-}"
    return
  fi
  if [[ "${1:-}" == --check ]]; then
    cached "$dir" && return 0
    log "Kubernetes ${K8S_VERSION} is not built (or its pins changed): K8S_VERSION=${K8S_VERSION} hack/control-plane/build.sh"
    return 1
  fi
  command -v go >/dev/null || die "go is required to build the test control plane (hack/install-deps.sh)"
  if cached "$dir"; then
    log "Kubernetes ${K8S_VERSION} binaries cached in ${K8S_BIN_DIR}"
    return 0
  fi
  mkdir -p "${K8S_BIN_DIR}"
  rm -f "${K8S_BIN_DIR}/${STAMP}"
  local start=$SECONDS b
  cd "$dir"
  export GOFLAGS="-buildvcs=false -mod=readonly" CGO_ENABLED=0
  local shared; shared=" $(shared_binaries) "
  for b in "${BINARIES[@]}"; do
    if [[ "$shared" == *" $b "* ]]; then
      log "$b: taking ${DEFAULT_K8S_VERSION}'s (one minor apart; SHARE_BINARIES=0 builds it)"
      take_shared "$b"
      continue
    fi
    log "building $b ${K8S_VERSION} (first time only; cached afterwards)"
    build_one "$b" \
      || die "go build of $b failed (module k8s.io/kubernetes ${K8S_VERSION} in ${dir}); see output above"
    mv "${K8S_BIN_DIR}/$b.tmp" "${K8S_BIN_DIR}/$b"
  done
  pin_hash "$dir" > "${K8S_BIN_DIR}/${STAMP}"
  log "built ${K8S_VERSION} in $((SECONDS - start)) s into ${K8S_BIN_DIR} ($(du -sh "${K8S_BIN_DIR}" | cut -f1))"
}

main "$@"
