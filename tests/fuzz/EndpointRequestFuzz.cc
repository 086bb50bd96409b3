// Fuzz target: the served request side (Beast's request parser with the
// server's limits, the router's admission and routing), from raw bytes to the
// reply a connection would get, with no socket. It must never crash, and every
// reply has a status the response line can carry and a head that cannot be
// split.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "src/http/EndpointRouter.h"

namespace {

const kube::EndpointRouter& Router() {
  static const kube::EndpointRouter router({
      {"/healthz", {[](const kube::EndpointRequest&) {
         return kube::EndpointReply{200, "ok\n"};
       }}},
      {"/metrics", {[](const kube::EndpointRequest& r) {
         return kube::EndpointReply{200, r.authorization};
       }}},
      {"/alertmanager",
       {[](const kube::EndpointRequest& r) {
          return kube::EndpointReply{202, r.body};
        },
        {"POST"},
        1024}},
  });
  return router;
}

bool Valid(int status) {
  switch (status) {
    case 200:
    case 202:
    case 400:
    case 404:
    case 405:
    case 413:
    case 431:
      return true;
    default:
      return false;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  kube::EndpointReply reply = Router().ServeRaw(input);
  if (!Valid(reply.status)) std::abort();
  if (reply.status == 405 && reply.headers.empty()) std::abort();  // no Allow
  std::string head = kube::EndpointRouter::ResponseHead(reply);
  if (head.find("\r\n\r\n") != head.size() - 4) std::abort();
  if (reply.status == 202 && reply.body.size() > 1024) std::abort();
  return 0;
}
