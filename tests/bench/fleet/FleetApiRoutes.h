#pragma once

#include <string>
#include <vector>

#include "tests/support/ScriptedHttpServer.h"

namespace dra::bench {

// The scripted server's answers that stand in for kube-apiserver's reads
// and writes: paged LISTs of a collection, discovery, accepted writes.
class FleetApiRoutes {
 public:
  static constexpr int kPageSize = 500;
  static constexpr const char* kListRv = "100000";

  static bool IsWatch(const dra::testing::RecordedRequest& r);
  // `items` as LIST pages of kPageSize chained by continue tokens p1, p2, ...
  static void AddList(dra::testing::ScriptedHttpServer& server, const std::string& path,
                      const std::vector<std::string>& items);
  // An APIResourceList of cluster-scoped `resources` that can be listed and watched.
  static std::string Discovery(const std::string& group_version,
                               std::vector<std::string> resources);
  // Writes (rules, status, Events) succeed with a small object; the fleet does
  // not change because of them, as if another writer's view lagged.
  static void AddWrites(dra::testing::ScriptedHttpServer& server);

 private:
  static std::string ListHead(const std::string& path);
  static std::string Page(const std::string& path, const std::vector<std::string>& items,
                          size_t from, const std::string& next);
};

}  // namespace dra::bench
