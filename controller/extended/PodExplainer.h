#pragma once

#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "controller/api/NodeView.h"
#include "controller/api/PodView.h"
#include "controller/api/ResourceClaim.h"
#include "controller/extended/ExtendedResourceMapping.h"
#include "controller/extended/MappingFinding.h"
#include "controller/extended/PodExplanation.h"
#include "controller/inventory/Inventory.h"

namespace dra::extended {

// Explains a Pod's extended resources the way the v1.37.2 scheduler's DRA
// filter sees them (filterExtendedResources): per node, device plugin or DRA;
// for DRA, the implicit claim's requests, whether the node has enough free
// devices of each class and, if so, whether the claim can be allocated as a
// whole there (Inventory::CheckClaim). A resource kube-scheduler has lost
// the mapping of (the order hazard) fits on no node without a device plugin
// for it. Pure reads of its inputs.
class PodExplainer {
 public:
  using ClaimLookup = std::function<std::shared_ptr<const api::ResourceClaim>(
      const std::string& namespace_name, const std::string& name)>;

  struct Inputs {
    const ExtendedResourceMapping& mapping;
    const std::vector<std::shared_ptr<const api::NodeView>>& nodes;
    const inventory::Inventory& inventory;
    ClaimLookup claims;
    std::vector<MappingFinding> findings;  // duplicates and hazards to name
    // Seconds since the epoch, to tell a hazard the Pod shows from one
    // repaired since (SchedulerMappingEvidence::RetryPending).
    int64_t now = 0;
  };

  static PodExplanation Explain(const api::PodView& pod, const Inputs& in);

  // "0/N nodes: A have no device of class C, ..." (at most `max_groups` reasons).
  static std::string Summarize(const std::vector<NodeVerdict>& nodes, size_t max_groups = 5);

 private:
  // What one explanation computes once and reuses across nodes: device
  // counts per node by class, and the devices needed per class for each set
  // of resources a node serves by DRA (most nodes share one set).
  struct CountCache {
    std::map<std::string, std::map<std::string, inventory::DeviceCounts>> counts;
    std::map<std::set<std::string>, std::map<std::string, int64_t>> needed;
    std::map<std::set<std::string>, api::ResourceClaim> claims;  // the implicit claim per set
    // Resources kube-scheduler has no DeviceClass for (SchedulerUnmapped).
    std::set<std::string> scheduler_unmapped;
  };

  static NodeVerdict Judge(const api::PodView& pod, const api::NodeView& node,
                           const std::vector<std::string>& resources, const Inputs& in,
                           CountCache& counts);
  static void CheckTogether(const api::ResourceClaim& claim, const std::string& node,
                            const Inputs& in, NodeVerdict& verdict);
  static void Notes(const std::vector<std::string>& requested, const Inputs& in,
                    PodExplanation& out);
  // The resources the scheduler lacks a mapping for: those of the order
  // hazards in `in.findings`, and those the Pod's own PodScheduled message
  // shows (SchedulerMappingEvidence, noted in `out`), so that a controller
  // that has just started, and `explain`, see them too.
  static std::set<std::string> SchedulerUnmapped(const api::PodView& pod, const Inputs& in,
                                                 PodExplanation& out);
  static void JoinClaim(const api::PodView& pod, const Inputs& in, PodExplanation& out);
  static std::string NoExecuteTaints(const inventory::Inventory& inventory,
                                     const inventory::DeviceKey& key);
};

}  // namespace dra::extended
