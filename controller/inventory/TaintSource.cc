#include "controller/inventory/TaintSource.h"

namespace dra::inventory {

std::string_view TaintSource::RuleName() const {
  return rule ? std::string_view(rule->meta.name) : std::string_view();
}

std::string_view TaintSource::Label() const { return driver() ? "driver" : "rule"; }

std::string TaintSource::Describe() const {
  if (driver()) return "driver";
  return "rule " + std::string(RuleName());
}

std::string TaintSource::TaintText(const api::DeviceTaint& taint) {
  return taint.key + (taint.value.empty() ? "" : "=" + taint.value) + ":" + taint.EffectName();
}

std::string TaintSource::TaintText(const api::DeviceTaint& taint, const TaintSource& source) {
  return TaintText(taint) + " (" + source.Describe() + ")";
}

}  // namespace dra::inventory
