#include "controller/check/ScheduleTest.h"

#include <thread>

#include "controller/api/PodView.h"
#include "controller/api/ResourceClaim.h"
#include "controller/extended/ExtendedResourceMapping.h"
#include "controller/inventory/InventoryInformers.h"

namespace dra::check {
namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

json Metadata(const std::string& prefix, const std::string& subject) {
  return {{"generateName", prefix},
          {"labels", {{ScheduleTest::kLabel, "true"}}},
          {"annotations", {{std::string(ScheduleTest::kLabel) + "-subject", subject}}}};
}

json PodSpec(json container_resources, json claims = nullptr) {
  // Meets Pod Security "restricted", so the probes work in enforcing namespaces.
  json container = {{"name", "main"},
                    {"image", ScheduleTest::kImage},
                    {"securityContext",
                     {{"allowPrivilegeEscalation", false}, {"capabilities", {{"drop", {"ALL"}}}}}}};
  container["resources"] = std::move(container_resources);
  json spec = {{"automountServiceAccountToken", false},
               {"securityContext",
                {{"runAsNonRoot", true},
                 {"runAsUser", 65535},
                 {"seccompProfile", {{"type", "RuntimeDefault"}}}}},
               {"terminationGracePeriodSeconds", 0},
               {"containers", json::array({container})}};
  if (!claims.is_null()) spec["resourceClaims"] = std::move(claims);
  return spec;
}

std::string NameOf(const json& object) {
  if (!object.is_object()) return "";
  auto meta = object.find("metadata");
  if (meta == object.end() || !meta->is_object()) return "";
  auto name = meta->find("name");
  return name != meta->end() && name->is_string() ? name->get<std::string>() : "";
}

}  // namespace

json ScheduleTest::ExtendedResourcePod(const std::string& resource) {
  return {{"apiVersion", "v1"},
          {"kind", "Pod"},
          {"metadata", Metadata("check-schedule-er-", resource)},
          {"spec", PodSpec({{"limits", {{resource, "1"}}}})}};
}

json ScheduleTest::Claim(const std::string& device_class) {
  return {{"apiVersion", "resource.k8s.io/v1"},
          {"kind", "ResourceClaim"},
          {"metadata", Metadata("check-schedule-dc-", device_class)},
          {"spec",
           {{"devices",
             {{"requests", json::array({{{"name", "device"},
                                         {"exactly", {{"deviceClassName", device_class}}}}})}}}}}};
}

json ScheduleTest::ClaimPod(const std::string& device_class, const std::string& claim_name) {
  return {
      {"apiVersion", "v1"},
      {"kind", "Pod"},
      {"metadata", Metadata("check-schedule-dc-", device_class)},
      {"spec", PodSpec({{"claims", json::array({{{"name", "device"}}})}},
                       json::array({{{"name", "device"}, {"resourceClaimName", claim_name}}}))}};
}

kube::Status ScheduleTest::DeleteLabelled() {
  kube::ListOptions options;
  options.label_selector = kLabel;
  kube::DeleteOptions now;
  now.grace_period_seconds = 0;
  for (const auto* type : {&api::PodView::kResource, &api::ResourceClaim::kResource}) {
    auto list = client_.List(*type, options_.namespace_name, options);
    if (!list.ok()) return list.status();
    auto items = list->find("items");
    if (items == list->end() || !items->is_array()) continue;
    for (const auto& item : *items) {
      kube::Status deleted =
          client_.DeleteIfExists(type->ItemPath(options_.namespace_name, NameOf(item)), now);
      if (!deleted.ok()) return deleted;
    }
  }
  return kube::Status::Ok();
}

void ScheduleTest::StartExtendedResource(const std::string& resource, std::vector<Probe>& probes) {
  Probe probe{"schedule " + resource, "", "", std::nullopt};
  auto pod = client_.Create(api::PodView::kResource, options_.namespace_name,
                            ExtendedResourcePod(resource));
  if (pod.ok()) {
    probe.pod = NameOf(*pod);
  } else {
    probe.verdict = CheckResult::Fail(probe.row, "cannot create Pod: " + pod.status().message());
  }
  probes.push_back(std::move(probe));
}

void ScheduleTest::StartClass(const std::string& device_class, std::vector<Probe>& probes) {
  Probe probe{"schedule class " + device_class, "", "", std::nullopt};
  auto claim =
      client_.Create(api::ResourceClaim::kResource, options_.namespace_name, Claim(device_class));
  if (!claim.ok()) {
    probe.verdict =
        CheckResult::Fail(probe.row, "cannot create ResourceClaim: " + claim.status().message());
    probes.push_back(std::move(probe));
    return;
  }
  probe.claim = NameOf(*claim);
  auto pod = client_.Create(api::PodView::kResource, options_.namespace_name,
                            ClaimPod(device_class, probe.claim));
  if (pod.ok()) {
    probe.pod = NameOf(*pod);
  } else {
    probe.verdict = CheckResult::Fail(probe.row, "cannot create Pod: " + pod.status().message());
  }
  probes.push_back(std::move(probe));
}

std::optional<CheckResult> ScheduleTest::Verdict(const Probe& probe) {
  auto pod = client_.Get(api::PodView::kResource.ItemPath(options_.namespace_name, probe.pod));
  if (!pod.ok()) return CheckResult::Fail(probe.row, "cannot read Pod: " + pod.status().message());
  try {
    return ParseVerdict(probe.row, *pod);
  } catch (const json::exception& e) {  // a field of an unexpected type
    return CheckResult::Fail(probe.row, std::string("unreadable Pod status: ") + e.what());
  }
}

std::optional<CheckResult> ScheduleTest::ParseVerdict(const std::string& row, const json& pod) {
  const json status = pod.value("status", json::object());
  if (!status.is_object()) return std::nullopt;
  for (const auto& c : status.value("conditions", json::array())) {
    if (!c.is_object() || c.value("type", "") != "PodScheduled") continue;
    if (c.value("status", "") == "True") {
      const json spec = pod.value("spec", json::object());
      std::string node = spec.is_object() ? spec.value("nodeName", "") : "";
      return CheckResult::Pass(row, "scheduled to " + node);
    }
    if (c.value("status", "") == "False") {
      return CheckResult::Fail(row, c.value("reason", "") + ": " + c.value("message", ""));
    }
  }
  return std::nullopt;
}

void ScheduleTest::Wait(std::vector<Probe>& probes) {
  const auto deadline = Clock::now() + options_.deadline;
  for (;;) {
    bool pending = false;
    for (auto& p : probes) {
      if (!p.verdict && !interrupted_) p.verdict = Verdict(p);
      pending = pending || !p.verdict;
    }
    if (!pending || interrupted_ || Clock::now() >= deadline) break;
    std::this_thread::sleep_for(options_.poll);
  }
  for (auto& p : probes) {
    if (p.verdict) continue;
    p.verdict =
        interrupted_
            ? CheckResult::Fail(p.row, "interrupted before a verdict")
            : CheckResult::Warn(p.row, "no scheduler verdict within " +
                                           std::to_string(options_.deadline.count() / 1000) + "s");
  }
}

void ScheduleTest::Delete(const std::vector<Probe>& probes) {
  kube::DeleteOptions now;
  now.grace_period_seconds = 0;
  for (const auto& p : probes) {
    if (!p.pod.empty()) {
      (void)client_.DeleteIfExists(api::PodView::kResource.ItemPath(options_.namespace_name, p.pod),
                                   now);
    }
    if (!p.claim.empty()) {
      (void)client_.DeleteIfExists(
          api::ResourceClaim::kResource.ItemPath(options_.namespace_name, p.claim), now);
    }
  }
}

std::vector<CheckResult> ScheduleTest::Run(const report::ClusterSnapshot& snapshot) {
  const std::string row = "schedule-test";
  if (kube::Status leftovers = DeleteLabelled(); !leftovers.ok()) {
    return {CheckResult::Fail(
        row, "cannot clean namespace " + options_.namespace_name + ": " + leftovers.message())};
  }
  std::vector<Probe> probes;
  auto mapping = extended::ExtendedResourceMapping::Build(snapshot.classes);
  for (const auto& [resource, device_class] : mapping.explicit_names()) {
    if (!interrupted_) StartExtendedResource(resource, probes);
  }
  for (const auto& c : snapshot.classes) {
    if (!interrupted_) StartClass(c->meta.name, probes);
  }
  Wait(probes);
  Delete(probes);
  // What a Ctrl-C between a Create and its answer may have left.
  kube::Status swept = DeleteLabelled();
  std::vector<CheckResult> out;
  out.reserve(probes.size() + 2);
  for (auto& p : probes) out.push_back(std::move(*p.verdict));
  if (!swept.ok()) out.push_back(CheckResult::Fail(row, "cleanup: " + swept.message()));
  if (interrupted_) out.push_back(CheckResult::Fail(row, "interrupted; created objects deleted"));
  return out;
}

}  // namespace dra::check
