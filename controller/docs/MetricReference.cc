#include "controller/docs/MetricReference.h"

#include <prometheus/registry.h>

#include <memory>

#include "controller/alerts/AlertMetrics.h"
#include "controller/app/Controller.h"
#include "controller/docs/MarkdownTable.h"
#include "controller/extended/FindingReporter.h"
#include "controller/extended/LeakReconciler.h"
#include "controller/feature/FeatureStates.h"
#include "controller/health/ExtendedResourcePodEvictor.h"
#include "controller/health/HealthMetrics.h"
#include "controller/inventory/Inventory.h"
#include "controller/kubelet/KubeletHealthMetrics.h"
#include "controller/metrics/AllocationMetrics.h"
#include "controller/metrics/TextExposition.h"
#include "src/base/RealClock.h"
#include "src/cache/HandlerMetrics.h"
#include "src/cache/Reflector.h"
#include "src/cache/Store.h"
#include "src/client/RestClientMetrics.h"
#include "src/events/EventRecorderMetrics.h"
#include "src/leader/LeaderElector.h"
#include "src/queue/ControllerMetrics.h"
#include "src/queue/PrometheusWorkQueueMetrics.h"

namespace dra::docs {
namespace {

using Registry = std::shared_ptr<prometheus::Registry>;

// A reflector that is never started reads nothing into its sink.
class UnusedSink : public kube::ReflectorSink {
 public:
  void BeginReplace() override {}
  kube::Status ReplaceItem(const kube::RawObject&) override { return kube::Status::Ok(); }
  void EndReplace(const std::string&) override {}
  void ForgetItem(const std::string&) override {}
  void AbortReplace() override {}
  kube::Status Apply(kube::WatchEventType, const kube::RawObject&) override {
    return kube::Status::Ok();
  }
  void Remove(const std::string&) override {}
};

// The runtime's families: what the Manager registers for its client, each
// informer, leader election, each Event recorder and each controller.
kube::Status RegisterRuntimeFamilies(const Registry& registry) {
  kube::RestClientMetrics rest(registry, "https://api.example");
  kube::HandlerMetrics handlers(registry, "resource");
  UnusedSink sink;
  kube::ReflectorOptions reflector_options;
  reflector_options.metrics = registry;
  kube::Reflector reflector(nullptr, sink, reflector_options);
  kube::LeaderElectionConfig election;
  election.name = "dra-controller";
  election.metrics = registry;
  kube::LeaderElector elector(std::shared_ptr<kube::ResourceLock>(), election);
  kube::EventRecorderMetrics events(registry);
  auto controller = kube::ControllerMetrics::Create(registry, "controller");
  if (!controller.ok()) return controller.status();
  auto queue =
      kube::PrometheusWorkQueueMetrics::Create(registry, "controller", kube::RealClock::Shared());
  return queue.status();
}

// dra-controller's own: build info, the inventory's selector errors, device
// health (with its extended-resource evictions), the kubelet source, the
// Alertmanager webhook and the extended-resource reconcilers.
void RegisterControllerFamilies(const Registry& registry) {
  app::Controller::RegisterBuildInfo(registry);
  feature::FeatureStates::Register(registry);
  inventory::Inventory inventory(registry);
  health::HealthMetrics health(registry);
  kube::Store<api::DeviceTaintRule> rules;
  health::ExtendedResourcePodEvictor evictions(rules, inventory, nullptr, nullptr,
                                               kube::RealClock::Shared(), {}, registry);
  kubelet::KubeletHealthMetrics kubelet(registry);
  alerts::AlertMetrics alerts(registry);
  extended::FindingReporter findings({}, registry);
  kube::Store<api::ResourceClaim> claims;
  kube::Store<api::PodView> pods;
  extended::LeakReconciler leaks(claims, pods, {}, kube::RealClock::Shared(),
                                 std::chrono::seconds(1), registry);
}

std::string Labels(const std::vector<std::string>& labels) {
  std::string out;
  for (const auto& label : labels) out += (out.empty() ? "" : ", ") + MarkdownTable::Code(label);
  return out;
}

std::string Table(const std::vector<MetricReference::Family>& families) {
  MarkdownTable table({"Name", "Type", "Labels", "Help"});
  for (const auto& f : families) {
    table.AddRow({MarkdownTable::Code(f.name), f.type, Labels(f.labels), f.help});
  }
  return table.Render();
}

}  // namespace

kube::Result<std::vector<MetricReference::Family>> MetricReference::RegisteredFamilies() {
  auto registry = std::make_shared<prometheus::Registry>();
  KUBE_RETURN_IF_ERROR(RegisterRuntimeFamilies(registry));
  RegisterControllerFamilies(registry);
  KUBE_RETURN_IF_ERROR(kube::MetricFamilyCache::CheckLabels(registry));
  return kube::MetricFamilyCache::Describe(registry);
}

std::vector<MetricReference::Family> MetricReference::AllocationFamilies() {
  std::vector<metrics::TextExposition::FamilyHeader> headers;
  {
    metrics::TextExposition::Recorder recorder(headers);
    inventory::Inventory inventory;
    metrics::MetricsSources sources;
    sources.inventory = &inventory;
    sources.pods = [] { return std::vector<std::shared_ptr<const api::PodView>>{}; };
    sources.nodes = [] { return std::vector<std::shared_ptr<const api::NodeView>>{}; };
    (void)metrics::AllocationMetrics(std::move(sources)).Render();
  }
  std::vector<Family> families;
  for (auto& header : headers) {
    families.push_back(
        {std::move(header.name), "gauge", std::move(header.help), std::move(header.label_names)});
  }
  return families;
}

kube::Result<std::string> MetricReference::Markdown() {
  auto registered = RegisteredFamilies();
  if (!registered.ok()) return registered.status();
  return "# Metrics reference\n\n"
         "Generated from the registered families by `dra-controller docs metrics`; after "
         "changing a metric, run `make docs`.\n\n"
         "Every family `dra-controller run` serves on `/metrics` (see [Metrics and "
         "alerts](../metrics.md) for how to read them).\n\n"
         "## Registered families\n\n"
         "Kept in the process's Prometheus registry. A series appears once its subject exists: "
         "the `workqueue_*` and `controller_runtime_*` families once a controller is registered, "
         "`rest_client_*` after the first request, counters by label value on their first "
         "increment.\n\n" +
         Table(*registered) +
         "\n## Allocation families\n\n"
         "Computed from the device inventory and rendered after the registered families "
         "whenever what they read changed, in this order.\n\n" +
         Table(AllocationFamilies());
}

}  // namespace dra::docs
