#include "controller/health/DeviceLocator.h"

#include <algorithm>
#include <charconv>
#include <string>

namespace dra::health {
namespace {

bool EqualIgnoringCase(std::string_view a, std::string_view b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](char x, char y) {
    auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
    return lower(x) == lower(y);
  });
}

// The attribute `name` of the device, written qualified with the slice's
// driver or not.
const api::AttributeValue* Attribute(const inventory::DeviceVisit& visit, std::string_view name) {
  if (const auto* value = visit.device.FindAttribute(name)) return value;
  std::string qualified = visit.slice.driver + "/" + std::string(name);
  return visit.device.FindAttribute(qualified);
}

std::string_view TextOf(const api::AttributeValue& value) {
  if (const auto* text = std::get_if<kube::InternedString>(&value)) return text->view();
  return {};
}

bool HasIndex(const api::AttributeValue& value, int64_t index) {
  if (const auto* number = std::get_if<int64_t>(&value)) return *number == index;
  std::string_view text = TextOf(value);
  int64_t parsed = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), parsed);
  return error == std::errc() && end == text.data() + text.size() && !text.empty() &&
         parsed == index;
}

inventory::DeviceKey KeyOf(const inventory::DeviceVisit& visit) {
  return {visit.slice.driver, visit.slice.pool.name, std::string(visit.device.name.view())};
}

void SortUnique(std::vector<inventory::DeviceKey>& keys) {
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
}

}  // namespace

std::vector<inventory::DeviceKey> DeviceLocator::ByUuid(std::string_view driver,
                                                        std::string_view uuid) const {
  std::vector<inventory::DeviceKey> found;
  if (uuid.empty()) return found;
  inventory_.VisitDevices([&](const inventory::DeviceVisit& visit) {
    if (!driver.empty() && visit.slice.driver != driver) return;
    const auto* value = Attribute(visit, names_.Uuid(visit.slice.driver));
    if (value != nullptr && EqualIgnoringCase(TextOf(*value), uuid)) found.push_back(KeyOf(visit));
  });
  SortUnique(found);
  return found;
}

std::vector<inventory::DeviceKey> DeviceLocator::ByNodeIndex(std::string_view driver,
                                                             std::string_view node,
                                                             int64_t index) const {
  std::vector<inventory::DeviceKey> found;
  if (node.empty()) return found;
  inventory_.VisitDevices([&](const inventory::DeviceVisit& visit) {
    if (visit.node != node) return;
    if (!driver.empty() && visit.slice.driver != driver) return;
    const auto* value = Attribute(visit, names_.Index(visit.slice.driver));
    if (value != nullptr && HasIndex(*value, index)) found.push_back(KeyOf(visit));
  });
  SortUnique(found);
  return found;
}

}  // namespace dra::health
