# Sourced by the bench scripts that time `dra-controller run` to its sync
# (watch-list-sync.sh, fleet-rss.sh); needs common.sh's die, BINARY and
# SYNC_TIMEOUT.
#
# start_controller_and_wait LOG POLL_SECONDS ARGS...
#   Starts "$BINARY" run ARGS... in the background with stdout and stderr in
#   LOG, sets CONTROLLER_PID, and returns once LOG has both the "inventory
#   synced" and the "informer caches synced" lines (features start as their
#   own informers sync: this waits for every cache), polling every
#   POLL_SECONDS. Dies if the controller exits first or SYNC_TIMEOUT seconds
#   pass; the caller stops CONTROLLER_PID.
start_controller_and_wait() {
  local log="$1" poll="$2" started=$SECONDS
  shift 2
  : >"$log" # read below before the background redirect may have created it
  "$BINARY" run "$@" >"$log" 2>&1 &
  CONTROLLER_PID=$!
  until grep -q "inventory synced" "$log" && grep -q "informer caches synced" "$log"; do
    kill -0 "$CONTROLLER_PID" 2>/dev/null || die "controller exited: $(tail -n 5 "$log")"
    ((SECONDS - started < SYNC_TIMEOUT)) || die "no sync within ${SYNC_TIMEOUT}s"
    sleep "$poll"
  done
}
