#!/usr/bin/env bash
# dra-controller next to client-go on the same fleet, in the same run.
#
#   compare-client-go.sh            (needs KUBECONFIG: source $CLUSTER_DIR/env)
#
# Creates SLICES ResourceSlices x DEVICES GPUs, CLAIMS ResourceClaims and PODS
# Pods (defaults: 5000 x 8, 30000, 0), then ROUNDS times runs, one after the
# other against the same API server:
#   - informer-compare (hack/control-plane/k8s/cmd/informer-compare): client-go
#     v0.37.2 shared informers for the resources `dra-controller run` watches;
#   - informer-compare -json (CLIENT_GO_JSON=1, default): the same asking for
#     JSON, as dra-controller does; client-go's typed clients ask for protobuf
#     for built-in resources, which the API server encodes in less time;
#   - `dra-controller run` (features at their defaults; the binary caps glibc
#     at 2 malloc arenas itself, as the Deployment's MALLOC_ARENA_MAX=2 does);
#   - `dra-controller run` with MALLOC_ARENA_MAX=8 x online CPUs (glibc's own
#     default cap, which the environment overrides): what the arena cap saves.
# For each it records the time from exec to synced (informer-compare's
# "synced" line; dra-controller's /readyz answering 200, i.e. every informer
# cache synced), VmRSS SETTLE seconds after sync (and its anonymous and
# file-backed parts), VmHWM, threads, CPU seconds used until then, and CPU
# seconds used in the IDLE seconds after that.
# Prints a Markdown table and the ratios dra-controller / client-go (medians).
# KEEP_FLEET=1 leaves the fleet in place (and reuses one already there).
# BURST=N (default 0: none) then creates N more ResourceClaims in a namespace
# of their own and deletes them again (one deletecollection), and records
# VmRSS SETTLE seconds later: memory given back after a burst.
# BASELINE=PATH also runs another dra-controller binary (e.g. one built from
# an earlier commit), as "baseline" and "baseline-arena2" (MALLOC_ARENA_MAX=2),
# for a before/after in the same run.
# SMAPS=1 also prints what each process's RSS after sync is made of
# (smaps-summary.sh: heap, thread stacks, executable, shared libraries).
set -euo pipefail
source "$(dirname "$0")/../lib/common.sh"
source "$(dirname "$0")/fleet-gen.sh"

KUBECTL="${DRA_KUBECTL:-${K8S_BIN_DIR}/kubectl}"
BINARY="${DRA_CONTROLLER:-${REPO_ROOT}/build/dra-controller}"
COMPARE_BIN="${K8S_BIN_DIR}/informer-compare"
SLICES="${SLICES:-5000}" DEVICES="${DEVICES:-8}" CLAIMS="${CLAIMS:-30000}" PODS="${PODS:-0}"
ROUNDS="${ROUNDS:-2}" SETTLE="${SETTLE:-5}" IDLE="${IDLE:-10}" SYNC_TIMEOUT="${SYNC_TIMEOUT:-300}"
BURST="${BURST:-0}"
NAMESPACE="bench-compare"
BURST_NAMESPACE="bench-compare-burst"
LABEL="bench.dra.example.com/compare"
WORK="$(mktemp -d)"
PID=""
CLK_TCK="$(getconf CLK_TCK)"

k() { "$KUBECTL" "$@"; }

cleanup() {
  stop_pid "$PID"
  if [[ -z "${KEEP_FLEET:-}" ]]; then
    k delete pods --all -n "$NAMESPACE" --force --grace-period=0 >/dev/null 2>&1 || true
    k delete namespace "$NAMESPACE" --ignore-not-found --wait=false >/dev/null 2>&1 || true
    k delete namespace "$BURST_NAMESPACE" --ignore-not-found --wait=false >/dev/null 2>&1 || true
    k delete resourceslices -l "$LABEL=true" --ignore-not-found --wait=false >/dev/null 2>&1 || true
  fi
  rm -rf "$WORK"
}
trap cleanup EXIT

build_compare() {
  local module="${REPO_ROOT}/hack/control-plane/k8s" stamp="${COMPARE_BIN}.pins" pins
  pins="$(cat "$module/go.mod" "$module/go.sum" "$module/cmd/informer-compare/main.go" | sha256sum)"
  [[ -x "$COMPARE_BIN" && -f "$stamp" && "$(cat "$stamp")" == "$pins" ]] && return 0
  log "building informer-compare (client-go v0.37.2, pinned by hack/control-plane/k8s/go.sum)"
  (cd "$module" && GOFLAGS="-buildvcs=false -mod=readonly" CGO_ENABLED=0 \
    go build -trimpath -o "$COMPARE_BIN" ./cmd/informer-compare) || die "go build failed"
  echo "$pins" >"$stamp"
}

create_fleet() {
  local have
  have="$(k get resourceslices -l "$LABEL=true" -o name 2>/dev/null | wc -l)"
  if [[ -n "${KEEP_FLEET:-}" && "$have" -eq "$SLICES" ]]; then
    log "reusing the fleet already in place ($have slices)"
    return 0
  fi
  log "removing what an earlier run left, then creating $SLICES slices x $DEVICES devices, $CLAIMS claims, $PODS pods"
  # A namespace still terminating refuses new objects: wait until it is gone
  # (bound Pods without a kubelet never confirm a graceful deletion).
  k delete pods --all -n "$NAMESPACE" --force --grace-period=0 >/dev/null 2>&1 || true
  k delete namespace "$NAMESPACE" --ignore-not-found --wait=true --timeout=600s >/dev/null
  k delete resourceslices -l "$LABEL=true" --ignore-not-found --wait=true >/dev/null
  k create namespace "$NAMESPACE" >/dev/null
  gen_slices "$SLICES" "$DEVICES" "$WORK/slices" "$LABEL"
  gen_claims "$CLAIMS" "$NAMESPACE" "$WORK/claims" "$LABEL"
  gen_pods "$PODS" "$NAMESPACE" "$((SLICES > 0 ? SLICES : 1))" "$WORK/pods" "$LABEL"
  shopt -s nullglob
  create_all "$KUBECTL" "$WORK"/slices-*.json "$WORK"/claims-*.json "$WORK"/pods-*.json \
    || die "creating the fleet failed (see kubectl's errors above)"
  shopt -u nullglob
  rm -f "$WORK"/*.json
}

# burst: BURST claims created, then deleted with one deletecollection.
burst() {
  k create namespace "$BURST_NAMESPACE" >/dev/null 2>&1 || true
  gen_claims "$BURST" "$BURST_NAMESPACE" "$WORK/burst" "$LABEL"
  create_all "$KUBECTL" "$WORK"/burst-*.json || die "creating the burst failed"
  rm -f "$WORK"/burst-*.json
  k delete --raw "/apis/resource.k8s.io/v1/namespaces/$BURST_NAMESPACE/resourceclaims" >/dev/null
}

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
status_kb() { awk -v f="$1:" '$1 == f { print $2 }' "/proc/$2/status"; }
# utime + stime of PID in clock ticks.
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
now_ms() { echo $(($(date +%s%N) / 1000000)); }

# measure NAME SYNC_TEST COMMAND...: prints one row
# "name sync_ms rss_kb hwm_kb threads cpu_s idle_cpu_s anon_kb file_kb burst_rss_kb"
# (burst_rss_kb 0 without BURST).
measure() {
  local name="$1" sync_test="$2"
  shift 2
  local log="$WORK/$name.log" t0 t1
  t0="$(now_ms)"
  : >"$log" # the sync test may read it before the background redirect has created it
  "$@" >"$log" 2>&1 &
  PID=$!
  until "$sync_test"; do
    kill -0 "$PID" 2>/dev/null || die "$name exited: $(tail -n 5 "$log")"
    (($(now_ms) - t0 < SYNC_TIMEOUT * 1000)) || die "$name did not sync within ${SYNC_TIMEOUT}s"
    sleep 0.02
  done
  t1="$(now_ms)"
  sleep "$SETTLE"
  local rss hwm threads cpu idle_from anon file
  rss="$(status_kb VmRSS "$PID")" hwm="$(status_kb VmHWM "$PID")" threads="$(status_kb Threads "$PID")"
  anon="$(status_kb RssAnon "$PID")" file="$(status_kb RssFile "$PID")"
  if [[ -n "${SMAPS:-}" ]]; then
    "$(dirname "$0")/smaps-summary.sh" "$PID" | sed "s/^/$name: /" >&2
  fi
  cpu="$(cpu_ticks "$PID")"
  sleep "$IDLE"
  idle_from="$cpu"
  cpu="$(cpu_ticks "$PID")"
  local after_burst=0
  if ((BURST > 0)); then
    burst
    sleep "$SETTLE"
    after_burst="$(status_kb VmRSS "$PID")"
  fi
  stop_pid "$PID"
  PID=""
  awk -v n="$name" -v s="$((t1 - t0))" -v r="$rss" -v h="$hwm" -v t="$threads" -v c="$idle_from" \
    -v i="$((cpu - idle_from))" -v hz="$CLK_TCK" -v a="$anon" -v f="$file" \
    -v b="$after_burst" 'BEGIN { printf "%s %d %d %d %d %.2f %.2f %d %d %d\n", n, s, r, h, t, c / hz,
      i / hz, a, f, b }'
}

client_go_synced() { grep -q '^synced ' "$WORK/client-go.log"; }
client_go_json_synced() { grep -q '^synced ' "$WORK/client-go-json.log"; }
PROBE_PORT=""
controller_synced() { curl -fs -o /dev/null "http://127.0.0.1:${PROBE_PORT}/readyz"; }

# run_controller NAME BINARY [NAME=VALUE...]
run_controller() {
  local name="$1" binary="$2"
  shift 2
  PROBE_PORT="$(free_port)"
  measure "$name" controller_synced env "$@" "$binary" run --metrics-bind-address=0 \
    --health-probe-bind-address="127.0.0.1:${PROBE_PORT}"
}

report() {
  awk '
    { sync[$1] = sync[$1] " " $2; rss[$1] = rss[$1] " " $3; hwm[$1] = hwm[$1] " " $4
      thr[$1] = $5; cpu[$1] = cpu[$1] " " $6; idle[$1] = idle[$1] " " $7
      anon[$1] = anon[$1] " " $8; file[$1] = file[$1] " " $9; burst[$1] = burst[$1] " " $10
      names[$1] = 1 }
    function median(list,   a, n, i, j, t) {
      n = split(list, a, " ")
      for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
      return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
    }
    END {
      print "| process | sync (ms) | RSS after sync (MiB) | of which anon / file (MiB) | peak RSS (MiB) | threads | CPU to sync (s) | CPU idle (s) | RSS after the burst (MiB) |"
      print "|---|---|---|---|---|---|---|---|---|"
      for (n in names) {
        ms[n] = median(sync[n]); mr[n] = median(rss[n]) / 1024; mh[n] = median(hwm[n]) / 1024
        mc[n] = median(cpu[n]); mi[n] = median(idle[n])
        printf "| %s | %d | %.0f | %.0f / %.0f | %.0f | %d | %.2f | %.2f | %.0f |\n", n, ms[n], mr[n],
          median(anon[n]) / 1024, median(file[n]) / 1024, mh[n], thr[n], mc[n], mi[n],
          median(burst[n]) / 1024
      }
      print ""
      for (n in names) if (n != "client-go" && mr["client-go"] > 0) {
        printf "%s / client-go: RSS %.2fx, sync time %.2fx, CPU to sync %.2fx\n", n,
          mr[n] / mr["client-go"], ms[n] / ms["client-go"], (mc["client-go"] > 0 ? mc[n] / mc["client-go"] : 0)
      }
      for (n in names) if (n !~ /^client-go/ && mr["client-go-json"] > 0) {
        printf "%s / client-go-json: RSS %.2fx, sync time %.2fx, CPU to sync %.2fx\n", n,
          mr[n] / mr["client-go-json"], ms[n] / ms["client-go-json"],
          (mc["client-go-json"] > 0 ? mc[n] / mc["client-go-json"] : 0)
      }
    }' "$WORK/rows"
}

main() {
  [[ -x "$BINARY" ]] || die "no controller binary at $BINARY (build first)"
  [[ -n "${KUBECONFIG:-}" ]] || die "KUBECONFIG is not set (source \$CLUSTER_DIR/env)"
  command -v go >/dev/null || die "go is needed to build informer-compare (hack/install-deps.sh)"
  build_compare
  create_fleet
  local round
  for ((round = 1; round <= ROUNDS; round++)); do
    log "round $round of $ROUNDS"
    measure client-go client_go_synced "$COMPARE_BIN" --kubeconfig "$KUBECONFIG" | tee -a "$WORK/rows" >&2
    if [[ "${CLIENT_GO_JSON:-1}" == 1 ]]; then
      measure client-go-json client_go_json_synced "$COMPARE_BIN" --kubeconfig "$KUBECONFIG" -json \
        | tee -a "$WORK/rows" >&2
    fi
    run_controller dra-controller "$BINARY" | tee -a "$WORK/rows" >&2
    run_controller dra-controller-glibc-arenas "$BINARY" \
      "MALLOC_ARENA_MAX=$((8 * $(getconf _NPROCESSORS_ONLN)))" | tee -a "$WORK/rows" >&2
    if [[ -n "${BASELINE:-}" ]]; then
      run_controller baseline "$BASELINE" | tee -a "$WORK/rows" >&2
      run_controller baseline-arena2 "$BASELINE" MALLOC_ARENA_MAX=2 | tee -a "$WORK/rows" >&2
    fi
  done
  report
}

main "$@"
