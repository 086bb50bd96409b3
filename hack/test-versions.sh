#!/usr/bin/env bash
# The version matrix: for each Kubernetes release in TEST_VERSIONS and each
# feature mode in TEST_FEATURE_MODES, start that release's control plane,
# print what it serves, and run the VersionMatrix integration tests on it.
#
#   hack/test-versions.sh [BUILD_DIR]
#   TEST_VERSIONS      default: v1.34.4 v1.35.4 v1.36.3 v1.37.2
#   TEST_FEATURE_MODES default: "default all" (DRA_FEATURES of cluster.sh)
#   VERSION_MATRIX_FILTER  gtest filter (default VersionMatrix*:ExtendedResourceEviction*)
#   VERSION_MATRIX_SMOKE=1 start, describe and stop each control plane; run no test
#   VERSION_MATRIX_NODE    1 (default): on each release with a pinned kubelet
#                          (node.mod; v1.36.3, v1.37.2) and in mode all (DeviceTaintRules
#                          are beta and off by default in 1.36), also
#                          start the real node and run VERSION_MATRIX_NODE_FILTER
#                          (default RealNodeEviction*) on it; needs root, skipped
#                          (said so) without it or the release's node binaries
#
# It builds no control plane: a release that is not cached fails the run and
# names the command that builds it (each takes 20+ minutes of Go on 2 cores).
set -euo pipefail
source "$(dirname "$0")/lib/common.sh"

BUILD_DIR="${1:-build}"
VERSIONS=(${TEST_VERSIONS:-v1.34.4 v1.35.4 v1.36.3 v1.37.2})
MODES=(${TEST_FEATURE_MODES:-default all})
FILTER="${VERSION_MATRIX_FILTER:-VersionMatrix*:ExtendedResourceEviction*}"
[[ "$BUILD_DIR" == /* ]] || BUILD_DIR="${REPO_ROOT}/${BUILD_DIR}"
TESTS="${BUILD_DIR}/tests/integration_tests"
CLUSTER_SH="${REPO_ROOT}/hack/control-plane/cluster.sh"
NODE_FILTER="${VERSION_MATRIX_NODE_FILTER:-RealNodeEviction*}"

check_prerequisites() {
  [[ "${VERSION_MATRIX_SMOKE:-}" == 1 ]] || check_tests
  local v missing=()
  for v in "${VERSIONS[@]}"; do
    K8S_VERSION="$v" "${REPO_ROOT}/hack/control-plane/build.sh" --check || missing+=("$v")
  done
  ((${#missing[@]} == 0)) || die "control plane not built for: ${missing[*]} (see the commands above)"
}

check_tests() {
  [[ -x "$TESTS" ]] || die "${TESTS} is missing: make build (or cmake --build ${BUILD_DIR} --target integration_tests)"
  [[ -n "$("$TESTS" --gtest_list_tests --gtest_filter="$FILTER" | grep -v '^Running main')" ]] \
    || die "no test in ${TESTS} matches --gtest_filter='${FILTER}'"
}

# describe: one line of what the running control plane serves for DRA.
describe() {
  local kubectl="${DRA_KUBECTL}" versions rule_at=""
  versions="$("$kubectl" get --raw /apis/resource.k8s.io | tr ',' '\n' | sed -n 's/.*"version":"\([^"]*\)".*/\1/p' | sort -u | tr '\n' ' ')"
  local gv
  for gv in v1 v1beta2 v1alpha3; do
    if "$kubectl" get --raw "/apis/resource.k8s.io/${gv}" 2>/dev/null | grep -q '"name":"devicetaintrules"'; then
      rule_at="${gv}"; break
    fi
  done
  # A server-side dry run tells whether the apiserver keeps a DeviceClass's
  # extendedResourceName (it drops the field while DRAExtendedResource is off).
  local kept
  kept="$("$kubectl" create --dry-run=server -o jsonpath='{.spec.extendedResourceName}' -f - <<'CLASS' 2>&1 || true
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: version-matrix-probe}
spec: {extendedResourceName: example.com/gpu}
CLASS
)"
  log "$("$kubectl" version -o json | sed -n 's/.*"gitVersion": "\(v[^"]*\)".*/\1/p' | tail -n 1):" \
    "resource.k8s.io serves ${versions% }; DeviceTaintRule at ${rule_at:-(not served)};" \
    "DeviceClass extendedResourceName $([[ "$kept" == example.com/gpu ]] && echo kept || echo "dropped (${kept:-empty})")"
}

# The real node beside the running control plane in $1 (release $2): the
# driver's Unhealthy stops a Pod, the kubelet's Unknown holds, Healthy reopens.
run_node() {
  local dir="$1" version="$2" rc=0
  [[ "${VERSION_MATRIX_NODE:-1}" == 1 ]] || return 0
  if [[ $(id -u) -ne 0 ]]; then
    log "SKIPPED: the real node on ${version} (needs root)"
    return 0
  fi
  if ! K8S_VERSION="$version" "${REPO_ROOT}/hack/node/build.sh" --check >/dev/null 2>&1; then
    log "SKIPPED: the real node on ${version} (no kubelet built: make node-binaries K8S_VERSION=${version}, where a node.mod pins one)"
    return 0
  fi
  CLUSTER_DIR="$dir" K8S_VERSION="$version" "$CLUSTER_SH" node-up || return 1
  # shellcheck disable=SC1091
  source "${dir}/env"
  log "DRA_REQUIRE_NODE=1 ${TESTS} --gtest_filter='${NODE_FILTER}'   (the real node, ${version})"
  DRA_REQUIRE_NODE=1 "$TESTS" --gtest_filter="$NODE_FILTER" || rc=$?
  CLUSTER_DIR="$dir" K8S_VERSION="$version" "$CLUSTER_SH" node-down
  return $rc
}

run_one() {
  local version="$1" mode="$2" dir rc=0
  dir="$(mktemp -d)"
  log "== Kubernetes ${version}, DRA_FEATURES=${mode}"
  if ! CLUSTER_DIR="$dir" K8S_VERSION="$version" DRA_FEATURES="${mode/default/}" "$CLUSTER_SH" up; then
    log "FAILED to start ${version} (${mode}); logs in ${dir}/logs"
    return 1
  fi
  # shellcheck disable=SC1091
  source "${dir}/env"
  describe
  if [[ "${VERSION_MATRIX_SMOKE:-}" == 1 ]]; then
    CLUSTER_DIR="$dir" "$CLUSTER_SH" down
    rm -rf "$dir"
    return 0
  fi
  log "DRA_REQUIRE_CLUSTER=1 ${TESTS} --gtest_filter='${FILTER}'   (KUBECONFIG=${dir}/kubeconfig)"
  DRA_REQUIRE_CLUSTER=1 DRA_FEATURES="${mode}" "$TESTS" --gtest_filter="$FILTER" || rc=$?
  if ((rc == 0)) && [[ "$mode" == all ]]; then run_node "$dir" "$version" || rc=$?; fi
  CLUSTER_DIR="$dir" "$CLUSTER_SH" down
  ((rc == 0)) && rm -rf "$dir"
  return $rc
}

main() {
  check_prerequisites
  local v m failed=()
  for v in "${VERSIONS[@]}"; do
    for m in "${MODES[@]}"; do
      run_one "$v" "$m" || failed+=("${v}/${m}")
    done
  done
  if ((${#failed[@]})); then
    log "version matrix FAILED on: ${failed[*]}"
    return 1
  fi
  log "version matrix passed on ${VERSIONS[*]} (modes: ${MODES[*]})"
}

main "$@"
