#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "controller/api/DeviceClass.h"
#include "controller/inventory/ClassSelector.h"

namespace dra::inventory {

// Index of a device in the Inventory's device table.
using DeviceId = uint32_t;

// One DeviceClass as the Inventory keeps it: its compiled selectors, which
// devices they match, and the devices they failed on.
struct ClassState {
  std::shared_ptr<const api::DeviceClass> object;
  ClassSelector selector;
  std::vector<bool> matches;  // by DeviceId
  // Devices the selector failed on at runtime (none when healthy), each
  // with an index into `failure_texts` (distinct failures, kept until the
  // selectors change or a recompute). A compile error is not repeated
  // here: it fails on every device.
  std::unordered_map<DeviceId, uint32_t> failures;
  std::vector<ClassSelector::Failure> failure_texts;
  std::unordered_map<std::string, uint32_t> failure_index;  // expression '\n' message

  void ForgetFailures();
  void RecordFailure(DeviceId id, ClassSelector::Failure failure);
};

}  // namespace dra::inventory
