#!/usr/bin/env bash
# `make demo`: a local control plane with the DeviceHealth CRD, an example GPU
# DeviceClass and a fake GPU fleet, and the controller in the foreground.
# Ctrl-C stops the controller and the control plane.
#   demo.sh BUILD_DIR
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"

BUILD_DIR="$(cd "${1:?usage: demo.sh BUILD_DIR}" && pwd)"
CLUSTER_DIR="${CLUSTER_DIR:-${REPO_ROOT}/.cluster}"
export CLUSTER_DIR
CLUSTER="${REPO_ROOT}/hack/control-plane/cluster.sh"
METRICS_ADDR="${DEMO_METRICS_ADDR:-127.0.0.1:18080}"
PROBE_ADDR="${DEMO_PROBE_ADDR:-127.0.0.1:18081}"

cleanup() {
  trap - EXIT INT TERM
  "$CLUSTER" down
}

try_this_next() {
  cat <<GUIDE

================================================================================
 dra-controller demo: Kubernetes ${K8S_VERSION} control plane on loopback
================================================================================
 Try this next, in another terminal:
   export KUBECONFIG=${CLUSTER_DIR}/kubeconfig
   alias kubectl=${K8S_BIN_DIR}/kubectl

   kubectl get nodes,resourceslices,deviceclasses     # the fake GPU fleet
   kubectl apply -f manifests/examples/gpu-pod.yaml   # a device-plugin style GPU request
   kubectl get pod gpu-pod -o jsonpath='{.spec.nodeName} {.status.extendedResourceClaimStatus}'
   kubectl get resourceclaims -o wide                 # the claim the scheduler made for it
   ${BUILD_DIR}/dra-controller explain pod default/gpu-pod   # which GPU it got (also: devices, mapping)
   ${BUILD_DIR}/dra-controller check                  # is this cluster ready for DRA GPUs?
   kubectl apply -f manifests/examples/devicehealth-unhealthy.yaml
   kubectl get devicehealths                          # printer columns of the CRD
   # device health walk-through (take a GPU out, bring it back): docs/health.md
   curl -s http://${PROBE_ADDR}/readyz; curl -s http://${METRICS_ADDR}/metrics | head
   curl -s http://${METRICS_ADDR}/metrics | grep '^dra_controller_'   # allocation metrics (docs/metrics.md)

 Logs of the control plane: ${CLUSTER_DIR}/logs/   Ctrl-C stops everything.
================================================================================

GUIDE
}

main() {
  trap cleanup EXIT
  trap 'exit 130' INT TERM
  "$CLUSTER" up
  # shellcheck disable=SC1091
  source "${CLUSTER_DIR}/env"
  "$DRA_KUBECTL" apply -k "${REPO_ROOT}/crds/" >/dev/null
  "$DRA_KUBECTL" wait --for=condition=Established --timeout=30s crd --all >/dev/null
  "$DRA_KUBECTL" apply -f "${REPO_ROOT}/manifests/examples/gpu-deviceclass.yaml" >/dev/null
  "${REPO_ROOT}/hack/fake-gpu-fleet.sh" apply
  try_this_next
  # In the foreground, so Ctrl-C reaches the controller (which shuts down
  # cleanly) before the EXIT trap stops the control plane.
  "${BUILD_DIR}/dra-controller" run --kubeconfig "$KUBECONFIG" \
    --metrics-bind-address "$METRICS_ADDR" --health-probe-bind-address "$PROBE_ADDR" || true
}

main "$@"
