#!/usr/bin/env bash
# Resident memory of `dra-controller run` once its caches hold a fleet of
# generated ResourceSlices.
#
#   fleet-rss.sh SLICES DEVICES_PER_SLICE [SLICES DEVICES_PER_SLICE ...]
#
# For each size: creates SLICES ResourceSlices (one pool each, label
# bench.dra.example.com/fleet-rss=true) of DEVICES_PER_SLICE devices shaped
# like hack/fake-gpu-fleet.sh's, starts the controller, waits for its
# "inventory synced" and "informer caches synced" log lines, samples VmRSS/VmHWM from /proc/PID/status at
# sync and SETTLE seconds later, stops it by PID and deletes the slices.
# Prints one Markdown table row per size.
#
# EXTRA_ATTRIBUTES=K adds K string attributes per device (default 0: the
# four attributes and one capacity of fake-gpu-fleet.sh's devices).
#
# Needs a running control plane: KUBECONFIG (e.g. `source $CLUSTER_DIR/env`)
# and the built binary (DRA_CONTROLLER, default build/dra-controller).
set -euo pipefail
source "$(dirname "$0")/../lib/common.sh"
source "$(dirname "$0")/fleet-gen.sh"
source "$(dirname "$0")/controller-sync.sh"

KUBECTL="${DRA_KUBECTL:-${K8S_BIN_DIR}/kubectl}"
BINARY="${DRA_CONTROLLER:-${REPO_ROOT}/build/dra-controller}"
SETTLE="${SETTLE:-10}"
EXTRA_ATTRIBUTES="${EXTRA_ATTRIBUTES:-0}"
SYNC_TIMEOUT="${SYNC_TIMEOUT:-300}"
LABEL="bench.dra.example.com/fleet-rss"
WORK="$(mktemp -d)"
CONTROLLER_PID=""

k() { "$KUBECTL" "$@"; }

cleanup() {
  stop_pid "$CONTROLLER_PID"
  k delete resourceslices -l "$LABEL=true" --ignore-not-found --wait=false >/dev/null 2>&1 || true
  rm -rf "$WORK"
}
trap cleanup EXIT

field_kb() { awk -v f="$1:" '$1 == f { print $2 }' "/proc/$2/status"; }

measure() {
  local slices="$1" devices="$2" log="$WORK/controller-$1x$2.log"
  log "creating $slices slices x $devices devices"
  gen_slices "$slices" "$devices" "$WORK/fleet" "$LABEL" "$EXTRA_ATTRIBUTES"
  local f
  for f in "$WORK"/fleet-*.json; do k create -f "$f" >/dev/null; done
  rm -f "$WORK"/fleet-*.json
  local started=$SECONDS
  start_controller_and_wait "$log" 0.2 --metrics-bind-address=0 --health-probe-bind-address=0
  local sync_s=$((SECONDS - started))
  local rss_sync hwm rss_settled
  rss_sync="$(field_kb VmRSS "$CONTROLLER_PID")"
  sleep "$SETTLE"
  rss_settled="$(field_kb VmRSS "$CONTROLLER_PID")"
  hwm="$(field_kb VmHWM "$CONTROLLER_PID")"
  stop_pid "$CONTROLLER_PID"
  CONTROLLER_PID=""
  local synced_line
  synced_line="$(grep -o 'inventory synced: [0-9]* devices in [0-9]* pools' "$log" | head -n1)"
  printf '| %d | %d | %d | %d | %d | %d | %d | %ds | %s |\n' "$slices" "$devices" \
    "$((4 + EXTRA_ATTRIBUTES))" \
    "$((slices * devices))" "$((rss_sync / 1024))" "$((rss_settled / 1024))" "$((hwm / 1024))" \
    "$sync_s" "$synced_line"
  k delete resourceslices -l "$LABEL=true" --wait=true >/dev/null
}

main() {
  (($# >= 2 && $# % 2 == 0)) || die "usage: $0 SLICES DEVICES [SLICES DEVICES ...]"
  [[ -x "$BINARY" ]] || die "no controller binary at $BINARY (build first)"
  [[ -n "${KUBECONFIG:-}" ]] || die "KUBECONFIG is not set (source \$CLUSTER_DIR/env)"
  echo "| slices | devices/slice | attributes/device | devices | RSS at sync (MiB) | RSS +${SETTLE}s (MiB) | peak VmHWM (MiB) | sync | controller log |"
  echo "|---|---|---|---|---|---|---|---|---|"
  while (($#)); do measure "$1" "$2"; shift 2; done
}

main "$@"
