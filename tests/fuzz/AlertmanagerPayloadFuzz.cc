// Fuzz target: the Alertmanager webhook's body as any caller with the right
// token may send it. Any bytes are parsed (AlertmanagerPayload::Parse);
// a payload is received by the real AlertReceiver against an in-memory
// store, twice (the second time must write nothing). Every DeviceHealth
// written must be one the API server's schema admits: a DNS-1123 name of
// at most 63 characters, a CamelCase reason of at most 128, a message of at
// most 1024 bytes of valid UTF-8, exactly one target form, and a ledger
// annotation that reads back with no time past now and the allowed skew.
// The receiver runs once without and once with --alertmanager-required-labels.
// The same bytes also go to kube::Rfc3339, AlertLedger's and
// ResolutionMemory's readers (what reads back must write the same text).
// Nothing may crash; a broken promise traps.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>

#include "controller/alerts/AlertLabelFilter.h"
#include "controller/alerts/AlertLedger.h"
#include "controller/alerts/AlertReceiver.h"
#include "controller/alerts/ResolutionMemory.h"
#include "src/base/Rfc3339.h"

namespace {

using namespace dra::alerts;

void Check(bool invariant) {
  if (!invariant) __builtin_trap();
}

bool IsDnsLabel(const std::string& name) {
  if (name.empty() || name.size() > 63 || name.front() == '-' || name.back() == '-') return false;
  for (char c : name) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) return false;
  }
  return true;
}

bool IsReason(const std::string& reason) {
  if (reason.empty() || reason.size() > 128) return false;
  if (!((reason[0] >= 'a' && reason[0] <= 'z') || (reason[0] >= 'A' && reason[0] <= 'Z'))) {
    return false;
  }
  for (char c : reason) {
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))) return false;
  }
  return true;
}

// Well-formed UTF-8: no stray continuation byte, no sequence cut short.
bool IsUtf8(const std::string& text) {
  size_t continuations = 0;
  for (char c : text) {
    auto byte = static_cast<unsigned char>(c);
    if (continuations > 0) {
      if ((byte & 0xC0) != 0x80) return false;
      --continuations;
      continue;
    }
    if (byte < 0x80) continue;
    if ((byte & 0xE0) == 0xC0) {
      continuations = 1;
    } else if ((byte & 0xF0) == 0xE0) {
      continuations = 2;
    } else if ((byte & 0xF8) == 0xF0) {
      continuations = 3;
    } else {
      return false;
    }
  }
  return continuations == 0;
}

int64_t LatestAllowedMillis() {
  auto now = std::chrono::duration_cast<std::chrono::milliseconds>(
                 std::chrono::system_clock::now().time_since_epoch())
                 .count();
  return now + AlertReceiver::kMaxClockSkewMs + 60000;  // a minute for the run itself
}

class Store : public AlertHealthStore {
 public:
  kube::Result<StoredAlerts> Read(const std::string& name) override {
    auto it = ledgers.find(name);
    if (it == ledgers.end()) return StoredAlerts{};
    return StoredAlerts{true, true, it->second};
  }
  kube::Result<dra::health::SourcedWrite> Write(const dra::health::SourcedHealth& h) override {
    ++writes;
    Check(IsDnsLabel(h.name));
    Check(IsReason(h.reason));
    Check(h.message.size() <= 1024 && IsUtf8(h.message));
    Check(h.source == "alertmanager");
    bool by_uuid = !h.uuid.empty();
    bool by_node = !h.node.empty() && h.index.has_value() && *h.index >= 0;
    Check(by_uuid != by_node && h.pool.empty() && h.driver.empty());
    const std::string& ledger = h.annotations.at(AlertLedger::kAnnotation);
    auto read = AlertLedger::FromAnnotation(ledger);
    Check(read.ok() && read->ToAnnotation() == ledger);
    for (const auto& [fingerprint, entry] : read->entries()) {
      Check(entry.at_ms <= LatestAllowedMillis());
    }
    ledgers[h.name] = ledger;
    return dra::health::SourcedWrite::kCreated;
  }
  std::map<std::string, std::string> ledgers;
  int writes = 0;
};

void CheckReceiver(const AlertmanagerPayload& payload, bool filtered) {
  auto store = std::make_shared<Store>();
  AlertReceiver::Inputs inputs;
  // One device for most targets, none or two for some: every outcome is reached.
  inputs.count_devices = [](const GpuAlert& alert) {
    return (alert.uuid.size() + alert.node.size()) % 4 == 3 ? size_t{2}
                                                            : (alert.uuid.size() % 5 == 4 ? 0 : 1);
  };
  inputs.store = store;
  if (filtered) inputs.required_labels = *AlertLabelFilter::Parse("job=nvidia-dcgm-exporter");
  AlertReceiver receiver(std::move(inputs));
  auto first = receiver.Receive(payload);
  Check(first.ok() && first->size() == payload.alerts.size());
  for (size_t i = 0; i < first->size(); ++i) {
    const auto& outcome = (*first)[i];
    Check(!outcome.outcome.empty());
    bool trusted = !filtered || payload.alerts[i].Label("job") == "nvidia-dcgm-exporter";
    Check(trusted == (outcome.outcome != "untrusted"));
  }
  int writes = store->writes;
  auto again = receiver.Receive(payload);
  Check(again.ok() && store->writes == writes);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  (void)kube::Rfc3339::ToMillis(text);
  auto ledger = AlertLedger::FromAnnotation(std::string(text));
  if (ledger.ok()) Check(AlertLedger::FromAnnotation(ledger->ToAnnotation()).ok());
  auto memory = ResolutionMemory::FromText(std::string(text));
  if (memory.ok()) {
    Check(memory->size() <= ResolutionMemory::kMaxValues);
    auto again = ResolutionMemory::FromText(memory->ToText());
    Check(again.ok() && again->ToText() == memory->ToText());
  }
  auto payload = AlertmanagerPayload::Parse(text);
  if (payload.ok()) {
    CheckReceiver(*payload, false);
    CheckReceiver(*payload, true);
  }
  return 0;
}
