#pragma once

#include <map>
#include <string>
#include <string_view>

#include "src/base/Result.h"

namespace dra::health {

// Which device attribute holds a GPU's UUID and which its index on the node,
// per DRA driver (monitoring names GPUs by these, not by pool and device).
// A slice may write an attribute qualified ("gpu.nvidia.com/uuid") or not
// ("uuid"); both match.
class DeviceAttributeNames {
 public:
  std::string_view Uuid(std::string_view driver) const;
  std::string_view Index(std::string_view driver) const;

  // A comma-separated list: "DRIVER=ATTRIBUTE" sets one driver's name, a
  // bare "ATTRIBUTE" the default for every other driver. An error names the
  // entry that is wrong.
  kube::Status SetUuid(std::string_view list);
  kube::Status SetIndex(std::string_view list);

 private:
  std::string default_uuid_ = "uuid";
  std::string default_index_ = "index";
  std::map<std::string, std::string, std::less<>> uuid_;
  std::map<std::string, std::string, std::less<>> index_;
};

}  // namespace dra::health
