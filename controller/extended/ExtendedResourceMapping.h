#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "controller/api/DeviceClass.h"

namespace dra::extended {

// A name more than one DeviceClass puts in spec.extendedResourceName.
struct ContestedName {
  std::string resource;
  std::string winner;               // the class the scheduler prefers
  std::vector<std::string> losers;  // the others, sorted by name
};

// The extended-resource name -> DeviceClass map the v1.37.2 kube-scheduler
// converges to (dynamic-resource-allocation's extendedresourcecache):
//   - every class serves its implicit "deviceclass.resource.kubernetes.io/<class>";
//   - a class also serves its explicit spec.extendedResourceName;
//   - when several classes name the same resource, the newest creationTimestamp
//     wins and, on a tie, the smaller class name.
// The scheduler's own cache can differ from this after some event orders
// (see the order hazard in README "Extended resources"); this is the map it
// has after a restart, which is what a correct cluster should have.
// Immutable once built: build a new one when the classes change.
class ExtendedResourceMapping {
 public:
  static constexpr std::string_view kImplicitPrefix = "deviceclass.resource.kubernetes.io/";

  ExtendedResourceMapping() = default;
  static ExtendedResourceMapping Build(
      const std::vector<std::shared_ptr<const api::DeviceClass>>& classes);

  // The class that serves `resource` (explicit or implicit name), if any.
  std::optional<std::string> ClassFor(std::string_view resource) const;
  // The explicit name `class_name` serves, when it wins that name.
  std::optional<std::string> ExplicitNameOf(std::string_view class_name) const;
  // Explicit names only: resource -> winning class, sorted by resource.
  const std::map<std::string, std::string, std::less<>>& explicit_names() const {
    return explicit_;
  }
  const std::vector<ContestedName>& contested() const { return contested_; }
  bool HasClass(std::string_view class_name) const;
  // When the class was last touched to make kube-scheduler re-read it
  // (api::DeviceClass::refreshed_at).
  std::optional<int64_t> RefreshedAt(std::string_view class_name) const;

  // True when `a` wins a contested name against `b` (newer, then smaller name).
  static bool Prefers(const api::DeviceClass& a, const api::DeviceClass& b);
  // The scheduler's IsDRAExtendedResourceName: an extended resource name
  // (has '/', not in kubernetes.io/) or an implicit class name.
  static bool IsDraExtendedResourceName(std::string_view name);

 private:
  std::map<std::string, std::string, std::less<>> explicit_;  // resource -> class
  std::map<std::string, std::string, std::less<>> by_class_;  // class -> explicit name it won
  std::vector<std::string> classes_;                          // sorted
  std::map<std::string, int64_t, std::less<>> refreshed_at_;  // class -> refresh time
  std::vector<ContestedName> contested_;
};

}  // namespace dra::extended
