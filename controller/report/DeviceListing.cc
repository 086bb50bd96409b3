#include "controller/report/DeviceListing.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "controller/report/TextTable.h"

namespace dra::report {
namespace {

std::string Join(const std::vector<std::string>& items, const char* empty = "-") {
  if (items.empty()) return empty;
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : ",") + item;
  return out;
}

bool Contains(const std::vector<std::string>& items, const std::string& item) {
  return std::find(items.begin(), items.end(), item) != items.end();
}

// The CLAIM cell: holders, then adminAccess claims marked as such.
std::vector<std::string> ClaimCell(const DeviceListing::Row& row) {
  std::vector<std::string> out = row.claims;
  for (const auto& claim : row.admin_access_claims) out.push_back(claim + "(adminAccess)");
  return out;
}

std::vector<std::string> TaintCell(const DeviceListing::Row& row) {
  std::vector<std::string> out;
  for (const auto& taint : row.taints) out.push_back(taint.Text());
  return out;
}

// {"key", "value", "effect", "source": "driver" | "rule", "rule": name (rules only)}.
nlohmann::json TaintsJson(const DeviceListing::Row& row) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& [taint, source] : row.taints) {
    nlohmann::json item = {
        {"key", taint.key},
        {"value", taint.value},
        {"effect",
         taint.effect == api::TaintEffect::kUnknown ? taint.unknown_effect : taint.EffectName()},
        {"source", std::string(source.Label())}};
    if (!source.driver()) item["rule"] = std::string(source.RuleName());
    out.push_back(std::move(item));
  }
  return out;
}

}  // namespace

std::string DeviceListing::ValidateState(const std::string& state) {
  if (state.empty() || state == "free" || state == "allocated" || state == "unavailable" ||
      state == "tainted") {
    return "";
  }
  return "--state must be free, allocated, unavailable or tainted, not \"" + state + "\"";
}

DeviceListing::Row DeviceListing::Describe(const inventory::Inventory& inventory,
                                           const inventory::DeviceInfo& info) {
  Row row;
  row.node = !info.node_name.empty() ? info.node_name
             : info.all_nodes        ? "<all nodes>"
                                     : "<node selector>";
  row.key = info.key;
  row.classes = inventory.ClassesMatching(info.key);
  for (size_t i = 0; i < info.taints.size(); ++i) {
    row.taints.push_back({info.taints[i], i < info.taint_sources.size()
                                              ? info.taint_sources[i]
                                              : inventory::TaintSource{}});
  }
  row.claims = info.allocated_to;
  row.admin_access_claims = info.admin_access_claims;
  for (const auto& use : inventory.PodsUsing(info.key)) {
    std::string pod = use.namespace_name + "/" + use.name;
    if (!Contains(row.pods, pod)) row.pods.push_back(pod);
  }
  inventory::DeviceState state = inventory::DeviceState::Of(info);
  row.state = state.Label();
  row.reason = state.UnavailableReason();
  return row;
}

std::vector<DeviceListing::Row> DeviceListing::Build(const inventory::Inventory& inventory,
                                                     const Filter& filter) {
  std::vector<Row> rows;
  for (const auto& info : inventory.Devices()) {
    if (!filter.driver.empty() && info.key.driver != filter.driver) continue;
    if (!filter.node.empty() && info.node_name != filter.node && !info.all_nodes) continue;
    if (!filter.state.empty() && !inventory::DeviceState::Of(info).Has(filter.state)) continue;
    Row row = Describe(inventory, info);
    if (!filter.device_class.empty() && !Contains(row.classes, filter.device_class)) continue;
    rows.push_back(std::move(row));
  }
  std::sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
    return std::tie(a.node, a.key) < std::tie(b.node, b.key);
  });
  return rows;
}

std::string DeviceListing::FormatTable(const std::vector<Row>& rows) {
  TextTable table({"NODE", "DEVICE", "CLASSES", "STATE", "TAINTS", "POD", "CLAIM"});
  for (const auto& row : rows) {
    std::string state = row.reason.empty() ? row.state : row.state + " (" + row.reason + ")";
    table.Add({row.node, row.key.ToString(), Join(row.classes), state, Join(TaintCell(row)),
               Join(row.pods), Join(ClaimCell(row))});
  }
  return table.Render();
}

std::string DeviceListing::FormatJson(const std::vector<Row>& rows) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& row : rows) {
    out.push_back({{"node", row.node},
                   {"driver", row.key.driver},
                   {"pool", row.key.pool},
                   {"device", row.key.device},
                   {"classes", row.classes},
                   {"state", row.state},
                   {"reason", row.reason},
                   {"taints", TaintsJson(row)},
                   {"pods", row.pods},
                   {"claims", row.claims},
                   {"adminAccessClaims", row.admin_access_claims}});
  }
  return out.dump(2) + "\n";
}

}  // namespace dra::report
