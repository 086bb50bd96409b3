#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "controller/extended/MappingFinding.h"
#include "src/events/ObjectReference.h"

namespace prometheus {
class Registry;
template <typename T>
class Family;
class Gauge;
}  // namespace prometheus

namespace dra::extended {

// Turns successive sets of findings into what an operator sees: a Warning
// Event and a log line when a finding appears or its text changes (a finding
// is identified by MappingFinding::Key(), so a new winner or another
// overlapping node is a new text, not a new finding), a Normal Event and a
// log line when it clears, and the gauge
// dra_controller_extended_resource_findings{kind} with the open count per kind.
// Not thread-safe (one reconciler owns it).
class FindingReporter {
 public:
  using EventFn = std::function<void(const kube::ObjectReference& object, const std::string& type,
                                     const std::string& reason, const std::string& message)>;

  // `event` may be empty (no Events); `registry` may be null (no metric).
  FindingReporter(EventFn event, const std::shared_ptr<prometheus::Registry>& registry);

  // Reports what changed since the previous call.
  void Report(const std::vector<MappingFinding>& findings);

  static kube::ObjectReference ReferenceTo(const MappingFinding& finding);

 private:
  void Warn(const MappingFinding& finding, bool changed);
  void Resolve(const MappingFinding& finding);
  void UpdateGauge(const std::vector<MappingFinding>& findings);

  EventFn event_;
  prometheus::Family<prometheus::Gauge>* gauge_ = nullptr;
  std::map<std::string, MappingFinding> open_;  // by Key()
};

}  // namespace dra::extended
