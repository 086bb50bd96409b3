#!/usr/bin/env bash
# The local test control plane: real etcd, kube-apiserver, kube-scheduler and
# kube-controller-manager on free loopback ports, of release K8S_VERSION
# (default v1.37.2; hack/control-plane/build.sh builds and caches each).
#
#   cluster.sh up      build (cached) and start everything, wait until healthy
#                      (DRA_NODE=1: and a real node, hack/node/node.sh)
#   cluster.sh down    stop what `up` started, by PID, and delete its state
#   cluster.sh status  show each component's PID, port and health
#   cluster.sh restart|stop|start COMPONENT   one component, by PID, with its recorded flags
#   cluster.sh node-up|node-down   start or stop the real node beside a running control plane
#
# CLUSTER_DIR (default: <repo>/.cluster) holds kubeconfig, env, pki/, logs/, pids/.
#
# Feature switches for `up` (hack/control-plane/dra-features.sh):
#   DRA_FEATURES=all      every DRA feature of this release that is off by default
#   DRA_FEATURE_GATES     extra --feature-gates for apiserver, scheduler and controller-manager
#   DRA_RUNTIME_CONFIG    extra --runtime-config for the apiserver (e.g. resource.k8s.io/v1beta2=true)
set -euo pipefail
source "$(dirname "$0")/../lib/common.sh"
source "$(dirname "$0")/dra-features.sh"

CLUSTER_DIR="${CLUSTER_DIR:-${REPO_ROOT}/.cluster}"
source "$(dirname "$0")/../node/node.sh"
COMPONENTS=(etcd kube-apiserver kube-scheduler kube-controller-manager)
KCM_CONTROLLERS="serviceaccount-controller,serviceaccount-token-controller,namespace-controller"
KCM_CONTROLLERS+=",garbage-collector-controller,resourceclaim-controller"
KCM_CONTROLLERS+=",device-taint-eviction-controller,clusterrole-aggregation-controller"
KCM_CONTROLLERS+=",root-ca-certificate-publisher-controller"
READY_TIMEOUT="${READY_TIMEOUT:-90}"

port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# Ports are picked below the kernel's ephemeral range (ip_local_port_range),
# where no outgoing connection and no port-0 listener of another test can take
# one between this check and the component's bind.
EPHEMERAL_START="$(awk '{print $1}' /proc/sys/net/ipv4/ip_local_port_range 2>/dev/null || echo 32768)"
PORT_FLOOR=20000
((EPHEMERAL_START > PORT_FLOOR + 1000)) || PORT_FLOOR=10000

free_port() {
  local p
  while :; do
    p=$((PORT_FLOOR + RANDOM % (EPHEMERAL_START - PORT_FLOOR)))
    [[ " ${TAKEN_PORTS:-} " == *" $p "* ]] && continue
    port_in_use "$p" && continue
    TAKEN_PORTS+=" $p"
    echo "$p"
    return
  done
}

pid_of() { cat "${CLUSTER_DIR}/pids/$1.pid" 2>/dev/null || true; }
# A zombie (exited, not yet reaped by init) counts as gone.
pid_running() {
  local state
  state="$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null)" || return 1
  [[ -n "$state" && "$state" != "Z" ]]
}
alive() { local pid; pid="$(pid_of "$1")"; [[ -n "$pid" ]] && pid_running "$pid"; }

# The executable of a component: the node's containerd is Debian's, its
# driver is built by hack/node/build.sh, the rest by build.sh.
binary_of() {
  case "$1" in
    containerd) command -v containerd ;;
    dra-test-gpu-driver) echo "${DRA_DRIVER_BIN}" ;;
    *) echo "${K8S_BIN_DIR}/$1" ;;
  esac
}

start() {
  local name="$1"; shift
  mkdir -p "${CLUSTER_DIR}/cmd"
  printf '%q ' "$@" > "${CLUSTER_DIR}/cmd/${name}"  # for `restart`
  setsid "$(binary_of "$name")" "$@" >"${CLUSTER_DIR}/logs/${name}.log" 2>&1 < /dev/null &
  echo $! > "${CLUSTER_DIR}/pids/${name}.pid"
}

# wait_until DESCRIPTION COMPONENT COMMAND...: polls COMMAND until it succeeds,
# failing early when COMPONENT has died and late after READY_TIMEOUT seconds.
wait_until() {
  local what="$1" component="$2"; shift 2
  local deadline=$((SECONDS + READY_TIMEOUT))
  until "$@" >/dev/null 2>&1; do
    alive "$component" || die "$component exited while waiting for $what; see ${CLUSTER_DIR}/logs/$component.log:
$(tail -n 15 "${CLUSTER_DIR}/logs/$component.log")"
    ((SECONDS < deadline)) || die "timed out after ${READY_TIMEOUT}s waiting for $what; logs in ${CLUSTER_DIR}/logs"
    sleep 0.2
  done
}

b64() { base64 -w0 < "$1"; }

# write_kubeconfig FILE USER_CERT_BASENAME
write_kubeconfig() {
  local pki="${CLUSTER_DIR}/pki"
  cat > "$1" <<KUBECONFIG
apiVersion: v1
kind: Config
clusters:
- name: dra-test
  cluster:
    server: https://127.0.0.1:${APISERVER_PORT}
    certificate-authority-data: $(b64 "$pki/ca.crt")
users:
- name: $2
  user:
    client-certificate-data: $(b64 "$pki/$2.crt")
    client-key-data: $(b64 "$pki/$2.key")
contexts:
- name: dra-test
  context:
    cluster: dra-test
    user: $2
current-context: dra-test
KUBECONFIG
  chmod 600 "$1"
}

https_ok() { curl -sfk --max-time 2 "https://127.0.0.1:$1/healthz"; }
kubectl_admin() { "${K8S_BIN_DIR}/kubectl" --kubeconfig "${CLUSTER_DIR}/kubeconfig" "$@"; }

start_etcd() {
  start etcd --name default --data-dir "${CLUSTER_DIR}/etcd" \
    --listen-client-urls "http://127.0.0.1:${ETCD_PORT}" \
    --advertise-client-urls "http://127.0.0.1:${ETCD_PORT}" \
    --listen-peer-urls "http://127.0.0.1:${ETCD_PEER_PORT}" \
    --initial-advertise-peer-urls "http://127.0.0.1:${ETCD_PEER_PORT}" \
    --initial-cluster "default=http://127.0.0.1:${ETCD_PEER_PORT}" \
    --unsafe-no-fsync --log-level warn
  wait_until "etcd health" etcd curl -sf "http://127.0.0.1:${ETCD_PORT}/health"
}

start_apiserver() {
  local pki="${CLUSTER_DIR}/pki"
  start kube-apiserver --etcd-servers "http://127.0.0.1:${ETCD_PORT}" \
    --bind-address 127.0.0.1 --advertise-address 127.0.0.1 --secure-port "${APISERVER_PORT}" \
    --cert-dir "${CLUSTER_DIR}/apiserver-certs" \
    --tls-cert-file "$pki/apiserver.crt" --tls-private-key-file "$pki/apiserver.key" \
    --client-ca-file "$pki/ca.crt" --authorization-mode Node,RBAC \
    --enable-admission-plugins NodeRestriction \
    --kubelet-client-certificate "$pki/apiserver-kubelet-client.crt" \
    --kubelet-client-key "$pki/apiserver-kubelet-client.key" \
    --kubelet-preferred-address-types InternalIP \
    --service-account-issuer https://kubernetes.default.svc.cluster.local \
    --service-account-key-file "$pki/sa.pub" --service-account-signing-key-file "$pki/sa.key" \
    --service-cluster-ip-range 10.0.0.0/24 --allow-privileged \
    --endpoint-reconciler-type none --v "${APISERVER_V:-1}" \
    "${FEATURE_FLAGS[@]}" "${RUNTIME_CONFIG_FLAGS[@]}"
  wait_until "kube-apiserver /readyz" kube-apiserver kubectl_admin get --raw /readyz
}

start_scheduler() {
  local kc="${CLUSTER_DIR}/scheduler.kubeconfig"
  write_kubeconfig "$kc" scheduler
  start kube-scheduler --kubeconfig "$kc" --authentication-kubeconfig "$kc" \
    --authorization-kubeconfig "$kc" --bind-address 127.0.0.1 \
    --secure-port "${SCHEDULER_PORT}" --leader-elect=false --v "${SCHEDULER_V:-2}" \
    "${FEATURE_FLAGS[@]}"
}

start_controller_manager() {
  local kc="${CLUSTER_DIR}/controller-manager.kubeconfig" pki="${CLUSTER_DIR}/pki"
  write_kubeconfig "$kc" controller-manager
  start kube-controller-manager --kubeconfig "$kc" --authentication-kubeconfig "$kc" \
    --authorization-kubeconfig "$kc" --bind-address 127.0.0.1 \
    --secure-port "${KCM_PORT}" --leader-elect=false --controllers "${KCM_CONTROLLERS}" \
    --use-service-account-credentials --service-account-private-key-file "$pki/sa.key" \
    --root-ca-file "$pki/ca.crt" --v "${KCM_V:-1}" "${FEATURE_FLAGS[@]}"
}

write_env() {
  cat > "${CLUSTER_DIR}/env" <<ENV
# Written by hack/control-plane/cluster.sh up; source it.
export KUBECONFIG="${CLUSTER_DIR}/kubeconfig"
export DRA_KUBECTL="${K8S_BIN_DIR}/kubectl"
export DRA_K8S_BIN_DIR="${K8S_BIN_DIR}"
export DRA_HELM="${HELM_BIN}"
export DRA_APISERVER_URL="https://127.0.0.1:${APISERVER_PORT}"
export DRA_CLUSTER_DIR="${CLUSTER_DIR}"
export DRA_ETCD_PORT="${ETCD_PORT}"
export DRA_SCHEDULER_PORT="${SCHEDULER_PORT}"
export DRA_KCM_PORT="${KCM_PORT}"
export DRA_K8S_VERSION="${K8S_VERSION}"
export DRA_CLUSTER_FEATURE_GATES="${FEATURE_GATES}"
export DRA_CLUSTER_RUNTIME_CONFIG="${RUNTIME_CONFIG}"
ENV
}

up() {
  local c
  for c in "${COMPONENTS[@]}"; do
    alive "$c" && die "the control plane in ${CLUSTER_DIR} is already running ($c, PID $(pid_of "$c")); run 'down' first"
  done
  command -v curl >/dev/null || die "curl is required (hack/install-deps.sh)"
  command -v openssl >/dev/null || die "openssl is required (hack/install-deps.sh)"
  dra_resolve_features "${K8S_VERSION}"
  FEATURE_FLAGS=(); RUNTIME_CONFIG_FLAGS=()
  [[ -n "${FEATURE_GATES}" ]] && FEATURE_FLAGS=(--feature-gates "${FEATURE_GATES}")
  [[ -n "${RUNTIME_CONFIG}" ]] && RUNTIME_CONFIG_FLAGS=(--runtime-config "${RUNTIME_CONFIG}")
  "${REPO_ROOT}/hack/control-plane/build.sh"
  local start_time=$SECONDS
  rm -rf "${CLUSTER_DIR}/etcd" "${CLUSTER_DIR}/pids" "${CLUSTER_DIR}/logs"
  mkdir -p "${CLUSTER_DIR}/pids" "${CLUSTER_DIR}/logs"
  "${REPO_ROOT}/hack/control-plane/certs.sh" "${CLUSTER_DIR}/pki"
  ETCD_PORT="$(free_port)"; ETCD_PEER_PORT="$(free_port)"; APISERVER_PORT="$(free_port)"
  SCHEDULER_PORT="$(free_port)"; KCM_PORT="$(free_port)"
  write_kubeconfig "${CLUSTER_DIR}/kubeconfig" admin
  trap 'rc=$?; if ((rc != 0)); then log "start-up failed; stopping what was started"; down; fi' EXIT
  log "starting etcd on 127.0.0.1:${ETCD_PORT}"; start_etcd
  log "starting kube-apiserver on https://127.0.0.1:${APISERVER_PORT}"; start_apiserver
  log "starting kube-scheduler and kube-controller-manager"
  start_scheduler; start_controller_manager
  wait_until "kube-scheduler /healthz" kube-scheduler https_ok "${SCHEDULER_PORT}"
  wait_until "kube-controller-manager /healthz" kube-controller-manager https_ok "${KCM_PORT}"
  wait_until "the default ServiceAccount" kube-controller-manager kubectl_admin get serviceaccount default -n default
  write_env
  log "control plane ${K8S_VERSION} ready in $((SECONDS - start_time)) s; kubeconfig: ${CLUSTER_DIR}/kubeconfig"
  [[ -z "${FEATURE_GATES}${RUNTIME_CONFIG}" ]] \
    || log "feature gates: ${FEATURE_GATES:-(defaults)}; runtime-config: ${RUNTIME_CONFIG:-(defaults)}"
  [[ "${DRA_NODE:-0}" == 1 ]] && node_up
  trap - EXIT
}

stop_pid() {
  local name="$1" pid
  pid="$(pid_of "$name")"
  [[ -n "$pid" ]] || return 0
  if pid_running "$pid"; then
    kill -TERM "$pid" 2>/dev/null || true
    local deadline=$((SECONDS + 10))
    while pid_running "$pid" && ((SECONDS < deadline)); do sleep 0.1; done
    if pid_running "$pid"; then kill -KILL "$pid" 2>/dev/null || true; fi
  fi
  rm -f "${CLUSTER_DIR}/pids/$name.pid"
}

down() {
  local i
  node_down
  for ((i = ${#COMPONENTS[@]} - 1; i >= 0; i--)); do stop_pid "${COMPONENTS[$i]}"; done
  rm -rf "${CLUSTER_DIR}/etcd" "${CLUSTER_DIR}/env"
  log "control plane in ${CLUSTER_DIR} stopped (logs kept in ${CLUSTER_DIR}/logs)"
}

# load_env: the running control plane's env file, and its release: a component
# restarted without K8S_VERSION set must come back as the release `up` started.
load_env() {
  [[ -f "${CLUSTER_DIR}/env" ]] || return 0
  # shellcheck disable=SC1091
  source "${CLUSTER_DIR}/env"
  K8S_VERSION="${DRA_K8S_VERSION:-${K8S_VERSION}}"
  K8S_BIN_DIR="${DRA_K8S_BIN_DIR:-${K8S_BIN_DIR}}"
}

# restart COMPONENT: stop it by PID and start it again with the same flags
# (tests use this to cut watches and prove nothing is lost).
restart() {
  local name="${1:?usage: cluster.sh restart COMPONENT}"
  [[ -f "${CLUSTER_DIR}/cmd/${name}" ]] || die "no recorded command for ${name} in ${CLUSTER_DIR}"
  load_env
  stop_pid "$name"
  eval "start ${name} $(cat "${CLUSTER_DIR}/cmd/${name}")"
  [[ "$name" == kube-apiserver ]] && wait_until "kube-apiserver /readyz" kube-apiserver kubectl_admin get --raw /readyz
  log "${name} restarted (PID $(pid_of "$name"))"
}

# stop COMPONENT / start COMPONENT: stop one component by PID, or start a stopped
# one again with its recorded flags (tests stop kube-controller-manager to
# leave a claim that nothing cleans up).
stop_component() {
  local name="${1:?usage: cluster.sh stop COMPONENT}"
  [[ -f "${CLUSTER_DIR}/cmd/${name}" ]] || die "no recorded command for ${name} in ${CLUSTER_DIR}"
  stop_pid "$name"
  log "${name} stopped"
}

start_component() {
  local name="${1:?usage: cluster.sh start COMPONENT}"
  [[ -f "${CLUSTER_DIR}/cmd/${name}" ]] || die "no recorded command for ${name} in ${CLUSTER_DIR}"
  alive "$name" && die "${name} is already running (PID $(pid_of "$name"))"
  load_env
  eval "start ${name} $(cat "${CLUSTER_DIR}/cmd/${name}")"
  log "${name} started (PID $(pid_of "$name"))"
}

status() {
  local c rc=0
  for c in "${COMPONENTS[@]}"; do
    if alive "$c"; then printf '%-24s running  PID %s\n' "$c" "$(pid_of "$c")"
    else printf '%-24s stopped\n' "$c"; rc=1; fi
  done
  node_status || rc=1
  if [[ -f "${CLUSTER_DIR}/env" ]]; then
    load_env
    printf 'apiserver                %s\nkubeconfig               %s\n' "$DRA_APISERVER_URL" "$KUBECONFIG"
    kubectl_admin get --raw /readyz >/dev/null 2>&1 && echo "readyz                   ok" || { echo "readyz                   failing"; rc=1; }
  fi
  return $rc
}

case "${1:-}" in
  up) up ;;
  down) down ;;
  status) status ;;
  restart) shift; restart "$@" ;;
  stop) shift; stop_component "$@" ;;
  start) shift; start_component "$@" ;;
  node-up) trap 'rc=$?; if ((rc != 0)); then log "node start-up failed; stopping the node"; node_down; fi' EXIT
           node_up; trap - EXIT ;;
  node-down) load_env; node_down ;;
  *) echo "usage: $0 up|down|status|node-up|node-down|restart|stop|start COMPONENT   (CLUSTER_DIR=${CLUSTER_DIR})" >&2; exit 2 ;;
esac
