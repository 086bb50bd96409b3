#include "controller/translate/ClassSource.h"

#include <simdjson.h>

#include "controller/api/DeviceClass.h"
#include "controller/translate/DocumentReader.h"
#include "controller/translate/YamlJson.h"
#include "src/client/ResourceType.h"

namespace dra::translate {
namespace {

kube::Status AddObject(const nlohmann::json& object, ClassSource::Classes& classes) {
  if (!object.is_object()) return kube::Status::Ok();
  std::string kind = object.value("kind", "");
  if (object.contains("items") && object["items"].is_array()) {
    for (const auto& item : object["items"]) {
      nlohmann::json copy = item;
      if (!copy.contains("kind")) copy["kind"] = "DeviceClass";
      KUBE_RETURN_IF_ERROR(AddObject(copy, classes));
    }
    return kube::Status::Ok();
  }
  if (kind != "DeviceClass") return kube::Status::Ok();
  auto parsed = ClassSource::Parse(object.dump());
  if (!parsed.ok()) return parsed.status();
  classes.push_back(std::make_shared<const api::DeviceClass>(std::move(*parsed)));
  return kube::Status::Ok();
}

}  // namespace

kube::Result<api::DeviceClass> ClassSource::Parse(const std::string& json_text) {
  simdjson::dom::parser parser;
  simdjson::dom::element element;
  if (parser.parse(json_text).get(element) != simdjson::SUCCESS) {
    return kube::Status(kube::StatusCode::kParseError, "DeviceClass is not valid JSON");
  }
  return api::DeviceClass::FromJson(element);
}

kube::Result<ClassSource::Classes> ClassSource::FromText(std::string_view text) {
  Classes classes;
  for (const auto& doc : DocumentReader::Split(text)) {
    if (!doc.parsed()) {
      return kube::Status(kube::StatusCode::kParseError,
                          "document " + std::to_string(doc.index) + ": " + doc.parse_error);
    }
    KUBE_RETURN_IF_ERROR(AddObject(YamlJson::ToJson(doc.node), classes));
  }
  return classes;
}

kube::Result<ClassSource::Classes> ClassSource::FromCluster(kube::RestClient& client) {
  auto list = client.List(api::DeviceClass::kResource, "", {});
  if (!list.ok()) return list.status().WithContext("listing DeviceClasses");
  Classes classes;
  KUBE_RETURN_IF_ERROR(AddObject(*list, classes));
  return classes;
}

}  // namespace dra::translate
