#pragma once

#include <map>
#include <string>
#include <vector>

namespace kube {

// Who a bearer token belongs to, as a TokenReview reports it
// (authentication.k8s.io/v1 UserInfo).
struct UserInfo {
  std::string username;
  std::string uid;
  std::vector<std::string> groups;
  std::map<std::string, std::vector<std::string>> extra;
};

}  // namespace kube
