#pragma once

#include <simdjson.h>

#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "controller/api/DeviceHealth.h"
#include "controller/api/DeviceTaintRule.h"
#include "controller/health/HealthWriter.h"
#include "src/cache/Store.h"

namespace dra::health {

template <typename T>
inline std::shared_ptr<const T> ProjectJson(const nlohmann::json& object) {
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  if (parser.parse(object.dump()).get(doc) != simdjson::SUCCESS) return nullptr;
  auto projected = T::FromJson(doc);
  return projected.ok() ? std::make_shared<const T>(std::move(*projected)) : nullptr;
}

// Plays the API server: keeps the objects as JSON, applies the reconciler's
// writes to them and feeds the projections back into the caches, at once or,
// with `delay_watch`, when Deliver() plays the watch events.
class FakeHealthApi : public HealthWriter {
 public:
  FakeHealthApi(kube::Store<api::DeviceHealth>& healths, kube::Store<api::DeviceTaintRule>& rules)
      : healths_(healths), rules_(rules) {}

  kube::Status ApplyRule(const nlohmann::json& rule) override {
    if (on_apply) on_apply(rule);
    ++applies;
    last_rule = rule;
    nlohmann::json stored = rule;
    std::string name = rule["metadata"]["name"];
    stored["metadata"]["uid"] = "rule-uid-" + std::to_string(++uid_counter_);
    stored["metadata"]["resourceVersion"] = std::to_string(++rv_counter_);
    Watch([this, name, stored] { rules_.Upsert(ProjectJson<api::DeviceTaintRule>(stored)); });
    return kube::Status::Ok();
  }
  kube::Status DeleteRule(const std::string& name, const std::string& uid) override {
    if (on_delete) on_delete(name);
    ++deletes;
    last_deleted_uid = uid;
    Watch([this, name] { rules_.Erase(name); });
    return kube::Status::Ok();
  }
  kube::Status PatchStatus(const std::string& name, const nlohmann::json& status) override {
    if (status_not_found) return kube::Status(kube::StatusCode::kNotFound, name + " not found");
    ++status_writes;
    objects_[name]["status"] = status;
    objects_[name]["metadata"]["resourceVersion"] = std::to_string(++rv_counter_);
    auto projected = ProjectJson<api::DeviceHealth>(objects_[name]);
    Watch([this, name, projected] { healths_.Upsert(projected); });
    return kube::Status::Ok();
  }

  void Deliver() {
    for (auto& event : undelivered_) event();
    undelivered_.clear();
  }

  void Put(const nlohmann::json& object) {
    std::string name = object["metadata"]["name"];
    nlohmann::json merged = object;
    if (objects_.contains(name) && objects_[name].contains("status")) {
      merged["status"] = objects_[name]["status"];
    }
    merged["metadata"]["resourceVersion"] = std::to_string(++rv_counter_);
    objects_[name] = merged;
    ++puts;
    healths_.Upsert(ProjectJson<api::DeviceHealth>(merged));
  }
  // The object is deleted (its rule is left to the reconciler, as the
  // garbage collector would delete it).
  void Erase(const std::string& name) {
    objects_.erase(name);
    healths_.Erase(name);
  }
  nlohmann::json Status(const std::string& name) {
    return objects_[name].value("status", nlohmann::json::object());
  }

  int applies = 0;
  int deletes = 0;
  int status_writes = 0;
  int puts = 0;
  nlohmann::json last_rule;
  std::string last_deleted_uid;
  bool delay_watch = false;
  bool status_not_found = false;  // PatchStatus answers NotFound (deleted meanwhile)
  // Called before each rule write, to check it against a model.
  std::function<void(const nlohmann::json& rule)> on_apply;
  std::function<void(const std::string& name)> on_delete;

 private:
  void Watch(std::function<void()> event) {
    if (delay_watch) {
      undelivered_.push_back(std::move(event));
    } else {
      event();
    }
  }

  kube::Store<api::DeviceHealth>& healths_;
  kube::Store<api::DeviceTaintRule>& rules_;
  std::map<std::string, nlohmann::json> objects_;
  int uid_counter_ = 0;
  int rv_counter_ = 0;
  std::vector<std::function<void()>> undelivered_;
};

inline nlohmann::json Health(const std::string& name, const std::string& pool,
                             const std::string& device, const std::string& state,
                             int64_t generation = 1) {
  nlohmann::json spec = {
      {"driver", "gpu.example.com"}, {"pool", pool}, {"state", state}, {"reason", "XidError"}};
  if (!device.empty()) spec["device"] = device;
  return {{"apiVersion", "dra-controller.dev/v1alpha1"},
          {"kind", "DeviceHealth"},
          {"metadata", {{"name", name}, {"uid", name + "-uid"}, {"generation", generation}}},
          {"spec", spec}};
}

}  // namespace dra::health
