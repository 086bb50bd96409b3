// DecodeErrorReporter on a FakeClock: every skip is counted (and exported),
// the log says the first at once and then at most one line per 10 s.
#include <gtest/gtest.h>
#include <prometheus/registry.h>
#include <spdlog/sinks/ringbuffer_sink.h>
#include <spdlog/spdlog.h>

#include <algorithm>

#include "src/base/FakeClock.h"
#include "src/cache/DecodeErrorReporter.h"

namespace dra::testing {
namespace {

using namespace std::chrono_literals;

double Counted(prometheus::Registry& registry, const std::string& resource) {
  double total = 0;
  for (const auto& family : registry.Collect()) {
    if (family.name != "reflector_decode_errors_total") continue;
    for (const auto& metric : family.metric) {
      for (const auto& label : metric.label) {
        if (label.name == "resource" && label.value == resource) total += metric.counter.value;
      }
    }
  }
  return total;
}

class DecodeErrorReporterTest : public ::testing::Test {
 protected:
  void SetUp() override { spdlog::default_logger()->sinks().push_back(log_); }
  void TearDown() override {
    auto& sinks = spdlog::default_logger()->sinks();
    sinks.erase(std::remove(sinks.begin(), sinks.end(), log_), sinks.end());
  }

  std::vector<std::string> Skipped() const {
    std::vector<std::string> lines;
    for (const auto& line : log_->last_formatted()) {
      if (line.find("cannot be decoded") != std::string::npos) lines.push_back(line);
    }
    return lines;
  }

  std::shared_ptr<spdlog::sinks::ringbuffer_sink_mt> log_ =
      std::make_shared<spdlog::sinks::ringbuffer_sink_mt>(100);
  std::shared_ptr<kube::FakeClock> clock_ =
      std::make_shared<kube::FakeClock>(kube::Clock::TimePoint(1h));
  std::shared_ptr<prometheus::Registry> registry_ = std::make_shared<prometheus::Registry>();
};

TEST_F(DecodeErrorReporterTest, EverySkipIsCountedButTheLogSaysAtMostOneLinePerTenSeconds) {
  kube::DecodeErrorReporter reporter(clock_, "pods", registry_);
  kube::Status bad(kube::StatusCode::kParseError, "bad json");

  reporter.Report("ns/a", bad);
  clock_->Step(4s);
  reporter.Report("ns/b", bad);
  reporter.Report("", bad);
  clock_->Step(6s);
  reporter.Report("ns/d", bad);

  EXPECT_EQ(reporter.count(), 4u);
  EXPECT_EQ(Counted(*registry_, "pods"), 4);
  auto lines = Skipped();
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_NE(lines[0].find("pods: skipping ns/a that cannot be decoded: "), std::string::npos)
      << lines[0];
  EXPECT_NE(lines[0].find("(0 more skipped since the last report)"), std::string::npos) << lines[0];
  EXPECT_NE(lines[1].find("pods: skipping ns/d that cannot be decoded: "), std::string::npos)
      << lines[1];
  EXPECT_NE(lines[1].find("(2 more skipped since the last report)"), std::string::npos) << lines[1];
}

TEST_F(DecodeErrorReporterTest, AnObjectWithoutAKeyIsCalledAnObject) {
  kube::DecodeErrorReporter reporter(clock_, "pods", nullptr);  // no metrics: count only

  reporter.Report("", kube::Status(kube::StatusCode::kParseError, "bad json"));

  EXPECT_EQ(reporter.count(), 1u);
  auto lines = Skipped();
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_NE(lines[0].find("pods: skipping an object that cannot be decoded"), std::string::npos)
      << lines[0];
}

}  // namespace
}  // namespace dra::testing
