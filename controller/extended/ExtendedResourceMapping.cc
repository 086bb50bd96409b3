#include "controller/extended/ExtendedResourceMapping.h"

#include <algorithm>

#include "controller/api/NodeView.h"

namespace dra::extended {
namespace {

using ClassPtr = std::shared_ptr<const api::DeviceClass>;

// Claimants of each explicit name, best first.
std::map<std::string, std::vector<ClassPtr>, std::less<>> GroupByExplicitName(
    const std::vector<ClassPtr>& classes) {
  std::map<std::string, std::vector<ClassPtr>, std::less<>> groups;
  for (const auto& c : classes) {
    if (c && c->extended_resource_name && !c->extended_resource_name->empty()) {
      groups[*c->extended_resource_name].push_back(c);
    }
  }
  for (auto& [name, claimants] : groups) {
    std::sort(claimants.begin(), claimants.end(), [](const ClassPtr& a, const ClassPtr& b) {
      return ExtendedResourceMapping::Prefers(*a, *b);
    });
  }
  return groups;
}

ContestedName Contest(const std::string& resource, const std::vector<ClassPtr>& claimants) {
  ContestedName contested{resource, claimants.front()->meta.name, {}};
  for (size_t i = 1; i < claimants.size(); ++i) contested.losers.push_back(claimants[i]->meta.name);
  std::sort(contested.losers.begin(), contested.losers.end());
  return contested;
}

}  // namespace

bool ExtendedResourceMapping::Prefers(const api::DeviceClass& a, const api::DeviceClass& b) {
  if (a.creation_timestamp != b.creation_timestamp) {
    return a.creation_timestamp > b.creation_timestamp;
  }
  return a.meta.name < b.meta.name;
}

bool ExtendedResourceMapping::IsDraExtendedResourceName(std::string_view name) {
  return api::NodeView::IsExtendedResourceName(name) || name.starts_with(kImplicitPrefix);
}

ExtendedResourceMapping ExtendedResourceMapping::Build(const std::vector<ClassPtr>& classes) {
  ExtendedResourceMapping mapping;
  for (const auto& c : classes) {
    if (c) mapping.classes_.push_back(c->meta.name);
    if (c && c->refreshed_at) mapping.refreshed_at_.emplace(c->meta.name, *c->refreshed_at);
  }
  std::sort(mapping.classes_.begin(), mapping.classes_.end());
  for (const auto& [resource, claimants] : GroupByExplicitName(classes)) {
    const std::string& winner = claimants.front()->meta.name;
    mapping.explicit_.emplace(resource, winner);
    mapping.by_class_.emplace(winner, resource);
    if (claimants.size() > 1) mapping.contested_.push_back(Contest(resource, claimants));
  }
  return mapping;
}

std::optional<std::string> ExtendedResourceMapping::ClassFor(std::string_view resource) const {
  if (auto it = explicit_.find(resource); it != explicit_.end()) return it->second;
  if (resource.starts_with(kImplicitPrefix)) {
    std::string_view class_name = resource.substr(kImplicitPrefix.size());
    if (HasClass(class_name)) return std::string(class_name);
  }
  return std::nullopt;
}

std::optional<int64_t> ExtendedResourceMapping::RefreshedAt(std::string_view class_name) const {
  auto it = refreshed_at_.find(class_name);
  if (it == refreshed_at_.end()) return std::nullopt;
  return it->second;
}

std::optional<std::string> ExtendedResourceMapping::ExplicitNameOf(
    std::string_view class_name) const {
  auto it = by_class_.find(class_name);
  if (it == by_class_.end()) return std::nullopt;
  return it->second;
}

bool ExtendedResourceMapping::HasClass(std::string_view class_name) const {
  return std::binary_search(classes_.begin(), classes_.end(), class_name);
}

}  // namespace dra::extended
