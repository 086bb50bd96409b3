#!/usr/bin/env bash
# Shared settings for the hack/ scripts. Source it; do not execute it.

K8S_VERSION="v1.37.2"
REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
DRA_CACHE_DIR="${DRA_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/dra-controller}"
K8S_BIN_DIR="${DRA_CACHE_DIR}/k8s-${K8S_VERSION}/bin"

log() { printf '[%s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }
