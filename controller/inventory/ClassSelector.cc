#include "controller/inventory/ClassSelector.h"

namespace dra::inventory {

ClassSelector ClassSelector::Compile(std::span<const std::string> expressions,
                                     cel::ProgramCache& cache) {
  ClassSelector selector;
  for (const auto& expression : expressions) {
    auto program = cache.Get(expression);
    if (!program.ok()) {
      selector.compile_error_ = {expression, program.status().message()};
      selector.compile_failed_ = true;
      selector.programs_.clear();
      return selector;
    }
    selector.programs_.push_back(std::move(*program));
  }
  return selector;
}

bool ClassSelector::Matches(const cel::Device& device, std::optional<Failure>* failure) const {
  if (has_compile_error()) {
    if (failure != nullptr) *failure = compile_error_;
    return false;
  }
  for (const auto& program : programs_) {
    auto result = program->Evaluate(device);
    if (!result.ok()) {
      if (failure != nullptr) *failure = Failure{program->expression(), result.status().message()};
      return false;
    }
    if (!*result) return false;
  }
  return true;
}

}  // namespace dra::inventory
