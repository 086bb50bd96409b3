#include <gtest/gtest.h>

#include "controller/translate/YamlJson.h"
#include "controller/translate/YamlWriter.h"

namespace dra::translate {
namespace {

// Writing and reading back keeps the meaning (as JSON) of every value.
void ExpectRoundTrip(const std::string& yaml) {
  YAML::Node node = YAML::Load(yaml);
  std::string written = YamlWriter::Write(node);
  EXPECT_EQ(YamlJson::ToJson(YAML::Load(written)), YamlJson::ToJson(node)) << "input:\n"
                                                                           << yaml << "written:\n"
                                                                           << written;
}

TEST(YamlWriterTest, BlockStyleWithSequencesAtKeyIndentation) {
  YAML::Node node = YAML::Load("a: {b: [1, {c: d, e: f}], g: []}\nh: {}\n");
  EXPECT_EQ(YamlWriter::Write(node), "a:\n  b:\n  - 1\n  - c: d\n    e: f\n  g: []\nh: {}\n");
}

TEST(YamlWriterTest, QuotedStringsThatLookLikeOtherTypesStayQuoted) {
  YAML::Node node = YAML::Load(
      "a: \"true\"\nb: \"8080\"\nc: 'no'\nd: \"\"\ne: \"x: y\"\nf: \"plain\"\ng: \"0755\"\n");
  EXPECT_EQ(YamlWriter::Write(node),
            "a: \"true\"\nb: \"8080\"\nc: \"no\"\nd: \"\"\ne: \"x: y\"\nf: plain\ng: \"0755\"\n");
}

TEST(YamlWriterTest, PlainScalarsAreWrittenAsRead) {
  YAML::Node node = YAML::Load("a: 500m\nb: 1.5\nc: true\nd:\ne: nginx:1.25\nf: ~\n");
  // "~" is read as null
  EXPECT_EQ(YamlWriter::Write(node), "a: 500m\nb: 1.5\nc: true\nd: null\ne: nginx:1.25\nf: null\n");
}

TEST(YamlWriterTest, RoundTripsMeaning) {
  ExpectRoundTrip("s: |\n  line one\n  line \"two\"\nt: x\n");
  ExpectRoundTrip("a: [\"--flag\", '-1', \"#x\", '*star', '&amp', \"tab\\there\"]\n");
  ExpectRoundTrip("k:\n  - - nested\n    - seq\n  - []\n  - {}\n");
  ExpectRoundTrip("\"quoted key\": 1\n'on': off\n");
  ExpectRoundTrip("x: \"\\u00e9\\x01\"\n");
}

TEST(YamlWriterTest, NewStringsAndIntegers) {
  YAML::Node node(YAML::NodeType::Map);
  node["s"] = YamlWriter::String("123");
  node["t"] = YamlWriter::String("gpu.example.com");
  node["count"] = YamlWriter::Integer(4);
  node["n"] = YamlWriter::String("y");  // YAML 1.1 reads both as booleans
  EXPECT_EQ(YamlWriter::Write(node), "s: \"123\"\nt: gpu.example.com\ncount: 4\n\"n\": \"y\"\n");
}

}  // namespace
}  // namespace dra::translate
