#include "src/auth/TokenClaims.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "src/base/Base64.h"

namespace kube {
namespace {

// base64url (RFC 7515) without padding to the standard alphabet.
std::string FromBase64Url(std::string_view part) {
  std::string standard(part);
  std::replace(standard.begin(), standard.end(), '-', '+');
  std::replace(standard.begin(), standard.end(), '_', '/');
  return standard;
}

}  // namespace

std::string TokenClaims::ClaimedIdentity(std::string_view token) {
  auto first = token.find('.');
  if (first == std::string_view::npos) return "";
  auto second = token.find('.', first + 1);
  if (second == std::string_view::npos || token.find('.', second + 1) != std::string_view::npos) {
    return "";
  }
  std::string_view payload = token.substr(first + 1, second - first - 1);
  if (payload.find_first_of("+/= \t\r\n") != std::string_view::npos) return "";
  auto decoded = Base64Decode(FromBase64Url(payload));
  if (!decoded.ok()) return "";
  auto claims = nlohmann::json::parse(*decoded, nullptr, /*allow_exceptions=*/false);
  if (!claims.is_object()) return "";
  auto iss = claims.find("iss");
  auto sub = claims.find("sub");
  if (iss == claims.end() || sub == claims.end() || !iss->is_string() || !sub->is_string()) {
    return "";
  }
  const auto& issuer = iss->get_ref<const std::string&>();
  const auto& subject = sub->get_ref<const std::string&>();
  if (issuer.empty() || subject.empty()) return "";
  return issuer + " " + subject;
}

}  // namespace kube
