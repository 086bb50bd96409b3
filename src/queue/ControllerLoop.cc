#include "src/queue/ControllerLoop.h"

#include <spdlog/spdlog.h>

#include <chrono>
#include <exception>

namespace kube {

Result<std::unique_ptr<ControllerLoop>> ControllerLoop::Create(
    Options options, std::shared_ptr<WorkQueue> queue, std::shared_ptr<Reconciler> reconciler) {
  if (!queue || !reconciler) {
    return Status(StatusCode::kInvalidArgument, "a controller loop needs a queue and a reconciler");
  }
  if (options.workers < 1) {
    return Status(StatusCode::kInvalidArgument, "a controller loop needs at least one worker");
  }
  std::unique_ptr<ControllerMetrics> metrics;
  if (options.registry) {
    KUBE_ASSIGN_OR_RETURN(metrics, ControllerMetrics::Create(options.registry, options.name));
    metrics->SetMaxConcurrentReconciles(options.workers);
  }
  return std::unique_ptr<ControllerLoop>(new ControllerLoop(
      std::move(options), std::move(queue), std::move(reconciler), std::move(metrics)));
}

ControllerLoop::ControllerLoop(Options options, std::shared_ptr<WorkQueue> queue,
                               std::shared_ptr<Reconciler> reconciler,
                               std::unique_ptr<ControllerMetrics> metrics)
    : options_(std::move(options)),
      queue_(std::move(queue)),
      reconciler_(std::move(reconciler)),
      metrics_(std::move(metrics)) {}

ControllerLoop::~ControllerLoop() { Stop(); }

Status ControllerLoop::Start() {
  std::lock_guard<std::mutex> guard(lifecycle_mutex_);
  if (state_ != State::kNew) {
    return Status(StatusCode::kInvalidArgument,
                  "controller " + options_.name + " was already started");
  }
  state_ = State::kRunning;
  for (int i = 0; i < options_.workers; ++i) workers_.emplace_back([this] { RunWorker(); });
  spdlog::info("controller started controller={} workers={}", options_.name, options_.workers);
  return Status::Ok();
}

void ControllerLoop::Stop() {
  std::lock_guard<std::mutex> guard(lifecycle_mutex_);
  if (state_ == State::kStopped) return;
  const bool was_running = state_ == State::kRunning;
  state_ = State::kStopped;
  queue_->ShutDownWithDrain();
  for (std::thread& worker : workers_) worker.join();
  workers_.clear();
  if (was_running) spdlog::info("controller stopped controller={}", options_.name);
}

void ControllerLoop::RunWorker() {
  while (std::optional<std::string> key = queue_->Get()) {
    Process(*key);
    queue_->Done(*key);
  }
}

void ControllerLoop::Process(const std::string& key) {
  if (metrics_) metrics_->ReconcileStarted();
  const auto start = std::chrono::steady_clock::now();
  bool threw = false;
  const ReconcileResult result = ReconcileGuarded(key, threw);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const ControllerMetrics::Outcome outcome = ApplyResult(key, result);
  if (metrics_) metrics_->ReconcileFinished(outcome, seconds, threw);
}

ReconcileResult ControllerLoop::ReconcileGuarded(const std::string& key, bool& threw) {
  try {
    return reconciler_->Reconcile(key);
  } catch (const std::exception& e) {
    threw = true;
    return ReconcileResult::Error(
        Status(StatusCode::kInternal, std::string("reconcile threw: ") + e.what()));
  } catch (...) {
    threw = true;
    return ReconcileResult::Error(
        Status(StatusCode::kInternal, "reconcile threw a non-standard exception"));
  }
}

ControllerMetrics::Outcome ControllerLoop::ApplyResult(const std::string& key,
                                                       const ReconcileResult& result) {
  using Kind = ReconcileResult::Kind;
  using Outcome = ControllerMetrics::Outcome;
  switch (result.kind) {
    case Kind::kDone:
      queue_->Forget(key);
      return Outcome::kSuccess;
    case Kind::kRequeue:
      queue_->AddRateLimited(key);
      return Outcome::kRequeue;
    case Kind::kRequeueAfter:
      queue_->Forget(key);
      queue_->AddAfter(key, result.requeue_after);
      return Outcome::kRequeueAfter;
    case Kind::kError:
      spdlog::error("reconciler error controller={} key={} error={}", options_.name, key,
                    result.error.ToString());
      queue_->AddRateLimited(key);
      return Outcome::kError;
  }
  return Outcome::kError;
}

}  // namespace kube
