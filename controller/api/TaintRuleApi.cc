#include "controller/api/TaintRuleApi.h"

#include "controller/api/DeviceTaintRule.h"
#include "controller/api/DraReleases.h"

namespace dra::api {
namespace {

constexpr const char* kGroup = "resource.k8s.io";
constexpr const char* kPlural = "devicetaintrules";

}  // namespace

const std::vector<std::string>& TaintRuleApi::GroupVersions() {
  static const std::vector<std::string> kVersions = {
      "resource.k8s.io/v1", "resource.k8s.io/v1beta2", "resource.k8s.io/v1alpha3"};
  return kVersions;
}

kube::ResourceType TaintRuleApi::At(const std::string& version) {
  kube::ResourceType type = DeviceTaintRule::kResource;
  type.version = version;
  return type;
}

std::optional<kube::ResourceType> TaintRuleApi::From(const kube::ApiDiscovery& discovery) {
  for (const auto& group_version : GroupVersions()) {
    if (discovery.Serves(group_version, kPlural)) {
      return At(group_version.substr(std::string(kGroup).size() + 1));
    }
  }
  return std::nullopt;
}

kube::Result<std::optional<kube::ResourceType>> TaintRuleApi::Discover(kube::RestClient& client) {
  kube::ApiDiscovery discovery;
  for (const auto& group_version : GroupVersions()) {
    kube::Status probed = discovery.ProbeGroupVersion(client, group_version);
    if (!probed.ok() && probed.code() != kube::StatusCode::kNotFound) return probed;
    if (discovery.Serves(group_version, kPlural)) return From(discovery);
  }
  return std::optional<kube::ResourceType>();
}

std::string TaintRuleApi::NotServed(const std::string& server_version) {
  auto minor = DraReleases::Minor(server_version);
  if (!minor.has_value()) {
    return "this cluster (" + server_version + ") serves no DeviceTaintRule API";
  }
  CapabilityInRelease in = DraReleases::In(DraCapability::kDeviceTaintRules, *minor);
  if (in.on_by_default) {
    return "this cluster (" + server_version + ") serves no DeviceTaintRule API, although " +
           in.api_version +
           " serves it by default: was it turned off with --runtime-config or "
           "the feature gate?";
  }
  return "this cluster (" + server_version +
         ") serves no DeviceTaintRule API; to taint devices, "
         "turn on the " +
         DraReleases::HowToEnable(DraCapability::kDeviceTaintRules, *minor);
}

}  // namespace dra::api
