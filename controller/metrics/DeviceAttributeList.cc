#include "controller/metrics/DeviceAttributeList.h"

#include <cctype>
#include <set>

#include "controller/metrics/DeviceInfoCollector.h"
#include "src/base/AsciiText.h"

namespace dra::metrics {
namespace {

// Qualified names as the API allows them: an optional DNS-subdomain domain,
// then a C identifier of at most 32 characters.
bool ValidName(std::string_view entry) {
  auto slash = entry.rfind('/');
  std::string_view name = slash == std::string_view::npos ? entry : entry.substr(slash + 1);
  std::string_view domain = slash == std::string_view::npos ? "" : entry.substr(0, slash);
  if (name.empty() || name.size() > 32 || std::isdigit(static_cast<unsigned char>(name[0]))) {
    return false;
  }
  for (char c : name) {
    if (std::isalnum(static_cast<unsigned char>(c)) == 0 && c != '_') return false;
  }
  for (char c : domain) {
    if (std::islower(static_cast<unsigned char>(c)) == 0 &&
        std::isdigit(static_cast<unsigned char>(c)) == 0 && c != '-' && c != '.') {
      return false;
    }
  }
  return slash == std::string_view::npos || !domain.empty();
}

}  // namespace

kube::Result<std::vector<std::string>> DeviceAttributeList::Parse(std::string_view text) {
  std::vector<std::string> out;
  std::set<std::string> labels;
  while (!text.empty()) {
    auto comma = text.find(',');
    std::string_view entry = kube::AsciiText::Trim(text.substr(0, comma));
    text = comma == std::string_view::npos ? "" : text.substr(comma + 1);
    if (entry.empty()) continue;
    if (!ValidName(entry)) {
      return kube::Status(kube::StatusCode::kInvalidArgument,
                          "\"" + std::string(entry) + "\" is not a device attribute name");
    }
    std::string label = DeviceInfoCollector::LabelFor(std::string(entry));
    if (!labels.insert(label).second) {
      return kube::Status(kube::StatusCode::kInvalidArgument,
                          "\"" + std::string(entry) + "\" gives label " + label + " twice");
    }
    out.emplace_back(entry);
  }
  return out;
}

}  // namespace dra::metrics
