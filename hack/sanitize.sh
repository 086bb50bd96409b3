#!/usr/bin/env bash
# Sanitizer and coverage-guided fuzzing runs, each in a build directory of its
# own next to build/ (ccache shared):
#   sanitize.sh address [runtime|all]  ASan+UBSan (g++), build-asan   `make test-asan`
#   sanitize.sh thread  [runtime|all]  TSan (g++), build-tsan         `make test-tsan`
#   sanitize.sh fuzz                   libFuzzer+ASan+UBSan (clang), build-fuzz  `make fuzz`
#   sanitize.sh fuzz-merge             adds to tests/fuzz/corpus/<Target> the inputs of
#                                      build-fuzz/corpus/<Target> that reach new coverage
#                                      (libFuzzer -merge=1)                      `make fuzz-merge`
#   sanitize.sh address|thread shutdown  the dra-controller binary built with that
#                                      sanitizer, run through every path that ends
#                                      `run` (tests/integration/ShutdownPathsTest.cc and
#                                      the lost-lease LeaderElectionTest) on a real
#                                      control plane: the one in the environment
#                                      (KUBECONFIG, DRA_APISERVER_URL) or a new one;
#                                      DRA_SHUTDOWN_ROUNDS repeats each (default 1);
#                                      needs build/'s integration_tests (BUILD_DIR)
#   sanitize.sh address|thread binary  only builds that binary (make test builds it beside
#                                      the integration tests, then runs the shutdown set)
# runtime: the runtime's unit and fault-injection tests (tests/src, label
# runtime) and the replay of the runtime's fuzz targets; all: every unit test
# (tests/src and tests/controller) and every fuzz target's replay.
# fuzz: each target runs FUZZ_SECONDS (default 60) from its committed corpus;
# new inputs go to build-fuzz/corpus/<Target>, crashes to build-fuzz/artifacts/.
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"

MODE="${1:?usage: sanitize.sh address|thread|fuzz|fuzz-merge [runtime|all]}"
SET="${2:-all}"
JOBS="${JOBS:-2}"
SUPP="$REPO_ROOT/tests/sanitizers"
CCACHE="$(command -v ccache || true)"

# Errors stop the test that hit them (the test fails); leaks are reported at exit.
# Exit code 86 on any report: never 1, which tests expect of a failing command
# or a lost lease (the controller binary has the same compiled-in default).
export ASAN_OPTIONS="exitcode=86:halt_on_error=1:detect_leaks=1:strict_string_checks=1:check_initialization_order=1:strict_init_order=1:detect_stack_use_after_return=1:suppressions=$SUPP/asan.supp"
export LSAN_OPTIONS="suppressions=$SUPP/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="exitcode=86:halt_on_error=1:print_stacktrace=1:suppressions=$SUPP/ubsan.supp"
export TSAN_OPTIONS="exitcode=86:halt_on_error=1:second_deadlock_stack=1:suppressions=$SUPP/tsan.supp"

# -O1 -g1: fast enough to compile on a small CI machine, line numbers in reports.
configure() {
  local dir="$1"; shift
  [[ -f "$dir/build.ninja" ]] && return
  cmake -S "$REPO_ROOT" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" -DDRA_BUILD_BENCHMARKS=OFF \
    ${CCACHE:+-DCMAKE_CXX_COMPILER_LAUNCHER=$CCACHE} "$@" >/dev/null
}

fuzz_targets() {
  local f
  for f in "$REPO_ROOT"/tests/fuzz/*Fuzz.cc; do
    if [[ "$1" == all ]] || ! grep -q '#include "controller/' "$f"; then basename "$f" .cc; fi
  done
}

# Tests that measure real time stretch their wall-clock limits by this factor
# (tests/support/TestTime.h); sanitized builds on a loaded machine are slow.
run_tests() {
  local sanitizer="$1" dir="$REPO_ROOT/build-$2" scale="$3"
  export DRA_TEST_TIME_SCALE="${DRA_TEST_TIME_SCALE:-$scale}"
  # -LE unit: once unit_tests is built here too (the all set), its copies of
  # the runtime's tests carry the runtime label as well and would run twice.
  local unit=runtime_tests
  local -a select=(-L runtime -LE unit)
  [[ "$SET" == all ]] && { select=(-L 'unit|fuzz'); unit=unit_tests; }
  configure "$dir" -DDRA_SANITIZE="$sanitizer" -DDRA_FUZZ_SECONDS="${DRA_FUZZ_SECONDS:-10}"
  mapfile -t targets < <(fuzz_targets "$SET")
  log "building $unit and ${#targets[@]} fuzz targets with -fsanitize=$sanitizer in $dir"
  cmake --build "$dir" -j "$JOBS" --target "$unit" "${targets[@]}"
  log "running the $SET set under $sanitizer (DRA_TEST_TIME_SCALE=$DRA_TEST_TIME_SCALE)"
  (cd "$dir" && ctest "${select[@]}" --output-on-failure -j "$JOBS") \
    || die "$sanitizer sanitizer run failed (reports above)"
}

run_fuzz() {
  local dir="$REPO_ROOT/build-fuzz" seconds="${FUZZ_SECONDS:-60}" t
  command -v clang++ >/dev/null || die "clang++ not found; hack/install-deps.sh installs it (Debian: clang)"
  CXX=clang++ configure "$dir" -DCMAKE_CXX_COMPILER=clang++ -DDRA_SANITIZE=address \
    -DDRA_LIBFUZZER=ON -DDRA_BUILD_TESTS=ON
  mapfile -t targets < <(fuzz_targets all)
  if [[ -n "${FUZZ_TARGETS:-}" ]]; then read -ra targets <<<"$FUZZ_TARGETS"; fi
  log "building ${targets[*]} with clang -fsanitize=fuzzer,address,undefined in $dir"
  cmake --build "$dir" -j "$JOBS" --target "${targets[@]}"
  mkdir -p "$dir/artifacts"
  for t in "${targets[@]}"; do
    mkdir -p "$dir/corpus/$t"
    log "fuzzing $t for ${seconds}s"
    "$dir/tests/$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
      -artifact_prefix="$dir/artifacts/$t-" "$dir/corpus/$t" "$REPO_ROOT/tests/fuzz/corpus/$t" \
      >"$dir/$t.log" 2>&1 || { tail -n 60 "$dir/$t.log" >&2; die "$t found a crash (see $dir/artifacts)"; }
    grep -E '^stat::(number_of_executed_units|new_units_added)|^#[0-9]+.*DONE' "$dir/$t.log" >&2 || true
  done
}

# Only inputs that add coverage to the committed corpus are copied in; inputs
# longer than FUZZ_MERGE_MAX_LEN (1024) bytes are left out, and coverage means
# edges only (-use_counters=0, not hit counts), to keep it small.
run_merge() {
  local dir="$REPO_ROOT/build-fuzz" t before after
  mapfile -t targets < <(fuzz_targets all)
  if [[ -n "${FUZZ_TARGETS:-}" ]]; then read -ra targets <<<"$FUZZ_TARGETS"; fi
  for t in "${targets[@]}"; do
    [[ -x "$dir/tests/$t" && -d "$dir/corpus/$t" ]] || die "$t: run make fuzz first"
    before=$(find "$REPO_ROOT/tests/fuzz/corpus/$t" -type f | wc -l)
    "$dir/tests/$t" -merge=1 -use_counters=0 -max_len="${FUZZ_MERGE_MAX_LEN:-1024}" \
      "$REPO_ROOT/tests/fuzz/corpus/$t" "$dir/corpus/$t" 2>"$dir/$t.merge.log" \
      || { tail -n 30 "$dir/$t.merge.log" >&2; die "$t: merge failed"; }
    after=$(find "$REPO_ROOT/tests/fuzz/corpus/$t" -type f | wc -l)
    log "$t: $before -> $after corpus files ($(cat "$REPO_ROOT/tests/fuzz/corpus/$t"/* | wc -c) bytes)"
  done
}

# The shutdown paths need the control plane; one started here is stopped
# here, by PID, whatever the outcome.
run_shutdown() {
  local sanitizer="$1" dir="$REPO_ROOT/build-$2" scale="$3" tests="${BUILD_DIR:-$REPO_ROOT/build}"
  [[ -x "$tests/tests/integration_tests" ]] || die "$tests/tests/integration_tests missing: make build first"
  build_binary "$sanitizer" "$2"
  if [[ -z "${DRA_APISERVER_URL:-}" ]]; then
    CLUSTER_DIR="$(mktemp -d "${TMPDIR:-/tmp}/dra-shutdown-cluster.XXXXXX")"
    export CLUSTER_DIR
    trap '"$REPO_ROOT/hack/control-plane/cluster.sh" down; rm -rf "$CLUSTER_DIR"' EXIT
    "$REPO_ROOT/hack/control-plane/cluster.sh" up
    # shellcheck disable=SC1091
    source "$CLUSTER_DIR/env"
  fi
  export DRA_TEST_TIME_SCALE="${DRA_TEST_TIME_SCALE:-$scale}" DRA_REQUIRE_CLUSTER=1
  export DRA_CONTROLLER_UNDER_TEST="$dir/dra-controller"
  log "shutdown paths of $DRA_CONTROLLER_UNDER_TEST, ${DRA_SHUTDOWN_ROUNDS:-1} round(s) each"
  ctest --test-dir "$tests" -L integration --output-on-failure -j 1 \
    -R '^(ShutdownPathsTest\.|LeaderElectionTest\.APausedLeader|ShutdownTest\.|ShutdownClusterTest\.)' \
    || die "shutdown paths under $sanitizer failed (reports above)"
}

build_binary() {
  local dir="$REPO_ROOT/build-$2"
  configure "$dir" -DDRA_SANITIZE="$1"
  log "building dra-controller with -fsanitize=$1 in $dir"
  cmake --build "$dir" -j "$JOBS" --target dra-controller
}

# sanitize.sh address|thread SET: the set's tests under that sanitizer.
run_set() {
  case "$SET" in
    shutdown) run_shutdown "$@" ;;
    binary) build_binary "$1" "$2" ;;
    runtime | all) run_tests "$@" ;;
    *) die "unknown set '$SET' (runtime|all|shutdown|binary)" ;;
  esac
}

case "$MODE" in
  address) run_set address asan 2 ;;
  thread) run_set thread tsan 4 ;;
  fuzz) run_fuzz ;;
  fuzz-merge) run_merge ;;
  *) die "unknown mode '$MODE' (address|thread|fuzz|fuzz-merge)" ;;
esac
