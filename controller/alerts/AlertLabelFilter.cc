#include "controller/alerts/AlertLabelFilter.h"

#include "src/base/AsciiText.h"
#include "src/base/QuoteForMessage.h"

namespace dra::alerts {
namespace {

kube::Status Invalid(const std::string& why) {
  return kube::Status(kube::StatusCode::kInvalidArgument, "--alertmanager-required-labels: " + why);
}

}  // namespace

kube::Result<AlertLabelFilter> AlertLabelFilter::Parse(std::string_view text) {
  AlertLabelFilter filter;
  while (!kube::AsciiText::Trim(text).empty()) {
    size_t comma = text.find(',');
    std::string_view pair = text.substr(0, comma);
    text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
    size_t eq = pair.find('=');
    if (eq == std::string_view::npos) {
      return Invalid(kube::QuoteForMessage(pair) + " is not name=value");
    }
    std::string name(kube::AsciiText::Trim(pair.substr(0, eq)));
    std::string value(kube::AsciiText::Trim(pair.substr(eq + 1)));
    if (name.empty()) return Invalid(kube::QuoteForMessage(pair) + " has no label name");
    if (!filter.required_.emplace(std::move(name), std::move(value)).second) {
      return Invalid("label " + kube::QuoteForMessage(pair.substr(0, eq)) + " given twice");
    }
  }
  return filter;
}

kube::Status AlertLabelFilter::Check(const Alert& alert) const {
  for (const auto& [name, value] : required_) {
    auto it = alert.labels.find(name);
    if (it != alert.labels.end() && it->second == value) continue;
    std::string has = it == alert.labels.end() ? "no " + name + " label"
                                               : name + "=" + kube::QuoteForMessage(it->second);
    return kube::Status(kube::StatusCode::kForbidden,
                        "alert " + kube::QuoteForMessage(alert.Label("alertname")) + " has " + has +
                            ", not the required " + name + "=" + kube::QuoteForMessage(value) +
                            " (--alertmanager-required-labels)");
  }
  return kube::Status::Ok();
}

}  // namespace dra::alerts
