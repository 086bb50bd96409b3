#include "controller/cli/MigrationReportCommand.h"

#include <iterator>

#include "controller/api/NodeView.h"
#include "controller/api/PodView.h"
#include "controller/cli/ClusterConnection.h"
#include "controller/translate/ClassSource.h"
#include "src/client/ListPager.h"
#include "src/client/ResourceType.h"

namespace dra::cli {
namespace {

using nlohmann::json;

kube::Status ListInto(kube::RestClient& client, const kube::ResourceType& type,
                      const std::string& ns, std::vector<json>& out) {
  auto items = kube::ListPager::Of(client, type, ns).ListItems();
  if (!items.ok()) return items.status().WithContext("listing " + type.Describe());
  out.insert(out.end(), std::make_move_iterator(items->begin()),
             std::make_move_iterator(items->end()));
  return kube::Status::Ok();
}

}  // namespace

MigrationReportCommand::MigrationReportCommand() {
  flags_.String("output", "table", "table or json");
  flags_.Short('o', "output");
  flags_.String("namespace", "", "only this namespace (default: all)");
  flags_.Short('n', "namespace");
  ClusterConnection::DeclareFlags(flags_);
}

std::string MigrationReportCommand::Help() const {
  return "List every Deployment, StatefulSet, DaemonSet, Job, CronJob and other Pod that requests\n"
         "an extended resource: namespace, replicas, devices per Pod and in total, the\n"
         "DeviceClass that backs the name (or <none>), on how many of the nodes it can land on a\n"
         "device plugin still advertises it, and what to do: count-only (keep the extended\n"
         "resource; DRA serves it through the class), explicit-claim (pinned by nodeName,\n"
         "nodeSelector or node affinity to specific hardware: the translate invocation is\n"
         "printed; a bare Pod counts as pinned by nodeName only when its author set it, not\n"
         "the scheduler), device-plugin (no DeviceClass maps the name), recreate-from-owner\n"
         "(a Pod whose owner, of a kind not listed here, recreates it: migrate the owner's\n"
         "Pod template). Read-only: it lists\n"
         "deployments, statefulsets, daemonsets, jobs, cronjobs, pods, nodes and deviceclasses.\n\n"
         "Usage:\n  dra-controller migration-report [-n NAMESPACE] [-o table|json]\n\n" +
         flags_.Usage();
}

kube::Result<translate::ClusterObjects> MigrationReportCommand::Read(kube::RestClient& client,
                                                                     const std::string& ns) {
  translate::ClusterObjects objects;
  const std::vector<std::pair<kube::ResourceType, std::vector<json>*>> lists = {
      {{"apps", "v1", "deployments", true, "Deployment"}, &objects.deployments},
      {{"apps", "v1", "statefulsets", true, "StatefulSet"}, &objects.statefulsets},
      {{"apps", "v1", "daemonsets", true, "DaemonSet"}, &objects.daemonsets},
      {{"batch", "v1", "jobs", true, "Job"}, &objects.jobs},
      {{"batch", "v1", "cronjobs", true, "CronJob"}, &objects.cronjobs},
      {api::PodView::kResource, &objects.pods},
  };
  for (const auto& [type, into] : lists) KUBE_RETURN_IF_ERROR(ListInto(client, type, ns, *into));
  std::vector<json> nodes;
  KUBE_RETURN_IF_ERROR(ListInto(client, api::NodeView::kResource, "", nodes));
  for (const auto& node : nodes) objects.nodes.push_back(translate::NodeFacts::FromJson(node));
  return objects;
}

int MigrationReportCommand::Run(std::span<const std::string> args, CommandIo io) {
  kube::FlagSet flags = flags_;
  if (kube::Status parsed = flags.Parse(args); !parsed.ok()) {
    return UsageError(io, parsed.message());
  }
  if (!flags.positional().empty()) {
    return UsageError(io, "unexpected argument " + flags.positional()[0]);
  }
  const std::string& output = flags.Get("output");
  if (output != "table" && output != "json") return UsageError(io, "-o must be table or json");
  auto connection = ClusterConnection::Open(flags);
  if (!connection.ok()) {
    io.err << "error: " << connection.status().ToString() << "\n";
    return kExitFailure;
  }
  auto classes = translate::ClassSource::FromCluster(connection->client());
  if (!classes.ok()) {
    io.err << "error: " << classes.status().ToString() << "\n";
    return kExitFailure;
  }
  auto objects = Read(connection->client(), flags.Get("namespace"));
  if (!objects.ok()) {
    io.err << "error: " << objects.status().ToString() << "\n";
    return kExitFailure;
  }
  auto rows = translate::MigrationReport::Build(*objects,
                                                extended::ExtendedResourceMapping::Build(*classes));
  if (output == "json") {
    io.out << translate::MigrationReport::Json(rows).dump(2) << "\n";
  } else if (rows.empty()) {
    io.out << "no workload requests an extended resource\n";
  } else {
    io.out << translate::MigrationReport::Table(rows);
  }
  return kExitOk;
}

}  // namespace dra::cli
