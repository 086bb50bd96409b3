#include "controller/metrics/ClaimCollector.h"

#include <unordered_set>

#include "controller/metrics/GaugeTable.h"

namespace dra::metrics {
namespace {

const char* const kStates[] = {"pending", "allocated", "reserved"};
const char* const kSources[] = {"template", "extended_resource", "user"};

// Indexes into kStates and kSources.
size_t StateOf(const api::ResourceClaim& claim) {
  if (!claim.reserved_for.empty()) return 2;
  return claim.allocated ? 1 : 0;
}

size_t SourceOf(const api::ResourceClaim& claim) {
  if (claim.extended_resource_claim) return 1;
  return claim.pod_claim_name.empty() ? 2 : 0;
}

}  // namespace

void ClaimCollector::Add(const api::ResourceClaim& claim) {
  const std::string ns = claim.meta.namespace_name.str();
  auto [it, inserted] = counts_.try_emplace(ns);
  if (inserted) it->second.fill(0);
  ++it->second[StateOf(claim) * 3 + SourceOf(claim)];
  std::vector<std::string> pods;
  for (const auto& consumer : claim.reserved_for) {
    if (consumer.resource == "pods") pods.push_back(consumer.name);
  }
  if (!pods.empty()) reservations_[ns + "/" + claim.meta.name] = std::move(pods);
  if (claim.extended_resource_claim && !claim.meta.deleting) {
    implicit_.push_back({ns, claim.controller ? claim.controller->uid : kube::Uid()});
  }
}

void ClaimCollector::Render(std::string& out,
                            const std::vector<std::shared_ptr<const api::PodView>>* pods) const {
  GaugeTable claims("dra_controller_resource_claims",
                    "ResourceClaims by state (pending, allocated, reserved) and source "
                    "(template, extended_resource, user)",
                    {"namespace", "state", "source"});
  for (const auto& [ns, counts] : counts_) {
    for (size_t state = 0; state < 3; ++state) {
      for (size_t source = 0; source < 3; ++source) {
        claims.Set({ns, kStates[state], kSources[source]}, counts[state * 3 + source]);
      }
    }
  }
  claims.Render(out);
  if (pods == nullptr) return;
  GaugeTable leaked("dra_controller_implicit_claims_leaked",
                    "Implicit extended-resource ResourceClaims whose owning Pod no longer exists",
                    {"namespace"});
  std::unordered_set<kube::Uid> live;
  for (const auto& pod : *pods) live.insert(pod->meta.uid);
  for (const auto& claim : implicit_) {
    leaked.Ensure({claim.namespace_name});
    if (!live.contains(claim.owner_uid)) leaked.Add({claim.namespace_name}, 1);
  }
  leaked.Render(out);
}

}  // namespace dra::metrics
