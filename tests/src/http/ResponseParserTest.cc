#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "src/http/ResponseParser.h"

namespace kube {
namespace {

constexpr size_t kHeaderCap = 1024;

// Feeds `wire` to a parser in pieces of `piece` bytes and collects the body.
struct Parsed {
  Status status = Status::Ok();
  std::string body;
  bool complete = false;
  bool reusable = false;
  int status_code = 0;
  std::string content_type;
};

Parsed Parse(const std::string& wire, size_t piece, bool close_after = false,
             bool head_request = false) {
  ResponseParser parser(kHeaderCap, head_request);
  Parsed out;
  auto sink = [&](std::string_view bytes) {
    out.body.append(bytes);
    return true;
  };
  for (size_t at = 0; at < wire.size() && out.status.ok(); at += piece) {
    out.status = parser.Feed(std::string_view(wire).substr(at, piece), nullptr, sink);
  }
  if (out.status.ok() && close_after) out.status = parser.Close();
  out.complete = parser.complete();
  out.reusable = parser.reusable();
  out.status_code = parser.head().status;
  out.content_type = parser.head().Header("content-type");
  return out;
}

class ResponseParserPieces : public ::testing::TestWithParam<size_t> {};

TEST_P(ResponseParserPieces, ReadsAContentLengthBody) {
  auto parsed =
      Parse("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 5\r\n\r\nhello",
            GetParam());
  ASSERT_TRUE(parsed.status.ok()) << parsed.status.ToString();
  EXPECT_TRUE(parsed.complete);
  EXPECT_TRUE(parsed.reusable);
  EXPECT_EQ(parsed.status_code, 200);
  EXPECT_EQ(parsed.content_type, "application/json");
  EXPECT_EQ(parsed.body, "hello");
}

TEST_P(ResponseParserPieces, DecodesAChunkedBodyWithExtensionsAndTrailers) {
  auto parsed = Parse(
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
      "5;name=value\r\nhello\r\n1\r\n \r\nA\r\n0123456789\r\n0\r\nX-Trailer: t\r\n\r\n",
      GetParam());
  ASSERT_TRUE(parsed.status.ok()) << parsed.status.ToString();
  EXPECT_TRUE(parsed.complete);
  EXPECT_TRUE(parsed.reusable);
  EXPECT_EQ(parsed.body, "hello 0123456789");
}

TEST_P(ResponseParserPieces, SkipsInterimHeads) {
  auto parsed =
      Parse("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\nok",
            GetParam());
  ASSERT_TRUE(parsed.status.ok()) << parsed.status.ToString();
  EXPECT_EQ(parsed.status_code, 201);
  EXPECT_EQ(parsed.body, "ok");
}

TEST_P(ResponseParserPieces, ReadsAnUnframedBodyToTheEndOfTheConnection) {
  auto parsed = Parse("HTTP/1.1 200 OK\r\n\r\nuntil the end", GetParam(), /*close_after=*/true);
  ASSERT_TRUE(parsed.status.ok()) << parsed.status.ToString();
  EXPECT_TRUE(parsed.complete);
  EXPECT_FALSE(parsed.reusable) << "the connection ended the body";
  EXPECT_EQ(parsed.body, "until the end");
}

INSTANTIATE_TEST_SUITE_P(Pieces, ResponseParserPieces, ::testing::Values(1, 2, 7, 4096));

TEST(ResponseParserTest, JoinsRepeatedHeadersAndLowerCasesNames) {
  ResponseParser parser(kHeaderCap, false);
  ASSERT_TRUE(parser
                  .Feed("HTTP/1.1 204 No Content\r\nWarning: a\r\nWARNING: b\r\n\r\n", nullptr,
                        [](std::string_view) { return true; })
                  .ok());
  EXPECT_TRUE(parser.complete()) << "a 204 has no body";
  EXPECT_EQ(parser.head().Header("warning"), "a, b");
}

TEST(ResponseParserTest, AHeadResponseHasNoBodyWhateverItsLength) {
  auto parsed = Parse("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n", 4096, false, true);
  ASSERT_TRUE(parsed.status.ok());
  EXPECT_TRUE(parsed.complete);
}

TEST(ResponseParserTest, ConnectionCloseMakesItNotReusable) {
  auto parsed = Parse("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 1\r\n\r\nx", 4096);
  EXPECT_TRUE(parsed.complete);
  EXPECT_FALSE(parsed.reusable);
}

TEST(ResponseParserTest, HeadersBeyondTheCapFail) {
  std::string wire = "HTTP/1.1 200 OK\r\nX-Big: " + std::string(2 * kHeaderCap, 'x');
  auto parsed = Parse(wire, 100);
  ASSERT_FALSE(parsed.status.ok());
  EXPECT_NE(parsed.status.message().find("max_response_header_bytes"), std::string::npos);
}

TEST(ResponseParserTest, TheCapCountsInterimHeadsToo) {
  std::string interim = "HTTP/1.1 100 Continue\r\nX-Pad: " + std::string(600, 'p') + "\r\n\r\n";
  auto parsed = Parse(interim + interim + "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n", 4096);
  EXPECT_FALSE(parsed.status.ok());
}

TEST(ResponseParserTest, MalformedInputIsAnErrorNotACrash) {
  for (const std::string& wire : std::vector<std::string>{
           "SMTP/1.0 200 OK\r\n\r\n",
           "HTTP/1.1 2x0 OK\r\n\r\n",
           "HTTP/1.1\r\n\r\n",
           "HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n",
           "HTTP/1.1 200 OK\r\nContent-Length: 1, 2\r\n\r\n",
           "HTTP/1.1 200 OK\r\nContent-Length: 99999999999999999999999\r\n\r\n",
           "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
           "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nFFFFFFFFFFFFFFFFFFFF\r\n",
           "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabX\r\n",
           "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" + std::string(5000, '1'),
       }) {
    auto parsed = Parse(wire, 3);
    EXPECT_FALSE(parsed.status.ok()) << wire;
  }
}

TEST(ResponseParserTest, ACutShortResponseFailsOnClose) {
  for (std::string wire :
       {"", "HTTP/1.1 200 OK\r\nContent-Le", "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nshort",
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nab"}) {
    auto parsed = Parse(wire, 4096, /*close_after=*/true);
    EXPECT_FALSE(parsed.status.ok()) << wire;
  }
}

TEST(ResponseParserTest, TellsWhetherAnyResponseByteArrived) {
  ResponseParser parser(kHeaderCap, false);
  EXPECT_FALSE(parser.received_any());
  EXPECT_NE(parser.Close().message().find("before a response"), std::string::npos);
}

TEST(ResponseParserTest, ASinkThatStopsStopsTheBody) {
  ResponseParser parser(kHeaderCap, false);
  std::string seen;
  auto sink = [&](std::string_view bytes) {
    seen.append(bytes);
    return false;
  };
  ASSERT_TRUE(parser
                  .Feed("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\na\r\n1\r\nb\r\n",
                        nullptr, sink)
                  .ok());
  EXPECT_TRUE(parser.stopped());
  EXPECT_EQ(seen, "a");
  EXPECT_FALSE(parser.reusable());
}

TEST(ResponseParserTest, TheHeadCheckRunsBeforeAnyBodyByte) {
  ResponseParser parser(kHeaderCap, false);
  bool body_seen = false;
  auto check = [](const ResponseParser& p) {
    return p.content_length() && *p.content_length() > 3
               ? Status(StatusCode::kTooLarge, "too large")
               : Status::Ok();
  };
  Status status = parser.Feed("HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\nabcdefghi", check,
                              [&](std::string_view) {
                                body_seen = true;
                                return true;
                              });
  EXPECT_EQ(status.code(), StatusCode::kTooLarge);
  EXPECT_FALSE(body_seen);
}

}  // namespace
}  // namespace kube
