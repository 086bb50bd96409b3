// The reflector reading protobuf from a scripted server: LIST pages and
// watch frames as kube-apiserver encodes them, in arbitrary chunks, with a
// bad item, an ERROR event and a watch-list; and JSON still read when a
// server answers it instead.
#include <gtest/gtest.h>

#include <set>

#include "src/cache/Informer.h"
#include "src/cache/MetaObject.h"
#include "src/proto/ProtoEnvelope.h"
#include "tests/support/ProtoWriter.h"
#include "tests/support/ScriptedHttpServer.h"
#include "tests/support/ScriptedPodInformerTest.h"
#include "tests/support/WaitFor.h"

namespace dra::testing {
namespace {

using kube::testing::ProtoWriter;
using namespace std::chrono_literals;
using Keys = std::set<std::string>;

std::string PodMessage(const std::string& name, int rv) {
  return ProtoWriter()
      .Message(1, ProtoWriter().Bytes(1, name).Bytes(3, "ns").Bytes(6, std::to_string(rv)))
      .str();
}

std::string ProtoPodList(const std::vector<std::string>& items, int rv) {
  ProtoWriter list;
  list.Message(1, ProtoWriter().Bytes(2, std::to_string(rv)));
  for (const auto& item : items) list.Bytes(2, item);
  return ProtoWriter::Envelope(list.str());
}

std::string Frame(const std::string& type, const std::string& object) {
  return ProtoWriter::WatchFrame(type, object);
}

std::string BookmarkMessage(int rv, bool initial_events_end) {
  ProtoWriter meta;
  meta.Bytes(6, std::to_string(rv));
  if (initial_events_end) meta.StringEntry(12, "k8s.io/initial-events-end", "true");
  return ProtoWriter().Message(1, meta).str();
}

kube::testing::ProtoWriter GoneStatus() {
  ProtoWriter status;
  status.Bytes(3, "too old resource version").Bytes(4, "Expired").Varint(6, 410);
  return status;
}

// One byte per chunk: every frame is reassembled across chunk boundaries.
std::vector<StreamStep> ByteByByte(const std::string& bytes) {
  std::vector<StreamStep> steps;
  for (char c : bytes) steps.push_back(StreamStep::Chunk(std::string(1, c)));
  return steps;
}

ScriptedResponse Protobuf(std::string body) {
  ScriptedResponse response;
  response.body = std::move(body);
  response.headers.emplace_back("Content-Type", "application/vnd.kubernetes.protobuf");
  return response;
}

class ReflectorProtobufTest : public ScriptedPodInformerTest {
 protected:
  void SetUp() override {
    ScriptedPodInformerTest::SetUp();
    if (HasFatalFailure()) return;
    lists_ = server_->AddRoute(Route::Where("GET", IsList).Once());
    watches_ = server_->AddRoute(Route::Where("GET", IsWatch).Once());
    decoder_ = {kube::MetaObject::FromJson, kube::MetaObject::FromProto};
    options_.watch_list = kube::WatchListMode::kOff;
  }

  ScriptedHttpServer::RouteId lists_ = 0, watches_ = 0;
};

TEST_F(ReflectorProtobufTest, ListsAndWatchesInProtobufFrameByFrame) {
  std::string bad = std::string("\x0a\x7f", 2);  // an item cut short: skipped alone
  Enqueue(lists_, Protobuf(ProtoPodList({PodMessage("a", 1), bad, PodMessage("b", 2)}, 5)));
  auto steps =
      ByteByByte(Frame("MODIFIED", PodMessage("a", 6)) + Frame("DELETED", PodMessage("b", 7)) +
                 Frame("ADDED", PodMessage("c", 8)) + Frame("BOOKMARK", BookmarkMessage(9, false)));
  steps.push_back(StreamStep::Pause(StreamStep::kMaxPause));
  Enqueue(watches_, ScriptedResponse::Streamed(std::move(steps)));
  StartInformer();
  ASSERT_TRUE(informer_->WaitForSync(10s));
  ASSERT_TRUE(WaitFor("the watch's bookmark", 10s, [&] {
                return informer_->reflector().last_resource_version() == "9";
              }).ok());
  EXPECT_EQ(CachedKeys(), (Keys{"ns/a", "ns/c"}));
  EXPECT_EQ(informer_->store().Get("ns/a")->meta.resource_version, "6");
  EXPECT_EQ(informer_->reflector().decode_errors(), 1u);
  EXPECT_EQ(informer_->reflector().decoder_capacity(), 0u) << "no JSON parser buffers allocated";
  for (const auto& request : server_->Requests()) {
    EXPECT_EQ(request.Header("Accept"), kube::ProtoEnvelope::kAccept) << request.target;
  }
}

TEST_F(ReflectorProtobufTest, AnErrorFrameOfGoneRelists) {
  Enqueue(lists_, Protobuf(ProtoPodList({PodMessage("a", 1)}, 5)));
  Enqueue(watches_,
          ScriptedResponse::Streamed(
              {StreamStep::Chunk(Frame("ERROR", GoneStatus().str())), StreamStep::End()}));
  Enqueue(lists_, Protobuf(ProtoPodList({PodMessage("b", 10)}, 11)));
  Enqueue(watches_, ScriptedResponse::Streamed({StreamStep::Pause(StreamStep::kMaxPause)}));
  StartInformer();
  ASSERT_TRUE(WaitFor("the relist", 10s, [&] { return CachedKeys() == Keys{"ns/b"}; }).ok());
  EXPECT_EQ(informer_->reflector().lists(), 2u);
  EXPECT_EQ(informer_->reflector().last_error().code(), kube::StatusCode::kGone);
}

TEST_F(ReflectorProtobufTest, AWatchListInProtobufSyncsAtItsBookmark) {
  options_.watch_list = kube::WatchListMode::kOn;
  Enqueue(watches_, ScriptedResponse::Streamed(
                        {StreamStep::Chunk(Frame("ADDED", PodMessage("a", 3)) +
                                           Frame("ADDED", PodMessage("b", 4))),
                         StreamStep::Chunk(Frame("BOOKMARK", BookmarkMessage(5, true))),
                         StreamStep::Chunk(Frame("ADDED", PodMessage("c", 6))),
                         StreamStep::Pause(StreamStep::kMaxPause)}));
  StartInformer();
  ASSERT_TRUE(informer_->WaitForSync(10s));
  ASSERT_TRUE(WaitFor("the event after the bookmark", 10s, [&] {
                return informer_->reflector().last_resource_version() == "6";
              }).ok());
  EXPECT_EQ(CachedKeys(), (Keys{"ns/a", "ns/b", "ns/c"}));
  EXPECT_EQ(informer_->reflector().watch_lists(), 1u);
  EXPECT_EQ(informer_->reflector().lists(), 0u);
}

// A server that answers JSON although protobuf was asked for (an aggregated
// API, a proxy) is read as JSON.
TEST_F(ReflectorProtobufTest, JsonAnswersAreStillRead) {
  Enqueue(lists_, ScriptedResponse::Json(200, PodList({Pod("a", 1)}, 5)));
  Enqueue(watches_, ScriptedResponse::Streamed({StreamStep::Chunk(WatchEvent("ADDED", Pod("b", 6))),
                                                StreamStep::Pause(StreamStep::kMaxPause)}));
  StartInformer();
  ASSERT_TRUE(informer_->WaitForSync(10s));
  ASSERT_TRUE(WaitFor("the watched Pod", 10s, [&] { return CachedKeys().size() == 2; }).ok());
  EXPECT_EQ(CachedKeys(), (Keys{"ns/a", "ns/b"}));
  EXPECT_EQ(informer_->reflector().decode_errors(), 0u);
}

// An informer without a protobuf projection keeps asking for JSON only.
TEST_F(ReflectorProtobufTest, AJsonOnlyProjectionAsksForJson) {
  decoder_ = kube::MetaObject::FromJson;
  Enqueue(lists_, ScriptedResponse::Json(200, PodList({Pod("a", 1)}, 5)));
  Enqueue(watches_, ScriptedResponse::Streamed({StreamStep::Pause(StreamStep::kMaxPause)}));
  StartInformer();
  ASSERT_TRUE(informer_->WaitForSync(10s));
  ASSERT_FALSE(server_->Requests().empty());
  EXPECT_EQ(server_->Requests()[0].Header("Accept"), "application/json");
}

}  // namespace
}  // namespace dra::testing
