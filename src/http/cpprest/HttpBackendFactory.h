#pragma once

#include <memory>

#include "src/http/HttpTransport.h"

namespace kube {

// Which HTTP library backs a transport.
enum class HttpBackend {
  kOpenSsl,  // the default (HttpTransport::Create): the runtime's own HTTP/1.1 over OpenSSL
  kCurl,     // libcurl: the same deadlines, caps and no replay of timed-out requests
  kCpprest,  // cpprestsdk (archived upstream); kept as an alternative behind the same seam
};

// Creates a transport on a chosen HTTP library. It lives in the kube_cpprest
// library, apart from HttpTransport::Create, so that a program that only
// needs the default (dra-controller) neither links nor loads libcurl or
// cpprestsdk.
class HttpBackendFactory {
 public:
  static Result<std::unique_ptr<HttpTransport>> Create(const RestConfig& config,
                                                       HttpBackend backend);
};

}  // namespace kube
