// Fuzz target: the Pod projection (api::PodView) and what the controller
// computes from it, the implicit extended-resource claim the scheduler would
// build. Any JSON document becomes a PodView or an error, never a crash, and
// keeps the projection's promises; the implicit claim's requests have unique
// names and its mappings name only those. A broken promise traps.
#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <string_view>

#include "controller/api/PodView.h"
#include "controller/extended/ImplicitClaimTranslator.h"
#include "src/cache/WatchDecoder.h"

namespace {

void Check(bool invariant) {
  if (!invariant) __builtin_trap();
}

void CheckContainers(const dra::api::PodView& pod) {
  bool seen_main = false;
  for (const auto& c : pod.containers) {
    Check(!c.is_sidecar || c.is_init);
    Check(!(c.is_init && seen_main));  // initContainers come first
    seen_main = seen_main || !c.is_init;
    std::set<std::string> names;
    std::set<uint16_t> indexes;
    for (const auto& r : c.resources) {
      Check(r.name.find('/') != std::string::npos);
      Check(names.insert(r.name).second && indexes.insert(r.request_index).second);
      Check(r.has_request || r.has_limit);
      if (!r.has_limit) Check(r.limit.IsZero());
      if (!r.has_request) Check(r.request == r.limit);
    }
  }
}

void CheckImplicitClaim(const dra::api::PodView& pod) {
  auto every_class = [](std::string_view) -> std::optional<std::string> {
    return "gpu.example.com";
  };
  auto claim = dra::extended::ImplicitClaimTranslator::Translate(
      pod.containers, every_class, [](std::string_view) { return true; });
  std::set<std::string> requests;
  for (const auto& request : claim.requests) {
    Check(requests.insert(request.name).second);
  }
  for (const auto& mapping : claim.mappings) Check(requests.contains(mapping.request_name));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static kube::WatchDecoder* decoder = new kube::WatchDecoder();
  auto doc = decoder->ParseDocument(std::string_view(reinterpret_cast<const char*>(data), size));
  if (!doc.ok()) return 0;
  auto pod = dra::api::PodView::FromJson(*doc);
  if (!pod.ok()) return 0;
  CheckContainers(*pod);
  CheckImplicitClaim(*pod);
  return 0;
}
