#include "controller/inventory/ClassState.h"

namespace dra::inventory {

void ClassState::ForgetFailures() {
  failures.clear();
  failure_texts.clear();
  failure_index.clear();
}

void ClassState::RecordFailure(DeviceId id, ClassSelector::Failure failure) {
  std::string text = failure.expression + '\n' + failure.message;
  auto [it, inserted] = failure_index.try_emplace(std::move(text), failure_texts.size());
  if (inserted) failure_texts.push_back(std::move(failure));
  failures[id] = it->second;
}

}  // namespace dra::inventory
