#pragma once

#include <chrono>
#include <functional>
#include <string>

#include "src/base/Status.h"
#include "src/cache/Informer.h"

namespace kube {

// One informer that something (a runnable, a readiness check) waits for,
// without its object type: a name for logs, whether its cache has synced,
// and why not. Refers to the informer, which must outlive it (the
// InformerRegistry keeps its informers until it is destroyed).
class InformerDependency {
 public:
  template <typename T>
  static InformerDependency On(Informer<T>& informer) {
    Informer<T>* target = &informer;
    return InformerDependency(
        target->reflector().resource(),
        [target](std::chrono::milliseconds timeout) { return target->WaitForSync(timeout); },
        &target->reflector());
  }

  // The informer's resource, e.g. "devicehealths.example.com".
  const std::string& name() const { return name_; }
  bool synced() const { return wait_(std::chrono::milliseconds(0)); }
  // True once synced, false when `timeout` passed first.
  bool WaitForSync(std::chrono::milliseconds timeout) const { return wait_(timeout); }

  // Ok once synced; else Unavailable "NAME: not synced", followed by the
  // reflector's last failure (e.g. the API server's Forbidden) when it had one.
  Status Check() const {
    if (synced()) return Status::Ok();
    Status error = reflector_->last_error();
    return Status(StatusCode::kUnavailable,
                  name_ + ": not synced" + (error.ok() ? "" : ": " + error.ToString()));
  }

  bool operator==(const InformerDependency& other) const { return reflector_ == other.reflector_; }

 private:
  InformerDependency(std::string name, std::function<bool(std::chrono::milliseconds)> wait,
                     const Reflector* reflector)
      : name_(std::move(name)), wait_(std::move(wait)), reflector_(reflector) {}

  std::string name_;
  std::function<bool(std::chrono::milliseconds)> wait_;
  const Reflector* reflector_;
};

}  // namespace kube
