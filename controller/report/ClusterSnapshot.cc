#include "controller/report/ClusterSnapshot.h"

#include <simdjson.h>

#include "controller/api/DeviceClass.h"
#include "controller/api/DeviceTaintRule.h"
#include "controller/api/NodeView.h"
#include "controller/api/PodView.h"
#include "controller/api/ResourceClaim.h"
#include "controller/api/ResourceSlice.h"
#include "controller/api/TaintRuleApi.h"
#include "src/client/ListPager.h"

namespace dra::report {
namespace {

// Every object of `resource` (T's by default) that projects, in the server's
// order; adds those that do not to `errors`.
template <typename T>
kube::Result<std::vector<std::shared_ptr<const T>>> ListAll(
    kube::RestClient& client, int& errors, const kube::ResourceType& resource = T::kResource) {
  std::vector<std::shared_ptr<const T>> objects;
  int skipped = 0;
  kube::Status status = kube::ListPager::Of(client, resource)
                            .EachElement(
                                [&](simdjson::dom::element item) {
                                  auto object = T::FromJson(item);
                                  if (!object.ok()) {
                                    ++skipped;
                                    return;
                                  }
                                  objects.push_back(std::make_shared<const T>(std::move(*object)));
                                },
                                [&] {
                                  objects.clear();
                                  skipped = 0;
                                });
  if (!status.ok()) return status;
  errors += skipped;
  return objects;
}

// The DeviceTaintRules at the version the cluster serves them; none where it
// serves none (the gate is off).
kube::Status ListTaintRules(kube::RestClient& client, ClusterSnapshot& s) {
  auto served = api::TaintRuleApi::Discover(client);
  if (!served.ok()) return served.status();
  if (!served->has_value()) return kube::Status::Ok();
  auto rules = ListAll<api::DeviceTaintRule>(client, s.decode_errors, **served);
  if (!rules.ok() && rules.status().code() != kube::StatusCode::kNotFound) return rules.status();
  if (rules.ok()) {
    for (auto& r : *rules) s.inventory->ApplyTaintRule(std::move(r));
  }
  return kube::Status::Ok();
}

}  // namespace

std::shared_ptr<const api::ResourceClaim> ClusterSnapshot::Claim(const std::string& namespace_name,
                                                                 const std::string& name) const {
  for (const auto& c : claims) {
    if (c->meta.namespace_name == namespace_name && c->meta.name == name) return c;
  }
  return nullptr;
}

kube::Result<std::unique_ptr<ClusterSnapshot>> ClusterSnapshot::List(kube::RestClient& client,
                                                                     Options options) {
  auto snapshot = std::make_unique<ClusterSnapshot>();
  ClusterSnapshot& s = *snapshot;
  inventory::Inventory& inv = *s.inventory;
  KUBE_ASSIGN_OR_RETURN(s.classes, ListAll<api::DeviceClass>(client, s.decode_errors));
  for (const auto& c : s.classes) inv.ApplyClass(c);
  auto slices = ListAll<api::ResourceSlice>(client, s.decode_errors);
  if (!slices.ok()) return slices.status();
  for (auto& x : *slices) inv.ApplySlice(std::move(x));
  KUBE_ASSIGN_OR_RETURN(s.claims, ListAll<api::ResourceClaim>(client, s.decode_errors));
  for (const auto& c : s.claims) inv.ApplyClaim(c);
  KUBE_RETURN_IF_ERROR(ListTaintRules(client, s));
  KUBE_ASSIGN_OR_RETURN(s.nodes, ListAll<api::NodeView>(client, s.decode_errors));
  for (const auto& n : s.nodes) inv.ApplyNode(n);
  if (options.with_pods) {
    KUBE_ASSIGN_OR_RETURN(s.pods, ListAll<api::PodView>(client, s.decode_errors));
  }
  return snapshot;
}

}  // namespace dra::report
