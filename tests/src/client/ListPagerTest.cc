// ListPager: continue tokens, page size, the full-LIST fallback after an
// expired token (client-go's tools/pager), over scripted pages and, for
// ListPager::Of, a RestClient on a fake transport.
#include <gtest/gtest.h>

#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "src/client/ListPager.h"
#include "src/client/RestClient.h"

namespace dra::testing {
namespace {

using nlohmann::json;

std::string Page(const std::vector<std::string>& names, const std::string& next) {
  json page = {
      {"kind", "List"}, {"metadata", {{"resourceVersion", "7"}}}, {"items", json::array()}};
  if (!next.empty()) page["metadata"]["continue"] = next;
  for (const auto& name : names) page["items"].push_back({{"metadata", {{"name", name}}}});
  return page.dump();
}

kube::Status Expired() { return kube::Status(kube::StatusCode::kGone, "continue token expired"); }

// Answers the scripted pages in order and records what each request asked for.
class ScriptedPages {
 public:
  explicit ScriptedPages(std::deque<kube::Result<std::string>> pages) : pages_(std::move(pages)) {}

  kube::ListPager::PageFn Fn() {
    return [this](const kube::ListOptions& options) -> kube::Result<std::string> {
      asked.push_back(options);
      if (pages_.empty()) return kube::Status(kube::StatusCode::kInternal, "no page scripted");
      auto page = std::move(pages_.front());
      pages_.pop_front();
      return page;
    };
  }

  std::vector<kube::ListOptions> asked;

 private:
  std::deque<kube::Result<std::string>> pages_;
};

std::vector<std::string> Names(const std::vector<json>& items) {
  std::vector<std::string> names;
  for (const auto& item : items) names.push_back(item["metadata"]["name"].get<std::string>());
  return names;
}

TEST(ListPagerTest, FollowsContinueTokensWithThePageSize) {
  ScriptedPages pages({Page({"a", "b"}, "tok-1"), Page({"c", "d"}, "tok-2"), Page({"e"}, "")});
  auto items = kube::ListPager(pages.Fn(), 2).ListItems();
  ASSERT_TRUE(items.ok()) << items.status().ToString();
  EXPECT_EQ(Names(*items), (std::vector<std::string>{"a", "b", "c", "d", "e"}));
  ASSERT_EQ(pages.asked.size(), 3u);
  EXPECT_EQ(pages.asked[0].continue_token, "");
  EXPECT_EQ(pages.asked[1].continue_token, "tok-1");
  EXPECT_EQ(pages.asked[2].continue_token, "tok-2");
  for (const auto& asked : pages.asked) EXPECT_EQ(asked.limit, 2);
}

TEST(ListPagerTest, AsksForFiveHundredItemsByDefault) {
  ScriptedPages pages({Page({"a"}, "")});
  ASSERT_TRUE(kube::ListPager(pages.Fn()).ListItems().ok());
  ASSERT_EQ(pages.asked.size(), 1u);
  EXPECT_EQ(pages.asked[0].limit, 500);
}

TEST(ListPagerTest, ExpiredContinueTokenFallsBackToOneFullList) {
  ScriptedPages pages({Page({"a", "b"}, "tok-1"), Expired(), Page({"a", "b2", "c"}, "")});
  std::vector<std::string> seen;
  int restarts = 0;
  kube::Status status =
      kube::ListPager(pages.Fn(), 2)
          .EachItem(
              [&](json&& item) { seen.push_back(item["metadata"]["name"].get<std::string>()); },
              [&] {
                ++restarts;
                seen.clear();
              });
  ASSERT_TRUE(status.ok()) << status.ToString();
  EXPECT_EQ(restarts, 1);
  EXPECT_EQ(seen, (std::vector<std::string>{"a", "b2", "c"}));
  ASSERT_EQ(pages.asked.size(), 3u);
  EXPECT_EQ(pages.asked[2].limit, 0);  // no limit: the whole collection at once
  EXPECT_EQ(pages.asked[2].continue_token, "");
}

TEST(ListPagerTest, ListItemsKeepsOnlyTheFullListAfterAFallback) {
  ScriptedPages pages({Page({"a"}, "tok-1"), Expired(), Page({"x", "y"}, "")});
  auto items = kube::ListPager(pages.Fn(), 1).ListItems();
  ASSERT_TRUE(items.ok()) << items.status().ToString();
  EXPECT_EQ(Names(*items), (std::vector<std::string>{"x", "y"}));
}

TEST(ListPagerTest, FirstPageGoneIsAnErrorNotAFallback) {
  ScriptedPages pages({Expired(), Page({"a"}, "")});
  auto items = kube::ListPager(pages.Fn()).ListItems();
  ASSERT_FALSE(items.ok());
  EXPECT_EQ(items.status().code(), kube::StatusCode::kGone);
  EXPECT_EQ(pages.asked.size(), 1u);
}

TEST(ListPagerTest, OtherErrorsOnLaterPagesEndTheList) {
  ScriptedPages pages(
      {Page({"a"}, "tok-1"), kube::Status(kube::StatusCode::kForbidden, "no"), Page({"a"}, "")});
  int restarts = 0;
  kube::Status status = kube::ListPager(pages.Fn()).EachItem([](json&&) {}, [&] { ++restarts; });
  EXPECT_EQ(status.code(), kube::StatusCode::kForbidden);
  EXPECT_EQ(restarts, 0);
  EXPECT_EQ(pages.asked.size(), 2u);
}

TEST(ListPagerTest, AFailedFallbackIsReturned) {
  ScriptedPages pages({Page({"a"}, "tok-1"), Expired(), Expired()});
  auto items = kube::ListPager(pages.Fn()).ListItems();
  EXPECT_EQ(items.status().code(), kube::StatusCode::kGone);
  EXPECT_EQ(pages.asked.size(), 3u);
}

TEST(ListPagerTest, APageThatIsNotJsonIsAParseError) {
  for (bool simdjson : {false, true}) {
    ScriptedPages pages({Page({"a"}, "tok-1"), std::string("{\"items\": [")});
    kube::ListPager pager(pages.Fn());
    kube::Status status = simdjson ? pager.EachElement([](simdjson::dom::element) {}, [] {})
                                   : pager.EachItem([](json&&) {}, [] {});
    EXPECT_EQ(status.code(), kube::StatusCode::kParseError) << "simdjson: " << simdjson;
  }
}

TEST(ListPagerTest, EachElementHandsOutSimdjsonItemsAcrossPages) {
  ScriptedPages pages({Page({"a", "b"}, "tok-1"), Page({"c"}, "")});
  std::vector<std::string> seen;
  kube::Status status =
      kube::ListPager(pages.Fn(), 2)
          .EachElement(
              [&](simdjson::dom::element item) {
                std::string_view name;
                ASSERT_EQ(item["metadata"]["name"].get_string().get(name), simdjson::SUCCESS);
                seen.emplace_back(name);
              },
              [] {});
  ASSERT_TRUE(status.ok()) << status.ToString();
  EXPECT_EQ(seen, (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(pages.asked[1].continue_token, "tok-1");
}

TEST(ListPagerTest, EachElementReadsDocumentsDeeperThanSimdjsonsDefault) {
  std::string deep = std::string(2000, '[') + std::string(2000, ']');
  ScriptedPages pages({R"({"items":[{"deep":)" + deep + "}]}"});
  int seen = 0;
  kube::Status status =
      kube::ListPager(pages.Fn()).EachElement([&](simdjson::dom::element) { ++seen; }, [] {});
  ASSERT_TRUE(status.ok()) << status.ToString();
  EXPECT_EQ(seen, 1);
}

TEST(ListPagerTest, ItemsMissingOrNotAnArrayReadAsNone) {
  ScriptedPages pages(
      {std::string(R"({"metadata":{"continue":"t"}})"), std::string(R"({"items":{"a":1}})")});
  auto items = kube::ListPager(pages.Fn()).ListItems();
  ASSERT_TRUE(items.ok()) << items.status().ToString();
  EXPECT_TRUE(items->empty());
  EXPECT_EQ(pages.asked.size(), 2u);
}

// Answers GETs of the collection from scripted pages, by the continue token asked for.
class FakeCollection : public kube::HttpTransport {
 public:
  kube::Result<kube::HttpResponse> Send(const kube::HttpRequest& request) override {
    paths.push_back(request.method + " " + request.path);
    kube::HttpResponse response;
    response.status = 200;
    response.headers["content-type"] = "application/json";
    bool first = request.path.find("continue=") == std::string::npos;
    response.body = first ? Page({"a"}, "t/1") : Page({"b"}, "");
    return response;
  }
  kube::Status Stream(const kube::HttpRequest&, kube::StreamHandler&, kube::CancelFlag&,
                      std::chrono::seconds) override {
    return kube::Status(kube::StatusCode::kUnavailable, "no watches");
  }

  std::vector<std::string> paths;
};

TEST(ListPagerTest, OfListsTheCollectionThroughTheRestClient) {
  auto transport = std::make_shared<FakeCollection>();
  kube::RestClient client(transport);
  const kube::ResourceType claims{"resource.k8s.io", "v1", "resourceclaims", true, "ResourceClaim"};
  auto items = kube::ListPager::Of(client, claims, "ns", 1).ListItems();
  ASSERT_TRUE(items.ok()) << items.status().ToString();
  EXPECT_EQ(Names(*items), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(
      transport->paths,
      (std::vector<std::string>{
          "GET /apis/resource.k8s.io/v1/namespaces/ns/resourceclaims?limit=1",
          "GET /apis/resource.k8s.io/v1/namespaces/ns/resourceclaims?limit=1&continue=t%2F1"}));
}

}  // namespace
}  // namespace dra::testing
