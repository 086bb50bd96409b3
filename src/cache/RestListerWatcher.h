#pragma once

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

 private:
  class Stream;

  std::shared_ptr<RestClient> client_;
  ResourceType type_;
};

}  // namespace kube
