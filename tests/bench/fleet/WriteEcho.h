#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/support/ScriptedHttpServer.h"

namespace dra::bench {

// Plays the API server's part for the objects the controller writes in the
// replay: a DeviceTaintRule apply, a rule delete and a DeviceHealth status
// merge patch change the stored object, get a new resourceVersion, and come
// back on the watch of their collection (`rules()`, `healths()`), as
// kube-apiserver's watch cache echoes them. The bench's own DeviceHealth
// changes (Flip) go through the same store, so every event carries the
// status the controller wrote last. Without the echo a reconcile waits its
// full OwnWrites patience for a write the watch never shows.
class WriteEcho {
 public:
  // `healths`: the DeviceHealth objects of the initial LIST.
  explicit WriteEcho(const std::vector<std::string>& healths);

  std::shared_ptr<dra::testing::ChunkFeed> rules() const { return rules_; }
  std::shared_ptr<dra::testing::ChunkFeed> healths() const { return healths_; }

  // Answers the controller's writes; routes added before any catch-all.
  void AddRoutes(dra::testing::ScriptedHttpServer& server);
  // A new spec.state (and generation) for DeviceHealth `name`, echoed on its watch.
  void Flip(const std::string& name, const std::string& state);
  // Events streamed so far: the writes that changed something, and the flips.
  int echoed() const;

 private:
  using Response = dra::testing::ScriptedResponse;
  using Request = dra::testing::RecordedRequest;

  Response ApplyRule(const Request& request);
  Response DeleteRule(const Request& request);
  Response PatchHealthStatus(const Request& request);
  // A new resourceVersion for `object`, pushed to `feed` as a `type` event.
  void Echo(dra::testing::ChunkFeed& feed, const char* type, nlohmann::json& object);
  static std::string NameIn(const std::string& path, const std::string& collection);

  mutable std::mutex mu_;
  std::shared_ptr<dra::testing::ChunkFeed> rules_;
  std::shared_ptr<dra::testing::ChunkFeed> healths_;
  std::map<std::string, nlohmann::json> rule_objects_;
  std::map<std::string, nlohmann::json> health_objects_;
  long long resource_version_ = 700000;
  int echoed_ = 0;
};

}  // namespace dra::bench
