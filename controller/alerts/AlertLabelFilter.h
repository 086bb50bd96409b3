#pragma once

#include <map>
#include <string>
#include <string_view>

#include "controller/alerts/AlertmanagerPayload.h"
#include "src/base/Result.h"

namespace dra::alerts {

// The label values an alert must carry to be believed
// (--alertmanager-required-labels), e.g. job=nvidia-dcgm-exporter,
// namespace=gpu-operator: the labels Prometheus attaches to the DCGM
// exporter's series and that a rule without aggregation passes on to its
// alerts. An alert from a series of the same name that another job exports
// lacks them. Empty: every alert passes. Immutable; thread-safe.
class AlertLabelFilter {
 public:
  AlertLabelFilter() = default;

  // "name=value,name=value"; "" for none. kInvalidArgument for a pair
  // without "=", an empty name, or a name given twice.
  static kube::Result<AlertLabelFilter> Parse(std::string_view text);

  // Ok, or kForbidden naming the first label the alert lacks (its
  // value quoted and bounded: it is outside input).
  kube::Status Check(const Alert& alert) const;

  bool empty() const { return required_.empty(); }
  const std::map<std::string, std::string>& required() const { return required_; }

 private:
  std::map<std::string, std::string> required_;
};

}  // namespace dra::alerts
