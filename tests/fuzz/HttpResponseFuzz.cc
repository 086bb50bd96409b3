// Fuzz target: the HTTP/1.1 response path (ResponseDecoder: Beast's parser
// and our caps and framing rules on top; status line, headers, interim heads,
// Content-Length, chunked framing, trailers) must never crash, whatever a
// server or a middlebox sends, in whatever pieces.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "src/http/ResponseDecoder.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  kube::ResponseDecoder::Limits limits;
  limits.max_header_bytes = 4096;
  limits.max_body_bytes = 1u << 20;
  size_t body = 0;
  auto on_head = [](const kube::HttpResponse& head) {
    (void)head.Header("content-type");
    return kube::Status::Ok();
  };
  auto on_body = [&body](std::string_view bytes) {
    body += bytes.size();
    return true;
  };
  kube::ResponseDecoder decoder(limits, /*head_request=*/false, on_head, on_body);
  size_t offset = 0, step = 1;
  while (offset < input.size()) {
    std::string_view chunk = input.substr(offset, step);
    offset += chunk.size();
    step = step * 5 % 89 + 1;
    if (!decoder.Feed(chunk).ok() || decoder.stopped()) return 0;
  }
  (void)decoder.Close();
  (void)decoder.reusable();
  return 0;
}
