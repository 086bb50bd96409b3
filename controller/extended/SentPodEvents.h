#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "src/base/Result.h"
#include "src/client/RestClient.h"

namespace dra::extended {

// The Events with one reason that `component` already sent to Pods, as the
// API server keeps them (until their TTL, an hour by default): Pod uid ->
// the newest one's message. Read once by a controller that starts, so that
// it does not send a Pod again the Event the Pod already has.
class SentPodEvents {
 public:
  using Messages = std::map<std::string, std::string>;

  // Every page of GET /api/v1/events?fieldSelector=reason=REASON,involvedObject.kind=Pod.
  static kube::Result<Messages> List(kube::RestClient& client, std::string_view reason,
                                     std::string_view component);
  // The newest message per Pod uid of an EventList, counting only Events of
  // `component` (source.component or reportingComponent).
  static void Add(const nlohmann::json& list, std::string_view component, Messages& messages,
                  std::map<std::string, std::string>& newest);
};

}  // namespace dra::extended
