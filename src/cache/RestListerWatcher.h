#pragma once

#include <atomic>
#include <chrono>
#include <memory>
#include <string>

#include "src/cache/ListerWatcher.h"
#include "src/client/ResourceType.h"
#include "src/client/RestClient.h"

namespace kube {

// LIST and WATCH of one resource type (all namespaces) over a RestClient.
class RestListerWatcher : public ListerWatcher {
 public:
  RestListerWatcher(std::shared_ptr<RestClient> client, ResourceType type);

  Result<std::string> List(const ListOptions& options) override;
  Status Watch(const ListOptions& options, const WatchChunkHandler& on_chunk,
               CancelFlag& cancel) override;
  std::string Describe() const override { return type_.Describe(); }
  bool SupportsWatchList() const override { return true; }
  void AcceptProtobuf() override { accept_protobuf_ = true; }

  // How long a watch may deliver nothing before it is cut: a few bookmark
  // intervals when it asked for bookmarks, else its own timeout and a grace.
  static std::chrono::seconds IdleTimeout(const ListOptions& options);

 private:
  class Stream;

  HttpRequest Request(const ListOptions& options) const;

  std::shared_ptr<RestClient> client_;
  ResourceType type_;
  std::atomic<bool> accept_protobuf_{false};
};

}  // namespace kube
