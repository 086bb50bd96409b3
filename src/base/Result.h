#pragma once

#include <cassert>
#include <utility>
#include <variant>

#include "src/base/Status.h"

namespace kube {

// A value or the Status explaining why there is none.
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : data_(std::move(value)) {}        // NOLINT: implicit by design
  Result(Status status) : data_(std::move(status)) {  // NOLINT: implicit by design
    assert(!std::get<Status>(data_).ok() && "a Result holding a Status must hold an error");
  }

  bool ok() const { return std::holds_alternative<T>(data_); }
  explicit operator bool() const { return ok(); }

  const Status& status() const {
    static const Status kOk;
    return ok() ? kOk : std::get<Status>(data_);
  }

  T& value() & { return std::get<T>(data_); }
  const T& value() const& { return std::get<T>(data_); }
  T&& value() && { return std::get<T>(std::move(data_)); }

  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

 private:
  std::variant<T, Status> data_;
};

}  // namespace kube

// Evaluates `expr` (a Result); returns its Status from the enclosing function
// on error, otherwise moves the value into `lhs`.
#define KUBE_ASSIGN_OR_RETURN(lhs, expr)                  \
  do {                                                    \
    auto kube_result_ = (expr);                           \
    if (!kube_result_.ok()) return kube_result_.status(); \
    (lhs) = std::move(*kube_result_);                     \
  } while (0)
