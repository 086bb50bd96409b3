#include "src/cache/Reflector.h"

#include <spdlog/spdlog.h>

#include "src/base/Jitter.h"
#include "src/cache/InitialEventsDeadline.h"
#include "src/cache/ObjectMeta.h"
#include "src/cache/ProtoWatchDecoder.h"

namespace kube {
namespace {

// A watch that ends this soon without any data is treated as a failure, so
// that it is not re-opened in a hot loop.
constexpr auto kMinUsefulWatch = std::chrono::seconds(1);

// "Too large resource version": the server is behind the RV we asked for
// (e.g. after an etcd restore); only a fresh list can recover.
bool IsTooLargeResourceVersion(const Status& s) {
  return s.message().find("Too large resource version") != std::string::npos ||
         s.message().find("ResourceVersionTooLarge") != std::string::npos;
}

bool NeedsRelist(const Status& s) {
  return s.code() == StatusCode::kGone || IsTooLargeResourceVersion(s);
}

long long Seconds(Clock::Duration d) {
  return std::chrono::duration_cast<std::chrono::seconds>(d).count();
}

// How long a watch may stay open: the timeoutSeconds it asked the server
// for, and the margin.
std::chrono::milliseconds WatchLifetime(const ListOptions& options,
                                        std::chrono::milliseconds margin) {
  constexpr std::chrono::hours kUnbounded{24};  // a watch that asked for no timeout
  if (!options.timeout_seconds) return kUnbounded;
  return std::chrono::seconds(*options.timeout_seconds) + margin;
}

std::string KeyOf(const RawObject& object) {
  auto meta = ObjectMeta::FromRaw(object);
  return meta.ok() ? meta->Key() : "";
}

}  // namespace

Reflector::Reflector(std::shared_ptr<ListerWatcher> lister_watcher, ReflectorSink& sink,
                     ReflectorOptions options)
    : lister_watcher_(std::move(lister_watcher)),
      resource_(lister_watcher_ ? lister_watcher_->Describe() : ""),
      sink_(sink),
      options_(std::move(options)),
      thread_(options_.clock),
      health_(thread_.shared_clock(), resource_, options_.stall_timeout(),
              options_.watch_ready_timeout),
      decode_errors_(thread_.shared_clock(), resource_, options_.metrics),
      syncs_(thread_.shared_clock(), resource_, options_.metrics),
      backoff_(options_.backoff(), thread_.shared_clock()),
      lister_(lister_watcher_, decoder_, options_.lister()),
      stream_reader_(decoder_, decode_errors_, options_.max_watch_line_bytes),
      watch_list_(options_.watch_list, options_.watch_list_retry_after) {
  if (lister_watcher_ && sink_.AcceptsProtobuf()) lister_watcher_->AcceptProtobuf();
}

Reflector::~Reflector() { Stop(); }

void Reflector::Start() {
  health_.Started();
  if (!thread_.Start([this] { Run(); })) health_.Stopped();
}

void Reflector::Stop() {
  health_.Stopped();
  thread_.RequestStop();
  cancel_.Cancel();
  {
    std::lock_guard lock(stream_mu_);
    if (active_stream_ != nullptr) active_stream_->Cancel();
  }
  thread_.Stop();
}

std::string Reflector::last_resource_version() const {
  std::lock_guard lock(mu_);
  return resource_version_;
}

Status Reflector::last_error() const {
  std::lock_guard lock(mu_);
  return last_error_;
}

void Reflector::SetResourceVersion(std::string_view rv) {
  if (rv.empty()) return;
  std::lock_guard lock(mu_);
  resource_version_ = std::string(rv);
}

void Reflector::Run() {
  need_list_ = true;
  while (!thread_.stopping()) {
    health_.Beat();
    Status status = need_list_ ? Sync() : WatchOnce();
    if (status.code() == StatusCode::kCancelled || thread_.stopping()) return;
    if (status.ok() && !relist_requested_) continue;
    if (NeedsRelist(status)) rv_unavailable_ = true;
    need_list_ = need_list_ || relist_requested_ || NeedsRelist(status);
    relist_requested_ = false;
    // Relists go through the backoff too: a server that keeps answering 410
    // must not get a full LIST per round trip.
    if (!status.ok()) {
      std::lock_guard lock(mu_);
      last_error_ = status;
    }
    auto delay = backoff_.Next();
    spdlog::warn("{}: {}; {} in {} ms", resource_,
                 status.ok() ? "relist needed" : status.ToString(),
                 need_list_ ? "syncing" : "watching", delay.count());
    if (!thread_.SleepFor(delay)) return;
  }
}

// A full sync: a watch-list where the policy allows one, else (or when the
// server turns out not to serve it) a paged LIST.
Status Reflector::Sync() {
  auto now = thread_.clock().Now();
  syncs_.Began(now);
  if (!watch_list_.ShouldTry(lister_watcher_->SupportsWatchList(), now)) return ListAll();
  bool no_bookmark = false;
  Status status = WatchList(no_bookmark);
  if (status.ok() || status.code() == StatusCode::kCancelled || !need_list_ ||
      !watch_list_.ShouldFallBack(status, no_bookmark)) {
    return status;
  }
  watch_list_.FellBack(now);
  ++watch_list_fallbacks_;
  spdlog::warn(
      "{}: watch-list not served ({}); falling back to paged LIST, watch-list again in {} s",
      resource_, status.ToString(), Seconds(watch_list_.retry_after()));
  return ListAll();
}

Status Reflector::ListAll() {
  syncs_.ReadingAfresh();
  sink_.BeginReplace();
  auto resource_version = lister_.ListAll(*this);
  Status status = resource_version.ok() ? EndList(*resource_version) : resource_version.status();
  TrimDecoder();
  if (!status.ok()) sink_.AbortReplace();
  return status;
}

Status Reflector::EndList(const std::string& resource_version) {
  syncs_.Count(FullSyncStats::Method::kList);
  sink_.EndReplace(resource_version);
  syncs_.Log(FullSyncStats::Method::kList);
  SetResourceVersion(resource_version);
  need_list_ = false;
  rv_unavailable_ = false;
  health_.Succeeded();
  return Status::Ok();
}

void Reflector::ReplaceItem(const RawObject& item) {
  syncs_.ItemRead();
  Status added = sink_.ReplaceItem(item);
  if (!added.ok()) decode_errors_.Report(KeyOf(item), added);
}

void Reflector::TrimDecoder() {
  decoder_.TrimCapacity();
  decoder_capacity_ = decoder_.capacity();
}

Status Reflector::HandleEvent(const RawWatchEvent& event) {
  if (initial_events_ && event.type != WatchEventType::kError) return HandleInitialEvent(event);
  switch (event.type) {
    case WatchEventType::kError:
      stream_error_ = event.object.is_protobuf()
                          ? ProtoWatchDecoder::ErrorEventStatus(event.object.protobuf())
                          : WatchDecoder::ErrorEventStatus(event.object.json());
      return stream_error_;
    case WatchEventType::kBookmark:
      SetResourceVersion(event.resource_version);
      return Status::Ok();
    default: {
      Status applied = sink_.Apply(event.type, event.object);
      if (!applied.ok()) decode_errors_.Report(KeyOf(event.object), applied);
      SetResourceVersion(event.resource_version);
      return Status::Ok();
    }
  }
}

// The server replays an event for as long as the watch resumes before it, so
// an event that cannot be decoded must be passed over, never retried.
Status Reflector::SkipUndecodable(const Result<SalvagedObject>& salvaged, const Status& error) {
  if (salvaged.ok() && !salvaged->resource_version.empty() &&
      salvaged->type != WatchEventType::kError) {
    decode_errors_.Report(salvaged->Key(), error);
    bool names_object = salvaged->type != WatchEventType::kBookmark && !salvaged->name.empty();
    if (initial_events_) {
      // Only the bookmark sets the resourceVersion of a watch-list.
      if (names_object) sink_.ForgetItem(salvaged->Key());
      return Status::Ok();
    }
    // Whatever the cache held for it is no longer what the server has.
    if (names_object) sink_.Remove(salvaged->Key());
    SetResourceVersion(salvaged->resource_version);
    return Status::Ok();
  }
  // Not even the metadata reads: resume once (it may have been a broken
  // stream); the same failure at the same place again needs a relist.
  std::string at = last_resource_version();
  if (at == undecodable_at_) {
    decode_errors_.Report("", error);
    relist_requested_ = true;
  }
  undecodable_at_ = at;
  stream_error_ = error.WithContext("undecodable watch line");
  return stream_error_;
}

// Gathers a watch-list's initial events into the sink's replace; their
// resourceVersions are not in order, so none is kept before the bookmark.
Status Reflector::HandleInitialEvent(const RawWatchEvent& event) {
  switch (event.type) {
    case WatchEventType::kBookmark:
      // Without the annotation it is an ordinary bookmark: keep gathering.
      if (event.initial_events_end) EndInitialEvents(event.resource_version);
      return Status::Ok();
    case WatchEventType::kDeleted: {
      auto meta = ObjectMeta::FromRaw(event.object);
      if (meta.ok()) sink_.ForgetItem(meta->Key());
      return Status::Ok();
    }
    default:
      ReplaceItem(event.object);
      return Status::Ok();
  }
}

void Reflector::EndInitialEvents(std::string_view resource_version) {
  if (deadline_ != nullptr) deadline_->Disarm();
  initial_events_ = false;
  SetResourceVersion(resource_version);  // known once WaitForSync() returns
  // Counted before the swap, as a LIST is: WaitForSync() returns at the swap.
  syncs_.Count(FullSyncStats::Method::kWatchList);
  sink_.EndReplace(std::string(resource_version));
  syncs_.Log(FullSyncStats::Method::kWatchList);
  need_list_ = false;
  rv_unavailable_ = false;
  health_.Succeeded();
}

ListOptions Reflector::WatchOptions() {
  ListOptions options;
  options.watch = true;
  options.allow_watch_bookmarks = true;
  options.label_selector = options_.label_selector;
  options.field_selector = options_.field_selector;
  auto timeout =
      std::chrono::duration_cast<std::chrono::seconds>(Jitter(options_.min_watch_timeout, 1.0));
  options.timeout_seconds = timeout.count();
  return options;
}

// Publishes the flag of the watch-list under way so Stop() can cancel it;
// false when the reflector is already stopping.
bool Reflector::SetActiveStream(CancelFlag* stream) {
  std::lock_guard lock(stream_mu_);
  active_stream_ = stream;
  return stream == nullptr || !cancel_.cancelled();
}

// One watch with sendInitialEvents=true (client-go's watchList): the initial
// ADDED events go into a replace that the initial-events-end bookmark
// completes; then the stream goes on as an ordinary watch. `no_bookmark` is
// set when it ended, cleanly or by going quiet, before that bookmark.
Status Reflector::WatchList(bool& no_bookmark) {
  ListOptions options = WatchOptions();
  options.send_initial_events = true;
  options.resource_version_match = "NotOlderThan";
  options.resource_version = rv_unavailable_ ? "" : last_resource_version();
  CancelFlag stream_cancel;  // its own, so that the deadline can end it alone
  if (!SetActiveStream(&stream_cancel)) {
    SetActiveStream(nullptr);
    return Status(StatusCode::kCancelled, "watch-list cancelled");
  }
  syncs_.ReadingAfresh();
  sink_.BeginReplace();
  initial_events_ = true;
  bool saw_data = false;
  bool fired = false;
  Status status;
  {
    InitialEventsDeadline deadline(options_.initial_events_idle_timeout, stream_cancel);
    deadline_ = &deadline;
    status = StreamWatch(options, stream_cancel, saw_data);
    deadline_ = nullptr;
    fired = deadline.fired();
  }
  SetActiveStream(nullptr);
  TrimDecoder();
  if (cancel_.cancelled()) return Status(StatusCode::kCancelled, "watch-list cancelled");
  if (initial_events_) return EndedBeforeBookmark(status, fired, saw_data, no_bookmark);
  // The deadline fired just as the bookmark came: the sync stands, but the
  // stream was cut (its Cancelled must not read as the reflector stopping).
  if (fired) return Status(StatusCode::kUnavailable, "watch-list cut at its bookmark; resuming");
  if (!status.ok()) return status;
  health_.Succeeded();  // the server ended the watch normally
  return Status::Ok();
}

// A watch-list that ended without its initial-events-end bookmark: nothing
// of it reaches the cache. `no_bookmark` when it went quiet or ended cleanly.
Status Reflector::EndedBeforeBookmark(const Status& status, bool fired, bool saw_data,
                                      bool& no_bookmark) {
  initial_events_ = false;
  sink_.AbortReplace();
  if (fired) {
    no_bookmark = true;
    return Status(StatusCode::kTimeout,
                  "no initial-events-end bookmark after " +
                      std::to_string(options_.initial_events_idle_timeout.count()) +
                      " ms of silence");
  }
  if (status.ok()) {
    no_bookmark = true;
    return Status(StatusCode::kUnavailable,
                  std::string("watch-list ended before its initial-events-end bookmark") +
                      (saw_data ? "" : " (no data)"));
  }
  return status;
}

// Streams one watch through the stream reader until it ends.
Status Reflector::StreamWatch(const ListOptions& options, CancelFlag& cancel, bool& saw_data) {
  stream_reader_.Reset();
  stream_error_ = Status::Ok();
  ++watches_;
  bytes_since_event_ = false;
  health_.WatchOpened();
  Status status;
  WatchDeadline::Cut cut = WatchDeadline::Cut::kNone;
  {
    WatchDeadline watch_deadline(options_.watch_progress_timeout,
                                 WatchLifetime(options, options_.watch_timeout_margin), cancel);
    watch_deadline_ = &watch_deadline;
    status = lister_watcher_->Watch(
        options,
        [&](std::string_view chunk) {
          if (deadline_ != nullptr) deadline_->Touch();
          if (chunk.empty()) {  // the server accepted the watch
            // Before its bookmark a watch-list is progress, not yet a fresh cache.
            initial_events_ ? health_.Beat() : health_.Succeeded();
            return true;
          }
          health_.Beat();  // the loop is alive; only complete events are progress
          saw_data = true;
          bytes_since_event_ = true;
          return FeedWatchData(chunk);
        },
        cancel);
    watch_deadline_ = nullptr;
    cut = watch_deadline.cut();
  }
  health_.WatchClosed();
  stream_reader_.Reset();
  if (cut != WatchDeadline::Cut::kNone) return CutWatchStatus(cut, options);
  if (!stream_error_.ok()) return stream_error_;
  return status;
}

// A watch cut by its WatchDeadline. One cut while part of an event was
// buffered was delivering bytes that never made an event: whatever sits
// between the server and us is not to be trusted to resume, so relist.
Status Reflector::CutWatchStatus(WatchDeadline::Cut cut, const ListOptions& options) {
  if (cut == WatchDeadline::Cut::kOverran) {
    return Status(StatusCode::kTimeout,
                  "watch still open " + std::to_string(options_.watch_timeout_margin.count()) +
                      " ms past its timeoutSeconds=" +
                      std::to_string(options.timeout_seconds.value_or(0)) + "; cut");
  }
  ++stalled_watches_;
  if (bytes_since_event_) relist_requested_ = true;
  return Status(StatusCode::kTimeout,
                "watch delivered no complete event for " +
                    std::to_string(options_.watch_progress_timeout.count()) + " ms" +
                    (bytes_since_event_ ? " while sending bytes; cut, relisting" : "; cut"));
}

// A complete event, bookmark or undecodable line arrived: the watch makes
// progress (before its bookmark a watch-list's cache is not yet fresh).
void Reflector::EventArrived() {
  initial_events_ ? health_.Beat() : health_.Succeeded();
  health_.EventArrived();
  bytes_since_event_ = false;
  if (watch_deadline_ != nullptr) watch_deadline_->Progress();
}

bool Reflector::FeedWatchData(std::string_view chunk) {
  bool go_on = stream_reader_.Feed(chunk, *this);
  if (stream_reader_.partial()) bytes_since_event_ = true;
  return go_on;
}

void Reflector::Handled() {
  EventArrived();
  TrimDecoder();
}

Status Reflector::WatchOnce() {
  ListOptions options = WatchOptions();
  options.resource_version = last_resource_version();
  bool saw_data = false;
  auto started = thread_.clock().Now();
  CancelFlag stream_cancel;  // its own, so that its WatchDeadline can end it alone
  if (!SetActiveStream(&stream_cancel)) {
    SetActiveStream(nullptr);
    return Status(StatusCode::kCancelled, "watch cancelled");
  }
  Status status = StreamWatch(options, stream_cancel, saw_data);
  SetActiveStream(nullptr);
  if (cancel_.cancelled()) return Status(StatusCode::kCancelled, "watch cancelled");
  if (!status.ok()) return status;
  if (!saw_data && thread_.clock().Now() - started < kMinUsefulWatch) {
    return Status(StatusCode::kUnavailable, "watch closed immediately without data");
  }
  health_.Succeeded();  // the server ended the watch normally
  return Status::Ok();
}

}  // namespace kube
