#pragma once

#include <chrono>
#include <string>

#include "src/http/TlsMaterial.h"

namespace kube {

// Explains why a TLS handshake with `server` (https://host:port) fails, by
// repeating it with OpenSSL directly: cpprestsdk only reports "Error in SSL
// handshake". Returns e.g. "server certificate not trusted: unable to get
// local issuer certificate", or "" when the handshake succeeds here. The
// connection is bounded by `timeout` (connect, then each read and write), so
// a silent server cannot hold the caller.
std::string DiagnoseTlsFailure(const std::string& server, const TlsMaterial& tls, bool verify_peer,
                               std::chrono::milliseconds timeout = std::chrono::seconds(3));

}  // namespace kube
