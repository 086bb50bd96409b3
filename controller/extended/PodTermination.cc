#include "controller/extended/PodTermination.h"

#include "controller/api/JsonWalk.h"
#include "src/cache/JsonFields.h"

namespace dra::extended {

using kube::json::Field;
using kube::json::StringOr;

PodTermination PodTermination::FromJson(simdjson::dom::element pod) {
  PodTermination out;
  out.deletion_timestamp = StringOr(Field(pod, "metadata"), "deletionTimestamp");
  api::json::ForEachElement(Field(Field(pod, "status"), "conditions"),
                            [&](simdjson::dom::element c) {
                              if (StringOr(c, "type") != "DisruptionTarget") return;
                              if (StringOr(c, "status") != "True") return;
                              out.disruption_reason = StringOr(c, "reason");
                              out.disruption_message = StringOr(c, "message");
                              if (out.disruption_reason.empty()) out.disruption_reason = "?";
                            });
  return out;
}

std::string PodTermination::Describe() const {
  std::string out;
  if (!disruption_reason.empty()) {
    out = "evicted: " + disruption_reason;
    if (!disruption_message.empty()) out += ": " + disruption_message;
  }
  if (!deletion_timestamp.empty()) {
    out += (out.empty() ? "" : "; ") + std::string("deleted at ") + deletion_timestamp;
  }
  return out;
}

}  // namespace dra::extended
