#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "src/base/Result.h"

namespace dra::alerts {

// One alert of an Alertmanager webhook notification.
struct Alert {
  bool firing = false;  // status "firing"; false: "resolved"
  std::map<std::string, std::string> labels;
  std::map<std::string, std::string> annotations;
  int64_t starts_at_ms = 0;
  int64_t ends_at_ms = 0;  // Go's zero time (before 1970) while firing
  std::string fingerprint;

  // The label's value, or "".
  std::string Label(const std::string& name) const;
  // When this notification's news happened: startsAt while firing, endsAt
  // once resolved. Orders notifications of one alert.
  int64_t EventMillis() const { return firing ? starts_at_ms : ends_at_ms; }
};

// The Alertmanager webhook body, payload version "4"
// (https://prometheus.io/docs/alerting/latest/configuration/#webhook_config).
class AlertmanagerPayload {
 public:
  std::string receiver;
  std::string group_key;
  std::vector<Alert> alerts;

  // The most alerts one notification may carry; more is refused whole.
  static constexpr size_t kMaxAlerts = 1000;
  // A notification nests four levels (notification, alerts, alert, labels)
  // and holds some tens of values per alert. Bodies past these limits are
  // refused before they are parsed: a parsed value costs ~100 bytes, so the
  // limits bound a notification's cost at a few tens of MB.
  static constexpr size_t kMaxDepth = 16;
  static constexpr size_t kMaxValues = 100000;

  // kInvalidArgument naming the first thing wrong: not JSON, another
  // version, no alerts array, an alert without status firing|resolved, labels
  // or annotations that are not string maps, a timestamp that is not RFC 3339,
  // JSON nested deeper than kMaxDepth or holding more than kMaxValues values.
  static kube::Result<AlertmanagerPayload> Parse(std::string_view body);
};

}  // namespace dra::alerts
