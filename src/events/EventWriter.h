#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "src/base/Result.h"
#include "src/client/RestClient.h"
#include "src/events/EventCorrelator.h"

namespace kube {

// Who reports the events: Event.source and reportingComponent/Instance.
struct EventSource {
  std::string component;
  std::string host;
};

// Writes the state of one Event object through the core/v1 Event API
// (/api/v1/namespaces/{ns}/events): POST for a new Event, otherwise a
// strategic merge PATCH of count, lastTimestamp and message. An Event that
// vanished (expired or deleted) is created again under its name; a POST that
// finds the name taken patches instead.
class EventWriter {
 public:
  enum class Outcome { kCreated, kPatched };

  EventWriter(std::shared_ptr<RestClient> client, EventSource source);

  Result<Outcome> Write(const CorrelatedEvent& event);

  // The full core/v1 Event object (exposed for tests).
  nlohmann::json EventObject(const CorrelatedEvent& event) const;
  // The fields that change when an Event occurs again.
  static nlohmann::json OccurrencePatch(const CorrelatedEvent& event);

 private:
  Result<Outcome> Create(const CorrelatedEvent& event);
  Result<Outcome> Patch(const CorrelatedEvent& event);

  std::shared_ptr<RestClient> client_;
  EventSource source_;
};

}  // namespace kube
