#include "controller/check/DeviceChecks.h"

#include <algorithm>
#include <map>

#include "controller/check/ShortList.h"
#include "controller/health/TaintRuleBuilder.h"

namespace dra::check {
namespace {

using Kind = extended::MappingFinding::Kind;

}  // namespace

std::vector<std::string> DeviceChecks::Describe(const Findings& findings, Kind kind,
                                                const std::string& object_kind) {
  std::vector<std::string> out;
  for (const auto& f : findings) {
    if (f.kind != kind || (!object_kind.empty() && f.object_kind != object_kind)) continue;
    out.push_back(f.message.empty() ? f.object_kind + "/" + f.object_name : f.message);
  }
  return out;
}

CheckResult DeviceChecks::DriversAndPools(const report::ClusterSnapshot& s) {
  constexpr const char* kName = "drivers-and-pools";
  std::map<std::string, int> pools_per_driver;
  std::vector<std::string> incomplete;
  for (const auto& pool : s.inventory->Pools()) {
    ++pools_per_driver[pool.driver];
    if (!pool.complete()) {
      incomplete.push_back("pool " + pool.Id() + " has " + std::to_string(pool.current_slices) +
                           " of " + std::to_string(pool.expected_slices) + " slices");
    }
  }
  if (pools_per_driver.empty()) return CheckResult::Warn(kName, "no ResourceSlices: no DRA driver");
  std::vector<std::string> drivers;
  drivers.reserve(pools_per_driver.size());
  for (const auto& [driver, count] : pools_per_driver) {
    drivers.push_back(driver + " (" + std::to_string(count) + " pools)");
  }
  if (!incomplete.empty()) return CheckResult::Fail(kName, "incomplete: " + ShortList(incomplete));
  return CheckResult::Pass(kName, ShortList(drivers) + ", all complete");
}

CheckResult DeviceChecks::Classes(const report::ClusterSnapshot& s) {
  constexpr const char* kName = "device-classes";
  std::vector<std::string> with;
  int without = 0;
  for (const auto& c : s.classes) {
    if (c->extended_resource_name) {
      with.push_back(c->meta.name + " -> " + *c->extended_resource_name);
    } else {
      ++without;
    }
  }
  if (s.classes.empty()) return CheckResult::Warn(kName, "no DeviceClasses");
  std::string detail = std::to_string(with.size()) + " with extendedResourceName";
  if (!with.empty()) detail += " (" + ShortList(with, 3) + ")";
  detail += ", " + std::to_string(without) + " without";
  return CheckResult::Pass(kName, detail);
}

CheckResult DeviceChecks::Duplicates(const Findings& findings) {
  auto found = Describe(findings, Kind::kDuplicate);
  if (found.empty()) return CheckResult::Pass("duplicate-extended-resources", "none");
  return CheckResult::Fail("duplicate-extended-resources", ShortList(found, 3));
}

// kube-scheduler refusing a name a class serves (SchedulerMappingEvidence).
CheckResult DeviceChecks::OrderHazard(const Findings& findings) {
  constexpr const char* kName = "mapping-order-hazard";
  std::vector<std::string> found;
  for (const auto& f : findings) {
    if (f.kind == Kind::kOrderHazard) {
      found.push_back(f.resource + " (DeviceClass " + f.object_name + ")");
    }
  }
  if (found.empty()) return CheckResult::Pass(kName, "none");
  return CheckResult::Fail(kName, "kube-scheduler has no DeviceClass for " + ShortList(found, 3) +
                                      "; touch the class (dra-controller mapping names it)");
}

CheckResult DeviceChecks::NoDevices(const Findings& findings) {
  std::vector<std::string> classes;
  for (const auto& f : findings) {
    if (f.kind == Kind::kNoDevices) classes.push_back(f.object_name);
  }
  if (classes.empty()) return CheckResult::Pass("classes-without-devices", "none");
  return CheckResult::Warn("classes-without-devices", "no device matches " + ShortList(classes));
}

CheckResult DeviceChecks::DevicePluginOverlap(const Findings& findings) {
  auto found = Describe(findings, Kind::kDevicePluginOverlap, "Node");
  if (found.empty()) return CheckResult::Pass("device-plugin-overlap", "none");
  return CheckResult::Fail("device-plugin-overlap", ShortList(found, 3));
}

// "rule devicehealth-x (DeviceHealth x)" for dra-controller's own rules,
// "rule <name>" for the others.
std::string DeviceChecks::RuleText(const inventory::TaintSource& source) {
  std::string owner = source.rule ? health::TaintRuleBuilder::OwnerOf(*source.rule) : "";
  return source.Describe() + (owner.empty() ? "" : " (DeviceHealth " + owner + ")");
}

CheckResult DeviceChecks::Taints(const report::ClusterSnapshot& s) {
  constexpr const char* kName = "device-taints";
  std::vector<std::string> blocking;
  std::vector<std::string> informational;
  for (const auto& device : s.inventory->Devices()) {
    for (size_t i = 0; i < device.taints.size() && i < device.taint_sources.size(); ++i) {
      const auto& taint = device.taints[i];
      const auto& source = device.taint_sources[i];
      if (source.driver()) continue;  // driver-taints
      std::string text = device.key.ToString() + " " + taint.key + ":" + taint.EffectName() + " (" +
                         RuleText(source) + ")";
      if (taint.EffectiveEffect() == api::TaintEffect::kNone) {
        informational.push_back(std::move(text));
      } else {
        blocking.push_back(std::move(text));
      }
    }
  }
  if (!blocking.empty()) return CheckResult::Fail(kName, "tainted: " + ShortList(blocking));
  if (!informational.empty())
    return CheckResult::Warn(kName, "effect None: " + ShortList(informational));
  return CheckResult::Pass(kName, "no device tainted by a DeviceTaintRule");
}

CheckResult DeviceChecks::DriverTaints(const report::ClusterSnapshot& s) {
  constexpr const char* kName = "driver-taints";
  constexpr size_t kExamples = 3;
  struct PerDriver {
    int devices = 0;
    std::vector<std::string> examples;
  };
  std::map<std::string, PerDriver> drivers;
  int total = 0;
  auto devices = s.inventory->Devices();
  std::sort(devices.begin(), devices.end(),
            [](const auto& a, const auto& b) { return a.key < b.key; });
  for (const auto& device : devices) {
    std::string taints;
    for (size_t i = 0; i < device.taints.size() && i < device.taint_sources.size(); ++i) {
      const auto& taint = device.taints[i];
      if (!device.taint_sources[i].driver()) continue;
      if (taint.EffectiveEffect() == api::TaintEffect::kNone) continue;
      taints += (taints.empty() ? "" : ",") + inventory::TaintSource::TaintText(taint);
    }
    if (taints.empty()) continue;
    ++total;
    PerDriver& d = drivers[device.key.driver];
    ++d.devices;
    if (d.examples.size() < kExamples) {
      d.examples.push_back(device.key.pool + "/" + device.key.device + " " + taints);
    }
  }
  if (drivers.empty()) return CheckResult::Pass(kName, "no device tainted by its driver");
  std::vector<std::string> parts;
  for (const auto& [driver, d] : drivers) {
    std::string part = driver + ": " + std::to_string(d.devices) +
                       (d.devices == 1 ? " device (" : " devices (") +
                       ShortList(d.examples, kExamples);
    if (static_cast<size_t>(d.devices) > d.examples.size()) {
      part += " and " + std::to_string(d.devices - d.examples.size()) + " more";
    }
    parts.push_back(part + ")");
  }
  return CheckResult::Warn(
      kName, std::to_string(total) + (total == 1 ? " device" : " devices") +
                 " tainted NoSchedule/NoExecute by their driver: " + ShortList(parts));
}

CheckResult DeviceChecks::Health(const CheckInputs& in) {
  constexpr const char* kName = "device-health";
  if (in.health.not_found) {
    return CheckResult::Warn(kName, "DeviceHealth CRD not installed; skipped");
  }
  if (!in.health.ok())
    return CheckResult::Fail(kName, "cannot list DeviceHealth: " + in.health.error);
  std::vector<std::string> bad;
  for (const auto& h : in.health.value) {
    if (h.state == api::HealthState::kHealthy) continue;
    std::string target = h.driver + "/" + h.pool + (h.device.empty() ? "" : "/" + h.device);
    bad.push_back(h.meta.name + " (" + target + ") " + (h.state_text.empty() ? "?" : h.state_text));
  }
  if (!bad.empty()) return CheckResult::Fail(kName, "not Healthy: " + ShortList(bad));
  return CheckResult::Pass(
      kName, std::to_string(in.health.value.size()) + " DeviceHealth objects, all Healthy");
}

}  // namespace dra::check
