#pragma once

#include <memory>
#include <string>
#include <vector>

#include "src/auth/UserInfo.h"
#include "src/base/Result.h"
#include "src/client/RestClient.h"

namespace kube {

// Asks the API server who a bearer token belongs to with a TokenReview
// (POST /apis/authentication.k8s.io/v1/tokenreviews). The client's request
// timeout is the deadline of one review.
class TokenReviewer {
 public:
  // `audiences`: when set, the review asks for a token minted for one of
  // them (spec.audiences), and a token the answer does not confirm for one
  // of them is rejected; when empty, the API server's own audiences apply.
  explicit TokenReviewer(std::shared_ptr<RestClient> client,
                         std::vector<std::string> audiences = {});

  // The user when the token is valid; kUnauthorized when the API server
  // rejects it; any other code when the review itself failed.
  Result<UserInfo> Review(const std::string& token);

 private:
  std::shared_ptr<RestClient> client_;
  std::vector<std::string> audiences_;
};

}  // namespace kube
