#pragma once

#include <optional>
#include <string>
#include <vector>

#include "src/base/Result.h"
#include "src/client/ResourceType.h"
#include "src/client/RestClient.h"
#include "src/manager/ApiDiscovery.h"

namespace dra::api {

// Where a cluster serves DeviceTaintRules: resource.k8s.io/v1 (1.37), v1beta2
// (1.36, behind a feature gate and --runtime-config) or v1alpha3 (1.34 and
// 1.35, the same). The fields dra-controller reads and writes
// (spec.deviceSelector driver/pool/device, spec.taint key/value/effect) are
// the same in the three.
class TaintRuleApi {
 public:
  // "resource.k8s.io/v1", "resource.k8s.io/v1beta2", "resource.k8s.io/v1alpha3":
  // newest first, the order in which a served one is chosen.
  static const std::vector<std::string>& GroupVersions();
  static kube::ResourceType At(const std::string& version);
  // The newest version `discovery` found serving devicetaintrules.
  static std::optional<kube::ResourceType> From(const kube::ApiDiscovery& discovery);
  // The same, asking the API server (for the commands): nullopt when none of
  // the versions serves it; an error only when the server cannot be asked.
  static kube::Result<std::optional<kube::ResourceType>> Discover(kube::RestClient& client);
  // Why a cluster of `server_version` ("v1.36.3") serves none, and what to
  // turn on: the feature gate and the --runtime-config of that release.
  static std::string NotServed(const std::string& server_version);
};

}  // namespace dra::api
