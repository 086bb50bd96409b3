#include "controller/inventory/InventoryInformers.h"

#include "controller/api/DeviceClass.h"
#include "controller/api/DeviceTaintRule.h"
#include "controller/api/NodeView.h"
#include "controller/api/ResourceClaim.h"
#include "controller/api/ResourceSlice.h"
#include "controller/inventory/InventoryFeed.h"

namespace dra::inventory {

InventoryInformers::InventoryInformers(kube::InformerRegistry& registry, Inventory& inventory,
                                       std::optional<kube::ResourceType> taint_rules)
    : classes_(
          registry.Get<api::DeviceClass>(api::DeviceClass::kResource, api::DeviceClass::FromJson)),
      slices_(registry.Get<api::ResourceSlice>(api::ResourceSlice::kResource,
                                               api::ResourceSlice::FromJson)),
      claims_(registry.Get<api::ResourceClaim>(api::ResourceClaim::kResource,
                                               api::ResourceClaim::Decoder())),
      nodes_(registry.Get<api::NodeView>(api::NodeView::kResource, api::NodeView::Decoder())) {
  Inventory* inv = &inventory;
  classes_.AddHandler(std::make_shared<InventoryFeed<api::DeviceClass>>(
      [inv](auto c) { inv->ApplyClass(std::move(c)); },
      [inv](const api::DeviceClass& c) { inv->RemoveClass(c); }));
  slices_.AddHandler(std::make_shared<InventoryFeed<api::ResourceSlice>>(
      [inv](auto s) { inv->ApplySlice(std::move(s)); },
      [inv](const api::ResourceSlice& s) { inv->RemoveSlice(s); }, slice_observers_));
  claims_.AddHandler(std::make_shared<InventoryFeed<api::ResourceClaim>>(
      [inv](auto c) { inv->ApplyClaim(std::move(c)); },
      [inv](const api::ResourceClaim& c) { inv->RemoveClaim(c); }, claim_observers_));
  nodes_.AddHandler(std::make_shared<InventoryFeed<api::NodeView>>(
      [inv](auto n) { inv->ApplyNode(std::move(n)); },
      [inv](const api::NodeView& n) { inv->RemoveNode(n); }));
  if (!taint_rules.has_value()) return;
  taint_rule_resource_ = std::move(taint_rules);
  rules_ =
      &registry.Get<api::DeviceTaintRule>(*taint_rule_resource_, api::DeviceTaintRule::FromJson);
  rules_->AddHandler(std::make_shared<InventoryFeed<api::DeviceTaintRule>>(
      [inv](auto r) { inv->ApplyTaintRule(std::move(r)); },
      [inv](const api::DeviceTaintRule& r) { inv->RemoveTaintRule(r); }));
}

bool InventoryInformers::WaitForSync(std::chrono::milliseconds timeout) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  auto left = [&] {
    return std::chrono::duration_cast<std::chrono::milliseconds>(deadline -
                                                                 std::chrono::steady_clock::now());
  };
  return classes_.WaitForSync(left()) && slices_.WaitForSync(left()) &&
         claims_.WaitForSync(left()) && nodes_.WaitForSync(left()) &&
         (rules_ == nullptr || rules_->WaitForSync(left()));
}

std::vector<kube::InformerDependency> InventoryInformers::DeviceDependencies() {
  std::vector<kube::InformerDependency> all{kube::InformerDependency::On(classes_),
                                            kube::InformerDependency::On(slices_),
                                            kube::InformerDependency::On(claims_)};
  if (rules_ != nullptr) all.push_back(kube::InformerDependency::On(*rules_));
  return all;
}

}  // namespace dra::inventory
