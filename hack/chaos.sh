#!/usr/bin/env bash
# `make chaos`: the chaos run (tests/chaos/ChaosTest.cc) against a control
# plane started in a temporary directory, with kube-apiserver's audit log on
# so the controller's writes can be counted, and stopped again by PID.
#   chaos.sh BUILD_DIR
# Environment: CHAOS_MINUTES (leader kill loop, default 10), CHAOS_KILL_INTERVAL
# (default 30 s), CHAOS_FAULT_ROUNDS (apiserver/etcd/both restarts, default 2),
# CHAOS_SEED (default: random, printed), DRA_CHAOS_ARTIFACTS (replica logs and
# summary.txt; default: a new directory under TMPDIR, kept).
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"

BUILD_DIR="$(cd "${1:?usage: chaos.sh BUILD_DIR}" && pwd)"
BINARY="$BUILD_DIR/tests/chaos_tests"
[[ -x "$BINARY" ]] || die "$BINARY not built (cmake --build $BUILD_DIR --target chaos_tests)"
[[ -x "$BUILD_DIR/dra-controller" ]] || die "$BUILD_DIR/dra-controller not built (make build)"

DRA_CHAOS_ARTIFACTS="${DRA_CHAOS_ARTIFACTS:-$(mktemp -d "${TMPDIR:-/tmp}/dra-chaos.XXXXXX")}"
mkdir -p "$DRA_CHAOS_ARTIFACTS"
export DRA_CHAOS_ARTIFACTS

CLUSTER_DIR="$(mktemp -d "${TMPDIR:-/tmp}/dra-chaos-cluster.XXXXXX")"
export CLUSTER_DIR
trap 'rc=$?; "$REPO_ROOT/hack/control-plane/cluster.sh" down
      if ((rc == 0)); then rm -rf "$CLUSTER_DIR"; else log "kept $CLUSTER_DIR for debugging"; fi
      log "replica logs and summary in $DRA_CHAOS_ARTIFACTS"
      exit $rc' EXIT
"$REPO_ROOT/hack/control-plane/cluster.sh" up

# Audit the writes the run counts (metadata only, at ResponseComplete): the
# flags are added to the recorded kube-apiserver command, which every
# `cluster.sh restart` of the run reuses.
cat >"$CLUSTER_DIR/audit-policy.yaml" <<'POLICY'
apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: ["RequestReceived"]
rules:
- level: Metadata
  verbs: ["create", "update", "patch", "delete", "deletecollection"]
  resources:
  - group: "resource.k8s.io"
    resources: ["devicetaintrules", "resourceslices", "deviceclasses", "resourceclaims"]
  - group: "dra-controller.dev"
    resources: ["devicehealths", "devicehealths/status"]
  - group: ""
    resources: ["events", "pods"]
  - group: "coordination.k8s.io"
    resources: ["leases"]
- level: None
POLICY
export DRA_CHAOS_AUDIT_LOG="$CLUSTER_DIR/logs/audit.log"
printf '%q ' --audit-policy-file "$CLUSTER_DIR/audit-policy.yaml" \
  --audit-log-path "$DRA_CHAOS_AUDIT_LOG" >>"$CLUSTER_DIR/cmd/kube-apiserver"
"$REPO_ROOT/hack/control-plane/cluster.sh" restart kube-apiserver

# shellcheck disable=SC1091
source "$CLUSTER_DIR/env"
export DRA_CLUSTER_DIR="$CLUSTER_DIR" DRA_REQUIRE_CLUSTER=1
log "chaos: ${CHAOS_MINUTES:-10} min of leader kills every ${CHAOS_KILL_INTERVAL:-30} s after" \
    "${CHAOS_FAULT_ROUNDS:-2} rounds of kube-apiserver/etcd restarts, against ${DRA_APISERVER_URL}"
"$BINARY" || die "chaos run failed (artifacts: $DRA_CHAOS_ARTIFACTS)"
