#pragma once

#include <simdjson.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "src/api/Quantity.h"
#include "src/base/Result.h"
#include "src/cache/ObjectDecoder.h"
#include "src/cache/ObjectMeta.h"
#include "src/client/ResourceType.h"

namespace dra::api {

// core/v1 Node as the controller needs it: extended resources in
// status.allocatable (> 0 there means a device plugin serves the name on this
// node), readiness and cordoning.
struct NodeView {
  // The REST resource this projection is read from.
  static const kube::ResourceType kResource;

  enum class Readiness : uint8_t { kUnknown, kReady, kNotReady };

  kube::ObjectMeta meta;
  // Names with a '/' outside kubernetes.io/, in the server's order.
  std::vector<std::pair<std::string, kube::Quantity>> allocatable_extended;
  Readiness ready = Readiness::kUnknown;  // the Ready condition (absent: kUnknown)
  bool unschedulable = false;             // spec.unschedulable

  // Allocatable of `name`, zero when absent.
  kube::Quantity Allocatable(std::string_view name) const;

  // Extended resource names as the API defines them: contain '/', and do not
  // contain "kubernetes.io/" (the native namespace).
  static bool IsExtendedResourceName(std::string_view name);

  static kube::Result<NodeView> FromJson(simdjson::dom::element object);
  // The same from a Node's protobuf message (core/v1 generated.proto).
  static kube::Result<NodeView> FromProto(std::string_view object);
  // Both projections: what informers of Nodes are built with.
  static kube::ObjectDecoder<NodeView> Decoder() { return {FromJson, FromProto}; }
};

}  // namespace dra::api
