#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

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
  // Waits between retries; tests replace it to observe the delays.
  std::function<void(std::chrono::milliseconds)> sleep;
};

// Kubernetes REST verbs over an HttpTransport. Non-2xx answers become Status
// values from metav1.Status (NotFound, Conflict, Gone, Invalid with causes,
// ...). 429 and 5xx answers with Retry-After are retried after the advertised
// delay, at most max_retries times; other 4xx are never retried.
class RestClient {
 public:
  RestClient(std::shared_ptr<HttpTransport> transport, RestClientOptions options = {});

  // Sends with retries and maps errors; the raw 2xx response is returned.
  Result<HttpResponse> Do(const HttpRequest& request);

  Result<nlohmann::json> Get(const std::string& path);
  Result<nlohmann::json> List(const ResourceType& type, const std::string& ns,
                              const ListOptions& options);
  Result<nlohmann::json> Create(const ResourceType& type, const std::string& ns,
                                const nlohmann::json& object,
                                const std::string& field_manager = "");
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

  Status Stream(const HttpRequest& request, StreamHandler& handler, CancelFlag& cancel,
                std::chrono::seconds idle_timeout);

 private:
  Result<nlohmann::json> DoJson(const HttpRequest& request);

  std::shared_ptr<HttpTransport> transport_;
  RestClientOptions options_;
  std::unique_ptr<RateLimiter> throttle_;  // null without a qps
};

}  // namespace kube
