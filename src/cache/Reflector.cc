#include "src/cache/Reflector.h"

#include <spdlog/spdlog.h>

#include "src/base/Jitter.h"
#include "src/cache/JsonFields.h"
#include "src/client/ApiError.h"

namespace kube {
namespace {

// "Too large resource version": the server is behind the RV we asked for
// (e.g. after an etcd restore); only a fresh list can recover.
bool IsTooLargeResourceVersion(const Status& s) {
  return s.message().find("Too large resource version") != std::string::npos ||
         s.message().find("ResourceVersionTooLarge") != std::string::npos;
}

}  // namespace

// Feeds a watch response into the reflector: remembers the HTTP status and,
// for a 200, splits the body into lines.
class Reflector::WatchStream : public StreamHandler {
 public:
  explicit WatchStream(Reflector& reflector) : reflector_(reflector) {}

  void OnHead(const HttpResponse& head) override { head_ = head; }

  bool OnData(std::string_view chunk) override {
    if (head_.status != 200) {
      if (head_.body.size() < 64 * 1024) head_.body.append(chunk);
      return true;
    }
    saw_data_ = true;
    bool ok = reflector_.splitter_.Feed(
        chunk, [this](std::string_view line) { return reflector_.HandleLine(line).ok(); });
    if (!ok && reflector_.stream_error_.ok()) {
      reflector_.stream_error_ =
          Status(StatusCode::kParseError, "watch line exceeds the size limit");
    }
    return ok;
  }

  const HttpResponse& head() const { return head_; }
  bool saw_data() const { return saw_data_; }

 private:
  Reflector& reflector_;
  HttpResponse head_;
  bool saw_data_ = false;
};

Reflector::Reflector(std::shared_ptr<RestClient> client, ResourceType type, ReflectorSink& sink,
                     ReflectorOptions options)
    : client_(std::move(client)),
      type_(std::move(type)),
      sink_(sink),
      options_(std::move(options)),
      backoff_(options_.initial_backoff) {}

Reflector::~Reflector() { Stop(); }

void Reflector::Start() {
  std::lock_guard lock(mu_);
  if (thread_.joinable() || stopping_) return;
  thread_ = std::thread([this] { Run(); });
}

void Reflector::Stop() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  stop_cv_.notify_all();
  cancel_.Cancel();
  if (thread_.joinable()) thread_.join();
}

std::string Reflector::last_resource_version() const {
  std::lock_guard lock(mu_);
  return resource_version_;
}

void Reflector::SetResourceVersion(std::string_view rv) {
  if (rv.empty()) return;
  std::lock_guard lock(mu_);
  resource_version_ = std::string(rv);
}

bool Reflector::WaitOrStop(std::chrono::milliseconds delay) {
  std::unique_lock lock(mu_);
  return !stop_cv_.wait_for(lock, delay, [this] { return stopping_; });
}

std::chrono::milliseconds Reflector::NextBackoff() {
  auto delay = Jitter(backoff_, 0.5);
  backoff_ = std::min(backoff_ * 2, options_.max_backoff);
  return std::min(delay, options_.max_backoff);
}

void Reflector::Run() {
  bool need_list = true;
  while (!cancel_.cancelled()) {
    Status status = need_list ? ListAll() : WatchOnce();
    if (status.code() == StatusCode::kCancelled || cancel_.cancelled()) return;
    if (status.ok()) {
      need_list = false;
      continue;
    }
    if (status.code() == StatusCode::kGone || IsTooLargeResourceVersion(status)) {
      spdlog::info("{}: {}; relisting", type_.Describe(), status.message());
      need_list = true;
      continue;
    }
    auto delay = NextBackoff();
    spdlog::warn("{}: {} failed: {}; retrying in {} ms", type_.Describe(),
                 need_list ? "list" : "watch", status.ToString(), delay.count());
    if (!WaitOrStop(delay)) return;
  }
}

Status Reflector::ListAll() {
  sink_.BeginReplace();
  Status status = ListPages();
  if (!status.ok()) sink_.AbortReplace();
  return status;
}

Status Reflector::ListPages() {
  ListOptions options;
  options.limit = options_.page_size;
  options.label_selector = options_.label_selector;
  options.field_selector = options_.field_selector;
  std::string resource_version;
  do {
    HttpRequest request;
    request.path = type_.CollectionPath() + options.ToQuery();
    auto response = client_->Do(request);
    if (!response.ok()) return response.status();
    auto doc = decoder_.ParseDocument(response->body);
    if (!doc.ok()) return doc.status().WithContext("list " + type_.Describe());
    simdjson::dom::array items;
    if (json::Field(*doc, "items").get(items) == simdjson::SUCCESS) {
      for (simdjson::dom::element item : items) {
        Status added = sink_.ReplaceItem(item);
        if (!added.ok())
          spdlog::warn("{}: skipping listed object: {}", type_.Describe(), added.ToString());
      }
    }
    simdjson::dom::element metadata = json::Field(*doc, "metadata");
    resource_version = json::StringOr(metadata, "resourceVersion");
    options.continue_token = json::StringOr(metadata, "continue");
  } while (!options.continue_token.empty());
  ++lists_;
  sink_.EndReplace(resource_version);
  SetResourceVersion(resource_version);
  backoff_ = options_.initial_backoff;
  return Status::Ok();
}

Status Reflector::HandleLine(std::string_view line) {
  auto event = decoder_.Decode(line);
  if (!event.ok()) {
    stream_error_ = event.status().WithContext("undecodable watch line");
    return stream_error_;
  }
  switch (event->type) {
    case WatchEventType::kError:
      stream_error_ = WatchDecoder::ErrorEventStatus(event->object);
      return stream_error_;
    case WatchEventType::kBookmark:
      SetResourceVersion(event->resource_version);
      return Status::Ok();
    default: {
      Status applied = sink_.Apply(event->type, event->object);
      if (!applied.ok())
        spdlog::warn("{}: skipping watch event: {}", type_.Describe(), applied.ToString());
      SetResourceVersion(event->resource_version);
      return Status::Ok();
    }
  }
}

Status Reflector::WatchOnce() {
  ListOptions options;
  options.watch = true;
  options.allow_watch_bookmarks = true;
  options.resource_version = last_resource_version();
  options.label_selector = options_.label_selector;
  options.field_selector = options_.field_selector;
  auto timeout =
      std::chrono::duration_cast<std::chrono::seconds>(Jitter(options_.min_watch_timeout, 1.0));
  options.timeout_seconds = timeout.count();
  HttpRequest request;
  request.path = type_.CollectionPath() + options.ToQuery();

  splitter_.Reset();
  stream_error_ = Status::Ok();
  WatchStream stream(*this);
  ++watches_;
  auto started = std::chrono::steady_clock::now();
  Status transport = client_->Stream(request, stream, cancel_, timeout + std::chrono::seconds(30));
  if (stream.head().status != 0 && stream.head().status != 200) {
    return ApiErrorFromResponse(stream.head(), "watch " + type_.Describe());
  }
  if (!stream_error_.ok()) return stream_error_;
  if (!transport.ok()) return transport;
  if (stream.saw_data()) {
    backoff_ = options_.initial_backoff;
  } else if (std::chrono::steady_clock::now() - started < std::chrono::seconds(1)) {
    // An empty watch that ends at once would otherwise be re-opened in a hot loop.
    return Status(StatusCode::kUnavailable, "watch closed immediately without data");
  }
  return Status::Ok();
}

}  // namespace kube
