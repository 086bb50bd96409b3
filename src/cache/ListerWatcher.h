#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "src/base/Result.h"
#include "src/client/ListOptions.h"
#include "src/http/HttpTransport.h"

namespace kube {

// Receives a watch response body as it arrives, in arbitrary chunks;
// returning false ends the watch.
using WatchChunkHandler = std::function<bool(std::string_view chunk)>;

// The Reflector's view of the API server for one resource collection: LIST
// one page, WATCH from a resourceVersion. Tests substitute a fake.
class ListerWatcher {
 public:
  virtual ~ListerWatcher() = default;

  // The JSON body of one LIST page (a *List object with metadata.continue).
  virtual Result<std::string> List(const ListOptions& options) = 0;

  // Streams one WATCH into `on_chunk` until the server ends it (Ok),
  // `on_chunk` returns false (Ok), `cancel` fires (Cancelled), or the request
  // fails: a non-200 answer is returned as its API error (e.g. Gone).
  virtual Status Watch(const ListOptions& options, const WatchChunkHandler& on_chunk,
                       CancelFlag& cancel) = 0;

  // Names the collection in logs and metric labels, e.g. "pods".
  virtual std::string Describe() const = 0;
};

}  // namespace kube
