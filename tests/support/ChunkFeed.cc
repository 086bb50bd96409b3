#include "tests/support/ChunkFeed.h"

#include <sys/eventfd.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <iterator>

namespace dra::testing {

ChunkFeed::ChunkFeed() : fd_(::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)) {
  if (fd_ < 0) std::abort();  // test support: no way to serve a feed without it
}

ChunkFeed::~ChunkFeed() { ::close(fd_); }

void ChunkFeed::Push(std::string chunk) {
  std::lock_guard lock(mu_);
  chunks_.push_back(std::move(chunk));
  uint64_t one = 1;
  (void)!::write(fd_, &one, sizeof(one));
}

void ChunkFeed::Unshift(std::vector<std::string> chunks) {
  if (chunks.empty()) return;
  std::lock_guard lock(mu_);
  chunks_.insert(chunks_.begin(), std::make_move_iterator(chunks.begin()),
                 std::make_move_iterator(chunks.end()));
  uint64_t one = 1;
  (void)!::write(fd_, &one, sizeof(one));
}

std::vector<std::string> ChunkFeed::Take() {
  std::lock_guard lock(mu_);
  uint64_t count;
  (void)!::read(fd_, &count, sizeof(count));  // clears the eventfd; EAGAIN when empty
  std::vector<std::string> taken(std::make_move_iterator(chunks_.begin()),
                                 std::make_move_iterator(chunks_.end()));
  chunks_.clear();
  return taken;
}

}  // namespace dra::testing
