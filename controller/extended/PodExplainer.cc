#include "controller/extended/PodExplainer.h"

#include <algorithm>
#include <map>
#include <set>

#include "controller/extended/ImplicitClaimTranslator.h"
#include "controller/extended/SchedulerMappingEvidence.h"

namespace dra::extended {
namespace {

using Reason = NodeVerdict::Reason;

// Every extended resource name the Pod asks for with a non-zero quantity.
std::vector<std::string> Requested(const api::PodView& pod) {
  std::set<std::string> names;
  for (const auto& c : pod.containers) {
    for (const auto& r : c.resources) {
      if (r.request.Sign() > 0 && ExtendedResourceMapping::IsDraExtendedResourceName(r.name)) {
        names.insert(r.name);
      }
    }
  }
  return {names.begin(), names.end()};
}

inventory::DeviceCounts OnNode(const std::map<std::string, inventory::DeviceCounts>& per_node,
                               const std::string& node) {
  inventory::DeviceCounts sum;
  for (const auto& key : {node, std::string()}) {
    auto it = per_node.find(key);
    if (it != per_node.end()) sum.Merge(it->second);
  }
  return sum;
}

// "a, b, c" or "a, b, c +2 more".
std::string FewNames(const std::vector<std::string>& names, size_t max = 3) {
  std::string out;
  for (size_t i = 0; i < names.size() && i < max; ++i) out += (i == 0 ? "" : ", ") + names[i];
  if (names.size() > max) out += " +" + std::to_string(names.size() - max) + " more";
  return out;
}

// ", 1 tainted by their driver [gpu.nvidia.com/xid], 2 tainted by DeviceTaintRule
// [devicehealth-a, ops-drain]": the blocking taints by who set them, so an
// operator sees which GPUs are out for the driver's reasons and which rule
// holds the others.
std::string TaintPhrase(const inventory::DeviceCounts& c) {
  std::string out;
  if (c.driver_tainted > 0) {
    out += ", " + std::to_string(c.driver_tainted) + " tainted by their driver [" +
           FewNames(c.driver_taint_keys) + "]";
  }
  if (c.rule_tainted > 0) {
    out += ", " + std::to_string(c.rule_tainted) + " tainted by DeviceTaintRule [" +
           FewNames(c.taint_rules) + "]";
  }
  return out;
}

std::string Phrase(const NodeVerdict& v) {
  switch (v.reason) {
    case Reason::kFits:
      return "can take it";
    case Reason::kNoDevice:
      return "have no device of class " + v.device_class;
    case Reason::kNotEnoughFree: {
      std::string detail = std::to_string(v.counts.allocated) + " allocated";
      detail += TaintPhrase(v.counts);
      if (v.counts.counters_in_use > 0) {
        detail += ", " + std::to_string(v.counts.counters_in_use) + " with counters in use";
      }
      if (v.counts.incomplete_pool > 0) {
        detail += ", " + std::to_string(v.counts.incomplete_pool) + " in incomplete pools";
      }
      return "have " + std::to_string(v.counts.free) + " free of " +
             std::to_string(v.counts.total) + " " + v.device_class + " (" + detail + "; " +
             std::to_string(v.needed) + " needed)";
    }
    case Reason::kClassUnusable:
      return v.counts.selector_error ? v.counts.selector_error->Describe() : "";
    case Reason::kDevicePlugin:
      return "use a device plugin for " + v.resource;
    case Reason::kNoProvider:
      return "have no device plugin for " + v.resource + " and no DeviceClass serves it";
    case Reason::kCordoned:
      return "are cordoned";
    case Reason::kNotTogether:
      return "have the devices but cannot allocate them all together: " + v.detail;
    case Reason::kSchedulerUnmapped:
      return "have no device plugin for " + v.resource +
             " and kube-scheduler maps it to no DeviceClass (order hazard)";
  }
  return "";
}

// The implicit claim as a ResourceClaim: one exactCount request per entry.
api::ResourceClaim AsResourceClaim(const ImplicitClaim& implicit) {
  api::ResourceClaim claim;
  claim.extended_resource_claim = true;
  for (const auto& r : implicit.requests) {
    api::ResourceClaim::ExactRequest exact;
    exact.device_class_name = r.device_class;
    exact.count = r.count;
    claim.requests.push_back({r.name, std::move(exact), {}});
  }
  return claim;
}

// The scheduler filters nodes in parallel and gives up on the Pod at the
// first Filter error, so a class unusable on one node leaves the nodes that
// would fit unable to take the Pod as well.
void AbortOnUnusableClass(PodExplanation& out) {
  auto failed = std::find_if(out.nodes.begin(), out.nodes.end(), [](const NodeVerdict& v) {
    return v.reason == Reason::kClassUnusable;
  });
  if (failed == out.nodes.end()) return;
  const NodeVerdict cause = *failed;
  for (auto& v : out.nodes) {
    if (v.reason != Reason::kFits) continue;
    v.reason = Reason::kClassUnusable;
    v.device_class = cause.device_class;
    v.counts.selector_error = cause.counts.selector_error;
  }
  out.fitting_nodes = 0;
}

}  // namespace

NodeVerdict PodExplainer::Judge(const api::PodView& pod, const api::NodeView& node,
                                const std::vector<std::string>& resources, const Inputs& in,
                                CountCache& cache) {
  NodeVerdict verdict;
  verdict.node = node.meta.name;
  if (node.unschedulable) {
    verdict.reason = Reason::kCordoned;
    return verdict;
  }
  std::set<std::string> dra;
  for (const auto& resource : resources) {
    bool plugin = node.Allocatable(resource).Sign() > 0;
    bool unmapped = cache.scheduler_unmapped.contains(resource);
    bool mapped = in.mapping.ClassFor(resource).has_value() && !unmapped;
    if (mapped && !plugin) {
      dra.insert(resource);
    } else if (!plugin) {
      verdict.reason = unmapped ? Reason::kSchedulerUnmapped : Reason::kNoProvider;
      verdict.resource = resource;
      return verdict;
    } else {
      verdict.reason = Reason::kDevicePlugin;  // remembered; DRA resources are checked first
      verdict.resource = resource;
    }
  }
  auto needed = cache.needed.find(dra);
  if (needed == cache.needed.end()) {
    auto claim = ImplicitClaimTranslator::Translate(
        pod.containers, [&](std::string_view r) { return in.mapping.ClassFor(r); },
        [&](std::string_view r) { return dra.contains(std::string(r)); });
    std::map<std::string, int64_t> per_class;  // class -> devices
    for (const auto& request : claim.requests) per_class[request.device_class] += request.count;
    needed = cache.needed.emplace(dra, std::move(per_class)).first;
    cache.claims.emplace(dra, AsResourceClaim(claim));
  }
  for (const auto& [class_name, count] : needed->second) {
    auto it = cache.counts.find(class_name);
    if (it == cache.counts.end()) {
      it = cache.counts.emplace(class_name, in.inventory.CountPerNode(class_name)).first;
    }
    auto counts = OnNode(it->second, node.meta.name);
    if (counts.selector_error || counts.total == 0 || counts.free < count) {
      verdict.reason = counts.selector_error ? Reason::kClassUnusable
                       : counts.total == 0   ? Reason::kNoDevice
                                             : Reason::kNotEnoughFree;
      verdict.device_class = class_name;
      verdict.needed = count;
      verdict.counts = counts;
      return verdict;
    }
  }
  if (!dra.empty()) CheckTogether(cache.claims.at(dra), node.meta.name, in, verdict);
  return verdict;  // kFits, or kDevicePlugin when a plugin serves part of it
}

// The counts say every class has enough free devices; the allocator also
// needs one set of them that can be taken together (shared counters,
// capacity). A search that hit its step limit proves nothing: keep the
// verdict.
void PodExplainer::CheckTogether(const api::ResourceClaim& claim, const std::string& node,
                                 const Inputs& in, NodeVerdict& verdict) {
  auto fit = in.inventory.CheckClaim(claim, node);
  if (fit.fits || fit.search_limit_reached) return;
  verdict.reason = Reason::kNotTogether;
  verdict.detail = fit.reason;
}

std::string PodExplainer::Summarize(const std::vector<NodeVerdict>& nodes, size_t max_groups) {
  std::map<std::string, int> groups;
  int fitting = 0;
  for (const auto& v : nodes) {
    if (v.reason == Reason::kFits) {
      ++fitting;
      continue;
    }
    ++groups[Phrase(v)];
  }
  std::vector<std::pair<std::string, int>> sorted(groups.begin(), groups.end());
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  std::string out = std::to_string(fitting) + "/" + std::to_string(nodes.size()) + " nodes";
  std::string reasons;
  int others = 0;
  for (size_t i = 0; i < sorted.size(); ++i) {
    if (i >= max_groups) {
      others += sorted[i].second;
      continue;
    }
    reasons +=
        (reasons.empty() ? "" : ", ") + std::to_string(sorted[i].second) + " " + sorted[i].first;
  }
  if (others > 0) reasons += ", " + std::to_string(others) + " for other reasons";
  if (reasons.empty()) return out + " have enough free devices for DRA";
  return out + ": " + reasons;
}

std::set<std::string> PodExplainer::SchedulerUnmapped(const api::PodView& pod, const Inputs& in,
                                                      PodExplanation& out) {
  std::set<std::string> unmapped;
  for (const auto& f : in.findings) {
    if (f.kind == MappingFinding::Kind::kOrderHazard) unmapped.insert(f.resource);
  }
  for (const auto& seen : SchedulerMappingEvidence::FromPod(pod, in.mapping, in.nodes)) {
    if (unmapped.contains(seen.resource)) continue;
    out.notes.push_back(SchedulerMappingEvidence::Note(seen, in.now));
    // Repaired since: the nodes are judged by the mapping kube-scheduler has now.
    if (!SchedulerMappingEvidence::RetryPending(seen, in.now)) unmapped.insert(seen.resource);
  }
  return unmapped;
}

void PodExplainer::Notes(const std::vector<std::string>& requested, const Inputs& in,
                         PodExplanation& out) {
  for (const auto& resource : requested) {
    auto class_name = in.mapping.ClassFor(resource);
    if (!class_name) {
      out.notes.push_back("no DeviceClass serves " + resource +
                          " (missing class or spec.extendedResourceName); only device plugins "
                          "can provide it");
      continue;
    }
    for (const auto& contested : in.mapping.contested()) {
      if (contested.resource != resource) continue;
      std::string losers;
      for (const auto& l : contested.losers) losers += (losers.empty() ? "" : ", ") + l;
      out.notes.push_back(resource + " is named by several DeviceClasses; " + contested.winner +
                          " wins, " + losers + " lose(s)");
    }
    for (const auto& f : in.findings) {
      if (f.kind == MappingFinding::Kind::kOrderHazard && f.resource == resource) {
        out.notes.push_back(f.message);
      }
    }
  }
}

// " tainted KEY=VALUE:NoExecute (driver),..." for the device's NoExecute
// taints (what evicts the Pods using it), each with its source; "" for none.
std::string PodExplainer::NoExecuteTaints(const inventory::Inventory& inventory,
                                          const inventory::DeviceKey& key) {
  auto info = inventory.Find(key);
  if (!info) return "";
  std::string out;
  for (size_t i = 0; i < info->taints.size() && i < info->taint_sources.size(); ++i) {
    const api::DeviceTaint& taint = info->taints[i];
    if (taint.EffectiveEffect() != api::TaintEffect::kNoExecute) continue;
    out += (out.empty() ? " tainted " : ",") +
           inventory::TaintSource::TaintText(taint, info->taint_sources[i]);
  }
  return out;
}

void PodExplainer::JoinClaim(const api::PodView& pod, const Inputs& in, PodExplanation& out) {
  if (!pod.extended_resource_claim_status) {
    if (!out.dra_resources.empty() && !out.translation.requests.empty()) {
      out.problems.push_back("pod.status.extendedResourceClaimStatus is not set");
    }
    return;
  }
  out.claim_name = pod.extended_resource_claim_status->resource_claim_name;
  auto claim = in.claims ? in.claims(pod.meta.namespace_name.str(), out.claim_name) : nullptr;
  if (!claim) {
    out.problems.push_back("claim " + out.claim_name + " is missing");
    return;
  }
  if (!claim->allocated) out.problems.push_back("claim " + out.claim_name + " is not allocated");
  for (const auto& r : claim->results) {
    out.devices.push_back(
        r.driver + "/" + r.pool + "/" + r.device + " (" + r.request + ")" +
        NoExecuteTaints(in.inventory, {r.driver.str(), r.pool.str(), r.device.str()}));
  }
  std::vector<ImplicitRequest> actual;
  for (const auto& r : claim->requests) {
    if (r.exactly) {
      actual.push_back({r.name.str(), r.exactly->device_class_name.str(), r.exactly->count});
    }
  }
  std::sort(actual.begin(), actual.end(),
            [](const auto& a, const auto& b) { return a.name < b.name; });
  if (actual != out.translation.requests) {
    out.problems.push_back("the claim's requests differ from the translation of the Pod");
  }
}

PodExplanation PodExplainer::Explain(const api::PodView& pod, const Inputs& in) {
  PodExplanation out;
  out.pod = pod.meta.Key();
  out.phase = pod.phase;
  out.node_name = pod.node_name;
  if (pod.scheduled) out.scheduler_message = pod.scheduled->message;
  auto class_for = [&](std::string_view r) { return in.mapping.ClassFor(r); };
  out.dra_resources = ImplicitClaimTranslator::DraResources(pod.containers, class_for);
  auto requested = Requested(pod);
  Notes(requested, in, out);
  const api::NodeView* own_node = nullptr;
  for (const auto& node : in.nodes) {
    if (node && node->meta.name == pod.node_name) own_node = node.get();
  }
  out.translation = ImplicitClaimTranslator::Translate(pod.containers, class_for, [&](auto r) {
    return own_node == nullptr || own_node->Allocatable(r).Sign() <= 0;
  });
  if (out.scheduled()) {
    JoinClaim(pod, in, out);
    return out;
  }
  if (requested.empty()) return out;
  CountCache cache;
  cache.scheduler_unmapped = SchedulerUnmapped(pod, in, out);
  for (const auto& node : in.nodes) {
    if (!node) continue;
    out.nodes.push_back(Judge(pod, *node, requested, in, cache));
    out.fitting_nodes += out.nodes.back().reason == Reason::kFits;
  }
  AbortOnUnusableClass(out);
  std::sort(out.nodes.begin(), out.nodes.end(),
            [](const auto& a, const auto& b) { return a.node < b.node; });
  out.summary = Summarize(out.nodes);
  return out;
}

}  // namespace dra::extended
