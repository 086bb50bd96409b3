#include "src/manager/ApiDiscovery.h"

#include "src/base/NlohmannFields.h"

namespace kube {
namespace {

std::string PathOf(const std::string& group_version) {
  return group_version.find('/') == std::string::npos ? "/api/" + group_version
                                                      : "/apis/" + group_version;
}

}  // namespace

Status ApiDiscovery::Probe(RestClient& client, const std::vector<std::string>& group_versions,
                           const std::set<std::string>& required) {
  auto version = client.Get("/version");
  if (!version.ok()) return version.status();
  server_version_ = NlohmannFields::StringOr(*version, "gitVersion", "(unknown version)");
  for (const auto& group_version : group_versions) {
    Status probed = ProbeGroupVersion(client, group_version);
    if (probed.ok()) continue;
    if (required.contains(group_version)) {
      return probed.WithContext("API " + group_version + " not served");
    }
  }
  return Status::Ok();
}

Status ApiDiscovery::ProbeGroupVersion(RestClient& client, const std::string& group_version) {
  auto list = client.Get(PathOf(group_version));
  if (!list.ok()) return list.status();
  std::set<std::string>& served = resources_[group_version];
  auto resources = list->is_object() ? list->find("resources") : list->end();
  if (!list->is_object() || resources == list->end() || !resources->is_array()) {
    return Status::Ok();
  }
  for (const auto& resource : *resources) {
    std::string name = NlohmannFields::StringAt(resource, "name");
    if (!name.empty()) served.insert(name);
  }
  return Status::Ok();
}

bool ApiDiscovery::Serves(const std::string& group_version, const std::string& resource) const {
  auto it = resources_.find(group_version);
  return it != resources_.end() && it->second.contains(resource);
}

bool ApiDiscovery::ServesGroupVersion(const std::string& group_version) const {
  return resources_.contains(group_version);
}

}  // namespace kube
