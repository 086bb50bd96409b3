#!/usr/bin/env bash
# A GPU fleet on the real local control plane, scheduled by the real
# kube-scheduler, then `dra-controller run` measured against it.
#
#   fleet-live.sh            (needs KUBECONFIG etc.: source $CLUSTER_DIR/env)
#
# Sizes (environment): NODES (1000) fake Ready Nodes, each with a
# gpu.example.com pool of 8 GPUs (every INCOMPLETE_EVERY-th, 25, incomplete),
# a nic.example.com pool of 2 NICs and, on every MIG_EVERY-th (4), a
# partitionable mig.example.com pool (counter slice + 3 partitions);
# DeviceClasses gpu/nic/mig, gpu and nic with spec.extendedResourceName;
# GPU_PODS (4000) Pods asking for example.com/gpu: 1 and PLAIN_PODS (16000)
# cpu-only Pods, all created without a node and bound by kube-scheduler (the
# GPU ones through DRA with the implicit claim the scheduler makes);
# HEALTHS (250) DeviceHealth objects (state Unknown).
#
# Then, with nothing else changing:
#   1. `dra-controller run` on the fleet: time to /readyz (every cache synced),
#      RSS at sync, peak (VmHWM) and steady (after SETTLE s), threads;
#   2. the same before the fleet exists (EMPTY_RSS=1, default): RSS baseline,
#      so (steady - empty) / cached objects is an upper bound per object;
#   3. /metrics scrape time (SCRAPES scrapes) and size;
#   4. DeviceHealth flips (FLIP_ROUNDS rounds over every DeviceHealth,
#      FLIP_CONCURRENCY at once): PATCH -> DeviceTaintRule seen p50/p99/max;
#   5. Pod churn: CHURN_PODS unscheduled GPU Pods created and deleted,
#      until the controller's pods_pending gauge follows;
#   6. work-queue latency p99 per queue from workqueue_queue_duration_seconds;
#   7. CPU at idle over IDLE (60) s, from /proc/PID/stat;
#   8. COMPARE=1 (default): client-go v0.37.2 shared informers for the same
#      resources (informer-compare, built by compare-client-go.sh) on the same
#      fleet right after: time to sync, RSS after SETTLE s, CPU to sync, and the
#      ratios dra-controller / client-go (one start each), then the controller
#      started once more right after client-go (SYNC_MS in the same conditions).
# CONTROLLER_ENV="MALLOC_ARENA_MAX=2" (NAME=VALUE words) is put in the
# controller's environment, e.g. to run it as the Deployment does;
# CONTROLLER_ARGS (words) are added to its command line, e.g. --health-workers=8.
# Prints a summary and writes it to $OUT (default fleet-live-<time>.txt in
# the current directory). The fleet is deleted at the end (bound Pods without a
# kubelet are force-deleted: deletecollection with gracePeriodSeconds=0);
# KEEP_FLEET=1 leaves it, and reuses it when it is already in place.
set -euo pipefail
BENCH_DIR="$(cd "$(dirname "$0")" && pwd)"
source "$BENCH_DIR/../lib/common.sh"
source "$BENCH_DIR/fleet-gen.sh"
source "$BENCH_DIR/fleet-live-gen.sh"

KUBECTL="${DRA_KUBECTL:-${K8S_BIN_DIR}/kubectl}"
BINARY="${DRA_CONTROLLER:-${REPO_ROOT}/build/dra-controller}"
NODES="${NODES:-1000}" GPU_PODS="${GPU_PODS:-4000}" PLAIN_PODS="${PLAIN_PODS:-16000}"
HEALTHS="${HEALTHS:-250}" INCOMPLETE_EVERY="${INCOMPLETE_EVERY:-25}" MIG_EVERY="${MIG_EVERY:-4}"
SETTLE="${SETTLE:-30}" SCRAPES="${SCRAPES:-10}" IDLE="${IDLE:-60}" SYNC_TIMEOUT="${SYNC_TIMEOUT:-600}"
FLIP_ROUNDS="${FLIP_ROUNDS:-2}" FLIP_CONCURRENCY="${FLIP_CONCURRENCY:-8}"
CHURN_PODS="${CHURN_PODS:-2000}" SCHEDULE_TIMEOUT="${SCHEDULE_TIMEOUT:-600}"
OUT="${OUT:-$PWD/fleet-live-$(date +%Y%m%d-%H%M%S).txt}"
NAMESPACE="fleet-bench"
LABEL="bench.dra.example.com/fleet-live"
WORK="$(mktemp -d)"
PID=""
CLK_TCK="$(getconf CLK_TCK)"

k() { "$KUBECTL" "$@"; }
now_ms() { echo $(($(date +%s%N) / 1000000)); }
status_kb() { awk -v f="$1:" '$1 == f { print $2 }' "/proc/$2/status"; }
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
report() { printf '%s\n' "$*" | tee -a "$OUT"; }

delete_fleet() {
  # Bound Pods never confirm a graceful deletion without a kubelet: one
  # deletecollection with gracePeriodSeconds=0 removes them at once.
  k delete --raw "/api/v1/namespaces/${NAMESPACE}/pods?gracePeriodSeconds=0" >/dev/null 2>&1 || true
  k delete namespace "$NAMESPACE" --ignore-not-found --wait=false >/dev/null 2>&1 || true
  k delete devicehealths -l "$LABEL=true" --ignore-not-found --wait=false >/dev/null 2>&1 || true
  k delete resourceslices -l "$LABEL=true" --ignore-not-found --wait=false >/dev/null 2>&1 || true
  k delete nodes -l "$LABEL=true" --ignore-not-found --wait=false >/dev/null 2>&1 || true
  k delete deviceclasses -l "$LABEL=true" --ignore-not-found --wait=false >/dev/null 2>&1 || true
}

cleanup() {
  stop_pid "$PID"
  [[ -n "${KEEP_FLEET:-}" ]] || delete_fleet
  rm -rf "$WORK"
}
trap cleanup EXIT

# Client certificate files for curl (scheduler metrics).
write_certs() {
  local key
  for key in certificate-authority-data client-certificate-data client-key-data; do
    awk -v k="$key:" '$1 == k { print $2 }' "$KUBECONFIG" | base64 -d >"$WORK/$key"
  done
}
scheduler_metric() {
  curl -s --cacert "$WORK/certificate-authority-data" --cert "$WORK/client-certificate-data" \
    --key "$WORK/client-key-data" -k "https://127.0.0.1:${DRA_SCHEDULER_PORT}/metrics" \
    | awk -v m="$1" 'index($0, m) == 1 { s += $2 } END { printf "%d\n", s }'
}

device_classes() {
  local c
  for c in gpu:example.com/gpu nic:example.com/nic mig:; do
    local name="${c%%:*}" resource="${c#*:}"
    printf '{"apiVersion":"resource.k8s.io/v1","kind":"DeviceClass","metadata":{"name":"%s.example.com","labels":{"%s":"true"}},"spec":{%s"selectors":[{"cel":{"expression":"device.driver == \\"%s.example.com\\""}}]}}\n' \
      "$name" "$LABEL" "${resource:+\"extendedResourceName\":\"$resource\",}" "$name"
  done
}

create_fleet() {
  log "creating $NODES nodes, their slices, $HEALTHS DeviceHealths, 3 DeviceClasses"
  k apply -f "${REPO_ROOT}/crds/devicehealths.dra-controller.dev.yaml" >/dev/null
  k wait --for=condition=Established --timeout=60s crd/devicehealths.dra-controller.dev >/dev/null
  k create namespace "$NAMESPACE" >/dev/null
  device_classes | k create -f - >/dev/null
  local t0 t1
  t0="$(now_ms)"
  gen_live_nodes "$NODES" "$WORK/nodes" "$LABEL"
  create_all "$KUBECTL" "$WORK"/nodes-*.json
  # TaintNodesByCondition marks new nodes not-ready; no kubelet lifts it.
  k taint nodes -l "$LABEL=true" node.kubernetes.io/not-ready:NoSchedule- >/dev/null 2>&1 || true
  gen_live_slices "$NODES" "$INCOMPLETE_EVERY" "$MIG_EVERY" "$WORK/slices" "$LABEL"
  create_all "$KUBECTL" "$WORK"/slices-*.json
  gen_live_healths "$HEALTHS" "$NODES" "$WORK/healths" "$LABEL"
  shopt -s nullglob
  create_all "$KUBECTL" "$WORK"/healths-*.json
  t1="$(now_ms)"
  report "fleet objects: $NODES nodes, $(k get resourceslices -l "$LABEL=true" -o name | wc -l) slices, $HEALTHS DeviceHealths in $(((t1 - t0) / 1000)) s"
  schedule_pods gpu "$GPU_PODS"
  schedule_pods plain "$PLAIN_PODS"
  shopt -u nullglob
  rm -f "$WORK"/*.json
}

# schedule_pods KIND COUNT: creates the Pods, waits until the scheduler has
# bound them all (or stops trying: SCHEDULE_TIMEOUT), reports Pods/s.
schedule_pods() {
  local kind="$1" count="$2"
  ((count > 0)) || return 0
  local before t0 t_created bound last_change=0 last=-1 t_end
  before="$(scheduler_metric 'scheduler_schedule_attempts_total{profile="default-scheduler",result="scheduled"}')"
  gen_live_pods "$count" "$NAMESPACE" "$kind" "$WORK/pods-$kind" "$LABEL"
  t0="$(now_ms)"
  log "creating $count $kind Pods for kube-scheduler"
  create_all "$KUBECTL" "$WORK"/pods-"$kind"-*.json
  t_created="$(now_ms)"
  while :; do
    bound=$(($(scheduler_metric 'scheduler_schedule_attempts_total{profile="default-scheduler",result="scheduled"}') - before))
    ((bound != last)) && { last=$bound; last_change="$(now_ms)"; }
    ((bound >= count)) && break
    (($(now_ms) - last_change > 60000)) && { log "no progress for 60 s at $bound/$count bound"; break; }
    (($(now_ms) - t0 > SCHEDULE_TIMEOUT * 1000)) && { log "SCHEDULE_TIMEOUT at $bound/$count"; break; }
    sleep 2
  done
  t_end="$last_change"
  local unsched
  unsched="$(scheduler_metric 'scheduler_schedule_attempts_total{profile="default-scheduler",result="unschedulable"}')"
  report "$kind pods: $count created in $(((t_created - t0) / 1000)) s; $bound bound by kube-scheduler in $(((t_end - t0) / 1000)) s: $(awk -v b="$bound" -v ms="$((t_end - t0))" 'BEGIN { printf "%.1f", b * 1000 / ms }') Pods/s from first create (unschedulable attempts so far: $unsched); load $(cut -d' ' -f1-3 /proc/loadavg)"
}

METRICS_PORT="" PROBE_PORT=""
readyz() { curl -fs -o /dev/null "http://127.0.0.1:${PROBE_PORT}/readyz"; }
metrics() { curl -fs "http://127.0.0.1:${METRICS_PORT}/metrics"; }

# start_controller LOG: starts it, waits for /readyz; sets PID and SYNC_MS.
start_controller() {
  METRICS_PORT="$(free_port)" PROBE_PORT="$(free_port)"
  local t0
  t0="$(now_ms)"
  # shellcheck disable=SC2086 # CONTROLLER_ENV and CONTROLLER_ARGS are lists of words
  env ${CONTROLLER_ENV:-} "$BINARY" run --metrics-bind-address="127.0.0.1:${METRICS_PORT}" \
    --health-probe-bind-address="127.0.0.1:${PROBE_PORT}" --health-preview=0 --health-hold-off=0 \
    ${CONTROLLER_ARGS:-} >"$1" 2>&1 &
  PID=$!
  until readyz; do
    kill -0 "$PID" 2>/dev/null || die "controller exited: $(tail -n 5 "$1")"
    (($(now_ms) - t0 < SYNC_TIMEOUT * 1000)) || die "controller did not sync within ${SYNC_TIMEOUT}s"
    sleep 0.05
  done
  SYNC_MS=$(($(now_ms) - t0)) SYNC_CPU="$(cpu_ticks "$PID")"
}

empty_baseline() {
  [[ "${EMPTY_RSS:-1}" == 1 ]] || return 0
  start_controller "$WORK/empty.log"
  sleep "$SETTLE"
  EMPTY_KB="$(status_kb VmRSS "$PID")"
  report "controller on the control plane without the fleet: /readyz after ${SYNC_MS} ms, VmRSS ${EMPTY_KB} KiB after ${SETTLE} s"
  stop_pid "$PID"
  PID=""
}

# histogram_p99 NAME: for each label set of a Prometheus histogram in the
# scrape on stdin, the bucket (lower, upper] holding the p99: all a scrape
# tells (the work-queue buckets double from 1 ms, so within a factor of 2).
histogram_p99() {
  awk -v m="${1}_bucket{" '
    index($0, m) == 1 {
      labels = $1; sub(/,?le="[^"]*"/, "", labels); sub(/^[^{]*/, "", labels)
      le = $1; sub(/.*le="/, "", le); sub(/".*/, "", le)
      n[labels]++; b[labels, n[labels]] = le; c[labels, n[labels]] = $2
    }
    END {
      for (l in n) {
        total = c[l, n[l]]; if (total == 0) { printf "%s p99 - (no items)\n", l; continue }
        lower = 0
        for (i = 1; i <= n[l]; i++) { if (c[l, i] >= 0.99 * total) break; lower = b[l, i] }
        printf "%s p99 in (%s, %s] s (%d items)\n", l, lower, b[l, i], total
      }
    }'
}

measure() {
  local log="$WORK/controller.log"
  start_controller "$log"
  local rss_sync hwm_sync
  CONTROLLER_SYNC_MS="$SYNC_MS" CONTROLLER_SYNC_CPU="$SYNC_CPU"
  rss_sync="$(status_kb VmRSS "$PID")" hwm_sync="$(status_kb VmHWM "$PID")"
  report "time to sync (exec -> /readyz 200): ${SYNC_MS} ms, CPU $(awk -v c="$SYNC_CPU" -v hz="$CLK_TCK" 'BEGIN { printf "%.2f", c / hz }') s; $(grep -o 'informer caches synced in [0-9]* ms' "$log" | head -n1); $(grep -o 'inventory synced: [^"]*devices in [0-9]* pools' "$log" | head -n1)"
  report "  per cache: $(cache_syncs "$log")"
  sleep "$SETTLE"
  local rss hwm threads objects
  rss="$(status_kb VmRSS "$PID")" hwm="$(status_kb VmHWM "$PID")" threads="$(status_kb Threads "$PID")"
  CONTROLLER_RSS="$rss"
  objects=$(($(k get pods -A -o name | wc -l) \
    + $(k get resourceclaims -A -o name | wc -l) + $(k get resourceslices -o name | wc -l) \
    + $(k get nodes -o name | wc -l) + $(k get deviceclasses -o name | wc -l) \
    + $(k get devicetaintrules -o name | wc -l) + $(k get devicehealths -o name | wc -l)))
  report "RSS at sync ${rss_sync} KiB (VmHWM ${hwm_sync} KiB); steady (+${SETTLE} s) ${rss} KiB; peak VmHWM ${hwm} KiB; ${threads} threads"
  report "cached objects (Pods, claims, slices, nodes, classes, rules, healths): $objects; (steady - empty) / objects = $(awk -v r="$rss" -v e="${EMPTY_KB:-0}" -v o="$objects" 'BEGIN { printf "%.0f", (r - e) * 1024 / o }') bytes"

  local i t bytes times=()
  for ((i = 0; i < SCRAPES; i++)); do
    t="$(curl -fs -o "$WORK/scrape" -w '%{time_total}' "http://127.0.0.1:${METRICS_PORT}/metrics")"
    times+=("$t")
  done
  bytes="$(wc -c <"$WORK/scrape")"
  report "/metrics scrape: $(printf '%s\n' "${times[@]}" | sort -n | awk '{ a[NR] = $1 } END { printf "median %.1f ms, max %.1f ms", a[int((NR + 1) / 2)] * 1000, a[NR] * 1000 }') over $SCRAPES scrapes, $bytes bytes, $(grep -vc '^#' "$WORK/scrape") series"

  local cpu0 cpu1 t_start t_end
  cpu0="$(cpu_ticks "$PID")" t_start="$(now_ms)"
  report "DeviceHealth flips -> DeviceTaintRule (watch): $(python3 "$BENCH_DIR/fleet-probe.py" taint-latency "$KUBECONFIG" "$LABEL" "$FLIP_ROUNDS" "$FLIP_CONCURRENCY")"
  cpu1="$(cpu_ticks "$PID")" t_end="$(now_ms)"
  report "  controller CPU during the flips: $(awk -v c="$((cpu1 - cpu0))" -v hz="$CLK_TCK" -v ms="$((t_end - t_start))" 'BEGIN { printf "%.2f s over %.1f s (%.2f cores)", c / hz, ms / 1000, c / hz / (ms / 1000) }'); VmRSS after $(status_kb VmRSS "$PID") KiB"
  metrics | histogram_p99 dra_controller_health_rule_write_seconds | sed 's/^/  health_rule_write_seconds /' | tee -a "$OUT"

  if ((CHURN_PODS > 0)); then
    cpu0="$(cpu_ticks "$PID")" t_start="$(now_ms)"
    report "Pod churn: $(python3 "$BENCH_DIR/fleet-probe.py" pod-churn "$KUBECONFIG" "$NAMESPACE" "$CHURN_PODS" 8 "http://127.0.0.1:${METRICS_PORT}/metrics")"
    cpu1="$(cpu_ticks "$PID")" t_end="$(now_ms)"
    report "  controller CPU during the churn: $(awk -v c="$((cpu1 - cpu0))" -v hz="$CLK_TCK" -v ms="$((t_end - t_start))" -v e="$((2 * CHURN_PODS))" 'BEGIN { printf "%.2f s over %.1f s (%.2f cores; %.0f Pod events per controller CPU second)", c / hz, ms / 1000, c / hz / (ms / 1000), (c > 0 ? e / (c / hz) : 0) }'); VmRSS after $(status_kb VmRSS "$PID") KiB"
  fi

  report "work-queue latency (workqueue_queue_duration_seconds, whole run):"
  metrics | histogram_p99 workqueue_queue_duration_seconds | sed 's/^/  /' | tee -a "$OUT"
  report "work duration (workqueue_work_duration_seconds, whole run):"
  metrics | histogram_p99 workqueue_work_duration_seconds | sed 's/^/  /' | tee -a "$OUT"

  sleep 5
  cpu0="$(cpu_ticks "$PID")"
  sleep "$IDLE"
  cpu1="$(cpu_ticks "$PID")"
  report "CPU at idle: $((cpu1 - cpu0)) ticks over ${IDLE} s ($(awk -v c="$((cpu1 - cpu0))" -v hz="$CLK_TCK" -v s="$IDLE" 'BEGIN { printf "%.2f millicores", c / hz / s * 1000 }')); VmRSS then $(status_kb VmRSS "$PID") KiB"
  stop_pid "$PID"
  PID=""
}

# cache_syncs LOG: each cache's first-sync line, "<resource> N items T ms", on one line.
cache_syncs() {
  sed -n 's/.* info \([^ ]*\): synced \([0-9]*\) items by \([^ ]*\) in \([0-9]*\) ms.*/\1 \2 items \4 ms (\3)/p' \
    "$1" | paste -sd ';' | sed 's/;/; /g'
}

# The controller started once more, right after client-go: the first start
# above runs right after the fleet was created (and client-go's at the end),
# so this one shows how much of the difference is the order.
sync_again() {
  [[ -n "${CLIENT_GO_SYNC_MS:-}" ]] || return 0 # client-go did not run
  start_controller "$WORK/again.log"
  report "dra-controller started again after client-go: /readyz after ${SYNC_MS} ms ($(awk -v a="$SYNC_MS" -v b="$CLIENT_GO_SYNC_MS" 'BEGIN { printf "%.2f", a / b }')x client-go's), CPU $(awk -v c="$SYNC_CPU" -v hz="$CLK_TCK" 'BEGIN { printf "%.2f", c / hz }') s"
  report "  per cache: $(cache_syncs "$WORK/again.log")"
  stop_pid "$PID"
  PID=""
}

# client-go on the same fleet: informer-compare prints "synced <ms>".
compare_client_go() {
  [[ "${COMPARE:-1}" == 1 ]] || return 0
  local bin="${K8S_BIN_DIR}/informer-compare" log="$WORK/client-go.log" t0 sync_ms cpu rss
  [[ -x "$bin" ]] || { report "client-go comparison skipped: no $bin (run compare-client-go.sh once)"; return 0; }
  t0="$(now_ms)"
  : >"$log" # read below before the background redirect may have created it
  "$bin" --kubeconfig "$KUBECONFIG" >"$log" 2>&1 &
  PID=$!
  until grep -q '^synced ' "$log"; do
    kill -0 "$PID" 2>/dev/null || die "informer-compare exited: $(tail -n 5 "$log")"
    (($(now_ms) - t0 < SYNC_TIMEOUT * 1000)) || die "informer-compare did not sync"
    sleep 0.05
  done
  sync_ms=$(($(now_ms) - t0)) cpu="$(cpu_ticks "$PID")"
  CLIENT_GO_SYNC_MS="$sync_ms"
  sleep "$SETTLE"
  rss="$(status_kb VmRSS "$PID")"
  report "client-go informer-compare on the same fleet: synced after ${sync_ms} ms (exec -> its synced line), RSS ${rss} KiB after ${SETTLE} s, $(status_kb Threads "$PID") threads, CPU to sync $(awk -v c="$cpu" -v hz="$CLK_TCK" 'BEGIN { printf "%.2f", c / hz }') s"
  report "dra-controller / client-go: RSS $(awk -v a="$CONTROLLER_RSS" -v b="$rss" 'BEGIN { printf "%.2f", a / b }')x, sync time $(awk -v a="$CONTROLLER_SYNC_MS" -v b="$sync_ms" 'BEGIN { printf "%.2f", a / b }')x, CPU to sync $(awk -v a="$CONTROLLER_SYNC_CPU" -v b="$cpu" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')x (client-go does not watch DeviceHealths)"
  stop_pid "$PID"
  PID=""
}

main() {
  [[ -x "$BINARY" ]] || die "no controller binary at $BINARY (build first)"
  [[ -n "${KUBECONFIG:-}" && -n "${DRA_SCHEDULER_PORT:-}" ]] || die "source \$CLUSTER_DIR/env first"
  write_certs
  report "fleet-live.sh $(date -u +%FT%TZ): NODES=$NODES GPU_PODS=$GPU_PODS PLAIN_PODS=$PLAIN_PODS HEALTHS=$HEALTHS CONTROLLER_ENV=${CONTROLLER_ENV:-} CONTROLLER_ARGS=${CONTROLLER_ARGS:-}; $(nproc) cores; load $(cut -d' ' -f1-3 /proc/loadavg)"
  if [[ -n "${KEEP_FLEET:-}" ]] && (($(k get nodes -l "$LABEL=true" -o name | wc -l) == NODES)); then
    log "reusing the fleet in place"
  else
    delete_fleet
    k wait --for=delete namespace/"$NAMESPACE" --timeout=600s >/dev/null 2>&1 || true
    empty_baseline
    create_fleet
  fi
  measure
  compare_client_go
  sync_again
  report "load at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
}

main "$@"
