# shellcheck shell=bash
# The real node beside the test control plane: containerd (Debian's, with
# runc and the bridge CNI plugin), the kubelet of K8S_VERSION and the DRA
# driver hack/node/dra-driver, all under ${CLUSTER_DIR}/node, on free ports.
# Sourced by hack/control-plane/cluster.sh, whose helpers it uses (start,
# wait_until, free_port, stop_pid, kubectl_admin, write_kubeconfig).
#   node_up      start the node once the control plane is up; wait until the
#                node is Ready, untainted and its driver registered
#   node_down    delete its Pods through the kubelet, stop everything by PID,
#                unmount what the kubelet and containerd mounted, delete state
#   node_status  one line per node component

NODE_COMPONENTS=(containerd kubelet dra-test-gpu-driver)
NODE_NAME="${DRA_NODE_NAME:-real-node}"
NODE_DRIVER="${DRA_NODE_DRIVER:-gpu.example.com}"
NODE_GPUS="${DRA_NODE_GPUS:-2}"
NODE_GPU_MEMORY="${DRA_NODE_GPU_MEMORY:-16Gi}"
NODE_GPU_MODEL="${DRA_NODE_GPU_MODEL:-gpu-node-16g}"
# false: the driver returns no CDI device IDs, so the kubelet names devices
# <driver>/<pool>/<device> in allocatedResourcesStatus rather than by CDI ID.
NODE_CDI_DEVICE_IDS="${DRA_NODE_CDI_DEVICE_IDS:-true}"
NODE_READY_TIMEOUT="${NODE_READY_TIMEOUT:-120}"
NODE_DIR="${CLUSTER_DIR}/node"
# shellcheck disable=SC2034  # cluster.sh's binary_of starts it
DRA_DRIVER_BIN="${DRA_CACHE_DIR}/dra-driver/bin/dra-test-gpu-driver"
# Unix socket paths are limited to 108 bytes; the longest is the driver's
# registration socket under the kubelet's root directory.
NODE_DIR_MAX=60

containerd_sock() { echo "${NODE_DIR}/containerd/containerd.sock"; }
node_ctr() { ctr --address "$(containerd_sock)" -n k8s.io "$@"; }

# The bridge and subnet of this cluster's Pods: the first 10.244.N.0/24 with
# no bridge dra-cniN on the machine. The bridge is created here, under a
# lock, so a second cluster starting at the same time takes the next N.
reserve_pod_network() {
  local lock="${DRA_CACHE_DIR}/node-network.lock" n
  mkdir -p "${DRA_CACHE_DIR}"
  exec {lock_fd}>"$lock"
  flock -w 30 "$lock_fd" || die "could not lock ${lock} to pick a Pod network"
  for ((n = 0; n < 250; n++)); do
    ip link show "dra-cni$n" >/dev/null 2>&1 && continue
    ip -4 route show | grep -q "^10\.244\.$n\.0/24 " && continue
    ip link add name "dra-cni$n" type bridge \
      || die "could not create bridge dra-cni$n (root and CAP_NET_ADMIN are needed)"
    ip addr add "10.244.$n.1/24" dev "dra-cni$n"
    ip link set "dra-cni$n" up
    echo "$n" > "${NODE_DIR}/pod-network"
    exec {lock_fd}>&-
    return 0
  done
  exec {lock_fd}>&-
  die "no free Pod network: bridges dra-cni0 to dra-cni249 all exist"
}

# The `kubernetes` Service for Pods: no kube-proxy runs, so one DNAT rule does
# its job for the API server, 10.0.0.1:443 (the Service's ClusterIP, in the
# API server certificate) from the Pod bridge to the API server on loopback;
# route_localnet lets the bridge's packets reach 127.0.0.1. In-cluster
# clients (a Pod's ServiceAccount) then work unchanged.
api_service_rule() {
  echo "PREROUTING -i dra-cni$1 -d 10.0.0.1/32 -p tcp --dport 443 -m comment --comment dra-controller-node -j DNAT --to-destination 127.0.0.1:$2"
}

route_api_service() {
  local n; n="$(cat "${NODE_DIR}/pod-network")"
  sysctl -qw "net.ipv4.conf.dra-cni$n.route_localnet=1"
  # shellcheck disable=SC2046
  iptables -t nat -A $(api_service_rule "$n" "$APISERVER_PORT") \
    || die "could not add the kubernetes Service's DNAT rule (iptables nat table)"
  echo "$APISERVER_PORT" > "${NODE_DIR}/api-service-port"
}

unroute_api_service() {
  local n port
  n="$(cat "${NODE_DIR}/pod-network" 2>/dev/null)" || return 0
  port="$(cat "${NODE_DIR}/api-service-port" 2>/dev/null)" || return 0
  # shellcheck disable=SC2046
  iptables -t nat -D $(api_service_rule "$n" "$port") 2>/dev/null || true
}

# The workload controllers run only while the node is up: without a kubelet,
# the Pods a Deployment makes would be bound to the fake fleet's nodes and
# never go away. The recorded kube-controller-manager command (its
# --controllers, commas escaped) gains or loses them, then restarts it.
WORKLOAD_CONTROLLERS='\,deployment-controller\,replicaset-controller\,disruption-controller\,endpointslice-controller'
set_workload_controllers() {
  local cmd="${CLUSTER_DIR}/cmd/kube-controller-manager"
  [[ -f "$cmd" ]] && alive kube-controller-manager || return 0
  if [[ "$1" == on ]]; then
    grep -qF "$WORKLOAD_CONTROLLERS" "$cmd" && return 0
    sed -i "s/--controllers \([^ ]*\)/--controllers \1${WORKLOAD_CONTROLLERS//\\/\\\\}/" "$cmd"
  else
    grep -qF "$WORKLOAD_CONTROLLERS" "$cmd" || return 0
    sed -i "s/${WORKLOAD_CONTROLLERS//\\/\\\\}//" "$cmd"
  fi
  restart kube-controller-manager
}

# The project's image (make image, or make test's prebuilt one), so that the
# Deployment in manifests/ runs here; without one, only a note.
import_project_image() {
  local archive="${NODE_DIR}/dra-controller-image.tar" why
  if ! why="$("${REPO_ROOT}/hack/image/export.sh" "$archive" 2>&1)"; then
    log "not importing the dra-controller image: ${why}"
    return 0
  fi
  node_ctr images import "$archive" >/dev/null \
    || die "ctr images import of the dra-controller image failed; see ${CLUSTER_DIR}/logs/containerd.log"
  rm -f "$archive"
}

write_cni_config() {
  local n; n="$(cat "${NODE_DIR}/pod-network")"
  mkdir -p "${NODE_DIR}/cni/net.d" "${NODE_DIR}/cni/ipam"
  cat > "${NODE_DIR}/cni/net.d/10-dra-node.conflist" <<JSON
{
  "cniVersion": "1.0.0",
  "name": "dra-node-$n",
  "plugins": [
    {"type": "bridge", "bridge": "dra-cni$n", "isGateway": true, "ipMasq": false,
     "ipam": {"type": "host-local", "dataDir": "${NODE_DIR}/cni/ipam",
              "ranges": [[{"subnet": "10.244.$n.0/24", "gateway": "10.244.$n.1"}]],
              "routes": [{"dst": "0.0.0.0/0"}]}},
    {"type": "loopback"}
  ]
}
JSON
}

# containerd keeps everything under NODE_DIR. restrict_oom_score_adj: without
# CAP_SYS_RESOURCE (dropped in some sandboxes) lowering oom_score_adj fails
# and so does every sandbox. The CRI streaming server takes a free port.
write_containerd_config() {
  local c="${NODE_DIR}/containerd"
  mkdir -p "$c"
  cat > "$c/config.toml" <<TOML
version = 2
root = "$c/root"
state = "$c/state"
disabled_plugins = ["io.containerd.snapshotter.v1.aufs", "io.containerd.snapshotter.v1.btrfs",
  "io.containerd.snapshotter.v1.devmapper", "io.containerd.snapshotter.v1.zfs",
  "io.containerd.tracing.processor.v1.otlp", "io.containerd.internal.v1.tracing"]

[grpc]
  address = "$(containerd_sock)"
[ttrpc]
  address = "$(containerd_sock).ttrpc"

[plugins."io.containerd.internal.v1.opt"]
  path = "$c/opt"

[plugins."io.containerd.grpc.v1.cri"]
  sandbox_image = "docker.io/local/pause:1"
  restrict_oom_score_adj = true
  netns_mounts_under_state_dir = true
  stream_server_address = "127.0.0.1"
  stream_server_port = "0"
  [plugins."io.containerd.grpc.v1.cri".containerd]
    snapshotter = "overlayfs"
    default_runtime_name = "runc"
    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
      runtime_type = "io.containerd.runc.v2"
      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
        BinaryName = "$(command -v runc)"
        Root = "$c/runc"
        SystemdCgroup = false
  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = "/usr/lib/cni"
    conf_dir = "${NODE_DIR}/cni/net.d"
    max_conf_num = 1
TOML
}

# The kubelet's API on the Pod bridge's address (the node's InternalIP: the
# kubelet refuses a loopback one) and a free port, for client certificates of
# the cluster CA only (kube-apiserver's for logs and exec); no read-only port. cgroupfs without per-QoS cgroups and no
# node-allocatable enforcement: the machines this runs on mount cgroup v1
# controllers beside an empty cgroup v2 and run no systemd.
write_kubelet_config() {
  local k="${NODE_DIR}/kubelet"
  mkdir -p "$k" "${NODE_DIR}/pod-logs" "${NODE_DIR}/volume-plugins"
  cat > "${NODE_DIR}/kubelet-config.yaml" <<YAML
apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
address: ${NODE_IP}
port: ${KUBELET_PORT}
readOnlyPort: 0
healthzBindAddress: 127.0.0.1
healthzPort: ${KUBELET_HEALTHZ_PORT}
authentication:
  anonymous: {enabled: false}
  webhook: {enabled: false}
  x509: {clientCAFile: "${CLUSTER_DIR}/pki/ca.crt"}
authorization: {mode: AlwaysAllow}
containerRuntimeEndpoint: "unix://$(containerd_sock)"
cgroupDriver: cgroupfs
cgroupsPerQOS: false
enforceNodeAllocatable: []
failCgroupV1: false
failSwapOn: false
podLogsDir: "${NODE_DIR}/pod-logs"
volumePluginDir: "${NODE_DIR}/volume-plugins"
serializeImagePulls: false
imageGCHighThresholdPercent: 100
imageGCLowThresholdPercent: 99
evictionHard: {memory.available: "1Mi", nodefs.available: "1%", imagefs.available: "1%"}
YAML
}

# The driver may publish and remove the slices of its node, read the claims
# it prepares and record their status; nothing else.
driver_rbac() {
  cat <<YAML
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: dra-test-gpu-driver}
rules:
- apiGroups: [resource.k8s.io]
  resources: [resourceslices]
  verbs: [get, list, watch, create, update, patch, delete, deletecollection]
- apiGroups: [resource.k8s.io]
  resources: [resourceclaims]
  verbs: [get]
- apiGroups: [resource.k8s.io]
  resources: [resourceclaims/status]
  verbs: [update, patch]
- apiGroups: [""]
  resources: [nodes]
  verbs: [get]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: dra-test-gpu-driver}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: dra-test-gpu-driver}
subjects:
- {apiGroup: rbac.authorization.k8s.io, kind: User, name: dra-test-gpu-driver}
YAML
}

node_ready() {
  [[ "$(kubectl_admin get node "$NODE_NAME" -o jsonpath='{.status.conditions[?(@.type=="Ready")].status}' 2>/dev/null)" == True ]]
}

driver_registered() {
  local addr
  addr="$(cat "${NODE_DIR}/driver/control-address" 2>/dev/null)" || return 1
  curl -sf --max-time 2 "http://${addr}/status" | grep -q '"registered":true'
}

slice_published() {
  [[ -n "$(kubectl_admin get resourceslices --field-selector "spec.nodeName=${NODE_NAME}" -o name 2>/dev/null)" ]]
}

node_up() {
  local c
  for c in "${NODE_COMPONENTS[@]}"; do
    alive "$c" && die "the node in ${CLUSTER_DIR} is already running ($c, PID $(pid_of "$c")); run 'node-down' first"
  done
  [[ $(id -u) -eq 0 ]] || die "the real node needs root (containerd, runc, CNI); NODE=1 is for root only"
  local tool
  for tool in containerd ctr runc ip flock iptables /usr/lib/cni/bridge; do
    command -v "$tool" >/dev/null || [[ -x "$tool" ]] \
      || die "$tool not found: hack/install-deps.sh installs containerd, runc and containernetworking-plugins"
  done
  ((${#NODE_DIR} <= NODE_DIR_MAX)) \
    || die "CLUSTER_DIR is too long for the node's unix sockets (${NODE_DIR} is ${#NODE_DIR} bytes, at most ${NODE_DIR_MAX})"
  [[ -f "${CLUSTER_DIR}/env" ]] || die "no control plane in ${CLUSTER_DIR}: 'cluster.sh up' first"
  load_env
  # Set by `up`; for `node-up` beside a running control plane, from its env.
  APISERVER_PORT="${APISERVER_PORT:-${DRA_APISERVER_URL##*:}}"
  "${REPO_ROOT}/hack/node/build.sh" --check >/dev/null \
    || die "the node's binaries are not built: hack/node/build.sh (make node-binaries)"
  local images; images="$("${REPO_ROOT}/hack/node/images.sh" --print)"
  local start_time=$SECONDS
  rm -rf "${NODE_DIR}"
  mkdir -p "${NODE_DIR}/driver" "${NODE_DIR}/cdi"
  echo "$NODE_NAME" > "${NODE_DIR}/name"
  "${REPO_ROOT}/hack/control-plane/certs.sh" "${CLUSTER_DIR}/pki" node "$NODE_NAME"
  write_kubeconfig "${NODE_DIR}/kubelet.kubeconfig" node
  write_kubeconfig "${NODE_DIR}/driver.kubeconfig" dra-driver
  KUBELET_PORT="$(free_port)"; KUBELET_HEALTHZ_PORT="$(free_port)"
  reserve_pod_network
  route_api_service
  NODE_IP="10.244.$(cat "${NODE_DIR}/pod-network").1"
  write_cni_config
  write_containerd_config
  write_kubelet_config

  log "starting containerd ($(containerd --version | awk '{print $3}')) on $(containerd_sock)"
  start containerd --config "${NODE_DIR}/containerd/config.toml"
  wait_until "containerd" containerd node_ctr version
  local name file
  while read -r name file; do
    node_ctr images import "$file" >/dev/null \
      || die "ctr images import of ${file} failed; see ${CLUSTER_DIR}/logs/containerd.log"
    node_ctr images check "name==${name}" | grep -q complete || die "image ${name} not imported"
  done <<<"$images"
  import_project_image

  log "starting kubelet ${K8S_VERSION} as node ${NODE_NAME} (API on ${NODE_IP}:${KUBELET_PORT})"
  local gates=()
  [[ -n "${FEATURE_GATES:-${DRA_CLUSTER_FEATURE_GATES:-}}" ]] \
    && gates=(--feature-gates "${FEATURE_GATES:-${DRA_CLUSTER_FEATURE_GATES}}")
  start kubelet --config "${NODE_DIR}/kubelet-config.yaml" \
    --kubeconfig "${NODE_DIR}/kubelet.kubeconfig" --root-dir "${NODE_DIR}/kubelet" \
    --cert-dir "${NODE_DIR}/kubelet/pki" --hostname-override "$NODE_NAME" \
    --node-ip "$NODE_IP" --v "${KUBELET_V:-2}" "${gates[@]}"
  READY_TIMEOUT="$NODE_READY_TIMEOUT" wait_until "node ${NODE_NAME} Ready" kubelet node_ready
  # No node-lifecycle controller runs (it would mark the fake fleet's nodes,
  # which send no heartbeats, unreachable): lift the taint it would lift.
  kubectl_admin taint node "$NODE_NAME" node.kubernetes.io/not-ready:NoSchedule- >/dev/null 2>&1 || true

  log "starting the DRA driver ${NODE_DRIVER} (${NODE_GPUS} x ${NODE_GPU_MEMORY} ${NODE_GPU_MODEL})"
  driver_rbac | kubectl_admin apply -f - >/dev/null
  start dra-test-gpu-driver --kubeconfig "${NODE_DIR}/driver.kubeconfig" \
    --node-name "$NODE_NAME" --driver-name "$NODE_DRIVER" --gpus "$NODE_GPUS" \
    --memory "$NODE_GPU_MEMORY" --model "$NODE_GPU_MODEL" \
    --cdi-device-ids="$NODE_CDI_DEVICE_IDS" \
    --plugin-registration-path "${NODE_DIR}/kubelet/plugins_registry" \
    --datadir "${NODE_DIR}/kubelet/plugins/${NODE_DRIVER}" --cdi-dir "${NODE_DIR}/cdi" \
    --control-address-file "${NODE_DIR}/driver/control-address" --v "${DRIVER_V:-3}"
  READY_TIMEOUT="$NODE_READY_TIMEOUT" wait_until "driver ${NODE_DRIVER} registered with the kubelet" \
    dra-test-gpu-driver driver_registered
  READY_TIMEOUT="$NODE_READY_TIMEOUT" wait_until "ResourceSlice of ${NODE_NAME}" \
    dra-test-gpu-driver slice_published
  set_workload_controllers on
  write_node_env
  log "node ${NODE_NAME} Ready with driver ${NODE_DRIVER} in $((SECONDS - start_time)) s; driver control: http://$(cat "${NODE_DIR}/driver/control-address")"
}

write_node_env() {
  cat >> "${CLUSTER_DIR}/env" <<ENV
# The real node (NODE=1): hack/node/node.sh.
export DRA_NODE_NAME="${NODE_NAME}"
export DRA_NODE_DRIVER="${NODE_DRIVER}"
export DRA_NODE_GPU_MODEL="${NODE_GPU_MODEL}"
export DRA_NODE_CDI_DEVICE_IDS="${NODE_CDI_DEVICE_IDS}"
export DRA_NODE_DRIVER_CONTROL_FILE="${NODE_DIR}/driver/control-address"
export DRA_NODE_CONTAINERD_SOCKET="$(containerd_sock)"
ENV
}

# Pods bound to the node, deleted through the kubelet so it tears down their
# sandboxes (network namespaces, mounts) and unprepares their claims.
delete_node_pods() {
  alive kubelet || return 0
  kubectl_admin get node "$NODE_NAME" >/dev/null 2>&1 || return 0
  kubectl_admin delete pods -A --field-selector "spec.nodeName=${NODE_NAME}" \
    --wait=false >/dev/null 2>&1 || true
  local deadline=$((SECONDS + 60))
  while ((SECONDS < deadline)); do
    [[ -z "$(kubectl_admin get pods -A --field-selector "spec.nodeName=${NODE_NAME}" -o name 2>/dev/null)" ]] && return 0
    sleep 0.5
  done
  log "Pods on ${NODE_NAME} still there after 60 s; stopping the node anyway"
}

# What the kubelet left to containerd: each task killed and deleted (which
# ends its shim). Network namespaces live under the state directory and are
# unmounted with the rest by unmount_node_dir.
stop_containers() {
  alive containerd || return 0
  local id
  for id in $(node_ctr containers ls -q 2>/dev/null); do
    node_ctr tasks kill -s SIGKILL "$id" >/dev/null 2>&1 || true
    node_ctr tasks delete -f "$id" >/dev/null 2>&1 || true
    node_ctr containers delete "$id" >/dev/null 2>&1 || true
  done
}

# Shims whose containerd is gone, by the PID each wrote into its bundle.
stop_orphan_shims() {
  local f pid
  for f in "${NODE_DIR}"/containerd/state/io.containerd.runtime.v2.task/*/*/shim.pid; do
    [[ -f "$f" ]] || continue
    pid="$(cat "$f")"
    if [[ -n "$pid" ]] && pid_running "$pid"; then kill -KILL "$pid" 2>/dev/null || true; fi
  done
}

unmount_node_dir() {
  local target
  # Deepest first.
  while read -r target; do
    umount "$target" 2>/dev/null || umount -l "$target" 2>/dev/null || true
  done < <(awk -v d="${NODE_DIR}/" 'index($5, d) == 1 { print $5 }' /proc/self/mountinfo | sort -r)
}

node_down() {
  [[ -d "${NODE_DIR}" ]] || return 0
  NODE_NAME="$(cat "${NODE_DIR}/name" 2>/dev/null || echo "$NODE_NAME")"
  set_workload_controllers off
  delete_node_pods
  stop_pid dra-test-gpu-driver
  stop_pid kubelet
  stop_containers
  stop_pid containerd
  stop_orphan_shims
  unmount_node_dir
  unroute_api_service
  local n
  if n="$(cat "${NODE_DIR}/pod-network" 2>/dev/null)"; then
    ip link del "dra-cni$n" 2>/dev/null || true
  fi
  if kubectl_admin get --raw /readyz >/dev/null 2>&1; then
    kubectl_admin delete node "$NODE_NAME" --ignore-not-found >/dev/null 2>&1 || true
  fi
  rm -rf "${NODE_DIR}"
  [[ -f "${CLUSTER_DIR}/env" ]] && sed -i '/^# The real node (NODE=1)/,$d' "${CLUSTER_DIR}/env"
  log "node ${NODE_NAME} in ${CLUSTER_DIR} stopped"
}

node_status() {
  local c rc=0
  [[ -d "${NODE_DIR}" ]] || return 0
  for c in "${NODE_COMPONENTS[@]}"; do
    if alive "$c"; then printf '%-24s running  PID %s\n' "$c" "$(pid_of "$c")"
    else printf '%-24s stopped\n' "$c"; rc=1; fi
  done
  return $rc
}
