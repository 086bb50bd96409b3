#pragma once

#include <memory>

#include "controller/api/DeviceHealth.h"
#include "controller/api/DeviceTaintRule.h"
#include "controller/feature/FeatureContext.h"
#include "controller/health/DeviceAttributeNames.h"
#include "controller/health/HealthWriter.h"
#include "controller/health/SourcedHealthWriter.h"
#include "controller/inventory/Inventory.h"
#include "src/cache/StoreReader.h"

namespace dra::health {

// The monitoring sources' writer: before a source's DeviceHealth says
// Degraded or Unhealthy, the device is closed (its rule has NoSchedule at
// least), so no Pod is placed on it between the DeviceHealth's write and the
// reconciler's rule. The reconciler then owns that rule as it owns any other
// (the same name, labels and field manager; it adds the owner reference when
// the DeviceHealth is new). Nothing is written where no rule could be: dry
// run, no DeviceTaintRule API, a target that names no single published
// device, a rule of that name that is not ours, or one already closing.
class RuleFirstWriter : public SourcedHealthWriter {
 public:
  struct Inputs {
    std::shared_ptr<SourcedHealthWriter> inner;
    std::shared_ptr<HealthWriter> rules;
    const kube::StoreReader<api::DeviceHealth>* healths = nullptr;
    const kube::StoreReader<api::DeviceTaintRule>* rule_cache = nullptr;  // null: not served
    const inventory::Inventory* inventory = nullptr;
    DeviceAttributeNames attribute_names;
    bool dry_run = false;
  };

  explicit RuleFirstWriter(Inputs inputs) : inputs_(std::move(inputs)) {}

  // A source's writer: `inner` behind a RuleFirstWriter where device health
  // writes rules, `inner` alone where it does not.
  static std::shared_ptr<SourcedHealthWriter> ForSources(feature::FeatureContext& context,
                                                         std::shared_ptr<SourcedHealthWriter> inner,
                                                         const DeviceAttributeNames& names);

  kube::Result<SourcedWrite> Apply(const SourcedHealth& health) override;
  kube::Result<std::optional<api::DeviceHealth>> Get(const std::string& name,
                                                     const std::string& source) override {
    return inputs_.inner->Get(name, source);
  }

 private:
  // Applies the closing rule when the device is not closed yet; true when
  // that made a rule no DeviceHealth owns yet.
  kube::Result<bool> Close(const SourcedHealth& health);
  void Withdraw(const std::string& name);

  Inputs inputs_;
};

}  // namespace dra::health
