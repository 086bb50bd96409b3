// What ReflectorOptions derive for the parts of a Reflector.
#include <gtest/gtest.h>

#include "src/cache/ListMemoryBudget.h"
#include "src/cache/ReflectorOptions.h"

namespace dra::testing {
namespace {

using namespace std::chrono_literals;

TEST(ReflectorOptionsTest, TheStallTimeoutCoversTheLongerWatchSilenceAndTwoMaximalBackoffs) {
  kube::ReflectorOptions options;
  EXPECT_EQ(options.stall_timeout(), kube::Clock::Duration(180s + 60s + 60s));

  options.watch_progress_timeout = 400s;  // longer than three bookmark intervals
  options.max_backoff = 10s;
  options.stall_margin = 5s;
  EXPECT_EQ(options.stall_timeout(), kube::Clock::Duration(400s + 20s + 5s));

  options.watch_progress_timeout = 10s;  // shorter: the bookmark idle timeout still counts
  EXPECT_EQ(options.stall_timeout(), kube::Clock::Duration(180s + 20s + 5s));
}

TEST(ReflectorOptionsTest, TheBackoffAndTheListerGetTheirShare) {
  kube::ReflectorOptions options;
  options.initial_backoff = 100ms;
  options.max_backoff = 7s;
  options.page_size = 42;
  options.label_selector = "app=gpu";
  options.field_selector = "spec.nodeName=n1";
  options.list_budget = std::make_shared<kube::ListMemoryBudget>();

  kube::BackoffOptions backoff = options.backoff();
  EXPECT_EQ(backoff.initial, 100ms);
  EXPECT_EQ(backoff.max, 7s);
  kube::PagedLister::Options lister = options.lister();
  EXPECT_EQ(lister.page_size, 42);
  EXPECT_EQ(lister.label_selector, "app=gpu");
  EXPECT_EQ(lister.field_selector, "spec.nodeName=n1");
  EXPECT_EQ(lister.budget, options.list_budget);
}

}  // namespace
}  // namespace dra::testing
