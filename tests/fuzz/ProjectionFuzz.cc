// Fuzz target: every dra::api projection must turn any JSON document into a
// value or an error, never a crash or an exception.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "controller/api/DeviceClass.h"
#include "controller/api/DeviceTaintRule.h"
#include "controller/api/NodeView.h"
#include "controller/api/PodView.h"
#include "controller/api/ResourceClaim.h"
#include "controller/api/ResourceSlice.h"
#include "src/cache/WatchDecoder.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static kube::WatchDecoder* decoder = new kube::WatchDecoder();
  std::string_view body(reinterpret_cast<const char*>(data), size);
  auto doc = decoder->ParseDocument(body);
  if (!doc.ok()) return 0;
  (void)dra::api::DeviceClass::FromJson(*doc);
  auto slice = dra::api::ResourceSlice::FromJson(*doc);
  if (slice.ok()) {
    for (const auto& device : slice->devices) {
      for (const auto& [key, value] : device.attributes) (void)slice->SplitAttributeKey(key);
      for (const auto& taint : device.taints) (void)taint.EffectName();
      for (const auto& [name, value] : device.capacity) {
        const auto* policy = device.FindCapacityPolicy(name);
        (void)dra::api::CapacityPolicy::Consumption(policy, value, std::nullopt);
        (void)dra::api::CapacityPolicy::Consumption(policy, value, value);
      }
    }
  }
  auto claim = dra::api::ResourceClaim::FromJson(*doc);
  if (claim.ok()) {
    for (const auto& result : claim->results) {
      for (const auto& toleration : result.tolerations) {
        (void)toleration.Tolerates(dra::api::DeviceTaint{});
      }
    }
  }
  (void)dra::api::DeviceTaintRule::FromJson(*doc);
  (void)dra::api::NodeView::FromJson(*doc);
  (void)dra::api::PodView::FromJson(*doc);
  return 0;
}
