#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "src/auth/AccessReviewer.h"
#include "src/auth/ExpiringCache.h"
#include "src/auth/KeyedTokenBuckets.h"
#include "src/auth/TokenReviewer.h"
#include "src/base/Clock.h"
#include "src/base/Status.h"
#include "src/base/TokenBucket.h"

namespace kube {

struct RequestAuthorizerOptions {
  // How long review answers are reused, so that a scraper costs at most one
  // TokenReview and one SubjectAccessReview per token and period.
  std::chrono::milliseconds authenticated_ttl{10000};
  std::chrono::milliseconds unauthenticated_ttl{5000};
  std::chrono::milliseconds allowed_ttl{10000};
  std::chrono::milliseconds denied_ttl{5000};
  std::size_t max_cache_entries = 1024;  // per cache
  // Reviews of tokens not authenticated lately (answers from the caches are
  // free): beyond this rate a request gets kTooManyRequests at once, so a
  // flood of unknown tokens cannot flood the API server or pile up.
  double reviews_per_second = 20;
  int review_burst = 40;
  // ...and of those, per peer address (see PeerGroup), so
  // that one client spends at most a quarter of them: a flood from a few
  // addresses leaves room for a new token from another one.
  double peer_reviews_per_second = 5;
  int peer_review_burst = 10;
  std::size_t max_peers = 1024;
  // The reserved share: a token whose JWT claims (issuer and subject, not
  // checked before the review) name an identity that was allowed before, is
  // reviewed from that identity's own budget rather than the unknown ones,
  // so a rotated or newly minted token of a known scraper or sender gets
  // through a flood of made-up tokens, even from its own address. A peer
  // that presents a rejected token claiming such an identity loses the
  // reserved share for `forged_claim_penalty`.
  double identity_reviews_per_second = 1;
  int identity_review_burst = 20;
  std::chrono::milliseconds allowed_identity_ttl{std::chrono::hours(24)};
  std::chrono::milliseconds forged_claim_penalty{std::chrono::minutes(5)};
  // Reviews for tokens authenticated within `known_token_ttl` (their
  // answers expired) and access reviews of authenticated users have a
  // budget of their own: a flood of unknown tokens does not lock out the
  // scrapers already known.
  double known_reviews_per_second = 20;
  int known_review_burst = 40;
  std::chrono::milliseconds known_token_ttl{std::chrono::minutes(15)};
  std::shared_ptr<Clock> clock;  // null: RealClock
};

// Authenticates a request's bearer token with a TokenReview and authorizes
// the user for the request's non-resource URL with a SubjectAccessReview, the
// way kube-rbac-proxy and controller-runtime's metrics filters do. Review
// failures are not cached. Thread-safe.
class RequestAuthorizer {
 public:
  RequestAuthorizer(std::shared_ptr<TokenReviewer> tokens, std::shared_ptr<AccessReviewer> access,
                    RequestAuthorizerOptions options = {});

  // Ok: allowed. kUnauthorized: no bearer token, or one the API server
  // rejects. kForbidden: the user may not use the verb (the lower-cased
  // method; HEAD is "get", as in controller-runtime) on `path`.
  // kTooManyRequests: over the review rate. Any other code: a review failed.
  // `peer`: the client's address, whose budget an unknown token draws from.
  Status Authorize(const std::string& method, const std::string& path,
                   const std::string& authorization_header, const std::string& peer = "");

  // 200, 401, 403, 429, or 500 for a failed review.
  static int HttpStatusFor(const Status& verdict);

 private:
  Result<UserInfo> Authenticate(const std::string& token, const std::string& peer);
  // Takes a review from the budget `token` draws from; false: none left.
  // `reserved` tells whether it came from a claimed identity's share.
  bool TakeReview(const std::string& key, const std::string& claim, const std::string& peer,
                  bool& reserved);
  // The cached decision under `key`, else `review`'s (cached); kForbidden
  // with "user U may not <what>" when denied.
  Status CheckAccess(const UserInfo& user, const std::string& key, const std::string& what,
                     const std::function<Result<AccessDecision>()>& review);
  bool TakeReviewToken(TokenBucket& budget);
  TokenBucket::Nanos Now() const;

  std::shared_ptr<TokenReviewer> tokens_;
  std::shared_ptr<AccessReviewer> access_;
  RequestAuthorizerOptions options_;
  std::shared_ptr<Clock> clock_;
  // Keyed by the token's SHA-256; rejected tokens apart, so that a flood of
  // them cannot push out the answers of valid ones.
  ExpiringCache<UserInfo> users_;
  ExpiringCache<bool> rejected_tokens_;
  ExpiringCache<AccessDecision> decisions_;
  std::mutex budget_mu_;
  TokenBucket review_budget_;           // unknown tokens, all peers
  KeyedTokenBuckets peer_budgets_;      // unknown tokens, per peer group
  KeyedTokenBuckets identity_budgets_;  // the reserved share, per claimed identity
  TokenBucket known_review_budget_;     // tokens authenticated lately, and their users
  ExpiringCache<bool> known_tokens_;
  ExpiringCache<bool> allowed_identities_;  // claimed identities of allowed tokens
  ExpiringCache<bool> barred_peers_;        // peers that forged such a claim
};

}  // namespace kube
