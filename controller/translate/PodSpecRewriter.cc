#include "controller/translate/PodSpecRewriter.h"

#include <algorithm>
#include <set>

#include "controller/extended/ImplicitClaimTranslator.h"
#include "controller/translate/YamlWriter.h"

namespace dra::translate {
namespace {

using extended::ExtendedResourceMapping;
using extended::ImplicitClaimTranslator;

Place At(const Workload& workload, std::string path) {
  Place place = workload.place;
  place.path = std::move(path);
  return place;
}

std::vector<api::PodView::Container> Views(const std::vector<TemplateContainer>& containers) {
  std::vector<api::PodView::Container> views;
  views.reserve(containers.size());
  for (const auto& c : containers) views.push_back(c.view);
  return views;
}

std::set<std::string> ExistingClaimNames(const YAML::Node& list) {
  std::set<std::string> names;
  if (!list || !list.IsSequence()) return names;
  for (const auto& item : list) {
    if (item.IsMap() && item["name"] && item["name"].IsScalar()) {
      names.insert(item["name"].Scalar());
    }
  }
  return names;
}

void RemoveResource(YAML::Node resources, const char* field, const std::string& name) {
  YAML::Node map = resources[field];
  if (!map || !map.IsMap() || !map[name]) return;
  map.remove(name);
  if (map.size() == 0) resources.remove(field);
}

}  // namespace

void PodSpecRewriter::InspectResource(const Workload& workload, const TemplateContainer& c,
                                      const WrittenResource& written,
                                      const api::PodView::ExtendedResource& r,
                                      RewriteResult& result) const {
  std::optional<std::string> device_class = mapping_.ClassFor(r.name);
  if (!device_class) {
    if (r.name.starts_with(ExtendedResourceMapping::kImplicitPrefix)) {
      result.refusals.push_back(
          {At(workload, written.path), "no DeviceClass named by " + r.name + " exists"});
    }
    return;
  }
  const std::string& text = r.has_request ? written.request_text : written.limit_text;
  if (!written.parsed) {
    result.refusals.push_back({At(workload, written.path), "\"" + text + "\" is not a quantity"});
    return;
  }
  if (r.request.IsZero()) return;
  result.findings.push_back({At(workload, written.path), r.name, text, *device_class});
  auto count = r.request.AsInt64();
  if (!count || *count <= 0) {
    result.refusals.push_back(
        {At(workload, written.path),
         r.name + ": \"" + text + "\" is not a whole number of devices (exactCount needs one)"});
  } else if (r.has_request && r.has_limit && r.request != r.limit) {
    result.refusals.push_back(
        {At(workload, written.path),
         r.name + ": requests and limits differ (the API requires them equal)"});
  }
  (void)c;
}

std::map<std::string, std::string> PodSpecRewriter::ClaimNames(
    const std::vector<std::string>& resources) const {
  std::map<std::string, int> uses;
  for (const auto& r : resources) ++uses[NameAllocator::ClaimNameFor(r)];
  std::map<std::string, std::string> names;
  for (const auto& r : resources) {
    std::string short_name = NameAllocator::ClaimNameFor(r);
    names[r] = uses[short_name] > 1 ? NameAllocator::Shorten(r) : short_name;
  }
  return names;
}

void PodSpecRewriter::CheckClaimNames(const Workload& workload, const PodSpecAt& at,
                                      const std::vector<TemplateContainer>& containers,
                                      const std::map<std::string, std::string>& claim_names,
                                      RewriteResult& result) const {
  std::set<std::string> wanted;
  for (const auto& [resource, name] : claim_names) wanted.insert(name);
  const YAML::Node existing = at.spec["resourceClaims"];
  for (const std::string& name : ExistingClaimNames(existing)) {
    if (wanted.contains(name)) {
      result.refusals.push_back({At(workload, at.path + ".resourceClaims"),
                                 "a claim named \"" + name +
                                     "\" already exists; translate would add one with that name"});
    }
  }
  for (const auto& c : containers) {
    if (!c.node.IsMap() || !c.node["resources"]) continue;
    for (const std::string& name : ExistingClaimNames(c.node["resources"]["claims"])) {
      if (wanted.contains(name)) {
        result.refusals.push_back({At(workload, c.path + ".resources.claims"),
                                   "already uses a claim named \"" + name + "\""});
      }
    }
  }
}

RewriteResult PodSpecRewriter::Inspect(const Workload& workload, const PodSpecAt& at) const {
  RewriteResult result;
  std::vector<TemplateContainer> containers = TemplateContainers::From(at.spec, at.path);
  std::vector<Refusal> unmapped;
  for (const auto& c : containers) {
    for (size_t i = 0; i < c.view.resources.size(); ++i) {
      const auto& r = c.view.resources[i];
      InspectResource(workload, c, c.written[i], r, result);
      if (!mapping_.ClassFor(r.name) &&
          !r.name.starts_with(ExtendedResourceMapping::kImplicitPrefix)) {
        unmapped.push_back({At(workload, c.written[i].path),
                            "no DeviceClass maps " + r.name +
                                " (a device plugin's?); translate will not mix it with claims"});
      }
    }
  }
  if (result.findings.empty()) return result;
  result.refusals.insert(result.refusals.end(), unmapped.begin(), unmapped.end());
  if (workload.name.empty()) {
    result.refusals.push_back(
        {At(workload, "metadata.name"), "no name to derive the ResourceClaimTemplate name from"});
  }
  auto class_for = [this](std::string_view r) { return mapping_.ClassFor(r); };
  auto resources = ImplicitClaimTranslator::DraResources(Views(containers), class_for);
  CheckClaimNames(workload, at, containers, ClaimNames(resources), result);
  return result;
}

std::string PodSpecRewriter::RequestName(const std::string& implicit_name,
                                         const std::vector<TemplateContainer>& containers) {
  // "container-<i>-request-<j>": i indexes initContainers ++ containers.
  constexpr std::string_view kPrefix = "container-";
  size_t end = implicit_name.find("-request-");
  if (implicit_name.starts_with(kPrefix) && end != std::string::npos) {
    size_t i = std::stoul(implicit_name.substr(kPrefix.size(), end - kPrefix.size()));
    if (i < containers.size() && !containers[i].view.name.empty()) {
      return NameAllocator::Shorten(containers[i].view.name);
    }
  }
  return NameAllocator::Shorten(implicit_name);
}

YAML::Node PodSpecRewriter::TemplateFor(const Workload& workload, const ClaimPlan& plan,
                                        const extended::ImplicitClaim& claim,
                                        const std::vector<TemplateContainer>& containers) const {
  std::set<std::string> request_names;
  for (const auto& m : claim.mappings) {
    if (m.resource_name == plan.resource) request_names.insert(m.request_name);
  }
  YAML::Node requests(YAML::NodeType::Sequence);
  for (const auto& request : claim.requests) {
    if (!request_names.contains(request.name)) continue;
    YAML::Node exactly(YAML::NodeType::Map);
    exactly["deviceClassName"] = YamlWriter::String(request.device_class);
    exactly["allocationMode"] = YamlWriter::String("ExactCount");
    exactly["count"] = YamlWriter::Integer(request.count);
    YAML::Node item(YAML::NodeType::Map);
    item["name"] = YamlWriter::String(RequestName(request.name, containers));
    item["exactly"] = exactly;
    requests.push_back(item);
  }
  YAML::Node doc(YAML::NodeType::Map);
  doc["apiVersion"] = YamlWriter::String("resource.k8s.io/v1");
  doc["kind"] = YamlWriter::String("ResourceClaimTemplate");
  YAML::Node meta(YAML::NodeType::Map);
  meta["name"] = YamlWriter::String(plan.template_name);
  if (!workload.ns.empty()) meta["namespace"] = YamlWriter::String(workload.ns);
  doc["metadata"] = meta;
  doc["spec"]["spec"]["devices"]["requests"] = requests;
  return doc;
}

void PodSpecRewriter::RewriteContainer(TemplateContainer& c, const std::vector<ClaimPlan>& plans,
                                       const extended::ImplicitClaim& claim,
                                       const std::vector<TemplateContainer>& containers) {
  YAML::Node resources = c.node["resources"];
  if (!resources || !resources.IsMap()) return;
  std::set<std::pair<std::string, std::string>> added;
  for (const auto& m : claim.mappings) {
    if (m.container_name != c.view.name) continue;
    auto plan = std::find_if(plans.begin(), plans.end(),
                             [&](const ClaimPlan& p) { return p.resource == m.resource_name; });
    if (plan == plans.end()) continue;
    std::pair<std::string, std::string> ref{plan->claim_name,
                                            RequestName(m.request_name, containers)};
    if (!added.insert(ref).second) continue;
    YAML::Node entry(YAML::NodeType::Map);
    entry["name"] = YamlWriter::String(ref.first);
    entry["request"] = YamlWriter::String(ref.second);
    resources["claims"].push_back(entry);
  }
  for (const auto& plan : plans) {
    auto has = std::find_if(c.view.resources.begin(), c.view.resources.end(),
                            [&](const auto& r) { return r.name == plan.resource; });
    if (has == c.view.resources.end() || has->request.IsZero()) continue;
    RemoveResource(resources, "requests", plan.resource);
    RemoveResource(resources, "limits", plan.resource);
  }
}

RewriteResult PodSpecRewriter::Rewrite(const Workload& workload, PodSpecAt& at) {
  RewriteResult result = Inspect(workload, at);
  if (!result.refusals.empty() || result.findings.empty()) return result;
  std::vector<TemplateContainer> containers = TemplateContainers::From(at.spec, at.path);
  auto class_for = [this](std::string_view r) { return mapping_.ClassFor(r); };
  std::vector<api::PodView::Container> views = Views(containers);
  auto resources = ImplicitClaimTranslator::DraResources(views, class_for);
  auto claim_names = ClaimNames(resources);
  extended::ImplicitClaim claim =
      ImplicitClaimTranslator::Translate(views, class_for, [](std::string_view) { return true; });
  std::vector<ClaimPlan> plans;
  for (const auto& r : resources) {
    std::string lower_kind = NameAllocator::Sanitize(workload.kind);
    plans.push_back({r, claim_names[r],
                     names_.Allocate(workload.ns, lower_kind, workload.name, claim_names[r])});
  }
  for (const auto& plan : plans) {
    result.templates.push_back(TemplateFor(workload, plan, claim, containers));
  }
  for (auto& c : containers) RewriteContainer(c, plans, claim, containers);
  YAML::Node spec = at.spec;
  for (const auto& plan : plans) {
    YAML::Node entry(YAML::NodeType::Map);
    entry["name"] = YamlWriter::String(plan.claim_name);
    entry["resourceClaimTemplateName"] = YamlWriter::String(plan.template_name);
    spec["resourceClaims"].push_back(entry);
  }
  return result;
}

}  // namespace dra::translate
