// Fuzz target: projecting objects from their protobuf messages (Pods and
// ResourceClaims, the decoders informers use) must never crash, whatever the
// bytes: an error or a projection.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "controller/api/PodView.h"
#include "controller/api/ResourceClaim.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  auto pod = dra::api::PodView::FromProto(input);
  if (pod.ok()) (void)pod->RequestsExtendedResources();
  auto claim = dra::api::ResourceClaim::FromProto(input);
  if (claim.ok()) (void)claim->meta.Key();
  return 0;
}
