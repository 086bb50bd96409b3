#include <gtest/gtest.h>

#include <string>

#include "src/http/ResponseDecoder.h"

namespace kube {
namespace {

constexpr size_t kHeaderCap = 1024;

struct Decoded {
  Status status = Status::Ok();
  std::string body;
  bool complete = false;
  bool reusable = false;
  int heads = 0;
  HttpResponse head;
};

// Feeds `wire` to a decoder in pieces of `piece` bytes and collects the body.
Decoded Decode(const std::string& wire, size_t piece, bool close_after = false,
               bool head_request = false, std::optional<uint64_t> max_body = std::nullopt) {
  Decoded out;
  ResponseDecoder::Limits limits{kHeaderCap, max_body};
  ResponseDecoder decoder(
      limits, head_request,
      [&](const HttpResponse& head) {
        out.head = head;
        ++out.heads;
        return Status::Ok();
      },
      [&](std::string_view bytes) {
        out.body.append(bytes);
        return true;
      });
  for (size_t at = 0; at < wire.size() && out.status.ok(); at += piece) {
    out.status = decoder.Feed(std::string_view(wire).substr(at, piece));
  }
  if (out.status.ok() && close_after) out.status = decoder.Close();
  out.complete = decoder.complete();
  out.reusable = decoder.reusable();
  return out;
}

class ResponseDecoderPieces : public ::testing::TestWithParam<size_t> {};

TEST_P(ResponseDecoderPieces, ReadsAContentLengthBody) {
  auto decoded =
      Decode("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 5\r\n\r\nhello",
             GetParam());
  ASSERT_TRUE(decoded.status.ok()) << decoded.status.ToString();
  EXPECT_TRUE(decoded.complete);
  EXPECT_TRUE(decoded.reusable);
  EXPECT_EQ(decoded.head.status, 200);
  EXPECT_EQ(decoded.head.Header("content-type"), "application/json");
  EXPECT_EQ(decoded.body, "hello");
}

TEST_P(ResponseDecoderPieces, DecodesAChunkedBodyWithExtensionsAndTrailers) {
  auto decoded = Decode(
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
      "5;name=value\r\nhello\r\n1\r\n \r\nA\r\n0123456789\r\n0\r\nX-Trailer: t\r\n\r\n",
      GetParam());
  ASSERT_TRUE(decoded.status.ok()) << decoded.status.ToString();
  EXPECT_TRUE(decoded.complete);
  EXPECT_TRUE(decoded.reusable);
  EXPECT_EQ(decoded.body, "hello 0123456789");
}

TEST_P(ResponseDecoderPieces, SkipsInterimHeads) {
  auto decoded = Decode(
      "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 102 Processing\r\nX: y\r\n\r\n"
      "HTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\n{}",
      GetParam());
  ASSERT_TRUE(decoded.status.ok()) << decoded.status.ToString();
  EXPECT_EQ(decoded.heads, 1);
  EXPECT_EQ(decoded.head.status, 201);
  EXPECT_EQ(decoded.body, "{}");
}

TEST_P(ResponseDecoderPieces, ReadsAnUnframedBodyToTheEndOfTheConnection) {
  auto decoded = Decode("HTTP/1.1 200 OK\r\n\r\nall of it", GetParam(), /*close_after=*/true);
  ASSERT_TRUE(decoded.status.ok()) << decoded.status.ToString();
  EXPECT_TRUE(decoded.complete);
  EXPECT_FALSE(decoded.reusable);
  EXPECT_EQ(decoded.body, "all of it");
}

INSTANTIATE_TEST_SUITE_P(Pieces, ResponseDecoderPieces, ::testing::Values(1, 2, 7, 4096));

TEST(ResponseDecoderTest, JoinsRepeatedHeadersAndLowerCasesNames) {
  auto decoded =
      Decode("HTTP/1.1 200 OK\r\nWarning: a\r\nWARNING: b\r\nContent-Length: 0\r\n\r\n", 4096);
  ASSERT_TRUE(decoded.status.ok()) << decoded.status.ToString();
  EXPECT_EQ(decoded.head.Header("warning"), "a, b");
}

TEST(ResponseDecoderTest, AHeadResponseHasNoBodyWhateverItsLength) {
  auto decoded = Decode("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n", 4096, false, true);
  ASSERT_TRUE(decoded.status.ok()) << decoded.status.ToString();
  EXPECT_TRUE(decoded.complete);
  EXPECT_TRUE(decoded.reusable);
}

TEST(ResponseDecoderTest, ConnectionCloseMakesItNotReusable) {
  auto decoded = Decode("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 0\r\n\r\n", 4096);
  EXPECT_TRUE(decoded.complete);
  EXPECT_FALSE(decoded.reusable);
}

TEST(ResponseDecoderTest, BytesBeyondTheResponseMakeItNotReusable) {
  auto decoded = Decode("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\nHTTP/1.1 200", 4096);
  EXPECT_TRUE(decoded.complete);
  EXPECT_FALSE(decoded.reusable);
}

TEST(ResponseDecoderTest, HeadersBeyondTheCapFail) {
  auto decoded = Decode("HTTP/1.1 200 OK\r\nX: " + std::string(2000, 'a') + "\r\n\r\n", 100);
  ASSERT_FALSE(decoded.status.ok());
  EXPECT_NE(decoded.status.message().find("max_response_header_bytes"), std::string::npos)
      << decoded.status.ToString();
}

TEST(ResponseDecoderTest, TheCapCountsInterimHeadsToo) {
  std::string interim = "HTTP/1.1 102 Processing\r\nX: " + std::string(400, 'a') + "\r\n\r\n";
  auto decoded =
      Decode(interim + interim + interim + "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n", 4096);
  ASSERT_FALSE(decoded.status.ok());
  EXPECT_NE(decoded.status.message().find("max_response_header_bytes"), std::string::npos)
      << decoded.status.ToString();
}

TEST(ResponseDecoderTest, TrailersBeyondTheCapFail) {
  std::string trailers;
  for (int i = 0; i < 100; ++i) trailers += "X-T: " + std::string(50, 't') + "\r\n";
  auto decoded = Decode(
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n" + trailers + "\r\n",
      64);
  ASSERT_FALSE(decoded.status.ok());
  EXPECT_NE(decoded.status.message().find("max_response_header_bytes"), std::string::npos)
      << decoded.status.ToString();
}

TEST(ResponseDecoderTest, OnlyExactlyChunkedIsATransferCoding) {
  for (std::string coding : {"xchunked", "gzip", "gzip, chunked", "chunked, gzip"}) {
    auto decoded =
        Decode("HTTP/1.1 200 OK\r\nTransfer-Encoding: " + coding + "\r\n\r\n0\r\n\r\n", 4096);
    EXPECT_FALSE(decoded.status.ok()) << coding;
  }
  auto upper = Decode("HTTP/1.1 200 OK\r\nTransfer-Encoding: Chunked\r\n\r\n0\r\n\r\n", 4096);
  EXPECT_TRUE(upper.status.ok()) << upper.status.ToString();
}

TEST(ResponseDecoderTest, ContentLengthWithTransferEncodingIsRefused) {
  for (std::string head : {"Content-Length: 5\r\nTransfer-Encoding: chunked\r\n",
                           "Transfer-Encoding: chunked\r\nContent-Length: 5\r\n"}) {
    auto decoded = Decode("HTTP/1.1 200 OK\r\n" + head + "\r\n5\r\nhello\r\n0\r\n\r\n", 4096);
    EXPECT_FALSE(decoded.status.ok()) << head;
    EXPECT_FALSE(decoded.reusable) << head;
  }
}

TEST(ResponseDecoderTest, MalformedInputIsAnErrorNotACrash) {
  for (std::string wire :
       {"HTTP/1.1 -12 Odd\r\nContent-Length: 0\r\n\r\n", "HTTP/1.1 099 Low\r\n\r\n",
        "HTTP/1.1 2000 Long\r\n\r\n", "HTTP/1.1 abc\r\n\r\n", "garbage\r\n\r\n",
        "HTTP/1.1 101 Switching Protocols\r\n\r\n", "HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n",
        "HTTP/1.1 200 OK\r\nContent-Length: 1, 2\r\n\r\n",
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabc\r\n0\r\n\r\n"}) {
    auto decoded = Decode(wire, 4096);
    EXPECT_FALSE(decoded.status.ok()) << wire;
  }
}

TEST(ResponseDecoderTest, ACutShortResponseFailsOnClose) {
  for (std::string wire :
       {"", "HTTP/1.1 200 OK\r\nContent-", "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhel",
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhe",
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n"}) {
    auto decoded = Decode(wire, 4096, /*close_after=*/true);
    EXPECT_FALSE(decoded.status.ok()) << wire;
  }
}

TEST(ResponseDecoderTest, TheBodyCapStopsTheBody) {
  auto length =
      Decode("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n0123456789", 4096, false, false, 4);
  ASSERT_FALSE(length.status.ok());
  EXPECT_EQ(length.status.code(), StatusCode::kTooLarge) << length.status.ToString();
  auto chunked = Decode(
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n3\r\ndef\r\n0\r\n\r\n", 1,
      false, false, 4);
  ASSERT_FALSE(chunked.status.ok());
  EXPECT_EQ(chunked.status.code(), StatusCode::kTooLarge) << chunked.status.ToString();
  EXPECT_LE(chunked.body.size(), 4u);
}

TEST(ResponseDecoderTest, ASinkThatStopsStopsTheBody) {
  std::string body;
  ResponseDecoder decoder(
      {kHeaderCap, std::nullopt}, false, [](const HttpResponse&) { return Status::Ok(); },
      [&](std::string_view bytes) {
        body.append(bytes);
        return false;
      });
  ASSERT_TRUE(decoder.Feed("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n01234").ok());
  EXPECT_TRUE(decoder.stopped());
  ASSERT_TRUE(decoder.Feed("56789").ok());
  EXPECT_EQ(body, "01234");
  EXPECT_FALSE(decoder.reusable());
}

TEST(ResponseDecoderTest, TheHeadSinkRunsBeforeAnyBodyByteAndCanRefuse) {
  std::string body;
  ResponseDecoder decoder(
      {kHeaderCap, std::nullopt}, false,
      [](const HttpResponse&) { return Status(StatusCode::kTooLarge, "no"); },
      [&](std::string_view bytes) {
        body.append(bytes);
        return true;
      });
  Status status = decoder.Feed("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello");
  EXPECT_EQ(status.code(), StatusCode::kTooLarge);
  EXPECT_EQ(body, "");
}

TEST(ResponseDecoderTest, TellsWhetherAnyResponseByteArrived) {
  ResponseDecoder decoder(
      {kHeaderCap, std::nullopt}, false, [](const HttpResponse&) { return Status::Ok(); },
      [](std::string_view) { return true; });
  EXPECT_FALSE(decoder.received_any());
  ASSERT_TRUE(decoder.Feed("H").ok());
  EXPECT_TRUE(decoder.received_any());
}

}  // namespace
}  // namespace kube
