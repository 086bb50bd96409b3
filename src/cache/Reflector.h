#pragma once

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <string>

#include "src/base/BackgroundThread.h"
#include "src/base/Backoff.h"
#include "src/base/Clock.h"
#include "src/cache/DecodeErrorReporter.h"
#include "src/cache/FullSyncStats.h"
#include "src/cache/ListerWatcher.h"
#include "src/cache/PagedLister.h"
#include "src/cache/ReflectorHealth.h"
#include "src/cache/ReflectorOptions.h"
#include "src/cache/ReflectorSink.h"
#include "src/cache/WatchDeadline.h"
#include "src/cache/WatchDecoder.h"
#include "src/cache/WatchListPolicy.h"
#include "src/cache/WatchStreamReader.h"

namespace kube {

class InitialEventsDeadline;

// Keeps a ReflectorSink equal to the server's collection of one resource
// type: a paged LIST, then a WATCH from the list's resourceVersion with
// bookmarks; or, where the server serves it, a watch-list: one WATCH with
// sendInitialEvents=true whose initial ADDED events are gathered as a replace
// and applied at once at the "k8s.io/initial-events-end" bookmark, after
// which the same stream goes on as the watch. A watch-list refused (400/422)
// or without that bookmark falls back to the LIST (see WatchListPolicy).
// A watch that ends normally is resumed from the last seen
// resourceVersion without relisting. Every failure waits for the backoff
// first; 410 Gone/Expired and "too large resource version" then relist, other
// failures retry what failed.
//
// Where the sink can project protobuf, the server is asked for it; LIST
// bodies and watch streams are read in whichever format the server chose.
//
// Objects that cannot be decoded are skipped and counted, never retried: a
// bad item does not fail its LIST page, and an undecodable watch event is
// passed over (its key is dropped from the cache) when its metadata can be
// read, or costs at most one resume and then a relist when not.
class Reflector : private PagedLister::Receiver, private WatchStreamReader::Handler {
 public:
  Reflector(std::shared_ptr<ListerWatcher> lister_watcher, ReflectorSink& sink,
            ReflectorOptions options = {});
  ~Reflector() override;
  Reflector(const Reflector&) = delete;
  Reflector& operator=(const Reflector&) = delete;

  void Start();
  void Stop();

  const std::string& resource() const { return resource_; }
  std::string last_resource_version() const;
  uint64_t lists() const { return syncs_.lists(); }
  uint64_t watches() const { return watches_; }
  // Full syncs completed by a watch-list (at its initial-events-end bookmark).
  uint64_t watch_lists() const { return syncs_.watch_lists(); }
  // Watch-lists given up for a paged LIST.
  uint64_t watch_list_fallbacks() const { return watch_list_fallbacks_; }
  // Objects (or watch lines) skipped because they could not be decoded.
  uint64_t decode_errors() const { return decode_errors_.count(); }
  // The decoder's buffer capacity after the last document it handled.
  size_t decoder_capacity() const { return decoder_capacity_; }

  // Liveness: when the loop last showed progress (a LIST or WATCH attempt, a
  // LIST page, watch data or a bookmark, the end of a backoff), on the
  // reflector's clock. Clock::TimePoint{} before Start().
  Clock::TimePoint heartbeat() const { return health_.heartbeat(); }
  // Freshness: when the cache was last known to follow the server (a
  // completed LIST, a WATCH the server accepted, watch data or a bookmark, a
  // watch the server ended). Start() counts as one.
  Clock::TimePoint last_success() const { return health_.last_success(); }
  // The longest the loop may go without a heartbeat while working: a watch
  // silent until its bookmark idle timeout cuts it, then a jittered maximal
  // backoff (up to 2 x max_backoff), plus stall_margin. 5 min by default.
  Clock::Duration stall_timeout() const { return health_.stall_timeout(); }
  // Unavailable when the loop has shown no progress for longer than
  // stall_timeout(): it is wedged (a request or a sink call that
  // never returns). Ok before Start() and after Stop().
  Status CheckProgress() const { return health_.CheckProgress(); }
  // Unavailable when nothing succeeded for longer than `max_staleness`
  // (the API server unreachable, every request failing). Ok before Start().
  Status CheckFreshness(Clock::Duration max_staleness) const {
    return health_.CheckFreshness(max_staleness);
  }
  // Readiness: Unavailable, naming the resource, while a watch is open that
  // has delivered no complete event or bookmark for longer than
  // watch_ready_timeout (bytes do not count). Ok when no watch is open (the
  // loop is listing or backing off: see CheckFreshness) and before Start().
  Status CheckWatchProgress() const { return health_.CheckWatchProgress(); }
  // Watches cut for making no progress.
  uint64_t stalled_watches() const { return stalled_watches_; }
  // The failure that made the loop back off last (Ok before any); for
  // saying why a cache has not synced.
  Status last_error() const;

 private:
  void Run();
  Status Sync();
  Status WatchList(bool& no_bookmark);
  Status EndedBeforeBookmark(const Status& status, bool fired, bool saw_data, bool& no_bookmark);
  Status StreamWatch(const ListOptions& options, CancelFlag& cancel, bool& saw_data);
  Status CutWatchStatus(WatchDeadline::Cut cut, const ListOptions& options);
  void EventArrived();
  Status HandleInitialEvent(const RawWatchEvent& event);
  void EndInitialEvents(std::string_view resource_version);
  ListOptions WatchOptions();
  bool SetActiveStream(CancelFlag* stream);
  Status ListAll();
  Status EndList(const std::string& resource_version);
  void ReplaceItem(const RawObject& item);
  // PagedLister::Receiver
  void Item(const RawObject& item) override { ReplaceItem(item); }
  void Undecodable(const std::string& key, const Status& error) override {
    decode_errors_.Report(key, error);
  }
  void PageRead() override { health_.Beat(); }
  bool Stopping() override { return thread_.stopping(); }
  Status WatchOnce();
  bool FeedWatchData(std::string_view chunk);
  Status HandleEvent(const RawWatchEvent& event);
  Status SkipUndecodable(const Result<SalvagedObject>& salvaged, const Status& error);
  // WatchStreamReader::Handler
  Status Event(const RawWatchEvent& event) override { return HandleEvent(event); }
  Status Undecodable(const Result<SalvagedObject>& salvaged, const Status& error) override {
    return SkipUndecodable(salvaged, error);
  }
  void Handled() override;
  void TrimDecoder();
  void SetResourceVersion(std::string_view rv);

  std::shared_ptr<ListerWatcher> lister_watcher_;
  std::string resource_;
  ReflectorSink& sink_;
  ReflectorOptions options_;
  BackgroundThread thread_;
  ReflectorHealth health_;
  DecodeErrorReporter decode_errors_;
  FullSyncStats syncs_;
  Backoff backoff_;
  WatchDecoder decoder_;
  PagedLister lister_;
  WatchStreamReader stream_reader_;
  CancelFlag cancel_;
  WatchListPolicy watch_list_;

  mutable std::mutex mu_;
  std::string resource_version_;
  Status last_error_;
  std::atomic<uint64_t> watches_{0};
  std::atomic<uint64_t> watch_list_fallbacks_{0};
  std::atomic<size_t> decoder_capacity_{0};
  std::atomic<uint64_t> stalled_watches_{0};
  WatchDeadline* watch_deadline_ = nullptr;  // of the stream under way
  bool bytes_since_event_ = false;           // part of an event is buffered
  std::mutex stream_mu_;
  CancelFlag* active_stream_ = nullptr;        // a watch-list's own flag, for Stop()
  InitialEventsDeadline* deadline_ = nullptr;  // while initial events stream
  bool need_list_ = true;                      // no complete sync since the last relist cause
  bool initial_events_ = false;                // a watch-list is gathering its initial events
  bool rv_unavailable_ = false;                // 410/too large: the next watch-list starts at ""
  bool relist_requested_ = false;              // set while handling events: resuming cannot help
  std::string undecodable_at_;                 // the RV an unreadable line followed
  Status stream_error_;                        // set while handling events to end the current watch
};

}  // namespace kube
