// Fuzz target: quantity and label selector parsing never crash, and what
// parses satisfies the documented invariants. Each input is tried as a
// quantity and as a selector; a violated invariant traps.
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "src/api/LabelSelector.h"
#include "src/api/Quantity.h"

namespace {

void Check(bool invariant) {
  if (!invariant) __builtin_trap();
}

void CheckQuantity(std::string_view text) {
  auto quantity = kube::Quantity::Parse(text);
  if (!quantity.ok()) {
    Check(quantity.status().code() == kube::StatusCode::kParseError);
    return;
  }
  const kube::Quantity& q = *quantity;
  auto again = kube::Quantity::Parse(q.ToString());
  Check(again.ok() && *again == q && again->ToString() == q.ToString());
  Check(q.Compare(q) == 0 && q.Sign() == q.Compare(kube::Quantity()));
  Check(q.IsZero() == (q.Sign() == 0));
  if (auto units = q.AsInt64()) Check(kube::Quantity::FromInt64(*units) == q);
  double approximate = q.AsApproximateDouble();
  Check((approximate > 0) == (q.Sign() > 0) && (approximate < 0) == (q.Sign() < 0));
  if (auto doubled = q.Add(q); doubled.ok()) Check(*doubled->Sub(q) == q);
  Check(q.Sub(q).ok() && q.Sub(q)->IsZero());
}

// A few label sets built from the input so that matching is exercised on
// keys and values the selector may mention.
std::map<std::string, std::string> LabelsFrom(std::string_view text, size_t variant) {
  std::map<std::string, std::string> labels;
  size_t start = 0;
  for (size_t i = 0; i <= text.size(); ++i) {
    if (i < text.size() && text[i] != ',' && text[i] != '=' && text[i] != ' ') continue;
    std::string token(text.substr(start, i - start));
    if (!token.empty() && (i + variant) % 3 != 0) labels[token] = variant % 2 ? token : "";
    start = i + 1;
  }
  return labels;
}

void CheckSelector(std::string_view text) {
  auto selector = kube::LabelSelector::Parse(text);
  if (!selector.ok()) {
    Check(selector.status().code() == kube::StatusCode::kParseError);
    return;
  }
  std::string canonical = selector->ToString();
  auto again = kube::LabelSelector::Parse(canonical);
  Check(again.ok() && *again == *selector && again->ToString() == canonical);
  Check(selector->Empty() == canonical.empty());
  for (size_t variant = 0; variant < 4; ++variant) {
    auto labels = LabelsFrom(text, variant);
    Check(selector->Matches(labels) == again->Matches(labels));
  }
  if (selector->Empty()) Check(selector->Matches({{"any", "thing"}}));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  CheckQuantity(text);
  CheckSelector(text);
  return 0;
}
