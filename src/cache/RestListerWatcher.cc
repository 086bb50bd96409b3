#include "src/cache/RestListerWatcher.h"

#include <algorithm>

#include "src/client/ApiError.h"
#include "src/proto/ProtoEnvelope.h"

namespace kube {
namespace {

// A watch without bookmarks that delivers nothing for this long past its own
// timeout is dead.
constexpr std::chrono::seconds kIdleGrace{30};
constexpr std::chrono::seconds kDefaultWatchTimeout{300};
constexpr size_t kMaxErrorBody = size_t{64} * 1024;

}  // namespace

std::chrono::seconds RestListerWatcher::IdleTimeout(const ListOptions& options) {
  auto timeout = options.timeout_seconds ? std::chrono::seconds(*options.timeout_seconds)
                                         : kDefaultWatchTimeout;
  if (!options.allow_watch_bookmarks) return timeout + kIdleGrace;
  return std::min(timeout + kIdleGrace, kBookmarkedWatchIdleTimeout);
}

// Passes a 200 body on; keeps (the start of) any other answer for the error.
class RestListerWatcher::Stream : public StreamHandler {
 public:
  explicit Stream(const WatchChunkHandler& on_chunk) : on_chunk_(on_chunk) {}

  void OnHead(const HttpResponse& head) override {
    head_ = head;
    if (head_.status == 200) (void)on_chunk_({});  // accepted: the server is there
  }

  bool OnData(std::string_view chunk) override {
    if (head_.status == 200) return on_chunk_(chunk);
    if (head_.body.size() < kMaxErrorBody) head_.body.append(chunk);
    return true;
  }

  const HttpResponse& head() const { return head_; }

 private:
  const WatchChunkHandler& on_chunk_;
  HttpResponse head_;
};

RestListerWatcher::RestListerWatcher(std::shared_ptr<RestClient> client, ResourceType type)
    : client_(std::move(client)), type_(std::move(type)) {}

HttpRequest RestListerWatcher::Request(const ListOptions& options) const {
  HttpRequest request;
  request.path = type_.CollectionPath() + options.ToQuery();
  if (accept_protobuf_) request.headers.emplace_back("Accept", ProtoEnvelope::kAccept);
  return request;
}

Result<std::string> RestListerWatcher::List(const ListOptions& options) {
  HttpRequest request = Request(options);
  auto response = client_->Do(request);
  if (!response.ok()) return response.status();
  return std::move(response->body);
}

Status RestListerWatcher::Watch(const ListOptions& options, const WatchChunkHandler& on_chunk,
                                CancelFlag& cancel) {
  HttpRequest request = Request(options);
  Stream stream(on_chunk);
  Status transport = client_->Stream(request, stream, cancel, IdleTimeout(options));
  if (stream.head().status != 0 && stream.head().status != 200) {
    return ApiErrorFromResponse(stream.head(), "watch " + type_.Describe());
  }
  if (cancel.cancelled()) return Status(StatusCode::kCancelled, "watch cancelled");
  return transport;
}

}  // namespace kube
