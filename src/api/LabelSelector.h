#pragma once

#include <compare>
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "src/base/Result.h"

namespace kube {

// A Kubernetes label selector: a conjunction of requirements on an object's
// labels. The default-constructed selector is empty and matches everything.
class LabelSelector {
 public:
  enum class Operator {
    kEquals,        // k=v, k==v, matchLabels
    kNotEquals,     // k!=v
    kIn,            // k in (a,b)
    kNotIn,         // k notin (a,b)
    kExists,        // k
    kDoesNotExist,  // !k
    kGreaterThan,   // k>5 (integer comparison, string form only)
    kLessThan,      // k<5
  };

  struct Requirement {
    std::string key;
    Operator op = Operator::kExists;
    // Sorted and unique; one value for the (Not)Equals and comparison
    // operators, at least one for (Not)In (possibly ""), none otherwise.
    std::vector<std::string> values;

    friend bool operator==(const Requirement&, const Requirement&) = default;
    friend auto operator<=>(const Requirement&, const Requirement&) = default;
  };

  LabelSelector() = default;

  // The string form of ?labelSelector=, e.g. "env in (prod,qa),tier!=db,!legacy".
  // Requirements are comma-separated; spaces, tabs and line breaks may
  // surround tokens; "" and all-whitespace select everything. Keys are
  // qualified names ([DNS-subdomain "/"] name), values are label values
  // (possibly empty). Errors name the byte offset of the offending token.
  static Result<LabelSelector> Parse(std::string_view text);

  // A metav1.LabelSelector object: {matchLabels: {k: v}, matchExpressions:
  // [{key, operator: In|NotIn|Exists|DoesNotExist, values: []}]}.
  // null, {} and absent fields select everything. Note that Kubernetes'
  // LabelSelectorAsSelector maps a nil selector to "nothing"; callers for
  // which an absent selector means "no objects" must check that themselves.
  static Result<LabelSelector> FromJson(const nlohmann::json& json);

  // Requirements built by a caller (e.g. from a core/v1 NodeSelector), checked
  // as Kubernetes' labels.NewRequirement checks them: a qualified-name key,
  // label values, at least one value for (Not)In, none for (DoesNot)Exist,
  // exactly one for (Not)Equals, and one int64 for the comparisons. Value
  // sets are sorted and made unique.
  static Result<LabelSelector> FromRequirements(std::vector<Requirement> requirements);

  bool Matches(const std::map<std::string, std::string>& labels) const;

  // Canonical string form: requirements sorted by key, then operator, then
  // values; "==" is written "="; value sets are sorted. Parse(ToString())
  // yields an equal selector.
  std::string ToString() const;

  bool Empty() const { return requirements_.empty(); }
  const std::vector<Requirement>& requirements() const { return requirements_; }

  friend bool operator==(const LabelSelector&, const LabelSelector&) = default;

 private:
  explicit LabelSelector(std::vector<Requirement> requirements);

  std::vector<Requirement> requirements_;  // sorted
};

}  // namespace kube
