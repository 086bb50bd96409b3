#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "controller/extended/ImplicitClaim.h"
#include "controller/inventory/Inventory.h"

namespace dra::extended {

// Why one node can or cannot serve a Pod's DRA-backed extended resources.
struct NodeVerdict {
  enum class Reason {
    kFits,           // enough free devices of every class
    kNoDevice,       // the node has no device of `device_class`
    kNotEnoughFree,  // fewer free devices of `device_class` than `needed`
    kClassUnusable,  // a selector of `device_class` fails here (counts.selector_error)
    kDevicePlugin,   // allocatable[resource] > 0: the scheduler uses the device plugin
    kNoProvider,     // neither a device plugin nor a DeviceClass serves `resource`
    kCordoned,       // spec.unschedulable
    // Enough free devices of every class, but the implicit claim cannot be
    // allocated as a whole (Inventory::CheckClaim, e.g. a GPU and its halves
    // share counters): `detail` says why.
    kNotTogether,
    // A DeviceClass serves `resource`, but kube-scheduler's own mapping lacks
    // it (the order hazard): it counts `resource` against allocatable here.
    kSchedulerUnmapped,
  };

  std::string node;
  Reason reason = Reason::kFits;
  std::string device_class;
  std::string resource;
  int64_t needed = 0;
  inventory::DeviceCounts counts;
  std::string detail;  // kNotTogether: CheckClaim's reason
};

// What `explain pod` reports and the controller puts in its Event.
struct PodExplanation {
  std::string pod;  // "<namespace>/<name>"
  std::string phase;
  std::string node_name;                   // set once scheduled
  std::vector<std::string> dra_resources;  // mapped extended resources the Pod asks for
  ImplicitClaim translation;       // the claim's requests on a node serving all of them by DRA
  std::vector<std::string> notes;  // missing class, lost duplicate, order hazard
  std::vector<NodeVerdict> nodes;  // one per node, sorted by node name
  int fitting_nodes = 0;
  std::string summary;            // "0/N nodes: ..."
  std::string scheduler_message;  // the PodScheduled condition's message
  // Scheduled Pods: the implicit claim and what it holds.
  std::string claim_name;
  std::vector<std::string> devices;   // "driver/pool/device (request)"
  std::vector<std::string> problems;  // claim missing, unallocated, requests differ
  // "" unless the Pod is being evicted or deleted: why (PodTermination::Describe).
  std::string termination;

  bool scheduled() const { return !node_name.empty(); }
  bool terminating() const { return !termination.empty(); }
  // Scheduled, or at least one node serves the Pod's DRA resources.
  bool schedulable() const { return scheduled() || fitting_nodes > 0; }
};

}  // namespace dra::extended
