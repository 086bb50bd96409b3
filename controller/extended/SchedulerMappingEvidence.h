#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "controller/api/NodeView.h"
#include "controller/api/PodView.h"
#include "controller/extended/ExtendedResourceMapping.h"
#include "controller/extended/MappingFinding.h"

namespace dra::extended {

// A resource kube-scheduler treats as a plain extended resource although a
// DeviceClass serves it: the scheduler's own mapping lacks it (the order
// hazard of OrderHazardTracker, after the controller restarted or another
// replica took over and no longer remembers the departed winner).
struct UnmappedResource {
  std::string resource;
  std::string device_class;  // the class that serves it by the DeviceClasses
  std::string pod;           // "<namespace>/<name>" of the Pod that shows it
  int refused_nodes = 0;     // nodes the scheduler found "Insufficient"
  // When the class was last touched so that kube-scheduler re-reads it
  // (its refresh annotation), if ever.
  std::optional<int64_t> class_refreshed_at;

  friend bool operator==(const UnmappedResource&, const UnmappedResource&) = default;
};

// Reads the scheduler's mapping off a Pending Pod: with the mapping, the
// scheduler's NodeResourcesFit leaves a DRA-served resource to the DRA plugin
// on nodes without it in allocatable; without it, it reports
// "N Insufficient <resource>" on them. So a PodScheduled message with more
// such nodes than nodes serving the resource by device plugin, for a
// resource a DeviceClass names, is the hazard observed in the cluster, which
// any replica reads the same way. Pure.
class SchedulerMappingEvidence {
 public:
  // How long after a class was touched kube-scheduler has surely retried a
  // Pod it refused before: v1.37.2 moves a Pod that stayed unschedulable for
  // podMaxInUnschedulablePodsDuration (5 minutes by default) back to its
  // queues, checking every 30 seconds (scheduling_queue.go).
  static constexpr std::chrono::seconds kSchedulerRetryWithin{5 * 60 + 30};

  static std::vector<UnmappedResource> FromPod(
      const api::PodView& pod, const ExtendedResourceMapping& mapping,
      const std::vector<std::shared_ptr<const api::NodeView>>& nodes);

  // resource -> N for every "N Insufficient <resource>" of the message's
  // filter part (before "preemption:").
  static std::map<std::string, int> InsufficientCounts(std::string_view message);

  // The order-hazard finding on the class, for the mapping's findings.
  static MappingFinding Finding(const UnmappedResource& unmapped);
  static std::string Message(const UnmappedResource& unmapped);

  // Whether the class was touched less than kSchedulerRetryWithin before
  // `now` (seconds since the epoch): the refusal may predate the repair, and
  // kube-scheduler may not have retried the Pod since.
  static bool RetryPending(const UnmappedResource& unmapped, int64_t now);
  // What `explain` says of it at `now`: while RetryPending, when the class
  // was touched and by when kube-scheduler retries the Pod; else Message().
  static std::string Note(const UnmappedResource& unmapped, int64_t now);
  // The order-hazard findings the Pending Pods show at `now`, one per class
  // and resource, leaving out those whose RetryPending: what `mapping` and
  // `check` report, from the evidence `explain` reads.
  static std::vector<MappingFinding> Findings(
      const std::vector<std::shared_ptr<const api::PodView>>& pods,
      const ExtendedResourceMapping& mapping,
      const std::vector<std::shared_ptr<const api::NodeView>>& nodes, int64_t now);
};

}  // namespace dra::extended
