#include "src/manager/ManagedController.h"

#include <algorithm>

#include "src/base/RealClock.h"
#include "src/queue/PrometheusWorkQueueMetrics.h"

namespace kube {

Result<std::unique_ptr<ManagedController>> ManagedController::Create(
    ManagedControllerOptions options, std::shared_ptr<Reconciler> reconciler,
    std::shared_ptr<prometheus::Registry> registry, std::shared_ptr<Clock> clock) {
  if (options.name.empty()) return Status(StatusCode::kInvalidArgument, "controller needs a name");
  if (!clock) clock = RealClock::Shared();
  WorkQueue::Options queue_options;
  queue_options.clock = clock;
  if (registry) {
    auto metrics = PrometheusWorkQueueMetrics::Create(registry, options.name, clock);
    if (!metrics.ok()) return metrics.status().WithContext("controller " + options.name);
    queue_options.metrics = std::move(*metrics);
  }
  auto queue = std::make_shared<WorkQueue>(std::move(queue_options));
  ControllerLoop::Options loop_options;
  loop_options.name = options.name;
  loop_options.workers = options.workers;
  loop_options.registry = std::move(registry);
  auto loop = ControllerLoop::Create(loop_options, queue, std::move(reconciler));
  if (!loop.ok()) return loop.status().WithContext("controller " + options.name);
  return std::unique_ptr<ManagedController>(
      new ManagedController(std::move(options), std::move(queue), std::move(*loop)));
}

ManagedController::ManagedController(ManagedControllerOptions options,
                                     std::shared_ptr<WorkQueue> queue,
                                     std::unique_ptr<ControllerLoop> loop)
    : options_(std::move(options)), queue_(std::move(queue)), loop_(std::move(loop)) {}

void ManagedController::AddDependency(InformerDependency dependency) {
  if (!options_.waits_for) return;  // waits for every informer anyway
  auto& list = *options_.waits_for;
  if (std::find(list.begin(), list.end(), dependency) == list.end()) {
    list.push_back(std::move(dependency));
  }
}

Status ManagedController::Start() { return loop_->Start(); }

void ManagedController::Stop() { loop_->Stop(); }

}  // namespace kube
