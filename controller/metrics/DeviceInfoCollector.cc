#include "controller/metrics/DeviceInfoCollector.h"

#include <algorithm>
#include <cctype>

namespace dra::metrics {
namespace {

const char* const kFixed[] = {"driver", "pool", "device", "node"};

std::vector<std::string> InfoLabels(const std::vector<std::string>& attributes) {
  std::vector<std::string> labels(std::begin(kFixed), std::end(kFixed));
  for (const auto& a : attributes) labels.push_back(DeviceInfoCollector::LabelFor(a));
  return labels;
}

std::string Text(const api::AttributeValue& value) {
  if (const auto* i = std::get_if<int64_t>(&value)) return std::to_string(*i);
  if (const auto* b = std::get_if<bool>(&value)) return *b ? "true" : "false";
  if (const auto* s = std::get_if<kube::InternedString>(&value)) return s->str();
  return std::get<api::VersionString>(value).text.str();
}

}  // namespace

DeviceInfoCollector::DeviceInfoCollector(
    const std::vector<std::string>& attributes,
    const std::unordered_map<std::string, std::vector<std::string>>& reservations)
    : attributes_(attributes),
      reservations_(reservations),
      info_("dra_controller_device_info",
            "Always 1 per published device; labels carry the attributes listed with "
            "--metrics-device-attributes",
            InfoLabels(attributes)),
      allocated_("dra_controller_allocated_device_info",
                 "Always 1 per allocated device and the Pod reserving its claim (pod \"\" when "
                 "none); for joining device telemetry to claims and Pods",
                 {"driver", "pool", "device", "node", "namespace", "claim", "pod"}) {}

std::string DeviceInfoCollector::LabelFor(const std::string& attribute) {
  std::string name = attribute.substr(attribute.rfind('/') + 1);
  for (char& c : name) {
    if (std::isalnum(static_cast<unsigned char>(c)) == 0 && c != '_') c = '_';
  }
  bool clash = name.empty() || std::isdigit(static_cast<unsigned char>(name[0])) != 0;
  for (const char* fixed : kFixed) clash = clash || name == fixed;
  return clash ? "attribute_" + name : name;
}

std::string DeviceInfoCollector::AttributeValue(const inventory::DeviceVisit& d,
                                                const std::string& attribute) const {
  for (const auto& [key, value] : d.device.attributes) {
    auto [domain, name] = d.slice.SplitAttributeKey(key);
    if (attribute == name ||
        (attribute.size() == domain.size() + 1 + name.size() && attribute.starts_with(domain) &&
         attribute[domain.size()] == '/' && attribute.ends_with(name))) {
      return Text(value);
    }
  }
  return "";
}

void DeviceInfoCollector::Add(const inventory::DeviceVisit& d) {
  std::vector<std::string> labels{d.slice.driver, d.slice.pool.name, d.device.name.str(),
                                  std::string(d.node)};
  for (const auto& a : attributes_) labels.push_back(AttributeValue(d, a));
  info_.Append(labels, 1);
  if (d.claims == nullptr) return;
  labels.resize(4);
  for (auto it = d.claims->begin(); it != d.claims->end(); ++it) {
    if (std::find(d.claims->begin(), it, *it) != it) continue;  // two results, one device
    const kube::ObjectMeta& claim = (*it)->meta;
    std::vector<std::string> row = labels;
    row.push_back(claim.namespace_name.str());
    row.push_back(claim.name);
    auto pods = reservations_.find(inventory::AllocationState::ClaimKey(claim));
    if (pods == reservations_.end()) {
      row.push_back("");
      allocated_.Append(row, 1);
      continue;
    }
    row.push_back("");
    for (const auto& pod : pods->second) {
      row.back() = pod;
      allocated_.Append(row, 1);
    }
  }
}

void DeviceInfoCollector::Render(std::string& out) const {
  GaugeTable::RenderAll(out, {&info_, &allocated_});
}

}  // namespace dra::metrics
