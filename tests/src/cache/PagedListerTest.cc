// PagedLister over a scripted ListerWatcher: paging by continue tokens, a
// read ended by an expired token and started afresh, smaller pages after the
// size cap, undecodable items, and failures returned as values.
#include <gtest/gtest.h>

#include <deque>
#include <vector>

#include "src/cache/ListMemoryBudget.h"
#include "src/cache/ObjectMeta.h"
#include "src/cache/PagedLister.h"
#include "tests/support/ProtoWriter.h"

namespace dra::testing {
namespace {

using kube::Status;
using kube::StatusCode;
using kube::testing::ProtoWriter;

std::string Pod(const std::string& name) {
  return R"({"metadata":{"name":")" + name + R"(","namespace":"ns","resourceVersion":"1"}})";
}

std::string Page(const std::vector<std::string>& items, const std::string& rv,
                 const std::string& continue_token = "") {
  std::string joined;
  for (const auto& item : items) joined += (joined.empty() ? "" : ",") + item;
  return R"({"metadata":{"resourceVersion":")" + rv + R"(","continue":")" + continue_token +
         R"("},"items":[)" + joined + "]}";
}

// Answers each LIST with the next scripted response and keeps what it was
// asked.
class ScriptedLister : public kube::ListerWatcher {
 public:
  kube::Result<std::string> List(const kube::ListOptions& options) override {
    asked.push_back(options);
    if (answers.empty()) return Status(StatusCode::kInternal, "no scripted answer");
    auto answer = answers.front();
    answers.pop_front();
    return answer;
  }
  Status Watch(const kube::ListOptions&, const kube::WatchChunkHandler&,
               kube::CancelFlag&) override {
    return Status(StatusCode::kInternal, "a lister does not watch");
  }
  std::string Describe() const override { return "pods"; }

  std::deque<kube::Result<std::string>> answers;
  std::vector<kube::ListOptions> asked;
};

class RecordingReceiver : public kube::PagedLister::Receiver {
 public:
  void Item(const kube::RawObject& item) override {
    auto meta = kube::ObjectMeta::FromRaw(item);
    items.push_back(meta.ok() ? meta->Key() : "(unreadable)");
  }
  void Undecodable(const std::string& key, const Status& error) override {
    undecodable.push_back(key + ": " + error.ToString());
  }
  void PageRead() override { ++pages; }
  bool Stopping() override { return stopping; }

  std::vector<std::string> items;
  std::vector<std::string> undecodable;
  int pages = 0;
  bool stopping = false;
};

class PagedListerTest : public ::testing::Test {
 protected:
  kube::PagedLister Lister(kube::PagedLister::Options options = {}) {
    return kube::PagedLister(server_, decoder_, std::move(options));
  }

  std::shared_ptr<ScriptedLister> server_ = std::make_shared<ScriptedLister>();
  kube::WatchDecoder decoder_;
  RecordingReceiver receiver_;
};

TEST_F(PagedListerTest, FollowsContinueTokensToTheLastPage) {
  server_->answers = {Page({Pod("a"), Pod("b")}, "7", "token-1"), Page({Pod("c")}, "9")};
  kube::PagedLister::Options options;
  options.page_size = 2;
  options.label_selector = "app=gpu";
  options.field_selector = "spec.nodeName=n1";

  auto resource_version = Lister(options).ListAll(receiver_);

  ASSERT_TRUE(resource_version.ok()) << resource_version.status().ToString();
  EXPECT_EQ(*resource_version, "9") << "the last page's resourceVersion";
  EXPECT_EQ(receiver_.items, (std::vector<std::string>{"ns/a", "ns/b", "ns/c"}));
  EXPECT_EQ(receiver_.pages, 2);
  ASSERT_EQ(server_->asked.size(), 2u);
  EXPECT_EQ(server_->asked[0].continue_token, "");
  EXPECT_EQ(server_->asked[1].continue_token, "token-1");
  for (const auto& asked : server_->asked) {
    EXPECT_EQ(asked.limit, 2);
    EXPECT_EQ(asked.label_selector, "app=gpu");
    EXPECT_EQ(asked.field_selector, "spec.nodeName=n1");
    EXPECT_EQ(asked.resource_version, "") << "a LIST reads the server's most recent state";
  }
}

TEST_F(PagedListerTest, AnExpiredContinueTokenEndsTheReadAndTheNextReadStartsAfresh) {
  server_->answers = {Page({Pod("a")}, "7", "token-1"),
                      Status(StatusCode::kGone, "The provided continue parameter is too old"),
                      Page({Pod("a"), Pod("b")}, "12")};
  auto lister = Lister();

  auto expired = lister.ListAll(receiver_);
  ASSERT_FALSE(expired.ok());
  EXPECT_EQ(expired.status().code(), StatusCode::kGone) << expired.status().ToString();

  auto relisted = lister.ListAll(receiver_);
  ASSERT_TRUE(relisted.ok()) << relisted.status().ToString();
  EXPECT_EQ(*relisted, "12");
  ASSERT_EQ(server_->asked.size(), 3u);
  EXPECT_EQ(server_->asked[1].continue_token, "token-1");
  EXPECT_EQ(server_->asked[2].continue_token, "") << "a relist never resumes from a token";
}

TEST_F(PagedListerTest, APageOverTheSizeCapIsAskedForAgainWithHalfTheLimit) {
  server_->answers = {
      Page({Pod("a")}, "7", "token-1"), Status(StatusCode::kTooLarge, "response body over the cap"),
      Status(StatusCode::kTooLarge, "response body over the cap"), Page({Pod("b")}, "8")};
  kube::PagedLister::Options options;
  options.page_size = 100;

  auto resource_version = Lister(options).ListAll(receiver_);

  ASSERT_TRUE(resource_version.ok()) << resource_version.status().ToString();
  std::vector<int64_t> limits;
  std::vector<std::string> tokens;
  for (const auto& asked : server_->asked) {
    limits.push_back(asked.limit);
    tokens.push_back(asked.continue_token);
  }
  EXPECT_EQ(limits, (std::vector<int64_t>{100, 100, 50, 25}));
  EXPECT_EQ(tokens, (std::vector<std::string>{"", "token-1", "token-1", "token-1"}));
  EXPECT_EQ(receiver_.items, (std::vector<std::string>{"ns/a", "ns/b"}));
}

TEST_F(PagedListerTest, APageTooLargeAtALimitOfOneIsAnError) {
  server_->answers = {Status(StatusCode::kTooLarge, "one object over the cap")};
  kube::PagedLister::Options options;
  options.page_size = 1;

  auto resource_version = Lister(options).ListAll(receiver_);

  ASSERT_FALSE(resource_version.ok());
  EXPECT_EQ(resource_version.status().code(), StatusCode::kTooLarge);
  EXPECT_EQ(server_->asked.size(), 1u);
}

TEST_F(PagedListerTest, AnItemThatCannotBeDecodedCostsOnlyItself) {
  std::string broken = R"({"metadata":{"name":"b","namespace":"ns"},"spec":{"x":tru}})";
  server_->answers = {Page({Pod("a"), broken, Pod("c")}, "7")};

  auto resource_version = Lister().ListAll(receiver_);

  ASSERT_TRUE(resource_version.ok()) << resource_version.status().ToString();
  EXPECT_EQ(*resource_version, "7");
  EXPECT_EQ(receiver_.items, (std::vector<std::string>{"ns/a", "ns/c"}));
  ASSERT_EQ(receiver_.undecodable.size(), 1u);
  EXPECT_EQ(receiver_.undecodable[0].rfind("ns/b: ", 0), 0u) << receiver_.undecodable[0];
}

TEST_F(PagedListerTest, APageThatCannotBeReadIsAnErrorNamingTheList) {
  server_->answers = {std::string("<html>not a list</html>")};

  auto resource_version = Lister().ListAll(receiver_);

  ASSERT_FALSE(resource_version.ok());
  EXPECT_NE(resource_version.status().message().find("list pods"), std::string::npos)
      << resource_version.status().ToString();
  EXPECT_TRUE(receiver_.items.empty());
}

TEST_F(PagedListerTest, AFailedListIsReturnedAsItsError) {
  server_->answers = {Page({Pod("a")}, "7", "token-1"),
                      Status(StatusCode::kForbidden, "pods is forbidden")};

  auto resource_version = Lister().ListAll(receiver_);

  ASSERT_FALSE(resource_version.ok());
  EXPECT_EQ(resource_version.status().code(), StatusCode::kForbidden);
  EXPECT_EQ(receiver_.pages, 1);
}

TEST_F(PagedListerTest, ProtobufPagesAreReadToo) {
  auto pod =
      ProtoWriter().Message(1, ProtoWriter().Bytes(1, "p").Bytes(3, "ns").Bytes(6, "4")).str();
  ProtoWriter list;
  list.Message(1, ProtoWriter().Bytes(2, "4"));
  list.Bytes(2, pod);
  server_->answers = {ProtoWriter::Envelope(list.str())};

  auto resource_version = Lister().ListAll(receiver_);

  ASSERT_TRUE(resource_version.ok()) << resource_version.status().ToString();
  EXPECT_EQ(*resource_version, "4");
  EXPECT_EQ(receiver_.items, (std::vector<std::string>{"ns/p"}));
}

TEST_F(PagedListerTest, GivingUpTheWaitForListMemoryCancelsTheRead) {
  auto budget = std::make_shared<kube::ListMemoryBudget>(100, 100);
  auto held = budget->Acquire([] { return false; });  // another list holds it all
  ASSERT_TRUE(held.held());
  kube::PagedLister::Options options;
  options.budget = budget;
  receiver_.stopping = true;
  server_->answers = {Page({Pod("a")}, "7")};

  auto resource_version = Lister(options).ListAll(receiver_);

  ASSERT_FALSE(resource_version.ok());
  EXPECT_EQ(resource_version.status().code(), StatusCode::kCancelled);
  EXPECT_TRUE(server_->asked.empty()) << "nothing is asked without list memory";
}

}  // namespace
}  // namespace dra::testing
