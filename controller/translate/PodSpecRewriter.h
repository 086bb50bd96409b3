#pragma once

#include <yaml-cpp/yaml.h>

#include <map>
#include <string>
#include <vector>

#include "controller/extended/ExtendedResourceMapping.h"
#include "controller/extended/ImplicitClaim.h"
#include "controller/translate/NameAllocator.h"
#include "controller/translate/Place.h"
#include "controller/translate/PodTemplateLocator.h"
#include "controller/translate/TemplateContainers.h"

namespace dra::translate {

// The workload a Pod spec belongs to.
struct Workload {
  Place place;  // file, document, kind, name; path unset
  std::string kind;
  std::string name;
  std::string ns;  // "" when the manifest leaves it to `kubectl -n`
};

struct RewriteResult {
  std::vector<Finding> findings;      // DRA-backed requests found (before rewriting)
  std::vector<Refusal> refusals;      // non-empty: nothing was changed
  std::vector<YAML::Node> templates;  // ResourceClaimTemplates to write before the workload
};

// Rewrites one Pod spec so that it asks through ResourceClaimTemplates for
// exactly what the scheduler's implicit claim would have asked:
//   - one template per DRA-backed resource name, with the implicit claim's
//     requests for it (same DeviceClass, exactCount), each request named
//     after the container that owns it;
//   - init containers reuse the long-lived containers' requests by the
//     implicit claim's rules (they reference the same request), so the Pod
//     gets the same number of devices it would have got;
//   - spec.resourceClaims entries and each container's resources.claims;
//   - the extended resource removed from requests and limits.
// Refuses (and changes nothing) on a non-integer or unreadable quantity,
// requests and limits that differ, an implicit name no class serves, an
// unmapped extended resource next to mapped ones, a missing workload name, and
// resourceClaims or resources.claims entries that already use a claim name.
class PodSpecRewriter {
 public:
  PodSpecRewriter(const extended::ExtendedResourceMapping& mapping, NameAllocator& names)
      : mapping_(mapping), names_(names) {}

  // Findings and refusals only; the spec is not touched.
  RewriteResult Inspect(const Workload& workload, const PodSpecAt& at) const;
  // Inspect, then rewrite the spec in place when nothing was refused.
  RewriteResult Rewrite(const Workload& workload, PodSpecAt& at);

 private:
  struct ClaimPlan {
    std::string resource;
    std::string claim_name;     // spec.resourceClaims[].name
    std::string template_name;  // its resourceClaimTemplateName
  };

  void InspectResource(const Workload& workload, const TemplateContainer& c,
                       const WrittenResource& written, const api::PodView::ExtendedResource& r,
                       RewriteResult& result) const;
  void CheckClaimNames(const Workload& workload, const PodSpecAt& at,
                       const std::vector<TemplateContainer>& containers,
                       const std::map<std::string, std::string>& claim_names,
                       RewriteResult& result) const;
  std::map<std::string, std::string> ClaimNames(const std::vector<std::string>& resources) const;
  YAML::Node TemplateFor(const Workload& workload, const ClaimPlan& plan,
                         const extended::ImplicitClaim& claim,
                         const std::vector<TemplateContainer>& containers) const;
  static void RewriteContainer(TemplateContainer& c, const std::vector<ClaimPlan>& plans,
                               const extended::ImplicitClaim& claim,
                               const std::vector<TemplateContainer>& containers);
  static std::string RequestName(const std::string& implicit_name,
                                 const std::vector<TemplateContainer>& containers);

  const extended::ExtendedResourceMapping& mapping_;
  NameAllocator& names_;
};

}  // namespace dra::translate
