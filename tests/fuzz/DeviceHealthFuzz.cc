// Fuzz target: DeviceHealth validation as the health reconciler meets it.
// Any JSON document is projected (api::DeviceHealth::FromJson) and, when it
// is one, reconciled by the real DeviceHealthReconciler against an in-memory
// API (its rule and status writes are fed back into the caches) across the
// preview and hold-off timers. Nothing may crash; every write must serialize;
// a Degraded or Unknown device never gets a NoExecute taint. A broken promise
// traps.
#include <simdjson.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "controller/health/DeviceHealthReconciler.h"
#include "src/base/FakeClock.h"
#include "src/cache/Store.h"

namespace {

using nlohmann::json;
using namespace std::chrono_literals;

void Check(bool invariant) {
  if (!invariant) __builtin_trap();
}

template <typename T>
std::shared_ptr<const T> Project(const json& object) {
  static simdjson::dom::parser parser;
  std::string text;
  try {
    text = object.dump();
  } catch (const json::exception&) {
    Check(false);  // what the controller writes must serialize
  }
  simdjson::dom::element doc;
  if (parser.parse(text).get(doc) != simdjson::SUCCESS) return nullptr;
  auto projected = T::FromJson(doc);
  return projected.ok() ? std::make_shared<const T>(std::move(*projected)) : nullptr;
}

// The API server, in memory: writes land in the caches the reconciler reads.
class FuzzApi : public dra::health::HealthWriter {
 public:
  FuzzApi(json object, kube::Store<dra::api::DeviceHealth>& healths,
          kube::Store<dra::api::DeviceTaintRule>& rules)
      : object_(std::move(object)),
        name_(object_["metadata"]["name"]),
        healths_(healths),
        rules_(rules) {
    StoreHealth();
  }

  kube::Status ApplyRule(const json& rule) override {
    json stored = rule;
    stored["metadata"]["uid"] = "rule-uid";
    auto projected = Project<dra::api::DeviceTaintRule>(stored);
    Check(projected != nullptr);
    last_effect = rule.value(json::json_pointer("/spec/taint/effect"), std::string());
    rules_.Upsert(projected);
    return kube::Status::Ok();
  }
  kube::Status DeleteRule(const std::string& name, const std::string&) override {
    rules_.Erase(name);
    return kube::Status::Ok();
  }
  kube::Status PatchStatus(const std::string&, const json& status) override {
    object_["status"] = status;
    StoreHealth();
    return kube::Status::Ok();
  }

  std::string last_effect;

 private:
  // What the API server would hold: the object, or nothing when it does not
  // project.
  void StoreHealth() {
    auto health = Project<dra::api::DeviceHealth>(object_);
    if (health != nullptr) {
      healths_.Upsert(health);
    } else {
      healths_.Erase(name_);
    }
  }

  json object_;
  std::string name_;
  kube::Store<dra::api::DeviceHealth>& healths_;
  kube::Store<dra::api::DeviceTaintRule>& rules_;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  json object = json::parse(data, data + size, nullptr, /*allow_exceptions=*/false);
  if (!object.is_object() || !object["metadata"].is_object() ||
      !object["metadata"]["name"].is_string()) {
    return 0;
  }
  auto health = Project<dra::api::DeviceHealth>(object);
  if (health == nullptr) return 0;

  kube::Store<dra::api::DeviceHealth> healths;
  kube::Store<dra::api::DeviceTaintRule> rules;
  dra::inventory::Inventory inventory;
  auto api = std::make_shared<FuzzApi>(object, healths, rules);
  auto clock = std::make_shared<kube::FakeClock>(
      kube::Clock::TimePoint{}, std::chrono::system_clock::time_point(1'800'000'000s));
  dra::health::HealthOptions options;
  options.preview = 30s;
  options.hold_off = 300s;
  dra::health::DeviceHealthReconciler reconciler(
      {&healths, &rules, &inventory}, api, [](auto&, auto&, auto&, auto&) {}, clock, options,
      nullptr);
  bool weak_state = health->state == dra::api::HealthState::kDegraded ||
                    health->state == dra::api::HealthState::kUnknown;
  for (auto step : {0s, 31s, 301s}) {
    clock->Step(step);
    (void)reconciler.Reconcile(health->meta.name);
    if (weak_state) Check(api->last_effect != "NoExecute");
  }
  return 0;
}
