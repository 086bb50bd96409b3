#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "src/cache/LineSplitter.h"
#include "src/cache/ReflectorSink.h"
#include "src/cache/WatchDecoder.h"
#include "src/client/ResourceType.h"
#include "src/client/RestClient.h"

namespace kube {

struct ReflectorOptions {
  int64_t page_size = 500;
  std::string label_selector;
  std::string field_selector;
  std::chrono::milliseconds initial_backoff{800};
  std::chrono::milliseconds max_backoff{30000};
  // Each watch asks the server to end it after a random time in [min, 2*min).
  std::chrono::seconds min_watch_timeout{300};
};

// Keeps a ReflectorSink equal to the server's collection of one resource
// type: a paged LIST, then a WATCH from the list's resourceVersion with
// bookmarks. A watch that ends normally is resumed from the last seen
// resourceVersion without relisting; 410 Gone/Expired (as an HTTP answer or an
// in-stream ERROR event) relists; other failures back off 0.8 s -> 30 s with
// jitter. Broken or invalid lines never crash it: the watch is resumed.
class Reflector {
 public:
  Reflector(std::shared_ptr<RestClient> client, ResourceType type, ReflectorSink& sink,
            ReflectorOptions options = {});
  ~Reflector();

  void Start();
  void Stop();

  std::string last_resource_version() const;
  uint64_t lists() const { return lists_; }
  uint64_t watches() const { return watches_; }

 private:
  class WatchStream;

  void Run();
  Status ListAll();
  Status ListPages();
  Status WatchOnce();
  Status HandleLine(std::string_view line);
  bool WaitOrStop(std::chrono::milliseconds delay);
  std::chrono::milliseconds NextBackoff();
  void SetResourceVersion(std::string_view rv);

  std::shared_ptr<RestClient> client_;
  ResourceType type_;
  ReflectorSink& sink_;
  ReflectorOptions options_;
  WatchDecoder decoder_;
  LineSplitter splitter_;

  mutable std::mutex mu_;
  std::condition_variable stop_cv_;
  bool stopping_ = false;
  std::string resource_version_;
  std::chrono::milliseconds backoff_;
  CancelFlag cancel_;
  std::thread thread_;
  std::atomic<uint64_t> lists_{0};
  std::atomic<uint64_t> watches_{0};
  Status stream_error_;  // set by HandleLine to end the current watch
};

}  // namespace kube
