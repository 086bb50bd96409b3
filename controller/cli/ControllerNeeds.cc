#include "controller/cli/ControllerNeeds.h"

#include <algorithm>

#include "controller/app/ControllerSelection.h"
#include "controller/app/Features.h"
#include "controller/cli/RunOptions.h"
#include "src/flags/FlagSet.h"

namespace dra::cli {
namespace {

using check::ControllerNeed;

constexpr const char* kHealths = "devicehealths.dra-controller.dev";
constexpr const char* kTaintRules = "devicetaintrules.resource.k8s.io";
constexpr const char* kClaims = "resourceclaims.resource.k8s.io";

class NeedList {
 public:
  void Add(const std::string& feature, std::vector<std::string> verbs, const std::string& resource,
           const std::string& subresource = "", bool in_namespace = false) {
    for (auto& verb : verbs) {
      bool known = std::any_of(needs_.begin(), needs_.end(), [&](const ControllerNeed& n) {
        return n.verb == verb && n.resource == resource && n.subresource == subresource &&
               n.in_namespace == in_namespace;
      });
      if (!known) needs_.push_back({verb, resource, subresource, in_namespace, feature});
    }
  }
  std::vector<ControllerNeed> Take() { return std::move(needs_); }

 private:
  std::vector<ControllerNeed> needs_;
};

void Watch(NeedList& needs, const std::string& feature, const std::vector<std::string>& resources) {
  for (const auto& r : resources) needs.Add(feature, {"list", "watch"}, r);
}

void HealthNeeds(NeedList& needs) {
  Watch(needs, "device-health", {kHealths});
  needs.Add("device-health", {"patch"}, kHealths, "status");
  needs.Add("device-health", {"create", "patch", "delete"}, kTaintRules);
  needs.Add("device-health", {"create"}, "events");
}

// The monitoring sources' writes; act-as-source is what the admission policy
// of manifests/features/device-health/devicehealth-source-policy.yaml asks.
void SourceNeeds(NeedList& needs, const std::string& feature) {
  needs.Add(feature, {"create", "patch", "delete", "act-as-source"}, kHealths);
}

void ReviewNeeds(NeedList& needs, const std::string& feature) {
  needs.Add(feature, {"create"}, "tokenreviews.authentication.k8s.io");
  needs.Add(feature, {"create"}, "subjectaccessreviews.authorization.k8s.io");
}

void ExtendedNeeds(NeedList& needs, const kube::FlagSet& flags) {
  Watch(needs, "extended-resources", {"pods", "nodes"});
  needs.Add("extended-resources", {"create"}, "events");
  if (flags.GetBool("repair-extended-resource-mapping")) {
    needs.Add("--repair-extended-resource-mapping", {"patch"}, "deviceclasses.resource.k8s.io");
  }
  if (flags.GetBool("delete-leaked-claims")) {
    needs.Add("--delete-leaked-claims", {"delete", "update"}, kClaims);
    needs.Add("--delete-leaked-claims", {"update"}, kClaims, "status");
    needs.Add("--delete-leaked-claims", {"update"}, kClaims, "binding");
  }
}

}  // namespace

kube::Result<std::vector<ControllerNeed>> ControllerNeeds::For(
    const std::vector<std::string>& args) {
  app::FeatureList features = app::AllFeatures();
  kube::FlagSet flags;
  cli::RunOptions::Declare(flags, features);
  std::vector<std::string> run_args(args.begin(), args.end());
  if (!run_args.empty() && run_args.front() == "run") run_args.erase(run_args.begin());
  KUBE_RETURN_IF_ERROR(flags.Parse(run_args));
  auto parsed = app::ControllerSelection::Parse(flags.Get("controllers"), features);
  if (!parsed.ok()) return parsed.status();
  const app::ControllerSelection& selection = *parsed;
  NeedList needs;
  Watch(needs, "device inventory",
        {"deviceclasses.resource.k8s.io", "resourceslices.resource.k8s.io", kClaims, kTaintRules});
  if (selection.Enabled("device-health")) HealthNeeds(needs);
  if (selection.Enabled("device-health") &&
      flags.Get("health-extended-resource-evictions") != "off") {
    needs.Add("device-health (extended-resource evictions)", {"create"}, "pods", "eviction");
  }
  if (selection.Enabled("kubelet-health-reports") && flags.GetBool("kubelet-health-reports")) {
    Watch(needs, "kubelet-health-reports", {"pods"});
    SourceNeeds(needs, "kubelet-health-reports");
  }
  if (selection.Enabled("alertmanager-webhook") &&
      !flags.Get("alertmanager-webhook-bind-address").empty()) {
    SourceNeeds(needs, "alertmanager-webhook");
    ReviewNeeds(needs, "alertmanager-webhook");
  }
  if (selection.Enabled("extended-resources")) ExtendedNeeds(needs, flags);
  if (selection.Enabled("allocation-metrics")) {
    Watch(needs, "allocation-metrics", {"pods", "nodes"});
  }
  if (flags.GetBool("metrics-secure")) ReviewNeeds(needs, "--metrics-secure");
  if (flags.GetBool("leader-elect")) {
    needs.Add("leader election", {"get", "create", "update"}, "leases.coordination.k8s.io", "",
              true);
  }
  return needs.Take();
}

}  // namespace dra::cli
