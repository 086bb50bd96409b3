#include "controller/health/RestPodEvictor.h"

#include <nlohmann/json.hpp>

namespace dra::health {

kube::Status RestPodEvictor::Evict(const std::string& namespace_name, const std::string& name,
                                   const std::string& uid) {
  nlohmann::json eviction = {{"apiVersion", "policy/v1"},
                             {"kind", "Eviction"},
                             {"metadata", {{"name", name}, {"namespace", namespace_name}}},
                             {"deleteOptions", {{"preconditions", {{"uid", uid}}}}}};
  kube::HttpRequest request;
  request.method = "POST";
  request.path = "/api/v1/namespaces/" + namespace_name + "/pods/" + name + "/eviction";
  request.body = eviction.dump();
  request.content_type = "application/json";
  // A budget's 429 goes back to the evictor, which requeues the rule.
  auto response = client_->DoOnce(request);
  return response.ok()
             ? kube::Status::Ok()
             : response.status().WithContext("evicting Pod " + namespace_name + "/" + name);
}

}  // namespace dra::health
