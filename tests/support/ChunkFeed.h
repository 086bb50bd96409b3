#pragma once

#include <deque>
#include <mutex>
#include <string>
#include <vector>

namespace dra::testing {

// Bytes a test produces while a streamed response is open (StreamStep::Feed):
// pushed from any thread, written by the connection that serves the feed, in
// order. What is pushed while no connection serves it waits for the next one,
// as a watch resumed from its last resource version would receive it. One
// connection serves a feed at a time (two would split its chunks).
class ChunkFeed {
 public:
  ChunkFeed();
  ~ChunkFeed();
  ChunkFeed(const ChunkFeed&) = delete;
  ChunkFeed& operator=(const ChunkFeed&) = delete;

  void Push(std::string chunk);
  // Everything pushed and not yet taken, oldest first.
  std::vector<std::string> Take();
  // Puts chunks taken but not written back in front, in their order.
  void Unshift(std::vector<std::string> chunks);
  // Readable while chunks are waiting (an eventfd), for poll().
  int fd() const { return fd_; }

 private:
  int fd_;
  std::mutex mu_;
  std::deque<std::string> chunks_;
};

}  // namespace dra::testing
