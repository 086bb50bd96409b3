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

  // The finding's identity: the same problem on the same object and resource
  // keeps its key while it lasts, even when `other` or the message changes
  // (a new winner, another overlapping node).
  std::string Key() const {
    return std::string(KindName(kind)) + "|" + object_kind + "|" + object_name + "|" + resource;
  }

  // The text of the Normal Event sent when the finding clears: what holds now.
  std::string ResolvedMessage() const {
    const std::string object = object_kind + " " + object_name;
    switch (kind) {
      case Kind::kDuplicate:
        return object + " is not a losing claimant of extended resource " + resource +
               " any more: no other class wins that name against it.";
      case Kind::kOrderHazard:
        return object + " has been updated since the winner of " + resource +
               " left, or no longer serves it: kube-scheduler maps " + resource +
               " as the DeviceClasses say.";
      case Kind::kNoDevices:
        return object + " matches published devices, or serves no extended resource.";
      case Kind::kDevicePluginOverlap:
        return object_kind == "Node"
                   ? object + " does not serve " + resource +
                         " through a device plugin while publishing DRA devices for it."
                   : "No node serves " + resource +
                         " through a device plugin while publishing devices of " + object + ".";
    }
    return object + ": resolved.";
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
