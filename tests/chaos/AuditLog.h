#pragma once

#include <map>
#include <string>

namespace dra::testing {

// Write requests counted from kube-apiserver's audit log (JSON lines, one
// audit.k8s.io/v1 Event per request at stage ResponseComplete), as written
// under the policy of hack/chaos.sh.
class AuditLog {
 public:
  struct Writes {
    // "devicetaintrules patch" -> count; subresources as "devicehealths/status".
    std::map<std::string, int> by_resource_verb;
    std::map<std::string, int> failed_by_resource_verb;  // answered >= 400
    int Total(const std::string& resource) const;
  };

  // Requests whose User-Agent starts with `user_agent_prefix` and that were
  // received at or after `since` (RFC 3339 UTC with microseconds, as the audit
  // log writes it; "" for all).
  static Writes Count(const std::string& path, const std::string& user_agent_prefix,
                      const std::string& since = "");
  // Now, in the audit log's timestamp format.
  static std::string Now();
};

}  // namespace dra::testing
