#!/usr/bin/env bash
# `make demo`: a local control plane with the DeviceHealth CRD, an example GPU
# DeviceClass and a fake GPU fleet, and the controller in the foreground.
# DRA_NODE=1 (make demo NODE=1; as root) adds a real node whose DRA driver
# reports device health.
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
  [[ -n "${DRA_NODE_NAME:-}" ]] || return 0
  cat <<GUIDE
 The real node ${DRA_NODE_NAME} runs Pods; take one off a GPU that turns sick under it
 (docs/control-plane.md, "The real node"):
   kubectl apply -f ${CLUSTER_DIR}/node-gpu-pod.yaml     # a Pod with a claim for one of its GPUs
   kubectl wait --for=condition=Ready pod/node-gpu-pod --timeout=120s
   D=\$(kubectl get resourceclaim node-gpu -o jsonpath='{.status.allocation.devices.results[0].device}')
   curl -s -X POST "http://\$(cat ${DRA_NODE_DRIVER_CONTROL_FILE})/health?device=\$D&health=Unhealthy&message=Xid%2079"
   kubectl get pod node-gpu-pod -o jsonpath='{.status.containerStatuses[0].allocatedResourcesStatus}'
   kubectl get devicehealths,devicetaintrules           # the kubelet's report, as a DeviceHealth and its rule
   kubectl wait --for=delete pod/node-gpu-pod --timeout=120s   # NoExecute after the 30 s preview: it stops
================================================================================

GUIDE
}

# A Pod for the real node: a claim for one of its GPUs (by model) and a container that runs.
write_node_pod() {
  cat > "${CLUSTER_DIR}/node-gpu-pod.yaml" <<YAML
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: node-gpu, namespace: default}
spec:
  devices:
    requests:
    - name: gpu
      exactly:
        deviceClassName: gpu.example.com
        selectors:
        - cel: {expression: 'device.attributes["gpu.example.com"].model == "${DRA_NODE_GPU_MODEL}"'}
---
apiVersion: v1
kind: Pod
metadata: {name: node-gpu-pod, namespace: default}
spec:
  terminationGracePeriodSeconds: 5
  resourceClaims: [{name: gpu, resourceClaimName: node-gpu}]
  containers:
  - name: main
    image: docker.io/local/busybox:1
    imagePullPolicy: Never
    resources: {claims: [{name: gpu, request: gpu}]}
YAML
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
  [[ -n "${DRA_NODE_NAME:-}" ]] && write_node_pod
  try_this_next
  # In the foreground, so Ctrl-C reaches the controller (which shuts down
  # cleanly) before the EXIT trap stops the control plane.
  "${BUILD_DIR}/dra-controller" run --kubeconfig "$KUBECONFIG" \
    --metrics-bind-address "$METRICS_ADDR" --health-probe-bind-address "$PROBE_ADDR" || true
}

main "$@"
