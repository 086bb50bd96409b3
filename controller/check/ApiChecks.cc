#include "controller/check/ApiChecks.h"

#include <algorithm>
#include <cstdio>

namespace dra::check {
namespace {

constexpr const char* kVersion = "kubernetes-version";
constexpr const char* kServed = "dra-api-served";

bool Contains(const std::vector<std::string>& list, const std::string& name) {
  return std::find(list.begin(), list.end(), name) != list.end();
}

}  // namespace

CheckResult ApiChecks::Version(const CheckInputs& in) {
  if (!in.version.ok())
    return CheckResult::Fail(kVersion, "cannot read /version: " + in.version.error);
  const std::string& text = in.version.value;
  int major = 0;
  int minor = 0;
  if (std::sscanf(text.c_str(), "v%d.%d", &major, &minor) != 2) {
    return CheckResult::Warn(kVersion,
                             text + " (cannot tell whether it serves resource.k8s.io/v1)");
  }
  if (major > 1 || (major == 1 && minor >= kMinMinor)) return CheckResult::Pass(kVersion, text);
  return CheckResult::Fail(kVersion, text + " is older than 1." + std::to_string(kMinMinor) +
                                         " (no resource.k8s.io/v1)");
}

CheckResult ApiChecks::ResourcesServed(const CheckInputs& in) {
  if (in.served.not_found) return CheckResult::Fail(kServed, "resource.k8s.io/v1 is not served");
  if (!in.served.ok()) {
    return CheckResult::Fail(kServed, "cannot read resource.k8s.io/v1: " + in.served.error);
  }
  const auto& served = in.served.value;
  std::string missing;
  for (const char* required :
       {"deviceclasses", "resourceclaims", "resourceclaimtemplates", "resourceslices"}) {
    if (!Contains(served, required))
      missing += (missing.empty() ? "" : ", ") + std::string(required);
  }
  if (!missing.empty()) return CheckResult::Fail(kServed, "not served: " + missing);
  return CheckResult::Pass(kServed,
                           "deviceclasses resourceclaims resourceclaimtemplates resourceslices" +
                               std::string(Contains(served, "devicetaintrules")
                                               ? " devicetaintrules"
                                               : " (devicetaintrules: see job-device-health)"));
}

}  // namespace dra::check
