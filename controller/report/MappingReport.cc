#include "controller/report/MappingReport.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "controller/report/TextTable.h"

namespace dra::report {

using extended::ExtendedResourceMapping;
using extended::MappingFinding;

MappingReport MappingReport::Build(
    const std::vector<std::shared_ptr<const api::DeviceClass>>& classes,
    const inventory::Inventory& inventory, std::vector<MappingFinding> findings) {
  MappingReport report;
  auto mapping = ExtendedResourceMapping::Build(classes);
  auto add = [&](const std::string& resource, const std::string& class_name, bool is_explicit) {
    Entry entry{resource, class_name, is_explicit, {}, 0, 0};
    for (const auto& contested : mapping.contested()) {
      if (contested.resource == resource) entry.losers = contested.losers;
    }
    auto counts = inventory.Count(class_name);
    entry.devices = counts.total;
    entry.allocated = counts.allocated;
    report.entries_.push_back(std::move(entry));
  };
  for (const auto& [resource, class_name] : mapping.explicit_names())
    add(resource, class_name, true);
  std::vector<std::string> names;
  for (const auto& c : classes) {
    if (c) names.push_back(c->meta.name);
  }
  std::sort(names.begin(), names.end());
  for (const auto& name : names) {
    add(std::string(ExtendedResourceMapping::kImplicitPrefix) + name, name, false);
  }
  report.findings_ = std::move(findings);
  return report;
}

std::string MappingReport::FormatTable() const {
  TextTable table({"EXTENDED RESOURCE", "DEVICECLASS", "KIND", "DEVICES", "ALLOCATED", "LOSERS"});
  for (const auto& e : entries_) {
    std::string losers;
    for (const auto& l : e.losers) losers += (losers.empty() ? "" : ",") + l;
    table.Add({e.resource, e.device_class, e.is_explicit ? "explicit" : "implicit",
               std::to_string(e.devices), std::to_string(e.allocated),
               losers.empty() ? "-" : losers});
  }
  std::string out = table.Render();
  out += "\nFindings: " + std::to_string(findings_.size()) + "\n";
  for (const auto& f : findings_) {
    out += "  " + std::string(MappingFinding::KindName(f.kind)) + " on " + f.object_kind + " " +
           f.object_name + ": " + f.message + "\n";
  }
  return out;
}

std::string MappingReport::FormatJson() const {
  nlohmann::json mappings = nlohmann::json::array();
  for (const auto& e : entries_) {
    mappings.push_back({{"extendedResourceName", e.resource},
                        {"deviceClass", e.device_class},
                        {"explicit", e.is_explicit},
                        {"losers", e.losers},
                        {"devices", e.devices},
                        {"allocated", e.allocated}});
  }
  nlohmann::json findings = nlohmann::json::array();
  for (const auto& f : findings_) {
    findings.push_back({{"kind", MappingFinding::KindName(f.kind)},
                        {"objectKind", f.object_kind},
                        {"objectName", f.object_name},
                        {"extendedResourceName", f.resource},
                        {"related", f.other},
                        {"message", f.message}});
  }
  return nlohmann::json{{"mappings", mappings}, {"findings", findings}}.dump(2) + "\n";
}

}  // namespace dra::report
