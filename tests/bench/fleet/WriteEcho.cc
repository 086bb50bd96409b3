#include "tests/bench/fleet/WriteEcho.h"

namespace dra::bench {

using dra::testing::ChunkFeed;
using dra::testing::Route;
using dra::testing::ScriptedResponse;
using nlohmann::json;

namespace {

constexpr const char* kRules = "/apis/resource.k8s.io/v1/devicetaintrules/";
constexpr const char* kHealths = "/apis/dra-controller.dev/v1alpha1/devicehealths/";

ScriptedResponse NotFound(const std::string& what) {
  return ScriptedResponse::KubeStatus(404, "NotFound", what + " not found");
}

}  // namespace

WriteEcho::WriteEcho(const std::vector<std::string>& healths)
    : rules_(std::make_shared<ChunkFeed>()), healths_(std::make_shared<ChunkFeed>()) {
  for (const auto& text : healths) {
    json object = json::parse(text);
    std::string name = object["metadata"]["name"].get<std::string>();
    health_objects_.emplace(std::move(name), std::move(object));
  }
}

std::string WriteEcho::NameIn(const std::string& path, const std::string& collection) {
  if (path.rfind(collection, 0) != 0) return "";
  std::string rest = path.substr(collection.size());
  return rest.substr(0, rest.find('/'));
}

void WriteEcho::AddRoutes(dra::testing::ScriptedHttpServer& server) {
  std::string rules = kRules, healths = kHealths;
  server.AddResponder(Route::Prefix("PATCH", rules),
                      [this](const Request& r) { return ApplyRule(r); });
  server.AddResponder(Route::Prefix("DELETE", rules),
                      [this](const Request& r) { return DeleteRule(r); });
  server.AddResponder(Route::Where("PATCH",
                                   [healths](const Request& r) {
                                     const std::string path = r.Path();
                                     return path.rfind(healths, 0) == 0 && path.size() > 7 &&
                                            path.compare(path.size() - 7, 7, "/status") == 0;
                                   }),
                      [this](const Request& r) { return PatchHealthStatus(r); });
}

void WriteEcho::Echo(ChunkFeed& feed, const char* type, json& object) {
  object["metadata"]["resourceVersion"] = std::to_string(++resource_version_);
  feed.Push(dra::testing::WatchEvent(type, object.dump()));
  ++echoed_;
}

ScriptedResponse WriteEcho::ApplyRule(const Request& request) {
  std::string name = NameIn(request.Path(), kRules);
  json applied = json::parse(request.body, nullptr, false);
  if (name.empty() || !applied.is_object() ||
      !applied.value("metadata", json::object()).is_object()) {
    return ScriptedResponse::KubeStatus(400, "BadRequest", "not a DeviceTaintRule apply");
  }
  std::lock_guard lock(mu_);
  auto existing = rule_objects_.find(name);
  bool created = existing == rule_objects_.end();
  applied["metadata"]["name"] = name;
  if (!created) {
    const json& before = existing->second;
    // An apply that changes nothing writes nothing and makes no event.
    if (applied.value("spec", json()) == before.value("spec", json()) &&
        applied["metadata"].value("labels", json()) == before["metadata"].value("labels", json())) {
      return ScriptedResponse::Json(200, before.dump());
    }
    applied["metadata"]["uid"] = before["metadata"]["uid"];
    applied["metadata"]["generation"] = before["metadata"].value("generation", 1) + 1;
  } else {
    applied["metadata"]["uid"] = "rule-uid-" + name;
    applied["metadata"]["generation"] = 1;
  }
  json& stored = rule_objects_[name] = std::move(applied);
  Echo(*rules_, created ? "ADDED" : "MODIFIED", stored);
  return ScriptedResponse::Json(created ? 201 : 200, stored.dump());
}

ScriptedResponse WriteEcho::DeleteRule(const Request& request) {
  std::string name = NameIn(request.Path(), kRules);
  std::lock_guard lock(mu_);
  auto existing = rule_objects_.find(name);
  if (existing == rule_objects_.end()) return NotFound("devicetaintrules \"" + name + "\"");
  json gone = std::move(existing->second);
  rule_objects_.erase(existing);
  Echo(*rules_, "DELETED", gone);
  return ScriptedResponse::Json(200, gone.dump());
}

ScriptedResponse WriteEcho::PatchHealthStatus(const Request& request) {
  std::string name = NameIn(request.Path(), kHealths);
  json patch = json::parse(request.body, nullptr, false);
  if (!patch.is_object() || !patch.contains("status")) {
    return ScriptedResponse::KubeStatus(400, "BadRequest", "not a status merge patch");
  }
  std::lock_guard lock(mu_);
  auto existing = health_objects_.find(name);
  if (existing == health_objects_.end()) return NotFound("devicehealths \"" + name + "\"");
  json merged = existing->second;
  merged.merge_patch(json{{"status", patch["status"]}});
  if (merged == existing->second) return ScriptedResponse::Json(200, merged.dump());
  existing->second = std::move(merged);
  Echo(*healths_, "MODIFIED", existing->second);
  return ScriptedResponse::Json(200, existing->second.dump());
}

void WriteEcho::Flip(const std::string& name, const std::string& state) {
  std::lock_guard lock(mu_);
  auto existing = health_objects_.find(name);
  if (existing == health_objects_.end()) return;
  json& object = existing->second;
  object["spec"]["state"] = state;
  object["metadata"]["generation"] = object["metadata"].value("generation", 1) + 1;
  Echo(*healths_, "MODIFIED", object);
}

int WriteEcho::echoed() const {
  std::lock_guard lock(mu_);
  return echoed_;
}

}  // namespace dra::bench
