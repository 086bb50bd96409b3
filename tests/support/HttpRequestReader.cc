#include "tests/support/HttpRequestReader.h"

#include <sys/socket.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>

namespace dra::testing {
namespace {

using kube::Status;
using kube::StatusCode;

constexpr std::size_t kMaxHeadBytes = 64 * 1024;
constexpr std::size_t kMaxLineBytes = 8 * 1024;
constexpr std::size_t kMaxBodyBytes = 16 * 1024 * 1024;
constexpr std::size_t kMaxMethodLength = 32;

std::string Lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && Lower(a) == Lower(b);
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// RFC 9110 token characters (methods, header names).
bool IsTokenChar(unsigned char c) {
  return std::isalnum(c) || std::strchr("!#$%&'*+-.^_`|~", c) != nullptr;
}

bool IsToken(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return IsTokenChar(c); });
}

// Control characters other than horizontal tab, which field values may hold.
bool HasControlChars(std::string_view s) {
  return std::any_of(s.begin(), s.end(),
                     [](unsigned char c) { return (c < 0x20 && c != '\t') || c == 0x7f; });
}

bool HasListToken(std::string_view comma_list, std::string_view token) {
  std::string lowered = Lower(comma_list);
  std::string_view rest = lowered;
  while (!rest.empty()) {
    std::size_t comma = rest.find(',');
    if (Trim(rest.substr(0, comma)) == token) return true;
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  return false;
}

Status Malformed(std::string why) { return Status(StatusCode::kInvalidArgument, std::move(why)); }

// The length of the head including its blank line, or npos while incomplete.
// Bare LF line ends are accepted, as RFC 9112 allows.
std::size_t HeadLength(std::string_view data) {
  std::size_t line_start = 0;
  while (true) {
    std::size_t newline = data.find('\n', line_start);
    if (newline == std::string_view::npos) return std::string_view::npos;
    std::string_view line = data.substr(line_start, newline - line_start);
    if (line.empty() || line == "\r") return newline + 1;
    line_start = newline + 1;
  }
}

// Rejects garbage before the head is complete, so a client sending binary
// noise (a TLS ClientHello, say) gets its 400 at once instead of waiting for
// a blank line that never comes.
bool CouldBeRequestStart(std::string_view data) {
  std::string_view method = data.substr(0, data.find(' '));
  if (method.size() > kMaxMethodLength) return false;
  if (!std::all_of(method.begin(), method.end(), [](char c) { return IsTokenChar(c); })) {
    return false;
  }
  return std::none_of(data.begin(), data.end(), [](unsigned char c) {
    return (c < 0x20 && c != '\r' && c != '\n' && c != '\t') || c == 0x7f;
  });
}

std::vector<std::string_view> SplitLines(std::string_view head) {
  std::vector<std::string_view> lines;
  while (!head.empty()) {
    std::size_t newline = head.find('\n');
    std::string_view line = head.substr(0, newline);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (!line.empty()) lines.push_back(line);
    if (newline == std::string_view::npos) break;
    head.remove_prefix(newline + 1);
  }
  return lines;
}

Status ParseRequestLine(std::string_view line, RecordedRequest& request, std::string& version) {
  std::size_t first = line.find(' ');
  std::size_t second = first == std::string_view::npos ? first : line.find(' ', first + 1);
  if (second == std::string_view::npos || line.find(' ', second + 1) != std::string_view::npos) {
    return Malformed("request line is not METHOD TARGET VERSION");
  }
  std::string_view method = line.substr(0, first);
  std::string_view target = line.substr(first + 1, second - first - 1);
  version = std::string(line.substr(second + 1));
  if (!IsToken(method)) return Malformed("invalid method");
  if (target.empty() || HasControlChars(target) || target.find('\t') != std::string_view::npos ||
      (target.front() != '/' && target != "*" && target.rfind("http", 0) != 0)) {
    return Malformed("invalid request target");
  }
  if (version != "HTTP/1.1" && version != "HTTP/1.0") return Malformed("unsupported HTTP version");
  request.method = std::string(method);
  request.target = std::string(target);
  return Status::Ok();
}

Status ParseHeaderLine(std::string_view line, HeaderList& headers) {
  if (line.front() == ' ' || line.front() == '\t') return Malformed("obsolete header line folding");
  std::size_t colon = line.find(':');
  if (colon == std::string_view::npos) return Malformed("header line without a colon");
  std::string_view name = line.substr(0, colon);
  std::string_view value = Trim(line.substr(colon + 1));
  if (!IsToken(name)) return Malformed("invalid header name");
  if (HasControlChars(value)) return Malformed("control character in a header value");
  headers.emplace_back(std::string(name), std::string(value));
  return Status::Ok();
}

struct Head {
  RecordedRequest request;
  std::string version;
};

kube::Result<Head> ParseHead(std::string_view text) {
  std::vector<std::string_view> lines = SplitLines(text);
  if (lines.empty()) return Malformed("empty request");
  Head head;
  Status status = ParseRequestLine(lines[0], head.request, head.version);
  for (std::size_t i = 1; status.ok() && i < lines.size(); ++i) {
    status = ParseHeaderLine(lines[i], head.request.headers);
  }
  if (!status.ok()) return status;
  return head;
}

bool WantsClose(const Head& head) {
  std::string connection = FindHeader(head.request.headers, "connection");
  if (head.version == "HTTP/1.0") return !HasListToken(connection, "keep-alive");
  return HasListToken(connection, "close");
}

struct BodyFraming {
  bool chunked = false;
  std::size_t content_length = 0;
};

kube::Result<std::size_t> ParseContentLength(const HeaderList& headers) {
  std::optional<std::string> seen;
  for (const auto& [name, value] : headers) {
    if (!EqualsIgnoreCase(name, "content-length")) continue;
    if (seen && *seen != value) return Malformed("conflicting Content-Length headers");
    seen = value;
  }
  if (!seen) return std::size_t{0};
  if (seen->empty() || seen->size() > 9 ||
      !std::all_of(seen->begin(), seen->end(), [](unsigned char c) { return std::isdigit(c); })) {
    return Malformed("invalid Content-Length");
  }
  std::size_t length = std::stoul(*seen);
  if (length > kMaxBodyBytes) return Malformed("request body over 16 MiB");
  return length;
}

kube::Result<BodyFraming> ParseBodyFraming(const HeaderList& headers) {
  BodyFraming framing;
  if (HasHeader(headers, "transfer-encoding")) {
    if (Lower(FindHeader(headers, "transfer-encoding")) != "chunked") {
      return Malformed("unsupported Transfer-Encoding");
    }
    if (HasHeader(headers, "content-length")) {
      return Malformed("both Transfer-Encoding and Content-Length");
    }
    framing.chunked = true;
    return framing;
  }
  auto length = ParseContentLength(headers);
  if (!length.ok()) return length.status();
  framing.content_length = *length;
  return framing;
}

kube::Result<std::size_t> ParseChunkSize(const std::string& line) {
  std::string_view size = Trim(std::string_view(line).substr(0, line.find(';')));
  if (size.empty() || size.size() > 7 ||
      !std::all_of(size.begin(), size.end(), [](unsigned char c) { return std::isxdigit(c); })) {
    return Malformed("invalid chunk size");
  }
  return std::stoul(std::string(size), nullptr, 16);
}

}  // namespace

std::string FindHeader(const HeaderList& headers, std::string_view name) {
  for (const auto& [key, value] : headers) {
    if (EqualsIgnoreCase(key, name)) return value;
  }
  return "";
}

bool HasHeader(const HeaderList& headers, std::string_view name) {
  return std::any_of(headers.begin(), headers.end(),
                     [&](const auto& header) { return EqualsIgnoreCase(header.first, name); });
}

std::string RecordedRequest::Header(std::string_view name) const {
  return FindHeader(headers, name);
}

std::string RecordedRequest::Path() const { return target.substr(0, target.find('?')); }

std::string RecordedRequest::Query() const {
  std::size_t question = target.find('?');
  return question == std::string::npos ? "" : target.substr(question + 1);
}

std::optional<std::string> RecordedRequest::QueryParam(std::string_view name) const {
  std::string query = Query();
  std::string_view rest = query;
  while (!rest.empty()) {
    std::string_view pair = rest.substr(0, rest.find('&'));
    std::size_t equals = pair.find('=');
    if (pair.substr(0, equals) == name) {
      return std::string(equals == std::string_view::npos ? "" : pair.substr(equals + 1));
    }
    if (pair.size() == rest.size()) break;
    rest.remove_prefix(pair.size() + 1);
  }
  return std::nullopt;
}

kube::Result<std::optional<HttpRequestReader::Request>> HttpRequestReader::Next() {
  auto text = ReadHead();
  if (!text.ok()) return text.status();
  if (!text->has_value()) return std::optional<Request>();
  auto head = ParseHead(**text);
  if (!head.ok()) return head.status();
  auto framing = ParseBodyFraming(head->request.headers);
  if (!framing.ok()) return framing.status();
  auto body = framing->chunked ? ReadChunkedBody() : ReadExactly(framing->content_length);
  if (!body.ok()) return body.status();
  Request request;
  request.wants_close = WantsClose(*head);
  request.recorded = std::move(head->request);
  request.recorded.body = std::move(*body);
  request.recorded.arrived_at = std::chrono::steady_clock::now();
  return std::optional<Request>(std::move(request));
}

bool HttpRequestReader::Fill() {
  char chunk[16 * 1024];
  while (true) {
    ssize_t got = ::recv(fd_, chunk, sizeof(chunk), 0);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return false;
    buffer_.append(chunk, static_cast<std::size_t>(got));
    return true;
  }
}

std::string HttpRequestReader::Take(std::size_t count) {
  std::string taken = buffer_.substr(0, count);
  buffer_.erase(0, count);
  return taken;
}

// Keep-alive clients may send a stray CRLF between requests (RFC 9112 2.2).
void HttpRequestReader::SkipLeadingBlankLines() {
  std::size_t skip = 0;
  while (skip < buffer_.size() && (buffer_[skip] == '\r' || buffer_[skip] == '\n')) ++skip;
  buffer_.erase(0, skip);
}

kube::Result<std::optional<std::string>> HttpRequestReader::ReadHead() {
  while (true) {
    SkipLeadingBlankLines();
    std::size_t length = HeadLength(buffer_);
    if (length != std::string_view::npos) return std::optional<std::string>(Take(length));
    if (!CouldBeRequestStart(buffer_)) return Malformed("not an HTTP request");
    if (buffer_.size() > kMaxHeadBytes) return Malformed("request head over 64 KiB");
    if (!Fill()) {
      if (buffer_.empty()) return std::optional<std::string>();
      return Malformed("connection closed inside the request head");
    }
  }
}

kube::Result<std::string> HttpRequestReader::ReadLine() {
  while (true) {
    std::size_t newline = buffer_.find('\n');
    if (newline != std::string::npos) {
      std::string line = Take(newline + 1);
      line.pop_back();
      if (!line.empty() && line.back() == '\r') line.pop_back();
      return line;
    }
    if (buffer_.size() > kMaxLineBytes) return Malformed("chunk line too long");
    if (!Fill()) return Malformed("connection closed inside the request body");
  }
}

kube::Result<std::string> HttpRequestReader::ReadExactly(std::size_t count) {
  while (buffer_.size() < count) {
    if (!Fill()) return Malformed("connection closed inside the request body");
  }
  return Take(count);
}

kube::Result<std::string> HttpRequestReader::ReadChunkedBody() {
  std::string body;
  while (true) {
    auto line = ReadLine();
    if (!line.ok()) return line.status();
    auto size = ParseChunkSize(*line);
    if (!size.ok()) return size.status();
    if (*size == 0) break;
    if (body.size() + *size > kMaxBodyBytes) return Malformed("request body over 16 MiB");
    auto data = ReadExactly(*size);
    if (!data.ok()) return data.status();
    body += *data;
    auto end = ReadLine();
    if (!end.ok()) return end.status();
    if (!end->empty()) return Malformed("chunk data longer than its size");
  }
  while (true) {  // trailer fields, up to the blank line
    auto trailer = ReadLine();
    if (!trailer.ok()) return trailer.status();
    if (trailer->empty()) return body;
  }
}

}  // namespace dra::testing
