// WatchStreamReader: events cut across chunks in JSON and protobuf, what
// cannot be decoded, what is too long, and a handler ending the stream.
#include <gtest/gtest.h>

#include <vector>

#include "src/base/FakeClock.h"
#include "src/cache/WatchStreamReader.h"
#include "tests/support/ProtoWriter.h"

namespace dra::testing {
namespace {

using kube::Status;
using kube::StatusCode;
using kube::testing::ProtoWriter;

std::string JsonEvent(const std::string& type, const std::string& name, int rv) {
  return R"({"type":")" + type + R"(","object":{"metadata":{"name":")" + name +
         R"(","namespace":"ns","resourceVersion":")" + std::to_string(rv) + "\"}}}\n";
}

class RecordingHandler : public kube::WatchStreamReader::Handler {
 public:
  Status Event(const kube::RawWatchEvent& event) override {
    seen.push_back("event@" + std::string(event.resource_version));
    return fail_events ? Status(StatusCode::kInternal, "stop") : Status::Ok();
  }
  Status Undecodable(const kube::Result<kube::SalvagedObject>& salvaged, const Status&) override {
    seen.push_back("undecodable:" + (salvaged.ok() ? salvaged->Key() : std::string("?")));
    return Status::Ok();
  }
  void Handled() override { ++handled; }

  std::vector<std::string> seen;
  int handled = 0;
  bool fail_events = false;
};

class WatchStreamReaderTest : public ::testing::Test {
 protected:
  kube::WatchDecoder decoder_;
  kube::DecodeErrorReporter errors_{std::make_shared<kube::FakeClock>(), "pods", nullptr};
  kube::WatchStreamReader reader_{decoder_, errors_, 200};
  RecordingHandler handler_;
};

TEST_F(WatchStreamReaderTest, JsonEventsCutAcrossChunksArriveWhole) {
  std::string stream = JsonEvent("ADDED", "a", 1) + JsonEvent("MODIFIED", "a", 2);
  size_t cut = stream.size() / 3;

  EXPECT_TRUE(reader_.Feed(stream.substr(0, cut), handler_));
  EXPECT_TRUE(reader_.partial());
  EXPECT_TRUE(handler_.seen.empty());
  EXPECT_TRUE(reader_.Feed(stream.substr(cut), handler_));

  EXPECT_FALSE(reader_.partial());
  EXPECT_EQ(handler_.seen, (std::vector<std::string>{"event@1", "event@2"}));
  EXPECT_EQ(handler_.handled, 2);
}

TEST_F(WatchStreamReaderTest, AStreamStartingWithAZeroByteIsReadAsProtobufFrames) {
  auto pod =
      ProtoWriter().Message(1, ProtoWriter().Bytes(1, "p").Bytes(3, "ns").Bytes(6, "7")).str();
  std::string frame = ProtoWriter::WatchFrame("ADDED", pod);

  EXPECT_TRUE(reader_.Feed(frame.substr(0, 3), handler_));
  EXPECT_TRUE(reader_.partial());
  EXPECT_TRUE(reader_.Feed(frame.substr(3), handler_));

  EXPECT_FALSE(reader_.partial());
  EXPECT_EQ(handler_.seen, (std::vector<std::string>{"event@7"}));
}

TEST_F(WatchStreamReaderTest, AnUndecodableLineIsHandedOverWithWhatCouldBeRead) {
  std::string broken = R"({"type":"ADDED","object":{"metadata":{"name":"b","namespace":"ns",)"
                       R"("resourceVersion":"3"},"spec":{"x":tru}}})"
                       "\n";

  EXPECT_TRUE(reader_.Feed(broken + JsonEvent("ADDED", "c", 4), handler_));

  EXPECT_EQ(handler_.seen, (std::vector<std::string>{"undecodable:ns/b", "event@4"}));
  EXPECT_EQ(handler_.handled, 2);
}

TEST_F(WatchStreamReaderTest, ALineOverTheLimitIsPassedOverAndReported) {
  std::string huge = R"({"type":"ADDED","object":{"metadata":{"name":")" + std::string(300, 'x') +
                     R"("}}})"
                     "\n";

  EXPECT_TRUE(reader_.Feed(huge + JsonEvent("ADDED", "c", 4), handler_));

  EXPECT_EQ(handler_.seen, (std::vector<std::string>{"event@4"}));
  EXPECT_EQ(errors_.count(), 1u);
  reader_.Reset();
  EXPECT_EQ(errors_.count(), 1u) << "a reset reports nothing again";
}

TEST_F(WatchStreamReaderTest, AFailingHandlerEndsTheStream) {
  handler_.fail_events = true;

  EXPECT_FALSE(reader_.Feed(JsonEvent("ADDED", "a", 1) + JsonEvent("ADDED", "b", 2), handler_));

  EXPECT_EQ(handler_.seen, (std::vector<std::string>{"event@1"}));
  EXPECT_EQ(handler_.handled, 1);
}

TEST_F(WatchStreamReaderTest, AfterAResetTheNextStreamMayUseTheOtherFormat) {
  EXPECT_TRUE(reader_.Feed(JsonEvent("ADDED", "a", 1), handler_));
  reader_.Reset();
  auto pod =
      ProtoWriter().Message(1, ProtoWriter().Bytes(1, "p").Bytes(3, "ns").Bytes(6, "9")).str();

  EXPECT_TRUE(reader_.Feed(ProtoWriter::WatchFrame("ADDED", pod), handler_));

  EXPECT_EQ(handler_.seen, (std::vector<std::string>{"event@1", "event@9"}));
}

}  // namespace
}  // namespace dra::testing
