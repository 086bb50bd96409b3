#pragma once

#include <simdjson.h>

#include <string>

namespace dra::extended {

// Whether a Pod is going away and why: its metadata.deletionTimestamp and its
// DisruptionTarget condition (status True), which the controller that evicts
// it sets before deleting it (the device-taint eviction controller: reason
// DeletionByDeviceTaintManager, for a NoExecute device taint).
struct PodTermination {
  std::string deletion_timestamp;  // "" while no deletion was requested
  std::string disruption_reason;   // "" without a DisruptionTarget condition
  std::string disruption_message;

  bool terminating() const { return !deletion_timestamp.empty() || !disruption_reason.empty(); }
  // "evicted: REASON: MESSAGE; deleted at TIME", "" when not terminating.
  std::string Describe() const;

  static PodTermination FromJson(simdjson::dom::element pod);
};

}  // namespace dra::extended
