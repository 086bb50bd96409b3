# Per-release DRA feature switches for the test control plane. Source it.
#
# dra_features_all VERSION sets DRA_ALL_GATES and DRA_ALL_RUNTIME_CONFIG to what
# turns on every DRA feature dra-controller uses that VERSION has but does not
# enable by default (device taint rules, driver-published taints, extended
# resources backed by DRA, allocatedResourcesStatus, partitionable devices,
# consumable capacity). The sources each row rests on: /work/notes/versions.md
# and docs/control-plane.md. A gate a release does not know makes its
# components refuse to start, so each row names only gates that release has.
dra_features_all() {
  case "$1" in
    v1.34.*)
      # DeviceTaintRule is v1alpha3 only; DRADeviceTaints covers slices and rules.
      DRA_ALL_GATES="DRADeviceTaints=true,DRAExtendedResource=true,DRAPartitionableDevices=true"
      DRA_ALL_GATES+=",DRAConsumableCapacity=true,ResourceHealthStatus=true"
      DRA_ALL_RUNTIME_CONFIG="resource.k8s.io/v1alpha3=true" ;;
    v1.35.*)
      DRA_ALL_GATES="DRADeviceTaints=true,DRADeviceTaintRules=true,DRAExtendedResource=true"
      DRA_ALL_GATES+=",DRAPartitionableDevices=true,DRAConsumableCapacity=true,ResourceHealthStatus=true"
      DRA_ALL_RUNTIME_CONFIG="resource.k8s.io/v1alpha3=true" ;;
    v1.36.*)
      # The rest is beta and on by default; kube-controller-manager watches
      # DeviceTaintRules at v1beta2, which is off by default.
      DRA_ALL_GATES="DRADeviceTaintRules=true"
      DRA_ALL_RUNTIME_CONFIG="resource.k8s.io/v1beta2=true" ;;
    v1.37.*)
      DRA_ALL_GATES=""
      DRA_ALL_RUNTIME_CONFIG="" ;;
    *) return 1 ;;
  esac
}

# join_csv A B: A and B joined with a comma, either may be empty.
join_csv() {
  if [[ -n "$1" && -n "$2" ]]; then echo "$1,$2"; else echo "$1$2"; fi
}

# dra_resolve_features VERSION: sets FEATURE_GATES and RUNTIME_CONFIG from
# DRA_FEATURES (empty: the release's defaults; "all": dra_features_all) plus
# DRA_FEATURE_GATES and DRA_RUNTIME_CONFIG, which are appended as given.
dra_resolve_features() {
  FEATURE_GATES=""
  RUNTIME_CONFIG=""
  case "${DRA_FEATURES:-}" in
    "" | default) ;;
    all)
      dra_features_all "$1" || die "DRA_FEATURES=all: no feature row for Kubernetes $1 in hack/control-plane/dra-features.sh"
      FEATURE_GATES="${DRA_ALL_GATES}"
      RUNTIME_CONFIG="${DRA_ALL_RUNTIME_CONFIG}" ;;
    *) die "DRA_FEATURES=${DRA_FEATURES}: expected 'all' or empty (the release's defaults)" ;;
  esac
  FEATURE_GATES="$(join_csv "${FEATURE_GATES}" "${DRA_FEATURE_GATES:-}")"
  RUNTIME_CONFIG="$(join_csv "${RUNTIME_CONFIG}" "${DRA_RUNTIME_CONFIG:-}")"
}
