#!/usr/bin/env bash
# `make agreement-soak`: the randomized inventory/scheduler agreement test
# (tests/integration/RandomizedAgreementTest.cc) over many seeds, against a
# control plane started in a temporary directory and stopped by PID.
#   agreement-soak.sh BUILD_DIR
# Environment: DRA_AGREEMENT_SEEDS (default 200), DRA_AGREEMENT_FIRST_SEED
# (default: random, printed), DRA_AGREEMENT_SHAPES to switch shapes off (every
# generated shape is on by default), e.g. "-admin_access".
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"

BUILD_DIR="$(cd "${1:?usage: agreement-soak.sh BUILD_DIR}" && pwd)"
BINARY="$BUILD_DIR/tests/integration_tests"
[[ -x "$BINARY" ]] || die "$BINARY not built (make build)"

export DRA_AGREEMENT_SEEDS="${DRA_AGREEMENT_SEEDS:-200}"
export DRA_AGREEMENT_FIRST_SEED="${DRA_AGREEMENT_FIRST_SEED:-$(((RANDOM << 15 | RANDOM) + 1))}"

CLUSTER_DIR="$(mktemp -d "${TMPDIR:-/tmp}/dra-soak-cluster.XXXXXX")"
export CLUSTER_DIR
trap 'rc=$?; "$REPO_ROOT/hack/control-plane/cluster.sh" down
      if ((rc == 0)); then rm -rf "$CLUSTER_DIR"; else log "kept $CLUSTER_DIR for debugging"; fi
      exit $rc' EXIT
"$REPO_ROOT/hack/control-plane/cluster.sh" up
# shellcheck disable=SC1091
source "$CLUSTER_DIR/env"
export DRA_CLUSTER_DIR="$CLUSTER_DIR" DRA_REQUIRE_CLUSTER=1
log "agreement soak: $DRA_AGREEMENT_SEEDS seeds from $DRA_AGREEMENT_FIRST_SEED" \
    "(shapes: ${DRA_AGREEMENT_SHAPES:-default})"
"$BINARY" --gtest_filter='RandomizedAgreementTest.*' || die "agreement soak failed (seeds above)"
