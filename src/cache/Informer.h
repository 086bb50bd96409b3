#pragma once

#include <chrono>
#include <memory>
#include <string>

#include "src/cache/EventHandler.h"
#include "src/cache/HandlerMetrics.h"
#include "src/cache/HandlerRegistration.h"
#include "src/cache/ListerWatcher.h"
#include "src/cache/Reflector.h"
#include "src/cache/RestListerWatcher.h"
#include "src/cache/Store.h"
#include "src/cache/StoreReader.h"
#include "src/cache/StoreSink.h"

namespace kube {

// One list+watch of a resource type feeding a Store of typed projections and
// any number of event handlers. T must have a public `ObjectMeta meta`.
// The transform turns a JSON object into T; it is the only place the JSON is
// looked at, so the cache never holds JSON trees. Users read the cache
// through store(); only the informer's own reflector writes it.
template <typename T>
class Informer {
 public:
  using Ptr = std::shared_ptr<const T>;
  using Transform = typename StoreSink<T>::Transform;
  using Keep = typename StoreSink<T>::Keep;

  // `keep` (null: everything) says which projected objects are cached; see StoreSink.
  Informer(std::shared_ptr<RestClient> client, ResourceType type, Transform transform,
           ReflectorOptions options = {}, Keep keep = nullptr)
      : Informer(std::make_shared<RestListerWatcher>(std::move(client), std::move(type)),
                 std::move(transform), std::move(options), std::move(keep)) {}

  Informer(std::shared_ptr<ListerWatcher> lister_watcher, Transform transform,
           ReflectorOptions options = {}, Keep keep = nullptr)
      : sink_(store_, std::move(transform),
              HandlerMetrics(options.metrics, lister_watcher ? lister_watcher->Describe() : ""),
              options.clock, std::move(keep)),
        reflector_(std::move(lister_watcher), sink_, std::move(options)) {}

  ~Informer() { Stop(); }
  Informer(const Informer&) = delete;
  Informer& operator=(const Informer&) = delete;

  const StoreReader<T>& store() const { return store_; }
  const Reflector& reflector() const { return reflector_; }

  // Each handler gets its own buffer and delivery thread (see StoreSink). A
  // handler added after the first sync first receives an add per cached
  // object. May be called from inside a handler.
  std::shared_ptr<HandlerRegistration> AddHandler(std::shared_ptr<EventHandler<T>> handler) {
    return sink_.AddHandler(std::move(handler));
  }

  void Start() { reflector_.Start(); }
  // Stops the reflector, then every handler's delivery (dropping what is
  // still queued). Joins all their threads, except a caller's own.
  void Stop() {
    reflector_.Stop();
    sink_.Stop();
  }

  // The first list is cached and every handler has been given its initial
  // contents.
  bool HasSynced() const { return sink_.HasSynced(); }

  // Liveness: Unavailable when the reflector is wedged (Reflector::
  // CheckProgress) or a handler has been in one callback for longer than the
  // reflector's stall timeout.
  Status CheckProgress() const {
    KUBE_RETURN_IF_ERROR(reflector_.CheckProgress());
    return sink_.CheckHandlers(reflector_.stall_timeout(), reflector_.resource());
  }
  bool WaitForSync(std::chrono::milliseconds timeout) { return sink_.WaitForSync(timeout); }

 private:
  Store<T> store_;
  StoreSink<T> sink_;
  Reflector reflector_;  // last: stopped and destroyed before the state above
};

}  // namespace kube
