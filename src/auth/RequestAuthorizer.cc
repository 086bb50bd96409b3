#include "src/auth/RequestAuthorizer.h"

#include <openssl/evp.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <nlohmann/json.hpp>

#include "src/auth/PeerGroup.h"
#include "src/auth/TokenClaims.h"
#include "src/base/AsciiText.h"
#include "src/base/RealClock.h"

namespace kube {
namespace {

// The token of "Authorization: Bearer TOKEN" (scheme case-insensitive), or "".
std::string BearerToken(const std::string& header) {
  constexpr std::string_view kScheme = "bearer ";
  if (header.size() <= kScheme.size()) return "";
  for (std::size_t i = 0; i < kScheme.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(header[i])) != kScheme[i]) return "";
  }
  auto begin = header.find_first_not_of(' ', kScheme.size());
  if (begin == std::string::npos) return "";
  auto end = header.find_last_not_of(" \t");
  std::string token = header.substr(begin, end - begin + 1);
  // Tokens are printable ASCII (a JWT is base64url): anything else is no
  // token, and never reaches a review's JSON.
  bool printable =
      std::all_of(token.begin(), token.end(), [](char c) { return c > ' ' && c < 0x7f; });
  return printable ? token : "";
}

// Tokens are secrets: the cache keeps their digests only.
std::string Sha256(const std::string& data) {
  std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
  unsigned int size = 0;
  if (EVP_Digest(data.data(), data.size(), digest.data(), &size, EVP_sha256(), nullptr) != 1) {
    return "";
  }
  return std::string(reinterpret_cast<const char*>(digest.data()), size);
}

TokenBucket::Nanos SinceEpoch(Clock::TimePoint t) {
  return std::chrono::duration_cast<TokenBucket::Nanos>(t.time_since_epoch());
}

std::chrono::nanoseconds ReviewInterval(double per_second) {
  if (per_second <= 0) return std::chrono::nanoseconds(0);
  return std::chrono::nanoseconds(static_cast<int64_t>(1e9 / per_second));
}

Status TooManyReviews() {
  return Status(StatusCode::kTooManyRequests, "too many authentication reviews; retry later");
}

// Outside text (a path) may be any bytes: replaced, never thrown over.
std::string DecisionKey(const UserInfo& user, const nlohmann::json& request) {
  nlohmann::json key = {user.username, user.uid, user.groups, user.extra, request};
  return key.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace

RequestAuthorizer::RequestAuthorizer(std::shared_ptr<TokenReviewer> tokens,
                                     std::shared_ptr<AccessReviewer> access,
                                     RequestAuthorizerOptions options)
    : tokens_(std::move(tokens)),
      access_(std::move(access)),
      options_(std::move(options)),
      clock_(options_.clock ? options_.clock : RealClock::Shared()),
      users_(options_.max_cache_entries),
      rejected_tokens_(options_.max_cache_entries),
      decisions_(options_.max_cache_entries),
      review_budget_(std::max(1, options_.review_burst),
                     ReviewInterval(options_.reviews_per_second), Now()),
      peer_budgets_(options_.peer_review_burst, ReviewInterval(options_.peer_reviews_per_second),
                    options_.max_peers),
      identity_budgets_(options_.identity_review_burst,
                        ReviewInterval(options_.identity_reviews_per_second),
                        options_.max_cache_entries),
      known_review_budget_(std::max(1, options_.known_review_burst),
                           ReviewInterval(options_.known_reviews_per_second), Now()),
      known_tokens_(options_.max_cache_entries),
      allowed_identities_(options_.max_cache_entries),
      barred_peers_(options_.max_peers) {}

TokenBucket::Nanos RequestAuthorizer::Now() const { return SinceEpoch(clock_->Now()); }

bool RequestAuthorizer::TakeReviewToken(TokenBucket& budget) {
  std::lock_guard lock(budget_mu_);
  return budget.TryTake(Now());
}

Status RequestAuthorizer::Authorize(const std::string& method, const std::string& path,
                                    const std::string& authorization_header,
                                    const std::string& peer) {
  std::string token = BearerToken(authorization_header);
  if (token.empty()) return Status(StatusCode::kUnauthorized, "no bearer token");
  auto user = Authenticate(token, PeerGroup::Of(peer));
  if (!user.ok()) return user.status();
  std::string verb = method == "HEAD" ? "get" : AsciiText::Lower(method);
  Status verdict = CheckAccess(*user, DecisionKey(*user, {verb, path}), verb + " " + path,
                               [&] { return access_->ReviewNonResource(*user, verb, path); });
  if (verdict.ok()) {
    // Its claims are true now: the token passed the review.
    std::string claim = TokenClaims::ClaimedIdentity(token);
    auto now = clock_->Now();
    if (!claim.empty())
      allowed_identities_.Put(claim, true, now + options_.allowed_identity_ttl, now);
  }
  return verdict;
}

Result<UserInfo> RequestAuthorizer::Authenticate(const std::string& token,
                                                 const std::string& peer) {
  std::string key = Sha256(token);
  if (key.empty()) return Status(StatusCode::kInternal, "cannot hash the token");
  auto now = clock_->Now();
  if (auto cached = users_.Get(key, now)) return *cached;
  if (rejected_tokens_.Get(key, now)) {
    return Status(StatusCode::kUnauthorized, "token not authenticated (cached)");
  }
  std::string claim = TokenClaims::ClaimedIdentity(token);
  bool reserved = false;
  if (!TakeReview(key, claim, peer, reserved)) return TooManyReviews();
  auto user = tokens_->Review(token);
  now = clock_->Now();
  if (user.ok()) {
    users_.Put(key, *user, now + options_.authenticated_ttl, now);
    known_tokens_.Put(key, true, now + options_.known_token_ttl, now);
  } else if (user.status().code() == StatusCode::kUnauthorized) {
    rejected_tokens_.Put(key, true, now + options_.unauthenticated_ttl, now);
    if (reserved) barred_peers_.Put(peer, true, now + options_.forged_claim_penalty, now);
  }
  return user;
}

bool RequestAuthorizer::TakeReview(const std::string& key, const std::string& claim,
                                   const std::string& peer, bool& reserved) {
  auto now = clock_->Now();
  if (known_tokens_.Get(key, now)) return TakeReviewToken(known_review_budget_);
  reserved = !claim.empty() && allowed_identities_.Get(claim, now).has_value() &&
             !barred_peers_.Get(peer, now).has_value();
  std::lock_guard lock(budget_mu_);
  if (reserved) return identity_budgets_.TryTake(claim, Now());
  return peer_budgets_.TryTake(peer, Now()) && review_budget_.TryTake(Now());
}

Status RequestAuthorizer::CheckAccess(const UserInfo& user, const std::string& key,
                                      const std::string& what,
                                      const std::function<Result<AccessDecision>()>& review) {
  auto decision = decisions_.Get(key, clock_->Now());
  if (!decision) {
    if (!TakeReviewToken(known_review_budget_)) return TooManyReviews();
    auto reviewed = review();
    if (!reviewed.ok()) return reviewed.status();
    auto now = clock_->Now();
    auto ttl = reviewed->allowed ? options_.allowed_ttl : options_.denied_ttl;
    decisions_.Put(key, *reviewed, now + ttl, now);
    decision = *reviewed;
  }
  if (decision->allowed) return Status::Ok();
  std::string message = "user \"" + user.username + "\" may not " + what;
  if (!decision->reason.empty()) message += ": " + decision->reason;
  return Status(StatusCode::kForbidden, message);
}

int RequestAuthorizer::HttpStatusFor(const Status& verdict) {
  switch (verdict.code()) {
    case StatusCode::kOk:
      return 200;
    case StatusCode::kUnauthorized:
      return 401;
    case StatusCode::kForbidden:
      return 403;
    case StatusCode::kTooManyRequests:
      return 429;
    default:
      return 500;
  }
}

}  // namespace kube
