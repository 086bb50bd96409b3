// Fuzz target: both forms of a label selector. Input that starts with '{' is
// read as a metav1.LabelSelector object (FromJson), anything else as the
// ?labelSelector= string (Parse). Neither may crash; what is accepted must
// survive the canonical string form: Parse(ToString()) is an equal selector
// that matches the same label sets. A broken promise traps.
#include <cstddef>
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "src/api/LabelSelector.h"

namespace {

void Check(bool invariant) {
  if (!invariant) __builtin_trap();
}

// Label sets built from the selector's own keys and values, so that matching
// meets the keys it mentions with present, absent and differing values.
std::map<std::string, std::string> LabelsFor(const kube::LabelSelector& selector, size_t variant) {
  std::map<std::string, std::string> labels;
  size_t i = 0;
  for (const auto& r : selector.requirements()) {
    ++i;
    if ((i + variant) % 3 == 0) continue;
    if (r.values.empty()) {
      labels[r.key] = "";
    } else {
      labels[r.key] = r.values[(i + variant) % r.values.size()];
      if (variant % 2 == 1) labels[r.key] += "x";
    }
  }
  return labels;
}

void CheckAccepted(const kube::LabelSelector& selector) {
  std::string canonical = selector.ToString();
  auto again = kube::LabelSelector::Parse(canonical);
  Check(again.ok());
  Check(*again == selector && again->ToString() == canonical);
  Check(selector.Empty() == canonical.empty());
  for (size_t variant = 0; variant < 4; ++variant) {
    auto labels = LabelsFor(selector, variant);
    Check(selector.Matches(labels) == again->Matches(labels));
  }
  if (selector.Empty()) Check(selector.Matches({{"any", "thing"}}));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  if (!text.empty() && text.front() == '{') {
    auto json = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (json.is_discarded()) return 0;
    auto selector = kube::LabelSelector::FromJson(json);
    if (selector.ok()) CheckAccepted(*selector);
    return 0;
  }
  auto selector = kube::LabelSelector::Parse(text);
  if (!selector.ok()) {
    Check(selector.status().code() == kube::StatusCode::kParseError);
    return 0;
  }
  CheckAccepted(*selector);
  return 0;
}
