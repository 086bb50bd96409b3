#include "tests/chaos/AuditLog.h"

#include <chrono>
#include <fstream>
#include <nlohmann/json.hpp>

namespace dra::testing {

int AuditLog::Writes::Total(const std::string& resource) const {
  int total = 0;
  for (const auto& [key, count] : by_resource_verb) {
    if (key.substr(0, key.find(' ')) == resource) total += count;
  }
  return total;
}

AuditLog::Writes AuditLog::Count(const std::string& path, const std::string& user_agent_prefix,
                                 const std::string& since) {
  Writes writes;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    auto event = nlohmann::json::parse(line, nullptr, false);
    if (!event.is_object() || event.value("stage", "") != "ResponseComplete") continue;
    if (event.value("userAgent", "").rfind(user_agent_prefix, 0) != 0) continue;
    if (!since.empty() && event.value("requestReceivedTimestamp", "") < since) continue;
    std::string verb = event.value("verb", "");
    if (verb != "create" && verb != "update" && verb != "patch" && verb != "delete") continue;
    const auto& ref = event.value("objectRef", nlohmann::json::object());
    std::string resource = ref.value("resource", "");
    if (std::string sub = ref.value("subresource", ""); !sub.empty()) resource += "/" + sub;
    std::string key = resource + " " + verb;
    ++writes.by_resource_verb[key];
    if (event.value("/responseStatus/code"_json_pointer, 0) >= 400) {
      ++writes.failed_by_resource_verb[key];
    }
  }
  return writes;
}

std::string AuditLog::Now() {
  auto now = std::chrono::system_clock::now();
  auto micros =
      std::chrono::duration_cast<std::chrono::microseconds>(now.time_since_epoch()).count();
  std::time_t seconds = static_cast<std::time_t>(micros / 1000000);
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  char buffer[40];
  std::strftime(buffer, sizeof(buffer), "%Y-%m-%dT%H:%M:%S", &tm);
  char out[64];
  std::snprintf(out, sizeof(out), "%s.%06lldZ", buffer, static_cast<long long>(micros % 1000000));
  return out;
}

}  // namespace dra::testing
