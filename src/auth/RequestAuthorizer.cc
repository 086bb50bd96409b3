#include "src/auth/RequestAuthorizer.h"

#include <openssl/evp.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <nlohmann/json.hpp>

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
  return token.find(' ') == std::string::npos ? token : "";
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

std::string DecisionKey(const UserInfo& user, const nlohmann::json& request) {
  nlohmann::json key = {user.username, user.uid, user.groups, user.extra, request};
  return key.dump();
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
      decisions_(options_.max_cache_entries),
      review_budget_(std::max(1, options_.review_burst),
                     ReviewInterval(options_.reviews_per_second), SinceEpoch(clock_->Now())),
      known_review_budget_(std::max(1, options_.known_review_burst),
                           ReviewInterval(options_.known_reviews_per_second),
                           SinceEpoch(clock_->Now())),
      known_tokens_(options_.max_cache_entries) {}

bool RequestAuthorizer::TakeReviewToken(TokenBucket& budget) {
  std::lock_guard lock(budget_mu_);
  return budget.TryTake(SinceEpoch(clock_->Now()));
}

Status RequestAuthorizer::Authorize(const std::string& method, const std::string& path,
                                    const std::string& authorization_header) {
  auto user = AuthenticateHeader(authorization_header);
  if (!user.ok()) return user.status();
  std::string verb = method == "HEAD" ? "get" : AsciiText::Lower(method);
  return CheckAccess(*user, DecisionKey(*user, {verb, path}), verb + " " + path,
                     [&] { return access_->ReviewNonResource(*user, verb, path); });
}

Status RequestAuthorizer::AuthorizeResource(const std::string& authorization_header,
                                            const ResourceAttributes& attributes) {
  auto user = AuthenticateHeader(authorization_header);
  if (!user.ok()) return user.status();
  nlohmann::json request = {"resource",          attributes.verb,       attributes.group,
                            attributes.resource, attributes.namespace_, attributes.name};
  return CheckAccess(*user, DecisionKey(*user, request), attributes.Describe(),
                     [&] { return access_->ReviewResource(*user, attributes); });
}

Result<UserInfo> RequestAuthorizer::AuthenticateHeader(const std::string& authorization_header) {
  std::string token = BearerToken(authorization_header);
  if (token.empty()) return Status(StatusCode::kUnauthorized, "no bearer token");
  return Authenticate(token);
}

Result<UserInfo> RequestAuthorizer::Authenticate(const std::string& token) {
  std::string key = Sha256(token);
  if (key.empty()) return Status(StatusCode::kInternal, "cannot hash the token");
  auto now = clock_->Now();
  if (auto cached = users_.Get(key, now)) {
    if (*cached) return **cached;
    return Status(StatusCode::kUnauthorized, "token not authenticated (cached)");
  }
  bool known = known_tokens_.Get(key, now).has_value();
  if (!TakeReviewToken(known ? known_review_budget_ : review_budget_)) return TooManyReviews();
  auto user = tokens_->Review(token);
  now = clock_->Now();
  if (user.ok()) {
    users_.Put(key, *user, now + options_.authenticated_ttl, now);
    known_tokens_.Put(key, true, now + options_.known_token_ttl, now);
  } else if (user.status().code() == StatusCode::kUnauthorized) {
    users_.Put(key, std::nullopt, now + options_.unauthenticated_ttl, now);
  }
  return user;
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
