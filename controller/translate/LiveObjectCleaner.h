#pragma once

#include <yaml-cpp/yaml.h>

#include <string>

namespace dra::translate {

// Removes what the API server and its controllers set on an object it
// returns (`kubectl get -o yaml`), so that the translated manifest can be
// created or applied as a new object: metadata.uid, resourceVersion,
// generation, creationTimestamp, deletionTimestamp,
// deletionGracePeriodSeconds, managedFields and selfLink; status; a Pod's
// spec.nodeName when the scheduler set it (see PodNodeName), so that the
// new Pod goes through the scheduler, which allocates its claims; a Job's
// generated selector and controller-uid labels. An object without
// metadata.uid or resourceVersion is a manifest and stays as it is.
class LiveObjectCleaner {
 public:
  // True when `object` was a live object (and was cleaned).
  static bool Clean(YAML::Node object);

 private:
  static void CleanPodSpec(YAML::Node object);
  static void CleanJob(YAML::Node object);
  static void Remove(YAML::Node map, const std::string& key);
};

}  // namespace dra::translate
