#include "controller/health/DeviceHealthApi.h"

namespace dra::health {

kube::Status DeviceHealthApi::Served(kube::RestClient& client) {
  auto group = client.Get("/apis/dra-controller.dev/v1alpha1");
  if (!group.ok()) {
    return kube::Status(kube::StatusCode::kNotFound, "dra-controller.dev/v1alpha1 is not served (" +
                                                         group.status().ToString() +
                                                         "); install crds/ and restart");
  }
  for (const auto& resource : group->value("resources", nlohmann::json::array())) {
    if (resource.value("name", "") == "devicehealths") return kube::Status::Ok();
  }
  return kube::Status(kube::StatusCode::kNotFound,
                      "the API server does not serve devicehealths; install crds/ and restart");
}

}  // namespace dra::health
