#include "controller/extended/SentPodEvents.h"

#include "src/client/ListOptions.h"

namespace dra::extended {
namespace {

const kube::ResourceType kEvents{"", "v1", "events", true, "Event"};

std::string Text(const nlohmann::json& object, const nlohmann::json::json_pointer& at) {
  return object.value(at, std::string());
}

// When the Event last happened, as RFC 3339 text (they compare as text).
std::string LastSeen(const nlohmann::json& event) {
  for (const char* at : {"/series/lastObservedTime", "/lastTimestamp", "/eventTime",
                         "/metadata/creationTimestamp"}) {
    std::string t = Text(event, nlohmann::json::json_pointer(at));
    if (!t.empty()) return t;
  }
  return "";
}

}  // namespace

void SentPodEvents::Add(const nlohmann::json& list, std::string_view component, Messages& messages,
                        std::map<std::string, std::string>& newest) {
  if (!list.is_object() || !list.contains("items") || !list["items"].is_array()) return;
  for (const auto& event : list["items"]) {
    if (!event.is_object()) continue;
    bool ours = Text(event, "/source/component"_json_pointer) == component ||
                Text(event, "/reportingComponent"_json_pointer) == component;
    std::string uid = Text(event, "/involvedObject/uid"_json_pointer);
    if (!ours || uid.empty()) continue;
    std::string seen = LastSeen(event);
    auto it = newest.find(uid);
    if (it != newest.end() && it->second > seen) continue;
    newest[uid] = seen;
    messages[uid] = event.value("message", "");
  }
}

kube::Result<SentPodEvents::Messages> SentPodEvents::List(kube::RestClient& client,
                                                          std::string_view reason,
                                                          std::string_view component) {
  Messages messages;
  std::map<std::string, std::string> newest;
  kube::ListOptions options;
  options.field_selector = "reason=" + std::string(reason) + ",involvedObject.kind=Pod";
  options.limit = 500;
  do {
    nlohmann::json page;
    KUBE_ASSIGN_OR_RETURN(page, client.List(kEvents, "", options));
    Add(page, component, messages, newest);
    options.continue_token = page.value("/metadata/continue"_json_pointer, std::string());
  } while (!options.continue_token.empty());
  return messages;
}

}  // namespace dra::extended
