#pragma once

#include <sys/types.h>

#include <ctime>
#include <memory>
#include <mutex>
#include <string>

#include "src/base/Result.h"
#include "src/config/RestConfig.h"
#include "src/http/TlsMaterial.h"

namespace kube {

// Hands out the TLS material for each new connection. When the client
// certificate and key came from files, they are re-read after a change (a
// cert-manager or kubelet rotation), so new connections present the new pair
// while established ones keep the old.
class TlsMaterialSource {
 public:
  static Result<std::shared_ptr<TlsMaterialSource>> FromConfig(const RestConfig& config);

  // The current material. A rotation caught half-written (unreadable files,
  // key and certificate not matching yet) keeps the previous material.
  std::shared_ptr<const TlsMaterial> Current();

 private:
  struct FileStamp {
    std::timespec mtime{};
    ino_t inode = 0;
    off_t size = -1;
    bool operator==(const FileStamp& o) const {
      return mtime.tv_sec == o.mtime.tv_sec && mtime.tv_nsec == o.mtime.tv_nsec &&
             inode == o.inode && size == o.size;
    }
  };
  static FileStamp Stamp(const std::string& path);
  bool FilesChanged(FileStamp* cert, FileStamp* key) const;
  void Reload();

  std::mutex mu_;
  RestConfig config_;  // the TLS fields only
  std::shared_ptr<const TlsMaterial> current_;
  FileStamp cert_stamp_, key_stamp_;
};

}  // namespace kube
