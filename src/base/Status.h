#pragma once

#include <string>
#include <string_view>

namespace kube {

// Error categories that callers branch on. API errors map onto these from the
// reason of a metav1.Status; everything else is local (I/O, parsing, config).
enum class StatusCode {
  kOk,
  kInvalidArgument,
  kNotFound,
  kAlreadyExists,
  kConflict,
  kGone,
  kTooManyRequests,
  kForbidden,
  kUnauthorized,
  kInvalid,
  kTimeout,
  kUnavailable,
  kCancelled,
  kParseError,
  kTooLarge,  // a response over its size cap
  kInternal,
};

std::string_view StatusCodeName(StatusCode code);

// An error as a value: modules return Status (or Result<T>) instead of throwing.
class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(StatusCode code, std::string message) : code_(code), message_(std::move(message)) {}

  static Status Ok() { return Status(); }

  bool ok() const { return code_ == StatusCode::kOk; }
  StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }

  // "NotFound: pods \"x\" not found"; "OK" for success.
  std::string ToString() const;

  // Returns a copy whose message is prefixed with context, e.g. "loading kubeconfig: ...".
  Status WithContext(std::string_view context) const;

 private:
  StatusCode code_ = StatusCode::kOk;
  std::string message_;
};

}  // namespace kube

// Returns the Status of `expr` from the enclosing function if it is an error.
#define KUBE_RETURN_IF_ERROR(expr)               \
  do {                                           \
    ::kube::Status kube_status_ = (expr);        \
    if (!kube_status_.ok()) return kube_status_; \
  } while (0)
