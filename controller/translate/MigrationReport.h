#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "controller/extended/ExtendedResourceMapping.h"
#include "controller/translate/NodeFacts.h"

namespace dra::translate {

// The objects migration-report reads (as the API server returns them).
struct ClusterObjects {
  std::vector<nlohmann::json> deployments, statefulsets, daemonsets, jobs, cronjobs, pods;
  std::vector<NodeFacts> nodes;
};

// One workload's use of one extended resource.
struct MigrationRow {
  std::string ns, kind, name;
  int64_t replicas = 0;
  std::string resource;
  int64_t per_pod = 0;       // devices one Pod holds (init containers reuse, as in the scheduler)
  std::string device_class;  // the class backing the name, "" when none
  size_t candidate_nodes = 0;
  size_t device_plugin_nodes = 0;      // candidates where a device plugin advertises the name
  std::vector<std::string> pinned_by;  // "nodeName", "nodeSelector", "nodeAffinity"
  // "count-only", "explicit-claim", "device-plugin", or "recreate-from-owner"
  // (a Pod whose owner, of a kind the report does not list, recreates it)
  std::string advice;
  std::string owner;    // Pods: "Kind/name" of the controlling owner
  std::string command;  // the translate invocation, for explicit-claim rows
};

// The seed's first migration steps against a live cluster: every workload
// (Deployment, StatefulSet, DaemonSet, Job not owned by a CronJob, CronJob,
// bare Pod, Pod of another owner) that requests an extended resource, what backs the name, and
// whether it only needs a count (it can stay on the extended resource) or is
// pinned to specific hardware (a candidate for an explicit claim).
class MigrationReport {
 public:
  static std::vector<MigrationRow> Build(const ClusterObjects& objects,
                                         const extended::ExtendedResourceMapping& mapping);
  static std::string Table(const std::vector<MigrationRow>& rows);
  static nlohmann::json Json(const std::vector<MigrationRow>& rows);

 private:
  static void AddWorkload(const nlohmann::json& object, const std::string& kind,
                          const ClusterObjects& objects,
                          const extended::ExtendedResourceMapping& mapping,
                          std::vector<MigrationRow>& rows);
};

}  // namespace dra::translate
