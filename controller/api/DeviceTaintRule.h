#pragma once

#include <simdjson.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "controller/api/DeviceTaint.h"
#include "src/base/Result.h"
#include "src/cache/ObjectMeta.h"
#include "src/client/ResourceType.h"

namespace dra::api {

// resource.k8s.io/v1 DeviceTaintRule: which devices (driver/pool/device) get
// which taint, and the eviction controller's status conditions.
struct DeviceTaintRule {
  // The REST resource this projection is read from.
  static const kube::ResourceType kResource;

  struct Selector {
    std::string driver;  // empty: any
    std::string pool;    // empty: any
    std::string device;  // empty: any
  };

  struct Condition {
    std::string type;    // e.g. EvictionInProgress
    std::string status;  // "True", "False", "Unknown"
    std::string reason;
    std::string message;
    int64_t observed_generation = 0;
  };

  kube::ObjectMeta meta;
  // The uid of the ownerReference marked controller, "" without one.
  std::string controller_uid;
  // nullopt: no selector, no device matches ("Without a selector, no devices
  // are matched"); an empty selector matches all devices.
  std::optional<Selector> selector;
  DeviceTaint taint;
  std::vector<Condition> conditions;

  bool Matches(std::string_view driver, std::string_view pool, std::string_view device) const;

  static kube::Result<DeviceTaintRule> FromJson(simdjson::dom::element object);
};

}  // namespace dra::api
