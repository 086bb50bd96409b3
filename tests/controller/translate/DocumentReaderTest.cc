#include <gtest/gtest.h>

#include "controller/translate/DocumentReader.h"

namespace dra::translate {
namespace {

std::string Join(const std::vector<SourceDocument>& docs) {
  std::string out;
  for (const auto& d : docs) out += d.Text();
  return out;
}

TEST(DocumentReaderTest, SplitsAtSeparatorsAndKeepsEveryByte) {
  std::string text =
      "# head\na: 1 # c\n---\nb: 2\n--- # sep comment\nc: 3\n---\n\n# only a comment\n";
  auto docs = DocumentReader::Split(text);
  ASSERT_EQ(docs.size(), 4u);
  EXPECT_EQ(Join(docs), text);
  EXPECT_EQ(docs[0].separator, "");
  EXPECT_EQ(docs[0].node["a"].as<int>(), 1);
  EXPECT_EQ(docs[1].index, 2u);
  EXPECT_EQ(docs[2].separator, "--- # sep comment\n");
  EXPECT_EQ(docs[2].node["c"].as<int>(), 3);
  EXPECT_TRUE(docs[3].parsed());
  EXPECT_TRUE(docs[3].node.IsNull());
}

TEST(DocumentReaderTest, LeadingSeparatorCrlfAndNoFinalNewline) {
  std::string text = "---\r\na: 1\r\n---\r\nb: x";
  auto docs = DocumentReader::Split(text);
  ASSERT_EQ(docs.size(), 2u);
  EXPECT_EQ(Join(docs), text);
  EXPECT_EQ(docs[1].node["b"].as<std::string>(), "x");
}

TEST(DocumentReaderTest, DashesThatAreNotSeparatorsStayInTheDocument) {
  std::string text = "a: |\n  ---\n  x\nb: ----\n---x: 1\n";
  auto docs = DocumentReader::Split(text);
  ASSERT_EQ(docs.size(), 1u);
  EXPECT_TRUE(docs[0].parsed()) << docs[0].parse_error;
  EXPECT_EQ(docs[0].node["a"].as<std::string>(), "---\nx\n");
}

TEST(DocumentReaderTest, JsonIsOneDocument) {
  auto docs = DocumentReader::Split("{\"kind\": \"Pod\", \"spec\": {\"containers\": []}}\n");
  ASSERT_EQ(docs.size(), 1u);
  EXPECT_EQ(docs[0].node["kind"].as<std::string>(), "Pod");
}

TEST(DocumentReaderTest, BrokenDocumentCarriesItsErrorAndOthersStillParse) {
  auto docs = DocumentReader::Split("a: [1\n---\nb: 2\n");
  ASSERT_EQ(docs.size(), 2u);
  EXPECT_FALSE(docs[0].parsed());
  EXPECT_FALSE(docs[0].parse_error.empty());
  EXPECT_TRUE(docs[1].parsed());
}

TEST(DocumentReaderTest, EmptyInputIsOneEmptyDocument) {
  auto docs = DocumentReader::Split("");
  ASSERT_EQ(docs.size(), 1u);
  EXPECT_EQ(docs[0].Text(), "");
}

TEST(DocumentReaderTest, DeepNestingIsAnErrorNotACrash) {
  auto docs = DocumentReader::Split(std::string(100000, '['));
  ASSERT_EQ(docs.size(), 1u);
  EXPECT_FALSE(docs[0].parsed());
}

}  // namespace
}  // namespace dra::translate
