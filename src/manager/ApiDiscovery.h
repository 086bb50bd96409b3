#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "src/base/Status.h"
#include "src/client/RestClient.h"

namespace kube {

// What the API server serves: its version and, for each group-version asked
// about, the resources it lists. Filled once by Probe() (or, group-version by
// group-version, by ProbeGroupVersion()); read-only after.
class ApiDiscovery {
 public:
  // `group_versions`: "v1" for the core group, otherwise "group/version".
  // Fails when the server does not answer or one of `required` is not served.
  Status Probe(RestClient& client, const std::vector<std::string>& group_versions,
               const std::set<std::string>& required);
  // Asks about one group-version alone, without the server's version (for
  // callers that only need to know where a resource is served). Records the
  // resources it lists; NotFound when the server does not serve it.
  Status ProbeGroupVersion(RestClient& client, const std::string& group_version);

  const std::string& server_version() const { return server_version_; }
  bool Serves(const std::string& group_version, const std::string& resource) const;
  bool ServesGroupVersion(const std::string& group_version) const;

 private:
  std::string server_version_;
  std::map<std::string, std::set<std::string>> resources_;
};

}  // namespace kube
