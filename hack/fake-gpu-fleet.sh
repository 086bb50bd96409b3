#!/usr/bin/env bash
# A GPU fleet without GPUs: Ready Node objects with capacity, and
# ResourceSlices for the fake DRA driver gpu.example.com.
#
#   fake-gpu-fleet.sh apply  [NODE_SPEC...]   create/refresh nodes and slices
#   fake-gpu-fleet.sh delete [NODE_SPEC...]   remove them
#
# NODE_SPEC is NAME:GPUS:MEMORY[:MODEL]; the default is the seed cluster:
#   node-a:2:24Gi:gpu-24g node-b:2:80Gi:gpu-80g
# Uses KUBECONFIG (or CLUSTER_DIR/kubeconfig, CLUSTER_DIR defaulting to
# .cluster) and DRA_KUBECTL (or the cached kubectl).
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"

DRIVER="gpu.example.com"
DEFAULT_FLEET=(node-a:2:24Gi:gpu-24g node-b:2:80Gi:gpu-80g)
KUBECTL="${DRA_KUBECTL:-${K8S_BIN_DIR}/kubectl}"
export KUBECONFIG="${KUBECONFIG:-${CLUSTER_DIR:-${REPO_ROOT}/.cluster}/kubeconfig}"

k() { "$KUBECTL" "$@"; }

node_status() {
  local now; now="$(date -u +%Y-%m-%dT%H:%M:%SZ)"
  cat <<JSON
{"capacity":{"cpu":"64","memory":"512Gi","pods":"110"},
 "allocatable":{"cpu":"64","memory":"512Gi","pods":"110"},
 "conditions":[{"type":"Ready","status":"True","reason":"FakeKubeletReady",
   "message":"fake node for dra-controller tests; no kubelet runs","lastHeartbeatTime":"$now",
   "lastTransitionTime":"$now"}]}
JSON
}

node_manifest() {
  cat <<JSON
{"apiVersion":"v1","kind":"Node","metadata":{"name":"$1","labels":{
  "kubernetes.io/hostname":"$1","gpu.example.com/fake-node":"true"}},
 "status":$(node_status)}
JSON
}

# gpu_uuid NODE INDEX: a stable, real-looking NVIDIA UUID for a fake GPU
# (GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx, from the node name and index),
# so tests can name GPUs the way DCGM does.
gpu_uuid() {
  local h; h="$(printf '%s/gpu-%s' "$1" "$2" | md5sum)"
  printf 'GPU-%s-%s-%s-%s-%s' "${h:0:8}" "${h:8:4}" "${h:12:4}" "${h:16:4}" "${h:20:12}"
}

# slice_manifest NODE GPUS MEMORY MODEL
slice_manifest() {
  local node="$1" gpus="$2" memory="$3" model="$4" devices="" i
  for ((i = 0; i < gpus; i++)); do
    [[ -n "$devices" ]] && devices+=","
    devices+="{\"name\":\"gpu-$i\",\"attributes\":{\"type\":{\"string\":\"gpu\"},"
    devices+="\"uuid\":{\"string\":\"$(gpu_uuid "$node" "$i")\"},"
    devices+="\"model\":{\"string\":\"$model\"},\"index\":{\"int\":$i},"
    devices+="\"driverVersion\":{\"version\":\"1.0.0\"}},"
    devices+="\"capacity\":{\"memory\":{\"value\":\"$memory\"}}}"
  done
  cat <<JSON
{"apiVersion":"resource.k8s.io/v1","kind":"ResourceSlice","metadata":{"name":"$node-$DRIVER",
  "labels":{"gpu.example.com/fake-node":"true"}},
 "spec":{"driver":"$DRIVER","nodeName":"$node","pool":{"name":"$node","generation":1,
  "resourceSliceCount":1},"devices":[$devices]}}
JSON
}

parse_spec() {
  IFS=: read -r NAME GPUS MEMORY MODEL <<<"$1"
  [[ -n "$NAME" && "$GPUS" =~ ^[0-9]+$ && -n "$MEMORY" ]] \
    || die "bad node spec '$1'; expected NAME:GPUS:MEMORY[:MODEL], e.g. node-a:2:24Gi:gpu-24g"
  MODEL="${MODEL:-gpu-$MEMORY}"
}

apply_node() {
  parse_spec "$1"
  if k get node "$NAME" >/dev/null 2>&1; then
    # The status subresource takes a Node: the status goes under "status".
    k patch node "$NAME" --subresource=status --type=merge -p "{\"status\":$(node_status)}" >/dev/null
  else
    node_manifest "$NAME" | k create -f - >/dev/null
    # The TaintNodesByCondition admission plugin marks new nodes not-ready;
    # with no kubelet or node-lifecycle controller, lift it as they would.
    k taint node "$NAME" node.kubernetes.io/not-ready:NoSchedule- >/dev/null 2>&1 || true
  fi
  slice_manifest "$NAME" "$GPUS" "$MEMORY" "$MODEL" | k apply -f - >/dev/null
  log "node $NAME: $GPUS x $MEMORY $MODEL published by $DRIVER"
}

delete_node() {
  parse_spec "$1"
  k delete resourceslice "$NAME-$DRIVER" --ignore-not-found >/dev/null
  k delete node "$NAME" --ignore-not-found >/dev/null
  log "node $NAME removed"
}

main() {
  local action="${1:-}"; shift || true
  [[ -x "$KUBECTL" ]] || die "kubectl not found at $KUBECTL (run hack/control-plane/build.sh)"
  local specs=("$@")
  ((${#specs[@]})) || specs=("${DEFAULT_FLEET[@]}")
  local s
  case "$action" in
    apply) for s in "${specs[@]}"; do apply_node "$s"; done ;;
    delete) for s in "${specs[@]}"; do delete_node "$s"; done ;;
    *) echo "usage: $0 apply|delete [NAME:GPUS:MEMORY[:MODEL]...]" >&2; exit 2 ;;
  esac
}

main "$@"
