#!/usr/bin/env bash
# Time to sync `dra-controller run`'s informer caches with a streamed
# watch-list vs paged LISTs, on one generated fleet, in one run.
#
#   watch-list-sync.sh [SLICES [DEVICES_PER_SLICE [ROUNDS]]]   (default 5000 8 3)
#
# Creates SLICES ResourceSlices (one pool each, label
# bench.dra.example.com/watch-list=true) of DEVICES_PER_SLICE GPU-like
# devices, then starts the controller ROUNDS times with --watch-list=on and
# ROUNDS times with --watch-list=off, alternating. Each start is timed by its
# own "N informer caches synced in X ms" log line (informers started to all
# synced); peak RSS is the process's VmHWM at "inventory synced". Stops each
# controller by PID, deletes the slices at the end, and prints a Markdown
# table and the median ratio.
#
# Needs a running control plane (source $CLUSTER_DIR/env) and the built
# binary (DRA_CONTROLLER, default build/dra-controller).
set -euo pipefail
source "$(dirname "$0")/../lib/common.sh"
source "$(dirname "$0")/fleet-gen.sh"
source "$(dirname "$0")/controller-sync.sh"

SLICES="${1:-5000}"
DEVICES="${2:-8}"
ROUNDS="${3:-3}"
KUBECTL="${DRA_KUBECTL:-${K8S_BIN_DIR}/kubectl}"
BINARY="${DRA_CONTROLLER:-${REPO_ROOT}/build/dra-controller}"
SYNC_TIMEOUT="${SYNC_TIMEOUT:-300}"
LABEL="bench.dra.example.com/watch-list"
WORK="$(mktemp -d)"
CONTROLLER_PID=""

k() { "$KUBECTL" "$@"; }

cleanup() {
  stop_pid "$CONTROLLER_PID"
  k delete resourceslices -l "$LABEL=true" --ignore-not-found --wait=false >/dev/null 2>&1 || true
  rm -rf "$WORK"
}
trap cleanup EXIT

# create_fleet: SLICES slices in Lists of 100, shaped like fake-gpu-fleet.sh's.
create_fleet() {
  gen_slices "$SLICES" "$DEVICES" "$WORK/fleet" "$LABEL"
  local f
  for f in "$WORK"/fleet-*.json; do k create -f "$f" >/dev/null; done
  rm -f "$WORK"/fleet-*.json
}

# run_once MODE: prints "SYNC_MS HWM_KIB".
run_once() {
  local mode="$1" log="$WORK/controller-$1.log"
  start_controller_and_wait "$log" 0.1 \
    --watch-list="$mode" --metrics-bind-address=0 --health-probe-bind-address=0
  local hwm
  hwm="$(awk '$1 == "VmHWM:" { print $2 }' "/proc/$CONTROLLER_PID/status")"
  stop_pid "$CONTROLLER_PID"
  CONTROLLER_PID=""
  grep -q "falling back to paged LIST" "$log" && die "--watch-list=$mode fell back: see $log"
  local ms
  ms="$(grep -o 'informer caches synced in [0-9]* ms' "$log" | head -n1 | awk '{ print $5 }')"
  echo "$ms $hwm"
}

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

main() {
  [[ -x "$BINARY" ]] || die "no controller binary at $BINARY (build first)"
  [[ -n "${KUBECONFIG:-}" ]] || die "KUBECONFIG is not set (source \$CLUSTER_DIR/env)"
  log "creating $SLICES slices x $DEVICES devices"
  create_fleet
  echo "| round | mode | caches synced (ms) | peak RSS VmHWM (MiB) |"
  echo "|---|---|---|---|"
  local round mode result
  for ((round = 1; round <= ROUNDS; round++)); do
    for mode in on off; do
      result="$(run_once "$mode")"
      echo "$mode $result" >>"$WORK/results"
      echo "| $round | $mode | ${result% *} | $((${result#* } / 1024)) |"
    done
  done
  local on off
  on="$(awk '$1 == "on" { print $2 }' "$WORK/results" | median)"
  off="$(awk '$1 == "off" { print $2 }' "$WORK/results" | median)"
  echo
  echo "median sync: watch-list ${on} ms, paged LIST ${off} ms;" \
    "LIST/watch-list = $(awk -v a="$off" -v b="$on" 'BEGIN { printf "%.2f", a / b }')"
}

main "$@"
