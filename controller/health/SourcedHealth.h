#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "controller/api/DeviceHealth.h"

namespace dra::health {

// The label that marks a DeviceHealth written by a monitoring source, and
// names that source ("alertmanager", "kubelet"). Objects without it are a
// person's and no source ever changes them.
inline constexpr const char* kSourceLabel = "dra-controller.dev/source";

// A DeviceHealth as a monitoring source states it: the object a source
// creates, or updates while it carries the source's label.
struct SourcedHealth {
  std::string name;    // metadata.name
  std::string source;  // the kSourceLabel value
  // The target, in exactly one of the forms api::DeviceHealth documents.
  std::string driver;
  std::string pool;
  std::string device;
  std::string uuid;
  std::string node;
  std::optional<int64_t> index;
  api::HealthState state = api::HealthState::kUnhealthy;
  std::string reason;   // CamelCase, at most 128 characters
  std::string message;  // at most 1024 characters
  // metadata.annotations the source keeps on the object (e.g. what it last
  // saw, to ignore a late, older notification).
  std::map<std::string, std::string> annotations;
};

}  // namespace dra::health
