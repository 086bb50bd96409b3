#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "src/http/HttpTransport.h"

namespace kube {

// Cancels a watch-list stream that goes quiet before its initial-events-end
// bookmark: a server that ignores sendInitialEvents (or serves the watch
// without its watch cache) sends no such bookmark, and would otherwise hold
// the first sync until the watch times out. kube-apiserver sends the initial
// events as fast as the client reads them and the bookmark right after, so a
// silence of `idle` before it means the bookmark is not coming. Real time,
// on its own thread; the destructor disarms and joins it.
class InitialEventsDeadline {
 public:
  InitialEventsDeadline(std::chrono::milliseconds idle, CancelFlag& stream);
  ~InitialEventsDeadline();
  InitialEventsDeadline(const InitialEventsDeadline&) = delete;
  InitialEventsDeadline& operator=(const InitialEventsDeadline&) = delete;

  // Data arrived: the silence starts again.
  void Touch();
  // The bookmark arrived (or the stream is over): never fire.
  void Disarm();
  bool fired() const;

 private:
  void Run();

  const std::chrono::milliseconds idle_;
  CancelFlag& stream_;
  mutable std::mutex mu_;
  std::condition_variable changed_;
  std::chrono::steady_clock::time_point last_data_;
  bool armed_ = true;
  bool fired_ = false;
  std::thread thread_;  // last: started once the state above exists
};

}  // namespace kube
