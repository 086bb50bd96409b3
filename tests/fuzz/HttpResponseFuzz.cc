// Fuzz target: the HTTP/1.1 response reader (status line, headers and their
// cap, interim heads, Content-Length, chunked framing, trailers) must never
// crash, whatever a server or a middlebox sends, in whatever pieces.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "src/http/ResponseParser.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  kube::ResponseParser parser(/*max_header_bytes=*/4096, /*head_request=*/false);
  size_t body = 0;
  auto check = [](const kube::ResponseParser& p) {
    (void)p.head().Header("content-type");
    return kube::Status::Ok();
  };
  auto sink = [&body](std::string_view bytes) {
    body += bytes.size();
    return body < (1u << 20);
  };
  size_t offset = 0, step = 1;
  while (offset < input.size()) {
    std::string_view chunk = input.substr(offset, step);
    offset += chunk.size();
    step = step * 5 % 89 + 1;
    if (!parser.Feed(chunk, check, sink).ok() || parser.stopped()) return 0;
  }
  (void)parser.Close();
  (void)parser.reusable();
  return 0;
}
