#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "src/base/Result.h"
#include "src/config/RestConfig.h"
#include "src/http/HttpTransport.h"

namespace kube {

// The headers every transport sends: identity (User-Agent, bearer token,
// Impersonate-*), Accept (JSON unless the request names its own),
// Content-Type, then the request's own.
class RequestHeaders {
 public:
  using List = std::vector<std::pair<std::string, std::string>>;

  static Result<List> For(const RestConfig& config, const HttpRequest& request);
  // Impersonate-User, -Uid, -Group (one per group), -Extra-<key> (one per value).
  static List Impersonation(const kube::Impersonation& as);
  // client-go's escaping of an extra key into a header name: bytes outside
  // the HTTP token set (and '%') become %XX.
  static std::string EscapeExtraKey(const std::string& key);
  // Whether the request carries header `name` (compared case-insensitively).
  static bool HasHeader(const HttpRequest& request, std::string_view name);
};

}  // namespace kube
