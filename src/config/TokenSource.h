#pragma once

#include <sys/types.h>

#include <ctime>
#include <memory>
#include <mutex>
#include <string>

#include "src/base/Result.h"

namespace kube {

// Supplies the bearer token for each request. A token read from a file is
// re-read whenever the file changes (service-account tokens are rotated by
// the kubelet), so the next request after a rotation uses the new token.
class TokenSource {
 public:
  static std::shared_ptr<TokenSource> Static(std::string token);
  static std::shared_ptr<TokenSource> FromFile(std::string path);

  Result<std::string> Token();
  const std::string& path() const { return path_; }

 private:
  TokenSource() = default;

  std::mutex mu_;
  std::string token_;
  std::string path_;  // empty for a static token
  std::timespec mtime_{};
  ino_t inode_ = 0;
  off_t size_ = -1;
};

}  // namespace kube
