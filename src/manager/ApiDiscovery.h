#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "src/base/Status.h"
#include "src/client/RestClient.h"

namespace kube {

// What the API server serves: its version and, for each group-version asked
// about, the resources it lists. Filled once by Probe(); read-only after.
class ApiDiscovery {
 public:
  // `group_versions`: "v1" for the core group, otherwise "group/version".
  // Fails when the server does not answer or one of `required` is not served.
  Status Probe(RestClient& client, const std::vector<std::string>& group_versions,
               const std::set<std::string>& required);

  const std::string& server_version() const { return server_version_; }
  bool Serves(const std::string& group_version, const std::string& resource) const;
  bool ServesGroupVersion(const std::string& group_version) const;

 private:
  Status ProbeGroupVersion(RestClient& client, const std::string& group_version);

  std::string server_version_;
  std::map<std::string, std::set<std::string>> resources_;
};

}  // namespace kube
