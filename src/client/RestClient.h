#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "src/base/Clock.h"
#include "src/base/Result.h"
#include "src/client/ListOptions.h"
#include "src/client/ResourceType.h"
#include "src/client/RestClientMetrics.h"
#include "src/http/HttpTransport.h"
#include "src/queue/RateLimiter.h"

namespace kube {

enum class PatchType { kMerge, kJson, kStrategicMerge, kApply };

struct PatchOptions {
  std::string field_manager;  // required for kApply
  bool force = false;         // server-side apply: take over conflicting fields
};

struct DeleteOptions {
  std::string precondition_uid;
  std::string precondition_resource_version;
  std::string propagation_policy;  // "Background" | "Foreground" | "Orphan"
  std::optional<int64_t> grace_period_seconds;
};

struct RestClientOptions {
  int max_retries = 10;  // for 429/5xx answers that carry Retry-After
  // Client-side throttle (token bucket); 0 leaves it off and relies on the
  // server's API Priority and Fairness, as client-go does since 1.29.
  double qps = 0;
  int burst = 10;
  RestClientMetrics* metrics = nullptr;
  // Time for the throttle, request durations and retry waits; null: RealClock.
  std::shared_ptr<Clock> clock;
  // Waits between retries; tests replace it to observe the delays. The
  // default wait ends early on CancelAll().
  std::function<void(std::chrono::milliseconds)> sleep;
};

// Kubernetes REST verbs over an HttpTransport. Non-2xx answers become Status
// values from metav1.Status (NotFound, Conflict, Gone, Invalid with causes,
// ...). 429 and 5xx answers with Retry-After are retried after the advertised
// delay, at most max_retries times; other 4xx are never retried.
//
// CancelAll() aborts every request in flight and fails later ones at once,
// for a shutdown that must fit in a Pod's termination grace period.
class RestClient {
 public:
  RestClient(std::shared_ptr<HttpTransport> transport, RestClientOptions options = {});
  RestClient(const RestClient&) = delete;
  RestClient& operator=(const RestClient&) = delete;

  // Irreversibly: fires the cancel flag of every request in flight (Send and
  // Stream then return Cancelled), wakes retry and throttle waits, and makes
  // every later request fail with StatusCode::kCancelled without being sent.
  void CancelAll();
  bool cancelled() const;

  // Sends with retries and maps errors; the raw 2xx response is returned.
  Result<HttpResponse> Do(const HttpRequest& request);
  // As Do, but a 429/5xx with Retry-After comes back at once as its error:
  // for callers that retry on their own schedule instead of blocking a worker.
  Result<HttpResponse> DoOnce(const HttpRequest& request);

  Result<nlohmann::json> Get(const std::string& path);
  Result<nlohmann::json> List(const ResourceType& type, const std::string& ns,
                              const ListOptions& options);
  // `dry_run`: the server validates, defaults and admits the object (dryRun=All)
  // and answers what it would have stored, storing nothing.
  Result<nlohmann::json> Create(const ResourceType& type, const std::string& ns,
                                const nlohmann::json& object, const std::string& field_manager = "",
                                bool dry_run = false);
  // PUT of the whole object; metadata.resourceVersion makes it conditional.
  Result<nlohmann::json> Update(const std::string& item_path, const nlohmann::json& object);
  Result<nlohmann::json> Patch(const std::string& item_path, PatchType type,
                               const std::string& body, const PatchOptions& options = {});
  // Server-side apply of `object` (which must carry apiVersion, kind, metadata.name).
  Result<nlohmann::json> Apply(const std::string& item_path, const nlohmann::json& object,
                               const std::string& field_manager, bool force);
  // NotFound is returned as an error; see DeleteIfExists.
  Status Delete(const std::string& item_path, const DeleteOptions& options = {});
  // Idempotent delete: an object that is already gone counts as deleted.
  Status DeleteIfExists(const std::string& item_path, const DeleteOptions& options = {});

  // `cancel` is also fired by CancelAll() while the stream runs.
  Status Stream(const HttpRequest& request, StreamHandler& handler, CancelFlag& cancel,
                std::chrono::seconds idle_timeout);

 private:
  Result<HttpResponse> Send(const HttpRequest& request, int max_retries);
  Result<nlohmann::json> DoJson(const HttpRequest& request);
  Result<HttpResponse> SendCancellable(const HttpRequest& request);
  // False (and nothing registered) once CancelAll() has been called.
  bool Register(CancelFlag& flag);
  void Unregister(CancelFlag& flag);
  void Wait(std::chrono::milliseconds delay);

  std::shared_ptr<HttpTransport> transport_;
  RestClientOptions options_;
  std::unique_ptr<RateLimiter> throttle_;  // null without a qps

  mutable std::mutex mu_;  // guards the two below
  bool cancelled_ = false;
  std::vector<CancelFlag*> in_flight_;
  std::condition_variable cancelled_cv_;
};

}  // namespace kube
