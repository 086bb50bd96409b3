#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace dra::health {

// The name of a DeviceHealth a monitoring source keeps for one GPU:
// "<prefix><readable>-<hash>", the readable part lowercased (runs of other
// characters become '-'), cut from the front so the name stays a DNS-1123
// label (at most 63 characters); the hash (12 hex digits of FNV-1a over
// `identity`) tells apart GPUs whose readable parts collide. The same
// identity always gets the same name.
class SourcedHealthName {
 public:
  static constexpr size_t kMaxLength = 63;
  // `prefix` ends with '-' and is at most 30 characters.
  static std::string For(std::string_view prefix, std::string_view readable,
                         std::string_view identity);
};

}  // namespace dra::health
