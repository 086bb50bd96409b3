#include "controller/extended/OrderHazardTracker.h"

namespace dra::extended {
namespace {

using ClassPtr = std::shared_ptr<const api::DeviceClass>;

const api::DeviceClass* Named(const std::vector<ClassPtr>& classes, const std::string& name) {
  for (const auto& c : classes) {
    if (c && c->meta.name == name) return c.get();
  }
  return nullptr;
}

}  // namespace

std::string OrderHazardTracker::Message(const std::string& resource, const std::string& departed,
                                        const std::string& survivor) {
  return "DeviceClass " + departed + ", which named extended resource " + resource +
         " as well, was deleted or stopped naming it; the v1.37.2 scheduler has no mapping for " +
         resource + " until class " + survivor +
         " is updated or kube-scheduler restarts (kubernetes issue 141103). Fix: touch the class, "
         "e.g. kubectl annotate deviceclass " +
         survivor + " dra-controller.dev/extended-resource-refresh=<now> --overwrite";
}

std::vector<MappingFinding> OrderHazardTracker::Observe(const std::vector<ClassPtr>& classes,
                                                        const ExtendedResourceMapping& mapping) {
  // Any claimant of a contested name that no longer names it (deleted or
  // renamed) drops the name from the scheduler's cache: a hazard on the class
  // that serves it now.
  for (const auto& [resource, claimants] : contested_) {
    auto now = mapping.ClassFor(resource);
    if (!now) continue;
    for (const auto& claimant : claimants) {
      if (claimant == *now) continue;
      const api::DeviceClass* still = Named(classes, claimant);
      if (still && still->extended_resource_name == resource) continue;
      const api::DeviceClass* survivor = Named(classes, *now);
      hazards_[resource] = Hazard{claimant, survivor ? survivor->meta.resource_version.str() : ""};
      break;
    }
  }
  contested_.clear();
  for (const auto& contested : mapping.contested()) {
    auto& claimants = contested_[contested.resource];
    claimants.push_back(contested.winner);
    claimants.insert(claimants.end(), contested.losers.begin(), contested.losers.end());
  }
  std::vector<MappingFinding> open;
  for (auto it = hazards_.begin(); it != hazards_.end();) {
    const auto& [resource, hazard] = *it;
    auto winner = mapping.ClassFor(resource);
    const api::DeviceClass* survivor = winner ? Named(classes, *winner) : nullptr;
    if (!survivor || survivor->meta.resource_version != hazard.survivor_version) {
      it = hazards_.erase(it);  // gone, or updated since: the scheduler re-read it
      continue;
    }
    open.push_back(MappingFinding{MappingFinding::Kind::kOrderHazard, "DeviceClass",
                                  survivor->meta.name, resource, hazard.departed,
                                  Message(resource, hazard.departed, survivor->meta.name)});
    ++it;
  }
  return open;
}

}  // namespace dra::extended
