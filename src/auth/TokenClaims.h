#pragma once

#include <string>
#include <string_view>

namespace kube {

// What a bearer token says about itself, before anyone checked it: the
// issuer and subject of a JWT's payload (a service account token's
// "system:serviceaccount:NS:NAME"). Never proof of anything: used only to
// pick which review budget a token draws from.
class TokenClaims {
 public:
  // "ISSUER SUBJECT" when `token` is a JWT (three base64url parts) whose
  // payload has string "iss" and "sub" claims; "" otherwise.
  static std::string ClaimedIdentity(std::string_view token);
};

}  // namespace kube
