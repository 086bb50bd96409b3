#include "tests/bench/fleet/FleetApiRoutes.h"

#include <algorithm>
#include <map>

namespace dra::bench {

using dra::testing::RecordedRequest;
using dra::testing::Route;
using dra::testing::ScriptedHttpServer;
using dra::testing::ScriptedResponse;

// The list kind and apiVersion kube-apiserver sends for a collection path,
// e.g. /apis/resource.k8s.io/v1/resourceslices: ResourceSliceList.
std::string FleetApiRoutes::ListHead(const std::string& path) {
  static const std::map<std::string, std::string> kKinds = {
      {"nodes", "NodeList"},
      {"pods", "PodList"},
      {"deviceclasses", "DeviceClassList"},
      {"resourceslices", "ResourceSliceList"},
      {"resourceclaims", "ResourceClaimList"},
      {"devicetaintrules", "DeviceTaintRuleList"},
      {"devicehealths", "DeviceHealthList"}};
  auto slash = path.rfind('/');
  std::string group_version = path.substr(path.find('/', 1) + 1, slash - path.find('/', 1) - 1);
  auto kind = kKinds.find(path.substr(slash + 1));
  return R"({"kind":")" + (kind == kKinds.end() ? "List" : kind->second) + R"(","apiVersion":")" +
         group_version + "\",";
}

std::string FleetApiRoutes::Page(const std::string& path, const std::vector<std::string>& items,
                                 size_t from, const std::string& next) {
  std::string body = ListHead(path) + R"("metadata":{"resourceVersion":")" + std::string(kListRv) +
                     "\"" + (next.empty() ? "" : R"(,"continue":")" + next + "\"") +
                     R"(},"items":[)";
  for (size_t i = from; i < std::min(items.size(), from + kPageSize); ++i) {
    if (i > from) body += ",";
    body += items[i];
  }
  return body + "]}";
}

bool FleetApiRoutes::IsWatch(const RecordedRequest& r) { return r.QueryParam("watch") == "true"; }

void FleetApiRoutes::AddList(ScriptedHttpServer& server, const std::string& path,
                             const std::vector<std::string>& items) {
  for (size_t from = 0, page = 0; from < items.size() || from == 0; from += kPageSize, ++page) {
    std::string token = page == 0 ? "" : "p" + std::to_string(page);
    std::string next = from + kPageSize < items.size() ? "p" + std::to_string(page + 1) : "";
    server.AddRoute(Route::Where("GET",
                                 [path, token](const RecordedRequest& r) {
                                   return r.Path() == path && !IsWatch(r) &&
                                          r.QueryParam("continue").value_or("") == token;
                                 }),
                    {ScriptedResponse::Json(200, Page(path, items, from, next))});
    if (items.empty()) break;
  }
}

std::string FleetApiRoutes::Discovery(const std::string& group_version,
                                      std::vector<std::string> resources) {
  std::string body =
      R"({"kind":"APIResourceList","groupVersion":")" + group_version + R"(","resources":[)";
  for (size_t i = 0; i < resources.size(); ++i) {
    body += (i ? "," : "") + std::string(R"({"name":")") + resources[i] +
            R"(","namespaced":false,"kind":"X","verbs":["get","list","watch"]})";
  }
  return body + "]}";
}

void FleetApiRoutes::AddWrites(ScriptedHttpServer& server) {
  std::string ok =
      R"({"apiVersion":"v1","kind":"Event","metadata":{"name":"x","namespace":"default",)"
      R"("resourceVersion":"1","uid":"00000000-0000-4000-8000-000000000000"}})";
  for (const char* method : {"POST", "PATCH", "PUT", "DELETE"}) {
    server.AddRoute(Route::Prefix(method, "/"), {ScriptedResponse::Json(200, ok)});
  }
}

}  // namespace dra::bench
