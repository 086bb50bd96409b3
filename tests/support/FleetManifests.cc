#include "tests/support/FleetManifests.h"

#include <nlohmann/json.hpp>

namespace dra::testing {
namespace {

kube::Status RunFleetScript(TestCluster& cluster, const char* verb,
                            const std::vector<std::string>& nodes) {
  std::vector<std::string> args{verb};
  args.insert(args.end(), nodes.begin(), nodes.end());
  auto ran = cluster.RunRepoScript("hack/fake-gpu-fleet.sh", args);
  return ran.ok() ? kube::Status::Ok() : ran.status();
}

}  // namespace

std::string DeviceClassManifest(const std::string& name, const std::string& extended_resource,
                                const std::string& cel) {
  nlohmann::json selector = {{"cel", {{"expression", cel}}}};
  nlohmann::json cls = {{"apiVersion", "resource.k8s.io/v1"},
                        {"kind", "DeviceClass"},
                        {"metadata", {{"name", name}}},
                        {"spec",
                         {{"extendedResourceName", extended_resource},
                          {"selectors", nlohmann::json::array({selector})}}}};
  return cls.dump();
}

std::string FakeGpuModelSelector(const std::string& model) {
  return "device.driver == \"gpu.example.com\" && "
         "device.attributes[\"gpu.example.com\"].model == \"" +
         model + "\"";
}

std::string ExtendedResourcePodManifest(const std::string& name, const std::string& ns,
                                        const std::string& extended_resource, int count) {
  nlohmann::json container = {{"name", "main"},
                              {"image", "registry.k8s.io/pause:3.10"},
                              {"resources", {{"limits", {{extended_resource, count}}}}}};
  nlohmann::json pod = {{"apiVersion", "v1"},
                        {"kind", "Pod"},
                        {"metadata", {{"name", name}, {"namespace", ns}}},
                        {"spec",
                         {{"automountServiceAccountToken", false},
                          {"containers", nlohmann::json::array({container})}}}};
  return pod.dump();
}

kube::Status ApplyFakeFleet(TestCluster& cluster, const std::vector<std::string>& nodes) {
  return RunFleetScript(cluster, "apply", nodes);
}

void RemoveFakeFleet(TestCluster& cluster, const std::vector<std::string>& nodes) {
  (void)RunFleetScript(cluster, "delete", nodes);
}

}  // namespace dra::testing
