#include <gtest/gtest.h>

#include <algorithm>

#include "src/auth/TokenClaims.h"
#include "src/base/Base64.h"

namespace kube {
namespace {

std::string Url(std::string text) {
  text = Base64Encode(text);
  std::replace(text.begin(), text.end(), '+', '-');
  std::replace(text.begin(), text.end(), '/', '_');
  text.erase(std::remove(text.begin(), text.end(), '='), text.end());
  return text;
}

TEST(TokenClaimsTest, IssuerAndSubjectOfAJwt) {
  std::string token = Url(R"({"alg":"RS256"})") + "." +
                      Url(R"({"iss":"https://k8s","sub":"system:serviceaccount:m:p","x":"ÿ?>"})") +
                      ".sig";
  EXPECT_EQ(TokenClaims::ClaimedIdentity(token), "https://k8s system:serviceaccount:m:p");
}

TEST(TokenClaimsTest, AnythingElseClaimsNothing) {
  for (const std::string& token :
       {std::string(""), std::string("opaque-static-token"), std::string("a.b"),
        std::string("a.b.c.d"), Url("{}") + "." + Url(R"({"sub":"s"})") + ".x",
        Url("{}") + "." + Url(R"({"iss":"i","sub":7})") + ".x",
        Url("{}") + "." + Url("[1,2]") + ".x", Url("{}") + ".!!!.x",
        Url("{}") + "." + Url(R"({"iss":"","sub":"s"})") + ".x"}) {
    EXPECT_EQ(TokenClaims::ClaimedIdentity(token), "") << token;
  }
}

}  // namespace
}  // namespace kube
