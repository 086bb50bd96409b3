// Fuzz target: the served request side (Beast's request parser with the
// server's limits, the router's admission and routing), from raw bytes to the
// reply a connection would get, with no socket. It must never crash, and every
// reply has a status the response line can carry and a head that cannot be
// split. /metrics is an exact route; /alertmanager admits from the head, which
// must never see a body byte (500 if it does), and only "Bearer ok" gets on.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

#include "src/http/EndpointRouter.h"

namespace {

kube::EndpointRoute Metrics() {
  kube::EndpointRoute route{[](const kube::EndpointRequest& r) {
    return kube::EndpointReply{200, r.authorization};
  }};
  route.exact = true;
  return route;
}

kube::EndpointRoute Webhook() {
  kube::EndpointRoute route{[](const kube::EndpointRequest& r) {
                              if (r.authorization != "Bearer ok") {
                                return kube::EndpointReply{500, "not admitted\n"};
                              }
                              return kube::EndpointReply{202, r.body};
                            },
                            {"POST"},
                            1024};
  route.exact = true;
  route.admit_head = [](const kube::EndpointRequest& head) -> std::optional<kube::EndpointReply> {
    if (!head.body.empty()) return kube::EndpointReply{500, "a body before admission\n"};
    if (head.authorization == "Bearer ok") return std::nullopt;
    return kube::EndpointReply{401, "no\n"};
  };
  return route;
}

const kube::EndpointRouter& Router() {
  static const kube::EndpointRouter router({
      {"/healthz", {[](const kube::EndpointRequest&) {
         return kube::EndpointReply{200, "ok\n"};
       }}},
      {"/metrics", Metrics()},
      {"/alertmanager", Webhook()},
  });
  return router;
}

bool Valid(int status) {
  switch (status) {
    case 200:
    case 202:
    case 400:
    case 401:
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
