#pragma once

#include <string>

namespace dra::docs {

// The compatibility page: for each Kubernetes release dra-controller supports
// and each of its jobs, whether the release offers what the job needs by
// default, what to turn on, or what dra-controller does in its stead; made
// from api::DraReleases, the one table of versions. README's Requirements
// hold the same table (ReferencePagesTest compares them).
class CompatibilityReference {
 public:
  static std::string Markdown();
  // The table alone, as README holds it between kReadmeBegin and kReadmeEnd.
  static std::string Table();
  static constexpr const char* kReadmeBegin = "<!-- compatibility table: make docs -->";
  static constexpr const char* kReadmeEnd = "<!-- end of compatibility table -->";
};

}  // namespace dra::docs
