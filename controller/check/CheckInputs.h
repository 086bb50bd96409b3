#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "controller/api/DeviceHealth.h"
#include "controller/check/MetricsProbe.h"
#include "controller/report/ClusterSnapshot.h"

namespace dra::check {

// A value read from the API server, or why it could not be read.
// (A flag rather than std::optional: GCC 12 misreports optional<string> as
// maybe-uninitialized under -O2 -Werror.)
template <typename T>
struct Fetched {
  T value{};
  bool present = false;    // value was read
  bool not_found = false;  // the object or its resource type does not exist
  std::string error;       // any other failure; empty when present or not_found

  bool ok() const { return present; }
  void Set(T v) {
    value = std::move(v);
    present = true;
  }
};

// A driver-reported status.devices[].conditions entry of an allocated claim.
struct ClaimDeviceCondition {
  std::string claim;   // "<namespace>/<name>"
  std::string device;  // "<driver>/<pool>/<device>"
  std::string type;
  std::string status;
  std::string reason;
};

struct DeploymentInfo {
  int64_t replicas = 0;
  int64_t ready_replicas = 0;
  std::string service_account = "default";  // spec.template.spec.serviceAccountName
  // The args of its container "controller" (else its first): the features it runs.
  std::vector<std::string> args;
};

// One permission `run` needs, and the feature that needs it.
struct ControllerNeed {
  std::string verb;
  std::string resource;  // "pods", "devicetaintrules.resource.k8s.io", ...
  std::string subresource;
  bool in_namespace = false;  // in the controller's namespace; cluster-wide otherwise
  std::string feature;        // "device-health", "leader election", ...
};

struct LeaseInfo {
  std::string holder;
  int64_t renew_time = 0;  // seconds since the epoch, 0 if unset
  int64_t duration_seconds = 0;
};

// One permission the operator commands need, as a SelfSubjectAccessReview answered it.
struct AccessCheck {
  std::string verb;
  std::string resource;  // "pods", "resourceslices.resource.k8s.io", ...
  std::string subresource;
  std::string namespace_name;
  bool allowed = false;
  std::string error;    // the review itself failed
  std::string feature;  // what needs it (the controller's permissions only)
};

// Everything the checks judge, read once from the cluster (CheckInputsReader)
// or built by hand in unit tests. The checks themselves never talk to the API.
// The ValidatingAdmissionPolicy (and its binding) of
// manifests/features/device-health/devicehealth-source-policy.yaml.
inline constexpr const char* kSourcePolicyName = "dra-controller-devicehealth-sources";

struct CheckInputs {
  Fetched<std::string> version;              // /version gitVersion
  Fetched<std::vector<std::string>> served;  // resources of resource.k8s.io/v1
  // Where DeviceTaintRules are served ("resource.k8s.io/v1beta2"); not_found: nowhere.
  Fetched<std::string> taint_rules_api;
  // A server-side dry run of a DeviceClass naming an extended resource kept
  // spec.extendedResourceName (false: the API server dropped it, its gate is off).
  Fetched<bool> extended_resources;
  std::shared_ptr<const report::ClusterSnapshot> snapshot;  // null: see snapshot_error
  std::string snapshot_error;
  Fetched<std::vector<api::DeviceHealth>> health;  // not_found: CRD not installed
  Fetched<std::vector<ClaimDeviceCondition>> claim_conditions;
  std::string namespace_name = "dra-system";  // where the controller runs
  std::string lease_name = "dra-controller";
  Fetched<DeploymentInfo> deployment;
  Fetched<LeaseInfo> lease;
  // The ValidatingAdmissionPolicy reserving the monitoring sources' DeviceHealths
  // and its binding: present when both exist, not_found when either is missing.
  Fetched<bool> source_policy;
  MetricsProbe metrics;                        // the metrics Service, probed in-cluster only
  std::vector<AccessCheck> access;             // the caller's (SelfSubjectAccessReview)
  std::string controller_user;                 // the Deployment's service account user
  std::vector<AccessCheck> controller_access;  // its permissions (SubjectAccessReview)
  std::string controller_needs_error;          // its args could not be read
  int64_t now = 0;                             // seconds since the epoch
};

}  // namespace dra::check
