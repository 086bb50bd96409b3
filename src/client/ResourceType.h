#pragma once

#include <string>
#include <string_view>

namespace kube {

// Identifies a REST resource and builds its paths, e.g. {"resource.k8s.io",
// "v1", "resourceslices", false} -> /apis/resource.k8s.io/v1/resourceslices.
struct ResourceType {
  std::string group;  // "" for the core group
  std::string version;
  std::string plural;
  bool namespaced = false;
  std::string kind;  // for logs and apply bodies

  std::string ApiVersion() const { return group.empty() ? version : group + "/" + version; }
  // Collection across all namespaces when `ns` is empty (or the type is cluster-scoped).
  std::string CollectionPath(std::string_view ns = "") const;
  std::string ItemPath(std::string_view ns, std::string_view name) const;
  std::string Describe() const { return plural + (group.empty() ? "" : "." + group); }
};

// Percent-encodes a query parameter value or path segment (RFC 3986 unreserved kept).
std::string UrlEncode(std::string_view raw);

}  // namespace kube
