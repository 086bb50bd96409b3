#!/usr/bin/env bash
# The fixed fleet the process-memory gate (tests/integration/
# ProcessMemoryGateTest.cc) syncs: 200 ResourceSlices x 8 GPUs, 1,000
# ResourceClaims and 600 Pods in namespace memory-gate. The sizes are part
# of the baseline (tests/gate/process-rss-baseline.json): change both together.
#
#   gate-fleet.sh create|delete [NAMESPACE]        (needs KUBECONFIG)
set -euo pipefail
source "$(dirname "$0")/../lib/common.sh"
source "$(dirname "$0")/fleet-gen.sh"

KUBECTL="${DRA_KUBECTL:-${K8S_BIN_DIR}/kubectl}"
NAMESPACE="${2:-memory-gate}"
LABEL="bench.dra.example.com/memory-gate"
SLICES=200 DEVICES=8 CLAIMS=1000 PODS=600

k() { "$KUBECTL" "$@"; }

# WAIT=true waits until everything is gone (a terminating namespace refuses
# new objects); the test's teardown does not wait.
delete_fleet() {
  local wait="${1:-false}"
  # One deletecollection each, done by the API server at once (the namespace
  # controller takes minutes for a thousand claims); bound Pods without a
  # kubelet never confirm a graceful deletion, so theirs is immediate.
  k delete --raw "/api/v1/namespaces/$NAMESPACE/pods?gracePeriodSeconds=0" >/dev/null 2>&1 || true
  k delete --raw "/apis/resource.k8s.io/v1/namespaces/$NAMESPACE/resourceclaims" >/dev/null 2>&1 || true
  k delete namespace "$NAMESPACE" --ignore-not-found --wait="$wait" --timeout=300s >/dev/null
  k delete resourceslices -l "$LABEL=true" --ignore-not-found --wait="$wait" >/dev/null
}

create_fleet() {
  local work
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' RETURN
  delete_fleet true
  k create namespace "$NAMESPACE" >/dev/null
  gen_slices "$SLICES" "$DEVICES" "$work/slices" "$LABEL"
  gen_claims "$CLAIMS" "$NAMESPACE" "$work/claims" "$LABEL"
  gen_pods "$PODS" "$NAMESPACE" "$SLICES" "$work/pods" "$LABEL"
  create_all "$KUBECTL" "$work"/*.json || die "creating the memory-gate fleet failed"
  log "memory-gate fleet: $SLICES slices x $DEVICES devices, $CLAIMS claims, $PODS pods"
}

case "${1:-}" in
  create) create_fleet ;;
  delete) delete_fleet ;;
  *) die "usage: $0 create|delete" ;;
esac
