#include "controller/translate/MigrationReport.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <tuple>

#include "controller/report/TextTable.h"
#include "controller/translate/PodNodeName.h"
#include "src/api/Quantity.h"
#include "src/base/NlohmannFields.h"

namespace dra::translate {
namespace {

using nlohmann::json;

constexpr auto* At = &kube::NlohmannFields::At;
constexpr auto* Text = &kube::NlohmannFields::Text;

int64_t IntOr(const json& value, int64_t fallback) {
  return value.is_number_integer() ? value.get<int64_t>() : fallback;
}

// The controller that owns the object as {kind, name}; empty kind for none.
std::pair<std::string, std::string> Controller(const json& object) {
  const json& owners = At(At(object, "metadata"), "ownerReferences");
  if (!owners.is_array()) return {};
  for (const auto& owner : owners) {
    if (At(owner, "controller").is_boolean() && At(owner, "controller").get<bool>()) {
      std::string kind = Text(At(owner, "kind"));
      return {kind.empty() ? "?" : kind, Text(At(owner, "name"))};
    }
  }
  return {};
}

std::string ControllerKind(const json& object) { return Controller(object).first; }

// Owners whose Pods the report covers through a workload row (a ReplicaSet
// through its Deployment).
bool CoveredOwner(const std::string& kind) {
  return kind == "ReplicaSet" || kind == "StatefulSet" || kind == "DaemonSet" || kind == "Job";
}

const json& PodSpecOf(const json& object, const std::string& kind) {
  if (kind == "Pod") return At(object, "spec");
  if (kind == "CronJob") {
    return At(At(At(At(At(object, "spec"), "jobTemplate"), "spec"), "template"), "spec");
  }
  return At(At(At(object, "spec"), "template"), "spec");
}

int64_t Replicas(const json& object, const std::string& kind) {
  const json& spec = At(object, "spec");
  if (kind == "Deployment" || kind == "StatefulSet") return IntOr(At(spec, "replicas"), 1);
  if (kind == "DaemonSet") return IntOr(At(At(object, "status"), "desiredNumberScheduled"), 0);
  if (kind == "Job") return IntOr(At(spec, "parallelism"), 1);
  if (kind == "CronJob") return IntOr(At(At(At(spec, "jobTemplate"), "spec"), "parallelism"), 1);
  return 1;
}

// Devices per Pod for each extended resource: long-lived containers add up,
// a (non-sidecar) init container runs alone and reuses theirs.
std::map<std::string, int64_t> PerPod(const json& pod_spec) {
  std::map<std::string, int64_t> long_lived, init_max;
  for (const char* field : {"initContainers", "containers"}) {
    const json& list = At(pod_spec, field);
    if (!list.is_array()) continue;
    for (const auto& c : list) {
      bool is_init = std::string_view(field) == "initContainers";
      bool sidecar = is_init && Text(At(c, "restartPolicy")) == "Always";
      const json& resources = At(c, "resources");
      std::map<std::string, std::string> quantities;
      for (const char* which : {"limits", "requests"}) {  // requests win
        const json& map = At(resources, which);
        if (!map.is_object()) continue;
        for (const auto& [name, value] : map.items()) {
          if (value.is_string()) quantities[name] = value.get<std::string>();
          if (value.is_number_integer()) quantities[name] = std::to_string(value.get<int64_t>());
        }
      }
      for (const auto& [name, text] : quantities) {
        if (!extended::ExtendedResourceMapping::IsDraExtendedResourceName(name)) continue;
        auto quantity = kube::Quantity::Parse(text);
        int64_t count = quantity.ok() ? quantity->AsInt64().value_or(0) : 0;
        if (!is_init || sidecar) {
          long_lived[name] += count;
        } else {
          init_max[name] = std::max(init_max[name], count);
        }
      }
    }
  }
  for (const auto& [name, count] : init_max) {
    long_lived[name] = std::max(long_lived[name], count);
  }
  return long_lived;
}

// What ties the Pods to nodes by their author's choice. A live Pod's
// nodeName counts only when its author set it, not the scheduler's binding.
std::vector<std::string> PinnedBy(const json& object, const std::string& kind,
                                  const json& pod_spec) {
  std::vector<std::string> reasons;
  bool node_name = !Text(At(pod_spec, "nodeName")).empty();
  if (node_name && (kind != "Pod" || PodNodeName::SetByAuthor(object))) {
    reasons.push_back("nodeName");
  }
  const json& selector = At(pod_spec, "nodeSelector");
  if (selector.is_object()) {
    for (const auto& [key, value] : selector.items()) {
      if (key != "kubernetes.io/os" && key != "kubernetes.io/arch") {
        reasons.push_back("nodeSelector");
        break;
      }
    }
  }
  if (!At(At(pod_spec, "affinity"), "nodeAffinity").is_null()) reasons.push_back("nodeAffinity");
  return reasons;
}

std::string Lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

std::string Join(const std::vector<std::string>& items, const std::string& sep) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : sep) + item;
  return out;
}

}  // namespace

void MigrationReport::AddWorkload(const json& object, const std::string& kind,
                                  const ClusterObjects& objects,
                                  const extended::ExtendedResourceMapping& mapping,
                                  std::vector<MigrationRow>& rows) {
  const json& spec = PodSpecOf(object, kind);
  if (!spec.is_object()) return;
  std::map<std::string, int64_t> per_pod = PerPod(spec);
  if (per_pod.empty()) return;
  std::vector<const NodeFacts*> candidates;
  for (const auto& node : objects.nodes) {
    if (node.Admits(spec)) candidates.push_back(&node);
  }
  for (const auto& [resource, count] : per_pod) {
    MigrationRow row;
    row.ns = Text(At(At(object, "metadata"), "namespace"));
    row.name = Text(At(At(object, "metadata"), "name"));
    row.kind = kind;
    row.replicas = Replicas(object, kind);
    row.resource = resource;
    row.per_pod = count;
    row.device_class = mapping.ClassFor(resource).value_or("");
    row.candidate_nodes = candidates.size();
    for (const NodeFacts* node : candidates) {
      if (node->DevicePluginServes(resource)) ++row.device_plugin_nodes;
    }
    row.pinned_by = PinnedBy(object, kind, spec);
    auto [owner_kind, owner_name] = Controller(object);
    if (kind == "Pod" && !owner_kind.empty()) row.owner = owner_kind + "/" + owner_name;
    if (row.device_class.empty()) {
      row.advice = "device-plugin";
    } else if (!row.owner.empty()) {
      row.advice = "recreate-from-owner";
    } else if (row.pinned_by.empty()) {
      row.advice = "count-only";
    } else {
      row.advice = "explicit-claim";
      // A Pod's managedFields tell translate whether its nodeName is the
      // author's (kept) or the scheduler's (dropped).
      row.command = "kubectl get " + Lower(kind) + "/" + row.name + " -n " + row.ns + " -o yaml" +
                    (kind == "Pod" ? " --show-managed-fields" : "") +
                    " | dra-controller translate -f -";
    }
    rows.push_back(std::move(row));
  }
}

std::vector<MigrationRow> MigrationReport::Build(const ClusterObjects& objects,
                                                 const extended::ExtendedResourceMapping& mapping) {
  std::vector<MigrationRow> rows;
  for (const auto& o : objects.deployments) AddWorkload(o, "Deployment", objects, mapping, rows);
  for (const auto& o : objects.statefulsets) AddWorkload(o, "StatefulSet", objects, mapping, rows);
  for (const auto& o : objects.daemonsets) AddWorkload(o, "DaemonSet", objects, mapping, rows);
  for (const auto& o : objects.jobs) {
    if (ControllerKind(o) != "CronJob") AddWorkload(o, "Job", objects, mapping, rows);
  }
  for (const auto& o : objects.cronjobs) AddWorkload(o, "CronJob", objects, mapping, rows);
  for (const auto& o : objects.pods) {
    std::string phase = Text(At(At(o, "status"), "phase"));
    if (!CoveredOwner(ControllerKind(o)) && phase != "Succeeded" && phase != "Failed") {
      AddWorkload(o, "Pod", objects, mapping, rows);
    }
  }
  std::stable_sort(rows.begin(), rows.end(), [](const MigrationRow& a, const MigrationRow& b) {
    return std::tie(a.ns, a.kind, a.name, a.resource) < std::tie(b.ns, b.kind, b.name, b.resource);
  });
  return rows;
}

std::string MigrationReport::Table(const std::vector<MigrationRow>& rows) {
  report::TextTable table({"NAMESPACE", "KIND", "NAME", "REPLICAS", "RESOURCE", "PER-POD", "TOTAL",
                           "DEVICECLASS", "PLUGIN-NODES", "PINNED-BY", "ADVICE"});
  for (const auto& r : rows) {
    table.Add({r.ns, r.kind, r.name, std::to_string(r.replicas), r.resource,
               std::to_string(r.per_pod), std::to_string(r.per_pod * r.replicas),
               r.device_class.empty() ? "<none>" : r.device_class,
               std::to_string(r.device_plugin_nodes) + "/" + std::to_string(r.candidate_nodes),
               r.pinned_by.empty() ? "-" : Join(r.pinned_by, ","), r.advice});
  }
  std::string out = table.Render();
  bool header = false;
  for (const auto& r : rows) {
    if (r.command.empty()) continue;
    if (!header) out += "\nPinned to specific hardware; move to an explicit claim with:\n";
    header = true;
    out += "  " + r.command + "\n";
  }
  header = false;
  for (const auto& r : rows) {
    if (r.owner.empty() || r.advice != "recreate-from-owner") continue;
    if (!header) out += "\nRecreated by their owner; migrate the owner's Pod template instead:\n";
    header = true;
    out += "  pod/" + r.name + " -n " + r.ns + ": " + r.owner + "\n";
  }
  return out;
}

json MigrationReport::Json(const std::vector<MigrationRow>& rows) {
  json out = json::array();
  for (const auto& r : rows) {
    json row = {{"namespace", r.ns},
                {"kind", r.kind},
                {"name", r.name},
                {"replicas", r.replicas},
                {"resource", r.resource},
                {"perPod", r.per_pod},
                {"total", r.per_pod * r.replicas},
                {"deviceClass", r.device_class.empty() ? json(nullptr) : json(r.device_class)},
                {"candidateNodes", r.candidate_nodes},
                {"devicePluginNodes", r.device_plugin_nodes},
                {"pinnedBy", r.pinned_by},
                {"advice", r.advice}};
    if (!r.command.empty()) row["translate"] = r.command;
    if (!r.owner.empty()) row["owner"] = r.owner;
    out.push_back(std::move(row));
  }
  return out;
}

}  // namespace dra::translate
