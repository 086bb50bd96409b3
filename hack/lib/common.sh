#!/usr/bin/env bash
# Shared settings for the hack/ scripts. Source it; do not execute it.

# The Kubernetes release the control plane runs: the default is the one the
# project is built against; K8S_VERSION=v1.36.3 (any release with a module dir
# under hack/control-plane/k8s/) selects another, cached beside it.
DEFAULT_K8S_VERSION="v1.37.2"
K8S_VERSION="${K8S_VERSION:-${DEFAULT_K8S_VERSION}}"
REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
DRA_CACHE_DIR="${DRA_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/dra-controller}"
K8S_BIN_DIR="${DRA_CACHE_DIR}/k8s-${K8S_VERSION}/bin"
# helm, built from hack/helm/go.mod by hack/helm/build.sh.
HELM_BIN_DIR="${DRA_CACHE_DIR}/helm/bin"
HELM_BIN="${HELM_BIN_DIR}/helm"

log() { printf '[%s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# stop_pid PID: SIGTERM to a child this script started (if still running),
# then reap it. An empty PID is a no-op, so cleanup traps can call it always.
stop_pid() {
  [[ -n "${1:-}" ]] && kill -0 "$1" 2>/dev/null || return 0
  kill -TERM "$1" 2>/dev/null || true
  wait "$1" 2>/dev/null || true
}
