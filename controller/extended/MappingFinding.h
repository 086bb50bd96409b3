#pragma once

#include <string>
#include <string_view>

namespace dra::extended {

// One problem with how extended resource names reach DeviceClasses, reported
// on one object (a DeviceClass, or a Node for a device-plugin overlap).
struct MappingFinding {
  enum class Kind {
    kDuplicate,            // the class names a resource another class wins
    kOrderHazard,          // the contested name's winner left; the scheduler may map nothing
    kNoDevices,            // the class's selectors match no published device
    kDevicePluginOverlap,  // a node serves the name by device plugin and has devices of the class
  };

  Kind kind = Kind::kDuplicate;
  std::string object_kind;  // "DeviceClass" or "Node"
  std::string object_name;
  std::string resource;  // the extended resource name concerned (may be empty)
  std::string other;     // the winning / departed class, or the class for a Node finding
  std::string message;

  // The finding's identity: the same problem keeps the same key while it lasts.
  std::string Key() const {
    return std::string(KindName(kind)) + "|" + object_kind + "|" + object_name + "|" + resource +
           "|" + other;
  }

  // The Event reason and metric label of a kind.
  static std::string_view KindName(Kind kind) {
    switch (kind) {
      case Kind::kDuplicate:
        return "DuplicateExtendedResourceName";
      case Kind::kOrderHazard:
        return "ExtendedResourceMappingOrderHazard";
      case Kind::kNoDevices:
        return "DeviceClassMatchesNoDevice";
      case Kind::kDevicePluginOverlap:
        return "DevicePluginOverlap";
    }
    return "Unknown";
  }

  friend bool operator==(const MappingFinding&, const MappingFinding&) = default;
};

}  // namespace dra::extended
