#include <gtest/gtest.h>

#include <limits>

#include "controller/metrics/TextExposition.h"

namespace dra::metrics {
namespace {

TEST(TextExpositionTest, WritesHelpAndTypeOnceThenOneLinePerSample) {
  std::string out;
  TextExposition text(out);
  text.Family("x_devices", "Devices per node", {"node", "effect"});
  std::vector<std::string> a{"a"};
  text.Sample(a, "NoExecute", 2);
  text.Sample(a, "NoSchedule", 0);
  text.Family("x_total", "No labels", {});
  text.Sample({}, 7);
  EXPECT_EQ(out,
            "# HELP x_devices Devices per node\n"
            "# TYPE x_devices gauge\n"
            "x_devices{node=\"a\",effect=\"NoExecute\"} 2\n"
            "x_devices{node=\"a\",effect=\"NoSchedule\"} 0\n"
            "# HELP x_total No labels\n"
            "# TYPE x_total gauge\n"
            "x_total 7\n");
}

TEST(TextExpositionTest, SeveralLabelValuesAfterTheGroupsOwn) {
  std::string out;
  TextExposition text(out);
  text.Family("x_tainted", "Tainted", {"node", "effect", "source"});
  std::vector<std::string> a{"a"};
  text.Sample(a, {"NoExecute", "driver"}, 1);
  text.Sample(a, {"NoExecute", "rule", "ignored"}, 0);
  EXPECT_EQ(out,
            "# HELP x_tainted Tainted\n"
            "# TYPE x_tainted gauge\n"
            "x_tainted{node=\"a\",effect=\"NoExecute\",source=\"driver\"} 1\n"
            "x_tainted{node=\"a\",effect=\"NoExecute\",source=\"rule\"} 0\n");
}

TEST(TextExpositionTest, EscapesLabelValuesAndHelpAsTheFormatSays) {
  std::string out;
  TextExposition text(out);
  text.Family("x", "a \\ and a\nnewline, \"quotes\" kept", {"v"});
  std::vector<std::string> values{"back\\slash \"quoted\"\nnext"};
  text.Sample(values, 1);
  EXPECT_EQ(out,
            "# HELP x a \\\\ and a\\nnewline, \"quotes\" kept\n"
            "# TYPE x gauge\n"
            "x{v=\"back\\\\slash \\\"quoted\\\"\\nnext\"} 1\n");
}

TEST(TextExpositionTest, ValuesUseTheShortestExactFormAndTheFormatsSpecialNames) {
  std::string out;
  TextExposition::AppendValue(out, 3);
  out += ' ';
  TextExposition::AppendValue(out, 0.25);
  out += ' ';
  TextExposition::AppendValue(out, 1234567890123.0);
  out += ' ';
  TextExposition::AppendValue(out, std::numeric_limits<double>::quiet_NaN());
  out += ' ';
  TextExposition::AppendValue(out, std::numeric_limits<double>::infinity());
  out += ' ';
  TextExposition::AppendValue(out, -std::numeric_limits<double>::infinity());
  EXPECT_EQ(out, "3 0.25 1234567890123 NaN +Inf -Inf");
}

TEST(TextExpositionTest, ExtraValuesAreIgnoredAndMissingLabelsLeftOut) {
  std::string out;
  TextExposition text(out);
  text.Family("x", "h", {"a"});
  std::vector<std::string> two{"1", "2"};
  std::vector<std::string> none;
  text.Sample(two, 1);
  text.Sample(none, 2);
  EXPECT_EQ(out, "# HELP x h\n# TYPE x gauge\nx{a=\"1\"} 1\nx 2\n");
}

TEST(TextExpositionTest, ARecorderSeesEveryFamilyStartedWhileItLives) {
  std::vector<TextExposition::FamilyHeader> families;
  std::string out;
  {
    TextExposition::Recorder recorder(families);
    TextExposition(out).Family("x", "h", {"a", "b"});
  }
  TextExposition(out).Family("y", "h", {});
  ASSERT_EQ(families.size(), 1u);
  EXPECT_EQ(families[0].name, "x");
  EXPECT_EQ(families[0].help, "h");
  EXPECT_EQ(families[0].label_names, (std::vector<std::string>{"a", "b"}));
}

}  // namespace
}  // namespace dra::metrics
