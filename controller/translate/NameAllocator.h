#pragma once

#include <set>
#include <string>
#include <string_view>
#include <utility>

namespace dra::translate {

// Deterministic, DNS-safe, collision-free ResourceClaimTemplate names:
// "<workload>-<claim>", then "<workload>-<kind>-<claim>" when that is taken
// in the namespace, then a hash suffix. Names longer than a DNS label (63)
// are cut and end in 8 hex digits of a hash of the full name, so two long
// names that share a prefix stay distinct. The same inputs in the same order
// always give the same names.
class NameAllocator {
 public:
  static constexpr size_t kMaxLabel = 63;

  // A name already present (e.g. a ResourceClaimTemplate in the input).
  void Reserve(const std::string& ns, const std::string& name);
  bool Taken(const std::string& ns, const std::string& name) const;

  std::string Allocate(const std::string& ns, std::string_view kind, std::string_view workload,
                       std::string_view claim);

  // Lower-case letters, digits and '-', no leading/trailing/double '-'; "x" if empty.
  static std::string Sanitize(std::string_view raw);
  // Sanitized and cut to `max` with a hash suffix when longer.
  static std::string Shorten(std::string_view raw, size_t max = kMaxLabel);
  // The short claim name of an extended resource: "example.com/gpu" -> "gpu".
  static std::string ClaimNameFor(std::string_view resource);

 private:
  static std::string Hash8(std::string_view text);

  std::set<std::pair<std::string, std::string>> taken_;
};

}  // namespace dra::translate
