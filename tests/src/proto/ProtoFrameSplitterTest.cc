#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "src/proto/ProtoFrameSplitter.h"
#include "tests/support/ProtoWriter.h"

namespace kube {
namespace {

using testing::ProtoWriter;

std::vector<std::string> FeedInChunks(ProtoFrameSplitter& splitter, const std::string& stream,
                                      size_t chunk) {
  std::vector<std::string> frames;
  for (size_t at = 0; at < stream.size(); at += chunk) {
    splitter.Feed(std::string_view(stream).substr(at, chunk), [&](std::string_view frame) {
      frames.emplace_back(frame);
      return true;
    });
  }
  return frames;
}

TEST(ProtoFrameSplitterTest, FramesSurviveAnyChunking) {
  std::string big(3000, 'x');
  std::string stream = ProtoWriter::Frame("one") + ProtoWriter::Frame("") +
                       ProtoWriter::Frame(big) + ProtoWriter::Frame("last");
  for (size_t chunk : {size_t{1}, size_t{2}, size_t{3}, size_t{5}, size_t{7}, size_t{4096}}) {
    ProtoFrameSplitter splitter;
    auto frames = FeedInChunks(splitter, stream, chunk);
    EXPECT_EQ(frames, (std::vector<std::string>{"one", "", big, "last"})) << "chunk " << chunk;
  }
}

TEST(ProtoFrameSplitterTest, AnOversizedFrameIsPassedOverByItsLength) {
  std::string stream =
      ProtoWriter::Frame("a") + ProtoWriter::Frame(std::string(100, 'z')) + ProtoWriter::Frame("b");
  for (size_t chunk : {size_t{1}, size_t{9}, size_t{1000}}) {
    ProtoFrameSplitter splitter(/*max_frame=*/10);
    auto frames = FeedInChunks(splitter, stream, chunk);
    EXPECT_EQ(frames, (std::vector<std::string>{"a", "b"})) << "chunk " << chunk;
    EXPECT_EQ(splitter.oversized_frames(), 1u);
    EXPECT_EQ(splitter.buffer_capacity() < 100, true);
  }
}

TEST(ProtoFrameSplitterTest, StopsWhenTheHandlerSaysSoAndResetDropsAPartialFrame) {
  ProtoFrameSplitter splitter;
  int seen = 0;
  std::string stream = ProtoWriter::Frame("a") + ProtoWriter::Frame("b");
  EXPECT_FALSE(splitter.Feed(stream, [&](std::string_view) { return ++seen < 1; }));
  EXPECT_EQ(seen, 1);
  splitter.Reset();
  std::string partial = ProtoWriter::Frame("abcdef").substr(0, 6);
  splitter.Feed(partial, [&](std::string_view) { return ++seen > 0; });
  splitter.Reset();
  std::vector<std::string> after;
  splitter.Feed(ProtoWriter::Frame("c"), [&](std::string_view f) {
    after.emplace_back(f);
    return true;
  });
  EXPECT_EQ(after, (std::vector<std::string>{"c"}));
  EXPECT_EQ(seen, 1);
}

}  // namespace
}  // namespace kube
