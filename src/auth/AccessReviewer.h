#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "src/auth/UserInfo.h"
#include "src/base/Result.h"
#include "src/client/RestClient.h"

namespace kube {

// What a SubjectAccessReview asks about an API resource.
struct ResourceAttributes {
  std::string verb;  // "create", "get", ...
  std::string group;
  std::string resource;    // plural, e.g. "devicehealths"
  std::string namespace_;  // "" for cluster-scoped or all namespaces
  std::string name;        // "" for any
  // "create devicehealths.dra-controller.dev", for messages.
  std::string Describe() const;
};

struct AccessDecision {
  bool allowed = false;
  std::string reason;  // the authorizer's explanation, may be empty
};

// Asks the API server whether a user may use a verb on a non-resource URL, or
// on an API resource, with a SubjectAccessReview
// (POST /apis/authorization.k8s.io/v1/subjectaccessreviews).
class AccessReviewer {
 public:
  explicit AccessReviewer(std::shared_ptr<RestClient> client);

  // The decision; an error only when the review itself failed.
  Result<AccessDecision> ReviewNonResource(const UserInfo& user, const std::string& verb,
                                           const std::string& path);
  Result<AccessDecision> ReviewResource(const UserInfo& user, const ResourceAttributes& attributes);

 private:
  Result<AccessDecision> Review(const UserInfo& user, const char* attributes_field,
                                nlohmann::json attributes);

  std::shared_ptr<RestClient> client_;
};

}  // namespace kube
