#include "controller/check/CheckInputsReader.h"

#include <simdjson.h>

#include <ctime>

#include "controller/api/DeviceClass.h"
#include "controller/api/DeviceHealth.h"
#include "controller/api/ResourceClaim.h"
#include "controller/api/TaintRuleApi.h"
#include "controller/check/MetricsReachability.h"
#include "controller/health/RestHealthWriter.h"
#include "controller/inventory/InventoryInformers.h"
#include "src/base/NlohmannFields.h"
#include "src/cache/JsonFields.h"
#include "src/client/ListPager.h"

namespace dra::check {
namespace {

const kube::ResourceType kAccessReviews{"authorization.k8s.io", "v1", "selfsubjectaccessreviews",
                                        false, "SelfSubjectAccessReview"};
const kube::ResourceType kSubjectReviews{"authorization.k8s.io", "v1", "subjectaccessreviews",
                                         false, "SubjectAccessReview"};

// Records a failed read: NotFound apart from every other error.
template <typename T>
void Record(Fetched<T>& fetched, const kube::Status& status) {
  if (status.code() == kube::StatusCode::kNotFound) {
    fetched.not_found = true;
  } else {
    fetched.error = status.message();
  }
}

constexpr auto* At = &kube::NlohmannFields::At;
constexpr auto* IntAt = &kube::NlohmannFields::IntAt;
constexpr auto* StringAt = &kube::NlohmannFields::StringAt;

// The args of the container named "controller", else of the first.
std::vector<std::string> ControllerArgs(const nlohmann::json& pod_spec) {
  const auto& containers = At(pod_spec, "containers");
  if (!containers.is_array() || containers.empty()) return {};
  const nlohmann::json* chosen = &containers.front();
  for (const auto& c : containers) {
    if (StringAt(c, "name") == "controller") chosen = &c;
  }
  std::vector<std::string> args;
  const auto& list = At(*chosen, "args");
  if (!list.is_array()) return args;
  for (const auto& a : list) {
    if (a.is_string()) args.push_back(a.get<std::string>());
  }
  return args;
}

}  // namespace

void CheckInputsReader::ReadApi(kube::RestClient& client, CheckInputs& in) {
  auto version = client.Get("/version");
  if (version.ok()) {
    in.version.Set(StringAt(*version, "gitVersion"));
  } else {
    Record(in.version, version.status());
  }
  ReadCapabilities(client, in);
  auto group = client.Get("/apis/resource.k8s.io/v1");
  if (!group.ok()) return Record(in.served, group.status());
  in.served.Set({});
  for (const auto& r : At(*group, "resources")) {
    std::string name = StringAt(r, "name");
    if (!name.empty() && name.find('/') == std::string::npos) in.served.value.push_back(name);
  }
}

void CheckInputsReader::ReadCapabilities(kube::RestClient& client, CheckInputs& in) {
  auto rules = api::TaintRuleApi::Discover(client);
  if (!rules.ok()) {
    Record(in.taint_rules_api, rules.status());
  } else if (rules->has_value()) {
    in.taint_rules_api.Set((*rules)->ApiVersion());
  } else {
    in.taint_rules_api.not_found = true;
  }
  // Kept only where the gate is on: the strategy drops the field otherwise.
  nlohmann::json probe = {
      {"apiVersion", "resource.k8s.io/v1"},
      {"kind", "DeviceClass"},
      {"metadata", {{"name", "dra-controller-check-probe-" + std::to_string(in.now)}}},
      {"spec", {{"extendedResourceName", "dra-controller.dev/check-probe"}}}};
  auto created = client.Create(api::DeviceClass::kResource, "", probe, "", /*dry_run=*/true);
  if (!created.ok()) return Record(in.extended_resources, created.status());
  in.extended_resources.Set(!StringAt(At(*created, "spec"), "extendedResourceName").empty());
}

void CheckInputsReader::ReadHealth(kube::RestClient& client, CheckInputs& in) {
  std::vector<api::DeviceHealth> objects;
  kube::Status status = kube::ListPager::Of(client, api::DeviceHealth::kResource)
                            .EachElement(
                                [&](simdjson::dom::element item) {
                                  auto object = api::DeviceHealth::FromJson(item);
                                  if (object.ok()) objects.push_back(std::move(*object));
                                },
                                [&] { objects.clear(); });
  if (!status.ok()) return Record(in.health, status);
  in.health.Set(std::move(objects));
}

// The claim's devices' conditions: claim key, device id, type, status, reason.
void CheckInputsReader::AddClaimConditions(const nlohmann::json& claim,
                                           std::vector<ClaimDeviceCondition>& found) {
  const auto& meta = At(claim, "metadata");
  std::string key = StringAt(meta, "namespace") + "/" + StringAt(meta, "name");
  for (const auto& device : At(At(claim, "status"), "devices")) {
    std::string id = StringAt(device, "driver") + "/" + StringAt(device, "pool") + "/" +
                     StringAt(device, "device");
    for (const auto& c : At(device, "conditions")) {
      found.push_back({key, id, StringAt(c, "type"), StringAt(c, "status"), StringAt(c, "reason")});
    }
  }
}

void CheckInputsReader::ReadClaimConditions(kube::RestClient& client, CheckInputs& in) {
  std::vector<ClaimDeviceCondition> found;
  kube::Status status = kube::ListPager::Of(client, api::ResourceClaim::kResource)
                            .EachItem(
                                [&](nlohmann::json&& claim) {
                                  if (claim.is_object()) AddClaimConditions(claim, found);
                                },
                                [&] { found.clear(); });
  if (!status.ok()) return Record(in.claim_conditions, status);
  in.claim_conditions.Set(std::move(found));
}

void CheckInputsReader::ReadController(kube::RestClient& client, CheckInputs& in) {
  const std::string ns = kube::UrlEncode(in.namespace_name);  // a flag: keep it one segment
  auto deployment = client.Get("/apis/apps/v1/namespaces/" + ns + "/deployments/dra-controller");
  if (deployment.ok()) {
    const auto& st = At(*deployment, "status");
    const auto& pod = At(At(At(*deployment, "spec"), "template"), "spec");
    std::string account = StringAt(pod, "serviceAccountName");
    in.deployment.Set(DeploymentInfo{IntAt(st, "replicas"), IntAt(st, "readyReplicas"),
                                     account.empty() ? "default" : account, ControllerArgs(pod)});
  } else {
    Record(in.deployment, deployment.status());
  }
  ReadSourcePolicy(client, in);
  auto lease = client.Get("/apis/coordination.k8s.io/v1/namespaces/" + ns + "/leases/" +
                          kube::UrlEncode(in.lease_name));
  if (!lease.ok()) return Record(in.lease, lease.status());
  const auto& spec = At(*lease, "spec");
  in.lease.Set(LeaseInfo{StringAt(spec, "holderIdentity"),
                         kube::json::ParseTimestamp(StringAt(spec, "renewTime")),
                         IntAt(spec, "leaseDurationSeconds")});
}

void CheckInputsReader::ReadSourcePolicy(kube::RestClient& client, CheckInputs& in) {
  const std::string base = "/apis/admissionregistration.k8s.io/v1/";
  for (const char* kind : {"validatingadmissionpolicies/", "validatingadmissionpolicybindings/"}) {
    auto got = client.Get(base + kind + kSourcePolicyName);
    if (!got.ok()) return Record(in.source_policy, got.status());
  }
  in.source_policy.Set(true);
}

AccessCheck CheckInputsReader::Review(kube::RestClient& client, AccessCheck check,
                                      const std::string& user, const std::string& user_namespace) {
  std::string resource = check.resource;
  std::string group;
  if (auto dot = resource.find('.'); dot != std::string::npos) {
    group = resource.substr(dot + 1);
    resource = resource.substr(0, dot);
  }
  nlohmann::json attributes = {{"verb", check.verb}, {"group", group}, {"resource", resource}};
  if (!check.namespace_name.empty()) attributes["namespace"] = check.namespace_name;
  if (!check.subresource.empty()) attributes["subresource"] = check.subresource;
  nlohmann::json spec = {{"resourceAttributes", attributes}};
  if (!user.empty()) {
    // A service account user with the groups the API server gives it.
    const std::string& ns = user_namespace;
    spec["user"] = user;
    spec["groups"] = {"system:serviceaccounts", "system:serviceaccounts:" + ns,
                      "system:authenticated"};
  }
  nlohmann::json review = {
      {"apiVersion", "authorization.k8s.io/v1"},
      {"kind", user.empty() ? "SelfSubjectAccessReview" : "SubjectAccessReview"},
      {"spec", spec}};
  auto answer = client.Create(user.empty() ? kAccessReviews : kSubjectReviews, "", review);
  if (!answer.ok()) {
    check.error = answer.status().message();
    return check;
  }
  const auto& allowed = At(At(*answer, "status"), "allowed");
  check.allowed = allowed.is_boolean() && allowed.get<bool>();
  return check;
}

void CheckInputsReader::ReadAccess(kube::RestClient& client, CheckInputs& in) {
  const std::string ns = in.namespace_name;
  struct CallerNeed {
    const char* verb;
    const char* resource;
    std::string namespace_name;
  };
  const std::vector<CallerNeed> needed = {
      {"list", "deviceclasses.resource.k8s.io", ""},
      {"list", "resourceslices.resource.k8s.io", ""},
      {"list", "resourceclaims.resource.k8s.io", ""},
      {"list", "devicetaintrules.resource.k8s.io", ""},
      {"list", "devicehealths.dra-controller.dev", ""},
      {"list", "nodes", ""},
      {"list", "pods", ""},
      {"get", "deployments.apps", ns},
      {"get", "leases.coordination.k8s.io", ns},
  };
  for (const auto& n : needed) {
    AccessCheck check;
    check.verb = n.verb;
    check.resource = n.resource;
    check.namespace_name = n.namespace_name;
    in.access.push_back(Review(client, std::move(check)));
  }
}

void CheckInputsReader::ReadControllerAccess(kube::RestClient& client, const Options& options,
                                             CheckInputs& in) {
  if (!in.deployment.ok() || !options.controller_needs) return;
  in.controller_user =
      "system:serviceaccount:" + in.namespace_name + ":" + in.deployment.value.service_account;
  auto needs = options.controller_needs(in.deployment.value.args);
  if (!needs.ok()) {
    in.controller_needs_error = needs.status().message();
    return;
  }
  for (const auto& n : *needs) {
    AccessCheck check;
    check.verb = n.verb;
    check.resource = n.resource;
    check.subresource = n.subresource;
    check.feature = n.feature;
    if (n.in_namespace) check.namespace_name = in.namespace_name;
    in.controller_access.push_back(
        Review(client, std::move(check), in.controller_user, in.namespace_name));
  }
}

CheckInputs CheckInputsReader::Read(kube::RestClient& client, const Options& options) {
  CheckInputs in;
  in.namespace_name = options.namespace_name;
  in.lease_name = options.lease_name;
  in.now = static_cast<int64_t>(std::time(nullptr));
  ReadApi(client, in);
  auto snapshot = report::ClusterSnapshot::List(client, {.with_pods = true});
  if (snapshot.ok()) {
    in.snapshot = std::move(*snapshot);
  } else {
    in.snapshot_error = snapshot.status().message();
  }
  ReadHealth(client, in);
  ReadClaimConditions(client, in);
  ReadController(client, in);
  in.metrics = MetricsReachability::Probe(client, options.namespace_name);
  ReadAccess(client, in);
  ReadControllerAccess(client, options, in);
  return in;
}

}  // namespace dra::check
