#include "controller/translate/LiveObjectCleaner.h"

#include "controller/translate/PodNodeName.h"
#include "controller/translate/YamlJson.h"

namespace dra::translate {
namespace {

constexpr const char* kServerSetMetadata[] = {"uid",
                                              "resourceVersion",
                                              "generation",
                                              "creationTimestamp",
                                              "deletionTimestamp",
                                              "deletionGracePeriodSeconds",
                                              "managedFields",
                                              "selfLink"};

// The labels the Job controller derives from the Job's uid.
constexpr const char* kJobUidLabels[] = {"controller-uid", "batch.kubernetes.io/controller-uid"};

bool IsMap(const YAML::Node& node) { return node && node.IsMap(); }

std::string ScalarAt(const YAML::Node& map, const char* key) {
  if (!IsMap(map)) return "";
  const YAML::Node value = map[key];
  return value && value.IsScalar() ? value.Scalar() : "";
}

}  // namespace

void LiveObjectCleaner::Remove(YAML::Node map, const std::string& key) {
  if (IsMap(map) && map[key]) map.remove(key);
}

bool LiveObjectCleaner::Clean(YAML::Node object) {
  if (!IsMap(object)) return false;
  YAML::Node meta = object["metadata"];
  if (ScalarAt(meta, "uid").empty() && ScalarAt(meta, "resourceVersion").empty()) return false;
  const std::string kind = ScalarAt(object, "kind");
  if (kind == "Pod") CleanPodSpec(object);  // reads status and managedFields: first
  if (kind == "Job") CleanJob(object);
  for (const char* key : kServerSetMetadata) Remove(meta, key);
  Remove(object, "status");
  return true;
}

void LiveObjectCleaner::CleanPodSpec(YAML::Node pod) {
  YAML::Node spec = pod["spec"];
  if (ScalarAt(spec, "nodeName").empty()) return;
  if (!PodNodeName::SetByAuthor(YamlJson::ToJson(pod))) Remove(spec, "nodeName");
}

void LiveObjectCleaner::CleanJob(YAML::Node job) {
  YAML::Node spec = job["spec"];
  if (!IsMap(spec) || ScalarAt(spec, "manualSelector") == "true") return;
  Remove(spec, "selector");  // generated from the old Job's uid
  YAML::Node template_meta = IsMap(spec["template"]) ? spec["template"]["metadata"] : YAML::Node();
  YAML::Node labels = IsMap(template_meta) ? template_meta["labels"] : YAML::Node();
  for (const char* label : kJobUidLabels) Remove(labels, label);
}

}  // namespace dra::translate
