#!/usr/bin/env bash
# The real node's eviction and reopening times (docs/benchmarks.md, "The real
# node"): starts a control plane with the real node in a temporary
# CLUSTER_DIR, runs BUILD_DIR/tests/RealNodeEvictionBench (DRA_NODE_BENCH_RUNS
# runs, default 20) and stops the cluster. Needs root (the node does).
#
#   node-eviction.sh BUILD_DIR        `make bench-node`
set -euo pipefail
source "$(dirname "$0")/../lib/common.sh"

BUILD_DIR="${1:?usage: node-eviction.sh BUILD_DIR}"
[[ $(id -u) -eq 0 ]] || die "the real node needs root"
BENCH="$BUILD_DIR/tests/RealNodeEvictionBench"
[[ -x "$BENCH" ]] || die "$BENCH is not built"

CLUSTER_DIR="$(mktemp -d /tmp/dra-bench-node.XXXXXX)"
export CLUSTER_DIR
cleanup() { "$REPO_ROOT/hack/control-plane/cluster.sh" down || true; }
trap cleanup EXIT
DRA_NODE=1 "$REPO_ROOT/hack/control-plane/cluster.sh" up
# shellcheck disable=SC1091
source "$CLUSTER_DIR/env"
"$BENCH"
