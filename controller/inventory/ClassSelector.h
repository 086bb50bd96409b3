#pragma once

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "controller/cel/Device.h"
#include "controller/cel/Program.h"
#include "controller/cel/ProgramCache.h"

namespace dra::inventory {

// The compiled CEL selectors of a DeviceClass (or a claim request): a device
// matches when every selector evaluates to true. An expression that does not
// compile, or fails at runtime, makes the device not match; the failure says
// which expression and why.
class ClassSelector {
 public:
  struct Failure {
    std::string expression;
    std::string message;
  };

  ClassSelector() = default;
  static ClassSelector Compile(std::span<const std::string> expressions, cel::ProgramCache& cache);

  // `failure` (may be null) is set when the result is false because of an error.
  bool Matches(const cel::Device& device, std::optional<Failure>* failure) const;

  bool has_compile_error() const { return compile_failed_; }
  const Failure& compile_error() const { return compile_error_; }

 private:
  std::vector<std::shared_ptr<const cel::Program>> programs_;
  Failure compile_error_;
  bool compile_failed_ = false;
};

}  // namespace dra::inventory
