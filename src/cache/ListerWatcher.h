#pragma once

#include <chrono>
#include <functional>
#include <string>
#include <string_view>

#include "src/base/Result.h"
#include "src/client/ListOptions.h"
#include "src/http/HttpTransport.h"

namespace kube {

// kube-apiserver's watch cache sends a bookmark to every watch that asked
// for them about once a minute (the cacher's bookmarkFrequency), however
// quiet the collection.
inline constexpr std::chrono::seconds kWatchBookmarkInterval{60};
// A bookmarked watch that delivers nothing for three bookmark intervals is
// presumed dead (e.g. a half-open TCP connection after a NAT or load balancer
// dropped it): it is cut and the reflector watches again from its last
// resourceVersion. Three intervals tolerate a late or skipped bookmark (the
// apiserver may postpone one while the watcher is behind) without ever
// waiting out the whole 5-10 min watch timeout on a dead connection.
inline constexpr std::chrono::seconds kBookmarkedWatchIdleTimeout = 3 * kWatchBookmarkInterval;

// Receives a watch response body as it arrives, in arbitrary chunks;
// returning false ends the watch. An empty chunk announces that the server
// accepted the watch (HTTP 200) before any data.
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

  // Whether Watch() passes sendInitialEvents and resourceVersionMatch on to a
  // server that can answer them with a streamed list (watch-list). Fakes that
  // script plain watches say no, as client-go's do.
  virtual bool SupportsWatchList() const { return false; }

  // Asks for protobuf from now on where the server has it (LIST bodies start
  // with the "k8s\0" magic, watch streams are length-delimited frames; the
  // reader tells them from JSON by their first bytes). Fakes answer JSON.
  virtual void AcceptProtobuf() {}
};

}  // namespace kube
