#include "src/client/RestClient.h"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "src/base/RealClock.h"
#include "src/client/ApiError.h"
#include "src/queue/BucketRateLimiter.h"

namespace kube {
namespace {

constexpr std::chrono::seconds kMaxRetryAfter(60);

Status Cancelled(const HttpRequest& request) {
  return Status(StatusCode::kCancelled,
                request.method + " " + request.path + ": cancelled (client shutting down)");
}

// The delay a 429/5xx answer asks for, if it asks for one (client-go retries
// only then). Retry-After is in seconds; an HTTP date counts as one second.
std::optional<std::chrono::milliseconds> RetryDelay(const HttpResponse& response) {
  if (response.status != 429 && response.status < 500) return std::nullopt;
  std::string header = response.Header("retry-after");
  if (header.empty()) return std::nullopt;
  char* end = nullptr;
  long seconds = std::strtol(header.c_str(), &end, 10);
  if (end == header.c_str() || *end != '\0' || seconds < 0) seconds = 1;
  auto delay = std::min(std::chrono::seconds(seconds), kMaxRetryAfter);
  return std::chrono::duration_cast<std::chrono::milliseconds>(delay);
}

const char* PatchContentType(PatchType type) {
  switch (type) {
    case PatchType::kMerge:
      return "application/merge-patch+json";
    case PatchType::kJson:
      return "application/json-patch+json";
    case PatchType::kStrategicMerge:
      return "application/strategic-merge-patch+json";
    case PatchType::kApply:
      return "application/apply-patch+yaml";
  }
  return "application/merge-patch+json";
}

HttpRequest Request(std::string method, std::string path, std::string body = "",
                    std::string content_type = "") {
  HttpRequest request;
  request.method = std::move(method);
  request.path = std::move(path);
  request.body = std::move(body);
  request.content_type = std::move(content_type);
  return request;
}

std::string WithQuery(std::string path, const std::string& key, const std::string& value) {
  if (value.empty()) return path;
  path += path.find('?') == std::string::npos ? "?" : "&";
  return path + key + "=" + UrlEncode(value);
}

// Counts a streamed request in rest_client_requests_total when its answer
// arrives, as client-go counts watches.
class CountedStream : public StreamHandler {
 public:
  CountedStream(StreamHandler& inner, RestClientMetrics* metrics, std::string method)
      : inner_(inner), metrics_(metrics), method_(std::move(method)) {}

  void OnHead(const HttpResponse& head) override {
    counted_ = true;
    if (metrics_ != nullptr) metrics_->Count(method_, std::to_string(head.status));
    inner_.OnHead(head);
  }
  bool OnData(std::string_view chunk) override { return inner_.OnData(chunk); }

  // A request that never got an answer counts as "<error>".
  void CountFailure() {
    if (!counted_ && metrics_ != nullptr) metrics_->Count(method_, "<error>");
  }

 private:
  StreamHandler& inner_;
  RestClientMetrics* metrics_;
  std::string method_;
  bool counted_ = false;
};

}  // namespace

RestClient::RestClient(std::shared_ptr<HttpTransport> transport, RestClientOptions options)
    : transport_(std::move(transport)), options_(std::move(options)) {
  if (!options_.clock) options_.clock = RealClock::Shared();
  if (options_.qps > 0) {
    throttle_ = std::make_unique<BucketRateLimiter>(options_.qps, options_.burst, options_.clock);
  }
}

void RestClient::CancelAll() {
  std::lock_guard lock(mu_);
  cancelled_ = true;
  // Under the lock: a request unregisters (and its flag goes away) only after.
  for (CancelFlag* flag : in_flight_) flag->Cancel();
  cancelled_cv_.notify_all();
}

bool RestClient::cancelled() const {
  std::lock_guard lock(mu_);
  return cancelled_;
}

bool RestClient::Register(CancelFlag& flag) {
  std::lock_guard lock(mu_);
  if (cancelled_) return false;
  in_flight_.push_back(&flag);
  return true;
}

void RestClient::Unregister(CancelFlag& flag) {
  std::lock_guard lock(mu_);
  in_flight_.erase(std::find(in_flight_.begin(), in_flight_.end(), &flag));
}

void RestClient::Wait(std::chrono::milliseconds delay) {
  if (options_.sleep) {
    options_.sleep(delay);
    return;
  }
  auto deadline = options_.clock->Now() + delay;
  std::unique_lock lock(mu_);
  while (!cancelled_ && options_.clock->Now() < deadline) {
    options_.clock->WaitUntil(lock, cancelled_cv_, deadline);
  }
}

Result<HttpResponse> RestClient::SendCancellable(const HttpRequest& request) {
  CancelFlag cancel;
  if (!Register(cancel)) return Cancelled(request);
  auto response = transport_->Send(request, cancel);
  Unregister(cancel);
  if (!response.ok() && cancel.cancelled()) return Cancelled(request);
  return response;
}

Result<HttpResponse> RestClient::Do(const HttpRequest& request) {
  return Send(request, options_.max_retries);
}

Result<HttpResponse> RestClient::DoOnce(const HttpRequest& request) { return Send(request, 0); }

Result<HttpResponse> RestClient::Send(const HttpRequest& request, int max_retries) {
  for (int attempt = 0;; ++attempt) {
    if (throttle_) {
      auto wait = std::chrono::ceil<std::chrono::milliseconds>(throttle_->When(""));
      if (wait.count() > 0) Wait(wait);
    }
    if (cancelled()) return Cancelled(request);
    auto start = options_.clock->Now();
    auto response = SendCancellable(request);
    if (options_.metrics != nullptr) {
      std::string code = response.ok() ? std::to_string(response->status) : "<error>";
      options_.metrics->Observe(request.method, code, options_.clock->Now() - start);
    }
    if (!response.ok()) return response.status();
    if (response->status / 100 == 2) return response;
    auto delay = RetryDelay(*response);
    if (!delay || attempt >= max_retries) {
      return ApiErrorFromResponse(*response, request.method + " " + request.path);
    }
    spdlog::debug("{} {} answered {}; retry {} after {} ms", request.method, request.path,
                  response->status, attempt + 1, delay->count());
    Wait(*delay);
  }
}

Result<nlohmann::json> RestClient::DoJson(const HttpRequest& request) {
  auto response = Do(request);
  if (!response.ok()) return response.status();
  auto body = nlohmann::json::parse(response->body, nullptr, /*allow_exceptions=*/false);
  if (body.is_discarded()) {
    return Status(StatusCode::kParseError,
                  request.method + " " + request.path + ": response is not JSON");
  }
  return body;
}

Result<nlohmann::json> RestClient::Get(const std::string& path) {
  return DoJson(Request("GET", path));
}

Result<nlohmann::json> RestClient::List(const ResourceType& type, const std::string& ns,
                                        const ListOptions& options) {
  return DoJson(Request("GET", type.CollectionPath(ns) + options.ToQuery()));
}

Result<nlohmann::json> RestClient::Create(const ResourceType& type, const std::string& ns,
                                          const nlohmann::json& object,
                                          const std::string& field_manager, bool dry_run) {
  std::string path = WithQuery(type.CollectionPath(ns), "fieldManager", field_manager);
  if (dry_run) path = WithQuery(path, "dryRun", "All");
  return DoJson(Request("POST", path, object.dump(), "application/json"));
}

Result<nlohmann::json> RestClient::Update(const std::string& item_path,
                                          const nlohmann::json& object) {
  return DoJson(Request("PUT", item_path, object.dump(), "application/json"));
}

Result<nlohmann::json> RestClient::Patch(const std::string& item_path, PatchType type,
                                         const std::string& body, const PatchOptions& options) {
  if (type == PatchType::kApply && options.field_manager.empty()) {
    return Status(StatusCode::kInvalidArgument, "server-side apply needs a field manager");
  }
  std::string path = WithQuery(item_path, "fieldManager", options.field_manager);
  if (options.force) path = WithQuery(path, "force", "true");
  return DoJson(Request("PATCH", path, body, PatchContentType(type)));
}

Result<nlohmann::json> RestClient::Apply(const std::string& item_path, const nlohmann::json& object,
                                         const std::string& field_manager, bool force) {
  return Patch(item_path, PatchType::kApply, object.dump(), {field_manager, force});
}

Status RestClient::Delete(const std::string& item_path, const DeleteOptions& options) {
  nlohmann::json body = {{"kind", "DeleteOptions"}, {"apiVersion", "v1"}};
  if (!options.precondition_uid.empty()) body["preconditions"]["uid"] = options.precondition_uid;
  if (!options.precondition_resource_version.empty()) {
    body["preconditions"]["resourceVersion"] = options.precondition_resource_version;
  }
  if (!options.propagation_policy.empty()) body["propagationPolicy"] = options.propagation_policy;
  if (options.grace_period_seconds) body["gracePeriodSeconds"] = *options.grace_period_seconds;
  auto response = Do(Request("DELETE", item_path, body.dump(), "application/json"));
  return response.ok() ? Status::Ok() : response.status();
}

Status RestClient::DeleteIfExists(const std::string& item_path, const DeleteOptions& options) {
  Status deleted = Delete(item_path, options);
  return deleted.code() == StatusCode::kNotFound ? Status::Ok() : deleted;
}

Status RestClient::Stream(const HttpRequest& request, StreamHandler& handler, CancelFlag& cancel,
                          std::chrono::seconds idle_timeout) {
  if (!Register(cancel)) return Cancelled(request);
  CountedStream counted(handler, options_.metrics, request.method);
  Status status = transport_->Stream(request, counted, cancel, idle_timeout);
  Unregister(cancel);
  counted.CountFailure();
  return status;
}

}  // namespace kube
