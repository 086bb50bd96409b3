#include "src/http/RequestHeaders.h"

#include <algorithm>
#include <cctype>
#include <cstring>

namespace kube {

Result<RequestHeaders::List> RequestHeaders::For(const RestConfig& config,
                                                 const HttpRequest& request) {
  List headers = {{"User-Agent", config.user_agent}};
  if (!HasHeader(request, "Accept")) headers.emplace_back("Accept", "application/json");
  if (config.token) {
    auto token = config.token->Token();
    if (!token.ok()) return token.status();
    headers.emplace_back("Authorization", "Bearer " + *token);
  }
  for (auto& header : Impersonation(config.impersonate)) headers.push_back(std::move(header));
  if (!request.body.empty() || !request.content_type.empty()) {
    headers.emplace_back("Content-Type",
                         request.content_type.empty() ? "application/json" : request.content_type);
  }
  headers.insert(headers.end(), request.headers.begin(), request.headers.end());
  return headers;
}

bool RequestHeaders::HasHeader(const HttpRequest& request, std::string_view name) {
  auto same = [&](const std::string& header) {
    return header.size() == name.size() &&
           std::equal(header.begin(), header.end(), name.begin(), [](char a, char b) {
             return std::tolower(static_cast<unsigned char>(a)) ==
                    std::tolower(static_cast<unsigned char>(b));
           });
  };
  for (const auto& header : request.headers) {
    if (same(header.first)) return true;
  }
  return false;
}

RequestHeaders::List RequestHeaders::Impersonation(const kube::Impersonation& as) {
  List headers;
  if (!as.user.empty()) headers.emplace_back("Impersonate-User", as.user);
  if (!as.uid.empty()) headers.emplace_back("Impersonate-Uid", as.uid);
  for (const auto& group : as.groups) headers.emplace_back("Impersonate-Group", group);
  for (const auto& [key, values] : as.extra) {
    for (const auto& value : values) {
      headers.emplace_back("Impersonate-Extra-" + EscapeExtraKey(key), value);
    }
  }
  return headers;
}

std::string RequestHeaders::EscapeExtraKey(const std::string& key) {
  static const char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : key) {
    if (std::isalnum(c) || (c != 0 && std::strchr("!#$&'*+-.^_`|~", c) != nullptr)) {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 0xF];
    }
  }
  return out;
}

}  // namespace kube
