#pragma once

#include <memory>
#include <string>

#include "src/auth/UserInfo.h"
#include "src/base/Result.h"
#include "src/client/RestClient.h"

namespace kube {

struct AccessDecision {
  bool allowed = false;
  std::string reason;  // the authorizer's explanation, may be empty
};

// Asks the API server whether a user may use a verb on a non-resource URL with
// a SubjectAccessReview (POST /apis/authorization.k8s.io/v1/subjectaccessreviews).
class AccessReviewer {
 public:
  explicit AccessReviewer(std::shared_ptr<RestClient> client);

  // The decision; an error only when the review itself failed.
  Result<AccessDecision> ReviewNonResource(const UserInfo& user, const std::string& verb,
                                           const std::string& path);

 private:
  std::shared_ptr<RestClient> client_;
};

}  // namespace kube
