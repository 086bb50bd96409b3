#include "controller/inventory/CelDeviceInput.h"

#include <type_traits>

#include "controller/api/ResourceSlice.h"

namespace dra::inventory {
namespace {

std::optional<cel::Attribute> ToCelAttribute(const api::AttributeValue& value) {
  return std::visit(
      [](const auto& v) -> std::optional<cel::Attribute> {
        using V = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<V, kube::InternedString>) {
          return cel::Attribute(v.str());
        } else if constexpr (std::is_same_v<V, api::VersionString>) {
          auto version = cel::Semver::Parse(v.text);
          if (!version.ok()) return std::nullopt;
          return cel::Attribute(*version);
        } else {
          return cel::Attribute(v);
        }
      },
      value);
}

}  // namespace

cel::Device ToCelDevice(const api::Device& device, std::string_view driver) {
  cel::Device out;
  out.driver = std::string(driver);
  out.allow_multiple_allocations = device.allow_multiple_allocations;
  for (const auto& [key, value] : device.attributes) {
    auto attribute = ToCelAttribute(value);
    if (!attribute.has_value()) continue;
    auto [domain, name] = api::ResourceSlice::SplitAttributeKey(key, driver);
    out.attributes[std::string(domain)].insert_or_assign(std::string(name), std::move(*attribute));
  }
  for (const auto& [key, quantity] : device.capacity) {
    auto [domain, name] = api::ResourceSlice::SplitAttributeKey(key, driver);
    out.capacity[std::string(domain)].insert_or_assign(std::string(name), quantity);
  }
  return out;
}

}  // namespace dra::inventory
