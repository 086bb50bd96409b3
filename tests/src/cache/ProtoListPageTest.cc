#include <gtest/gtest.h>

#include <string>

#include "src/cache/ProtoListPage.h"
#include "tests/support/ProtoWriter.h"

namespace kube {
namespace {

using testing::ProtoWriter;

TEST(ProtoListPageTest, CutsOutItemsAndReadsTheListMeta) {
  std::string a = ProtoWriter().Message(1, ProtoWriter().Bytes(1, "a")).str();
  std::string bad = std::string("\x0a\x7f", 2);  // malformed inside, whole as an item
  ProtoWriter list;
  list.Message(1, ProtoWriter().Bytes(2, "123").Bytes(3, "next-page").Varint(4, 7))
      .Bytes(2, a)
      .Bytes(2, bad);
  std::string body = ProtoWriter::Envelope(list.str());  // the page's views point into it
  auto page = ProtoListPage::Parse(body);
  ASSERT_TRUE(page.ok()) << page.status().ToString();
  EXPECT_EQ(page->resource_version, "123");
  EXPECT_EQ(page->continue_token, "next-page");
  ASSERT_EQ(page->items.size(), 2u);
  EXPECT_EQ(page->items[0], a);
  EXPECT_EQ(page->items[1], bad);
}

TEST(ProtoListPageTest, ATruncatedBodyIsAnError) {
  std::string body = ProtoWriter::Envelope(
      ProtoWriter().Message(1, ProtoWriter().Bytes(2, "1")).Bytes(2, "item").str());
  EXPECT_FALSE(ProtoListPage::Parse(body.substr(0, body.size() - 3)).ok());
  EXPECT_FALSE(ProtoListPage::Parse("{}").ok());
}

}  // namespace
}  // namespace kube
