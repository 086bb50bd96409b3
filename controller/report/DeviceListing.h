#pragma once

#include <string>
#include <vector>

#include "controller/inventory/DeviceState.h"
#include "controller/inventory/Inventory.h"
#include "controller/inventory/TaintSource.h"

namespace dra::report {

// `dra-controller devices`: one row per device of the inventory, with its
// classes, state, taints (each with its source: the driver's slice or a
// DeviceTaintRule) and who holds it.
class DeviceListing {
 public:
  struct Filter {
    std::string node;
    std::string device_class;
    std::string driver;
    // "", "free", "allocated", "unavailable" or "tainted": rows whose state
    // names it (inventory::DeviceState::Has).
    std::string state;
  };

  // One of a device's taints and where it comes from.
  struct Taint {
    api::DeviceTaint taint;
    inventory::TaintSource source;

    // "key=value:Effect (driver)" or "key=value:Effect (rule <name>)".
    std::string Text() const { return inventory::TaintSource::TaintText(taint, source); }
  };

  struct Row {
    std::string node;  // "<all nodes>" or "<node selector>" for non-local devices
    inventory::DeviceKey key;
    std::vector<std::string> classes;
    std::string state;   // inventory::DeviceState::Label, e.g. "allocated,tainted"
    std::string reason;  // unavailable: why (DeviceState::UnavailableReason)
    std::vector<Taint> taints;
    std::vector<std::string> claims;  // "<namespace>/<name>"
    std::vector<std::string> pods;    // "<namespace>/<name>"
    // Claims naming it with adminAccess (they do not allocate it).
    std::vector<std::string> admin_access_claims;
  };

  // An empty error when `state` is one of the accepted values.
  static std::string ValidateState(const std::string& state);
  static std::vector<Row> Build(const inventory::Inventory& inventory, const Filter& filter);
  static std::string FormatTable(const std::vector<Row>& rows);
  static std::string FormatJson(const std::vector<Row>& rows);

 private:
  static Row Describe(const inventory::Inventory& inventory, const inventory::DeviceInfo& info);
};

}  // namespace dra::report
