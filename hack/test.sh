#!/usr/bin/env bash
# `make test`: installs and builds what is missing (deps, the project, the
# control-plane binaries and helm beside the C++ build), then unit tests, then
# integration tests, with the runtime's tests under ASan+UBSan beside them,
# against a real control plane started in
# a temporary directory (so a running `make demo` cluster is left alone) and
# stopped again, by PID, whatever the outcome. Each phase is timed; the table
# is printed at the end, whatever the outcome.
#   test.sh BUILD_DIR [unit|asan|integration|all]
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"

BUILD_ARG="${1:?usage: test.sh BUILD_DIR [unit|asan|integration|all]}"
mkdir -p "$BUILD_ARG"
BUILD_DIR="$(cd "$BUILD_ARG" && pwd)"
WHAT="${2:-all}"
JOBS="${JOBS:-2}"

PHASES=()
START_SECONDS=$SECONDS
# timed NAME COMMAND...: runs COMMAND and records how long it took.
timed() {
  local name="$1" start=$SECONDS rc=0
  shift
  "$@" || rc=$?
  PHASES+=("$(printf '%-28s %5d s' "$name" $((SECONDS - start)))")
  return "$rc"
}

# Phases that run beside others, in a process group of their own, with their
# output in a log file (shown when they fail): the Go builds beside the C++
# build and the unit tests, the ASan run beside the integration tests (which
# mostly wait on the control plane). Timings: docs/benchmarks.md, "make test".
BACKGROUND_DIR="$(mktemp -d "${TMPDIR:-/tmp}/dra-test-phases.XXXXXX")"
declare -A BACKGROUND=()

# in_background NAME COMMAND...: starts COMMAND (an executable, not a function).
in_background() {
  local name="$1"; shift
  local file="$BACKGROUND_DIR/${name// /-}"
  setsid bash -c 'start=$(date +%s); rc=0; "${@:2}" >"$1.log" 2>&1 || rc=$?
                  echo "$(($(date +%s) - start))" >"$1.seconds"; exit "$rc"' _ "$file" "$@" &
  BACKGROUND[$name]=$!
  log "$name: started beside the next phases (log: $file.log)"
}

# finish NAME: waits for it and records its time, and how long it was waited for.
finish() {
  local name="$1" file="$BACKGROUND_DIR/${1// /-}" start=$SECONDS rc=0 seconds
  [[ -n "${BACKGROUND[$name]:-}" ]] || return 0
  wait "${BACKGROUND[$name]}" || rc=$?
  unset "BACKGROUND[$name]"
  seconds="$(cat "$file.seconds" 2>/dev/null || echo '?')"
  PHASES+=("$(printf '%-28s %5s s   beside others; waited for %d s' "$name" "$seconds" \
    $((SECONDS - start)))")
  if ((rc != 0)); then
    echo "----- last lines of $file.log -----" >&2
    tail -n 60 "$file.log" >&2
  fi
  return "$rc"
}

# On any exit: what still runs in the background is stopped (by process group).
stop_background() {
  local name
  for name in "${!BACKGROUND[@]}"; do
    kill -TERM -- "-${BACKGROUND[$name]}" 2>/dev/null || true
    wait "${BACKGROUND[$name]}" 2>/dev/null || true
  done
}

on_exit() {
  stop_background
  print_phases
  if ((${#BACKGROUND[@]} == 0)); then rm -rf "$BACKGROUND_DIR"; fi
}

print_phases() {
  ((${#PHASES[@]} > 0)) || return 0
  printf '\n%-28s %7s\n' "phase" "time" >&2
  printf '%s\n' "${PHASES[@]}" >&2
  printf '%-28s %5d s\n\n' "total" $((SECONDS - START_SECONDS)) >&2
}

# The installs and builds `make test` needs, each a make target of its own.
run_setup() {
  local make_args=(--no-print-directory -C "$REPO_ROOT" "BUILD_DIR=$BUILD_DIR" "JOBS=$JOBS")
  timed "install packages" make "${make_args[@]}" deps || die "installing packages failed"
  in_background "Kubernetes binaries, helm" make "${make_args[@]}" k8s-binaries helm-binary \
    k8s-matrix-binaries node-binaries
  timed "build (C++)" make "${make_args[@]}" build || die "build failed"
}

# Every step checks its own exit code: `set -e` does not apply inside a
# function called from an `&&` list (below), so a failing ctest was ignored.
run_unit() {
  log "include layering (hack/include-layers.txt) and the docs check (hack/doc-links.py)"
  timed "include layering" "$REPO_ROOT/hack/lint.sh" layers || die "include layering broken"
  timed "doc links" python3 "$REPO_ROOT/hack/doc-links.py" || die "docs check failed: a broken link, a test count in prose or a flag table (above)"
  log "unit tests"
  timed "unit tests" ctest --test-dir "$BUILD_DIR" -L unit --output-on-failure -j "$JOBS" \
    || die "unit tests failed"
  log "fuzz targets (bounded time each)"
  timed "fuzz targets" ctest --test-dir "$BUILD_DIR" -L fuzz --output-on-failure -j "$JOBS" \
    || die "fuzz targets failed"
  log "memory regression gate (heap per cached object vs tests/gate/memory-baseline.json)"
  timed "memory gate" run_gate || die "memory regression gate failed"
  timed "alert rules" run_alert_rules
}

run_gate() {
  (cd "$BUILD_DIR" && ctest -L gate --output-on-failure -V | grep -E '^[0-9]+: ' | cut -d' ' -f2-)
}

# The PrometheusRule's spec is a plain rule file once its header is cut off;
# promtool checks it and runs the alert unit tests (README "Metrics").
run_alert_rules() {
  log "alert rules (promtool check rules, promtool test rules)"
  command -v promtool >/dev/null || die "promtool not found; hack/install-deps.sh installs it (Debian: prometheus)"
  local dir monitoring="$REPO_ROOT/manifests/monitoring"
  dir="$(mktemp -d)"
  sed -n '/^spec:/,$p' "$monitoring/prometheusrule.yaml" | tail -n +2 | sed 's/^  //' \
    >"$dir/dra-controller.rules.yaml"
  sed -n '/^spec:/,$p' "$monitoring/dcgm-prometheusrule.yaml" | tail -n +2 | sed 's/^  //' \
    >"$dir/dcgm-alerts.rules.yaml"
  cp "$monitoring"/tests/*.yaml "$dir/"
  (cd "$dir" && promtool check rules dra-controller.rules.yaml dcgm-alerts.rules.yaml \
    && promtool test rules ./*-test.yaml) \
    || { rm -rf "$dir"; die "alert rule tests failed"; }
  rm -rf "$dir"
}

# The bounded ASan+UBSan set (README "Sanitizers and fuzzing"): the runtime's
# unit and fault-injection tests and its fuzz targets' replay, in build-asan.
# `make test-asan` runs every unit test and fuzz target.
run_asan() {
  log "ASan+UBSan: runtime unit, fault-injection and fuzz-replay tests"
  timed "ASan+UBSan (build and run)" "$REPO_ROOT/hack/sanitize.sh" address runtime \
    || die "ASan+UBSan run failed"
}

dump_logs() {
  local f
  for f in "$CLUSTER_DIR"/logs/*.log; do
    [[ -f "$f" ]] || continue
    echo "----- last lines of $f -----" >&2
    tail -n 20 "$f" >&2
  done
}

# The container image (README "Container image"): `make image` before the
# control plane starts, the smoke test against it after the integration tests.
# Skipped, visibly, where buildah cannot run or DRA_SKIP_IMAGE=1.
image_usable() {
  local reason
  if [[ "${DRA_SKIP_IMAGE:-0}" == 1 ]]; then
    log "SKIPPED: image build and smoke test (DRA_SKIP_IMAGE=1)"
    return 1
  fi
  if ! reason="$("$REPO_ROOT/hack/image/build.sh" --check)"; then
    log "SKIPPED: image build and smoke test: $reason"
    return 1
  fi
}

# The runtime stage plus the binary `make build` made: the project is not
# compiled a second time inside the container (`make image` does that).
run_image_build() {
  log "image: the Dockerfile's prebuilt target with $BUILD_DIR/dra-controller"
  timed "image (prebuilt binary)" "$REPO_ROOT/hack/image/build.sh" --prebuilt "$BUILD_DIR/dra-controller" \
    || die "image build failed"
}

run_image_smoke() {
  log "image: smoke test against ${DRA_APISERVER_URL}"
  timed "image smoke test" "$REPO_ROOT/hack/image/smoke-test.sh" || die "image smoke test failed"
}

# Hostile clients against the real binary's probe and metrics ports (docs/runtime.md,
# "Served surface"): bounded in connections and time, 127.0.0.1 only.
run_endpoint_attacks() {
  log "served-surface attacks against $BUILD_DIR/dra-controller (hack/endpoint-attacks.py)"
  python3 "$REPO_ROOT/hack/endpoint-attacks.py" "$BUILD_DIR/dra-controller" "$KUBECONFIG" \
    || die "served-surface attacks failed"
}

# run_integration [asan]: with asan, the ASan run goes beside the integration tests.
run_integration() {
  local image=0 asan="${1:-}"
  finish "Kubernetes binaries, helm" || die "building the control-plane binaries or helm failed"
  if image_usable; then image=1; run_image_build; fi
  CLUSTER_DIR="$(mktemp -d "${TMPDIR:-/tmp}/dra-test-cluster.XXXXXX")"
  export CLUSTER_DIR
  trap 'rc=$?; "$REPO_ROOT/hack/control-plane/cluster.sh" down
        if ((rc == 0)); then rm -rf "$CLUSTER_DIR"; else dump_logs; log "kept $CLUSTER_DIR for debugging"; fi
        on_exit; exit $rc' EXIT
  if [[ "$asan" == asan ]]; then
    # Niced, and with test deadlines stretched 4x (2x is the sanitizer's own
    # share): the integration tests and the processes they start come first.
    # Then the controller binary under ASan+UBSan, for the shutdown paths below.
    in_background "ASan+UBSan (build and run)" env DRA_TEST_TIME_SCALE=4 JOBS="$JOBS" \
      nice -n 10 bash -c '"$0" address runtime && "$0" address binary' \
      "$REPO_ROOT/hack/sanitize.sh"
  fi
  timed "control plane up" env DRA_NODE=0 "$REPO_ROOT/hack/control-plane/cluster.sh" up || die "control plane did not start"
  # shellcheck disable=SC1091
  source "$CLUSTER_DIR/env"
  export DRA_REQUIRE_CLUSTER=1
  log "integration tests against ${DRA_APISERVER_URL}"
  # One at a time: the tests share cluster-scoped objects (nodes, slices, classes).
  timed "integration tests" ctest --test-dir "$BUILD_DIR" -L integration --output-on-failure -j 1 \
    || die "integration tests failed"
  finish "ASan+UBSan (build and run)" || die "ASan+UBSan run failed"
  if [[ "$asan" == asan ]]; then
    log "shutdown paths of the ASan+UBSan binary against ${DRA_APISERVER_URL}"
    timed "shutdown paths (ASan+UBSan)" env BUILD_DIR="$BUILD_DIR" JOBS="$JOBS" \
      "$REPO_ROOT/hack/sanitize.sh" address shutdown || die "shutdown paths under ASan+UBSan failed"
  fi
  timed "served-surface attacks" run_endpoint_attacks
  run_real_node "$image"
  if ((image)); then run_image_smoke; fi
  run_version_matrix
}

# The real node (docs/control-plane.md, "The real node") beside the same
# control plane, after the suite (whose tests count the cluster's nodes and
# GPUs), for the tests that need it. Skipped, visibly, when not root or
# DRA_SKIP_NODE=1. With the image built ($1 = 1) the node imports it and the
# install test must run.
run_real_node() {
  local with_image=()
  [[ "${1:-0}" == 1 ]] && with_image=(DRA_REQUIRE_NODE_IMAGE=1)
  if [[ "${DRA_SKIP_NODE:-0}" == 1 || $(id -u) -ne 0 ]]; then
    log "SKIPPED: the real node and its tests ($([[ $(id -u) -ne 0 ]] && echo 'needs root' || echo 'DRA_SKIP_NODE=1'))"
    return 0
  fi
  timed "real node up" "$REPO_ROOT/hack/control-plane/cluster.sh" node-up || die "the real node did not start"
  # shellcheck disable=SC1091
  source "$CLUSTER_DIR/env"
  timed "real node tests" env DRA_REQUIRE_NODE=1 "${with_image[@]}" "$BUILD_DIR/tests/integration_tests" \
    --gtest_filter='RealNode*' || die "the real-node tests failed"
  timed "real node down" "$REPO_ROOT/hack/control-plane/cluster.sh" node-down
}

# The version matrix on the release most fleets upgrade from next, with its
# DRA gates off (the features it lacks are reported, nothing fails) and on
# (device health at resource.k8s.io/v1beta2, dra-controller evicting the
# extended-resource Pods 1.36's controller skips). `make test-versions` runs
# every release.
run_version_matrix() {
  log "version matrix on ${MATRIX_K8S_VERSION:-v1.36.3} (hack/test-versions.sh)"
  timed "version matrix (v1.36.3)" env TEST_VERSIONS="${MATRIX_K8S_VERSION:-v1.36.3}" \
    TEST_FEATURE_MODES="default all" VERSION_MATRIX_NODE=0 \
    VERSION_MATRIX_FILTER='VersionMatrix*:ExtendedResourceEviction*' \
    "$REPO_ROOT/hack/test-versions.sh" "$BUILD_DIR" || die "version matrix failed"
}

trap 'on_exit' EXIT
case "$WHAT" in
  unit) run_unit ;;
  asan) run_asan ;;
  integration) run_integration ;;
  all) run_setup; run_unit; run_integration asan ;;
  *) die "unknown test set '$WHAT' (unit|asan|integration|all)" ;;
esac
