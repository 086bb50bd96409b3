#include "controller/health/DeviceAttributeNames.h"

namespace dra::health {
namespace {

std::string_view Lookup(const std::map<std::string, std::string, std::less<>>& names,
                        std::string_view driver, const std::string& fallback) {
  auto it = names.find(driver);
  return it == names.end() ? std::string_view(fallback) : std::string_view(it->second);
}

bool ValidName(std::string_view name) {
  if (name.empty() || name.size() > 63) return false;
  for (char c : name) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '-' || c == '_' || c == '.';
    if (!ok) return false;
  }
  return true;
}

kube::Status Set(std::string_view text, std::string& fallback,
                 std::map<std::string, std::string, std::less<>>& names) {
  auto eq = text.find('=');
  std::string_view driver = eq == std::string_view::npos ? "" : text.substr(0, eq);
  std::string_view name = eq == std::string_view::npos ? text : text.substr(eq + 1);
  if (!ValidName(name) || (eq != std::string_view::npos && driver.empty())) {
    return {kube::StatusCode::kInvalidArgument,
            "\"" + std::string(text) +
                "\": want ATTRIBUTE or DRIVER=ATTRIBUTE, an attribute name of letters, digits, "
                "'-', '_' and '.'"};
  }
  if (driver.empty()) {
    fallback = std::string(name);
  } else {
    names[std::string(driver)] = std::string(name);
  }
  return kube::Status::Ok();
}

kube::Status SetAll(std::string_view list, std::string& fallback,
                    std::map<std::string, std::string, std::less<>>& names) {
  while (true) {
    auto comma = list.find(',');
    KUBE_RETURN_IF_ERROR(Set(list.substr(0, comma), fallback, names));
    if (comma == std::string_view::npos) return kube::Status::Ok();
    list.remove_prefix(comma + 1);
  }
}

}  // namespace

std::string_view DeviceAttributeNames::Uuid(std::string_view driver) const {
  return Lookup(uuid_, driver, default_uuid_);
}

std::string_view DeviceAttributeNames::Index(std::string_view driver) const {
  return Lookup(index_, driver, default_index_);
}

kube::Status DeviceAttributeNames::SetUuid(std::string_view list) {
  return SetAll(list, default_uuid_, uuid_);
}

kube::Status DeviceAttributeNames::SetIndex(std::string_view list) {
  return SetAll(list, default_index_, index_);
}

}  // namespace dra::health
