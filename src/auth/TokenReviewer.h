#pragma once

#include <memory>
#include <string>

#include "src/auth/UserInfo.h"
#include "src/base/Result.h"
#include "src/client/RestClient.h"

namespace kube {

// Asks the API server who a bearer token belongs to with a TokenReview
// (POST /apis/authentication.k8s.io/v1/tokenreviews). The client's request
// timeout is the deadline of one review.
class TokenReviewer {
 public:
  explicit TokenReviewer(std::shared_ptr<RestClient> client);

  // The user when the token is valid; kUnauthorized when the API server
  // rejects it; any other code when the review itself failed.
  Result<UserInfo> Review(const std::string& token);

 private:
  std::shared_ptr<RestClient> client_;
};

}  // namespace kube
