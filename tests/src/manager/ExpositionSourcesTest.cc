#include <gtest/gtest.h>

#include <stdexcept>

#include "src/manager/ExpositionSources.h"

namespace kube {
namespace {

ExpositionSources::Source Text(std::string text) {
  auto shared = std::make_shared<const std::string>(std::move(text));
  return [shared] { return shared; };
}

std::string Render(const ExpositionSources& sources, std::string prefix = "") {
  sources.AppendTo(prefix);
  return prefix;
}

TEST(ExpositionSourcesTest, AppendsSourcesInTheOrderTheyWereAdded) {
  ExpositionSources sources;
  sources.Add("b", Text("# TYPE b gauge\nb 2\n"));
  sources.Add("a", Text("# TYPE a gauge\na 1\n"));
  EXPECT_EQ(Render(sources, "r 0\n"), "r 0\n# TYPE b gauge\nb 2\n# TYPE a gauge\na 1\n");
}

TEST(ExpositionSourcesTest, TextWithoutATrailingNewlineGetsOne) {
  ExpositionSources sources;
  sources.Add("a", Text("a 1"));
  sources.Add("b", Text("b 2"));
  EXPECT_EQ(Render(sources), "a 1\nb 2\n");
}

TEST(ExpositionSourcesTest, NothingYetThrowingAndEmptySourcesAddNothing) {
  ExpositionSources sources;
  sources.Add("null", [] { return std::shared_ptr<const std::string>(); });
  sources.Add("empty", Text(""));
  sources.Add("throws",
              []() -> std::shared_ptr<const std::string> { throw std::runtime_error("boom"); });
  sources.Add("unset", ExpositionSources::Source());
  sources.Add("a", Text("a 1\n"));
  EXPECT_EQ(Render(sources, "r 0\n"), "r 0\na 1\n");
}

TEST(ExpositionSourcesTest, AddingANameAgainReplacesItAndRemoveDropsIt) {
  ExpositionSources sources;
  sources.Add("a", Text("a 1\n"));
  sources.Add("b", Text("b 1\n"));
  sources.Add("a", Text("a 2\n"));
  EXPECT_EQ(Render(sources), "a 2\nb 1\n");
  sources.Remove("a");
  EXPECT_EQ(Render(sources), "b 1\n");
}

TEST(ExpositionSourcesTest, ASourceSeesItsLatestText) {
  ExpositionSources sources;
  auto current = std::make_shared<std::shared_ptr<const std::string>>();
  sources.Add("a", [current] { return *current; });
  EXPECT_EQ(Render(sources), "");
  *current = std::make_shared<const std::string>("a 1\n");
  EXPECT_EQ(Render(sources), "a 1\n");
}

// What /metrics writes: the sources' own buffers, not copies, with a
// newline after a text that lacks one.
TEST(ExpositionSourcesTest, TextsShareTheSourcesBuffers) {
  ExpositionSources sources;
  auto a = std::make_shared<const std::string>("a 1\n");
  auto b = std::make_shared<const std::string>("b 2");
  sources.Add("a", [a] { return a; });
  sources.Add("empty", Text(""));
  sources.Add("b", [b] { return b; });
  auto texts = sources.Texts();
  ASSERT_EQ(texts.size(), 3u);
  EXPECT_EQ(texts[0].get(), a.get());
  EXPECT_EQ(texts[1].get(), b.get());
  EXPECT_EQ(*texts[2], "\n");
  EXPECT_EQ(Render(sources), "a 1\nb 2\n");
}

}  // namespace
}  // namespace kube
